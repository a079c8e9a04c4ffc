import { parseArgs } from 'node:util';
import { CliError } from './cli-error';

/** Every flag any command takes; each command reads the ones it needs and validates them. */
const OPTIONS = {
  project: { type: 'string' },
  json: { type: 'boolean', default: false },
  quiet: { type: 'boolean', default: false },
  workers: { type: 'string' },
  format: { type: 'string' },
  name: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'v', default: false },
  // scenes and simulation
  kind: { type: 'string' },
  seed: { type: 'string' },
  param: { type: 'string', multiple: true },
  scene: { type: 'string' },
  model: { type: 'string' },
  profile: { type: 'string' },
  mode: { type: 'string' },
  seconds: { type: 'string' },
  speed: { type: 'string' },
  start: { type: 'string' },
  heading: { type: 'string' },
  'poses-from': { type: 'string' },
  trail: { type: 'boolean', default: false },
  'batch-packets': { type: 'string' },
  'range-sampler': { type: 'string' },
  // the baselines (004 §4.3.2): the neighbour simulator's log and d⊥, the mesh baseline's σ
  'neighbour-log': { type: 'string' },
  'neighbour-radius': { type: 'string' },
  'neighbour-leave-out': { type: 'string' },
  'range-noise': { type: 'string' },
  // tuning θ before a fit
  tune: { type: 'boolean', default: false },
  'tune-params': { type: 'string' },
  'tune-seconds': { type: 'string' },
  'tune-start': { type: 'string' },
  'tune-evaluations': { type: 'string' },
  // evaluation: a real drive log against a simulation run
  real: { type: 'string' },
  // application-level risk
  application: { type: 'string' },
  'max-pairs': { type: 'string' },
  'risk-samples': { type: 'string' },
  // experiment: the training and the test log
  train: { type: 'string' },
  'fit-param': { type: 'string', multiple: true },
  test: { type: 'string' },
  sim: { type: 'string' },
  // evaluation: what is scored and how rays pair
  region: { type: 'string', multiple: true },
  'exclude-body': { type: 'boolean', default: false },
  body: { type: 'string' },
  'range-bin': { type: 'string' },
  pairing: { type: 'string' },
  // primitives and composed scenes
  annotation: { type: 'string' },
  auto: { type: 'boolean', default: false },
  'patch-cell': { type: 'string' },
  variants: { type: 'string' },
  library: { type: 'string' },
  'ground-model': { type: 'string' },
  'ground-z': { type: 'string' },
  'from-models': { type: 'string' },
  // demo
  small: { type: 'boolean', default: false },
  'no-experiment': { type: 'boolean', default: false },
  // validations and benchmarks
  samples: { type: 'string' },
  triangles: { type: 'string' },
  rays: { type: 'string' },
  only: { type: 'string' },
  megabytes: { type: 'string' },
  packets: { type: 'string' },
  points: { type: 'string' },
  // profiles
  id: { type: 'string' },
  // import and export
  calibration: { type: 'string' },
  poses: { type: 'string' },
  'no-misses': { type: 'boolean', default: false },
  // the sensor on the vehicle (import and simulate): vehicle ← sensor
  mount: { type: 'string' },
  extrinsic: { type: 'string' },
  'extrinsic-inverse': { type: 'boolean', default: false },
  // simulate a log's own rays
  'rays-from': { type: 'string' },
  scans: { type: 'string' },
  // log split: the first scan of the second log
  at: { type: 'string' },
  // noise learn
  method: { type: 'string' },
  'test-fraction': { type: 'string' },
  run: { type: 'string' },
  log: { type: 'string' },
  out: { type: 'string' },
  'las-version': { type: 'string' },
  'mcap-messages': { type: 'string' },
  // export: replace an existing file
  force: { type: 'boolean', default: false },
  // labels of a drive log
  'class-map': { type: 'string' },
  'class-map-name': { type: 'string' },
  'label-version': { type: 'string' },
  versions: { type: 'string' },
  'min-height': { type: 'string' },
  // sensor studies
  profiles: { type: 'string' },
  mounts: { type: 'string' },
  report: { type: 'string' },
  goal: { type: 'string' },
  loop: { type: 'string' },
} as const;

/** Every flag's name (command-flags.ts says which command takes which). */
export const FLAG_NAMES: readonly string[] = Object.keys(OPTIONS);

type Values = { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K] extends { multiple: true } ? string[] : (typeof OPTIONS)[K] extends { type: 'boolean' } ? boolean : string };

export interface CommonArgs {
  positionals: string[];
  values: Values;
  project?: string;
  json: boolean;
  quiet: boolean;
  workers?: number;
  format?: string;
  name?: string;
  help: boolean;
  version: boolean;
}

export function parseCli(argv: string[]): CommonArgs {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: OPTIONS });
  } catch (e) {
    throw new CliError(`${(e as Error).message}\nRun \`thicket --help\` for usage.`, 2);
  }
  const v = parsed.values as Values;
  const workers = v.workers === undefined ? undefined : intFlag(v, 'workers', 1, 256);
  return {
    positionals: parsed.positionals,
    values: v,
    project: v.project,
    json: v.json ?? false,
    quiet: v.quiet ?? false,
    workers,
    format: v.format,
    name: v.name,
    help: v.help ?? false,
    version: v.version ?? false,
  };
}

export function requireProject(args: CommonArgs): string {
  if (!args.project) throw new CliError('--project FILE is required (a .thicket project file)', 2);
  return args.project;
}

/** A numeric flag, or undefined when absent; a usage error naming the flag when malformed. */
export function numberFlag(v: Values, name: keyof Values, min = -Infinity, max = Infinity): number | undefined {
  const raw = v[name];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (typeof raw !== 'string' || raw.trim() === '' || !Number.isFinite(n) || n < min || n > max) {
    throw new CliError(`--${name}: expected a number${Number.isFinite(min) ? ` ≥ ${min}` : ''}${Number.isFinite(max) ? ` and ≤ ${max}` : ''}, got "${String(raw)}"`, 2);
  }
  return n;
}

export function intFlag(v: Values, name: keyof Values, min = 0, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const n = numberFlag(v, name, min, max);
  if (n !== undefined && !Number.isInteger(n)) throw new CliError(`--${name}: expected a whole number, got "${String(v[name])}"`, 2);
  return n;
}

/** "x,y,z" → [x, y, z]. */
export function vec3Flag(v: Values, name: keyof Values): [number, number, number] | undefined {
  const raw = v[name];
  if (raw === undefined) return undefined;
  const parts = String(raw).split(',').map((p) => Number(p.trim()));
  if (parts.length !== 3 || parts.some((p) => !Number.isFinite(p))) throw new CliError(`--${name}: expected x,y,z in metres, got "${String(raw)}"`, 2);
  return parts as [number, number, number];
}

/**
 * Repeated --param key=value → {key: number}. `check` throws on an unknown key or a value out of
 * range; that is a usage error (exit 2) naming the flag, before any work starts.
 */
export function paramFlags(v: Values, flag: 'param' | 'fit-param' = 'param', check?: (params: Record<string, number>) => unknown): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of v[flag] ?? []) {
    const m = /^([A-Za-z][A-Za-z0-9]*)=(.+)$/.exec(p);
    const n = m ? Number(m[2]) : NaN;
    if (!m || !Number.isFinite(n)) throw new CliError(`--${flag}: expected key=number, got "${p}"`, 2);
    out[m[1]!] = n;
  }
  if (check) {
    try {
      check(out);
    } catch (e) {
      throw new CliError(`--${flag}: ${(e as Error).message}`, 2);
    }
  }
  return out;
}
