/**
 * Which flags each command takes. args.ts parses the union of every command's flags, so a flag
 * that belongs to another command would otherwise be read by nobody and silently ignored
 * (`thicket project info --mode quantum`); the CLI refuses it as a usage error (exit 2) instead.
 */
import { CliError } from './cli-error';

/** Flags every command takes. */
const COMMON = ['json', 'quiet', 'workers', 'help', 'version'] as const;

const MOUNT = ['mount', 'extrinsic', 'extrinsic-inverse'] as const;
const REGION = ['region', 'exclude-body', 'body'] as const;

export const COMMAND_FLAGS: Readonly<Record<string, readonly string[]>> = {
  project: ['project'],
  import: ['project', 'format', 'name', 'profile', 'calibration', 'model', 'poses', 'no-misses', 'scans', ...MOUNT],
  log: ['project', 'log', 'at'],
  noise: ['project', 'log', 'method', 'test-fraction', 'seed', 'name'],
  annotation: ['project', 'log', 'format', 'class-map', 'class-map-name', 'calibration', 'label-version', 'versions', 'out', 'force', 'min-height'],
  bench: ['project', 'only', 'seconds', 'profile', 'megabytes', 'packets', 'points', 'small', 'seed', 'triangles', 'rays'],
  profile: ['project', 'id', 'name', 'model'],
  scene: ['project', 'kind', 'seed', 'param', 'name', 'annotation', 'library', 'mode', 'ground-model', 'ground-z', 'from-models'],
  simulate: [
    'project', 'scene', 'model', 'neighbour-log', 'rays-from', 'profile', 'mode', 'seed', 'seconds', 'trail', 'speed', 'start', 'heading',
    'poses-from', 'batch-packets', 'range-sampler', 'range-noise', 'neighbour-radius', 'neighbour-leave-out', 'name', ...MOUNT,
  ],
  validate: ['seed', 'samples', 'profile'],
  demo: ['project', 'seed', 'small', 'no-experiment', 'risk-samples'],
  export: ['project', 'run', 'log', 'format', 'out', 'force', 'las-version', 'mcap-messages'],
  study: ['project', 'scene', 'profiles', 'mounts', 'seconds', 'loop', 'mode', 'seed', 'start', 'goal', 'report', 'name'],
  fit: ['project', 'log', 'seed', 'param', 'name', 'tune', 'tune-params', 'tune-seconds', 'tune-start', 'tune-evaluations'],
  evaluate: ['project', 'real', 'sim', 'param', 'range-bin', 'pairing', ...REGION],
  primitives: ['project', 'model', 'annotation', 'auto', 'patch-cell', 'seed', 'variants'],
  experiment: ['project', 'train', 'test', 'profile', 'seed', 'fit-param', 'param', 'risk-samples', ...REGION],
  risk: ['project', 'real', 'sim', 'application', 'samples', 'seed', 'max-pairs'],
};

/** Throws a usage error (exit 2) naming the first flag given that `command` does not take. */
export function checkCommandFlags(command: string, given: Readonly<Record<string, unknown>>): void {
  const allowed = COMMAND_FLAGS[command];
  if (!allowed) return;
  for (const [flag, value] of Object.entries(given)) {
    // parseArgs fills boolean defaults (false): only flags the user wrote count.
    if (value === undefined || value === false || (COMMON as readonly string[]).includes(flag) || allowed.includes(flag)) continue;
    throw new CliError(`${command}: unknown option --${flag} (${command} takes ${allowed.map((f) => `--${f}`).join(', ')})\nRun \`thicket --help\` for usage.`, 2);
  }
}
