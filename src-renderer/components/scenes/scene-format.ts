/**
 * Pure helpers of the Scenes page and the run view (no Vue, no DOM; unit-tested):
 * the generator's kind-specific parameters, the requests the two forms send, and the
 * display of scene metadata, trajectories and hit ratios.
 */
import { SCENE_KINDS, SCENE_SIMULATION_MODES, type SceneKind, type SceneSimulationMode, type SimulationMode } from '../../../src-common/modes';
import type { ProfileSummary, Request, RunInfo } from '../../../src-main/api/contract';
import { formatCompact, formatCount, formatDuration, formatMetres, formatYesNo } from '../../format';
import { finite, finiteOrNull as num, type Checked } from '../../form-check';
import type { Legend } from '../../viewport/cloud-colors';
import { SITE_CLASS_NAMES } from '../../../src-common/classes';
import { GENERATED_TRAIL_SENSOR_HEIGHT_M } from '../../../src-common/scene-meta';
import { defaultPlacement, placementFields, type PlacementForm } from './simulate-placement';
import { defaultSource, sourceFields, sourceMode, type SourceFields, type SourceForm, type TrajectoryKind } from './simulate-source';

export type { TrajectoryKind } from './simulate-source';

// ---------- scene generation ----------

export interface ParamSpec {
  key: string;
  label: string;
  unit: string;
  default: number;
  min: number;
  max: number;
  step: number;
  hint: string;
  /** An on/off switch sent as 1 when on and left out when off (the generator wants positive values). */
  toggle?: boolean;
}

export interface SceneKindSpec {
  kind: SceneKind;
  label: string;
  description: string;
  params: ParamSpec[];
}

export const SCENE_KIND_SPECS: Record<SceneKind, SceneKindSpec> = {
  offroad: {
    kind: 'offroad',
    label: 'Off-road terrain',
    description: 'Procedural terrain (x, y in [0, size]) with a trail along +x, trees, shrubs, grass and rocks, as in the benchmark.',
    params: [
      { key: 'sizeM', label: 'Size', unit: 'm', default: 120, min: 10, max: 2000, step: 10, hint: 'Side of the square area' },
      { key: 'targetTriangles', label: 'Target triangles', unit: '', default: 1_500_000, min: 10_000, max: 50_000_000, step: 100_000, hint: 'Approximate mesh budget; smaller builds faster' },
    ],
  },
  'hybrid-strip': {
    kind: 'hybrid-strip',
    label: 'Hybrid strip',
    description: 'A strip along +x composed of hybrid primitives: ground triangles with pass-through, vegetation as ellipsoid sets.',
    params: [
      { key: 'lengthM', label: 'Length', unit: 'm', default: 200, min: 10, max: 5000, step: 10, hint: 'Length of the strip along +x' },
      { key: 'widthM', label: 'Width', unit: 'm', default: 60, min: 5, max: 1000, step: 5, hint: 'Width across the strip (y)' },
      { key: 'mesh', label: 'As meshes', unit: '', default: 0, min: 0, max: 1, step: 1, toggle: true, hint: 'The same strip as opaque meshes, for the physics and mesh modes' },
    ],
  },
  'cylinder-stand': {
    kind: 'cylinder-stand',
    label: 'Cylinder stand',
    description: 'Validation fixture: random thin vertical stems ahead of a sensor at the origin looking along +x.',
    params: [
      { key: 'lambda', label: 'Density λ', unit: 'stems/m²', default: 50, min: 0.1, max: 10_000, step: 5, hint: 'Stems per square metre; round(λ·width·depth) cylinders' },
      { key: 'diameter', label: 'Diameter', unit: 'm', default: 0.01, min: 0.0005, max: 1, step: 0.005, hint: 'Mean silhouette width of a stem' },
      { key: 'distance', label: 'Distance', unit: 'm', default: 20, min: 0.5, max: 500, step: 1, hint: 'From the sensor (origin) to the near edge of the stand, along +x' },
      { key: 'width', label: 'Width', unit: 'm', default: 10, min: 0.1, max: 500, step: 1, hint: 'Across the beam (y)' },
      { key: 'depth', label: 'Depth', unit: 'm', default: 5, min: 0.1, max: 500, step: 1, hint: 'Along the beam (x)' },
    ],
  },
  'rod-bench': {
    kind: 'rod-bench',
    label: 'Rod bench',
    description: 'Validation fixture: 9 vertical rods before a wall, for mixed-pixel returns; sensor at the origin looking along +x.',
    params: [{ key: 'backgroundOffset', label: 'Background offset', unit: 'm', default: 0.6, min: 0.01, max: 50, step: 0.1, hint: 'From the rods (x = 0.8 m) to the wall behind them' }],
  },
};

export const SCENE_KIND_OPTIONS = SCENE_KINDS.map((k) => ({ value: k, label: SCENE_KIND_SPECS[k].label }));

export function defaultParams(kind: SceneKind): Record<string, number> {
  return Object.fromEntries(SCENE_KIND_SPECS[kind].params.map((p) => [p.key, p.default]));
}

/** The generate request: only the kind's own parameters, defaults for missing or non-finite ones. */
export function generateRequest(kind: SceneKind, seed: number, name: string, params: Record<string, number | null | undefined>): Request<'scenes.generate'> {
  const out: Record<string, number> = {};
  for (const p of SCENE_KIND_SPECS[kind].params) {
    const v = params[p.key];
    if (p.toggle) {
      if (v) out[p.key] = 1;
      continue;
    }
    out[p.key] = typeof v === 'number' && Number.isFinite(v) ? v : p.default;
  }
  const req: Request<'scenes.generate'> = { kind, seed: Math.max(0, Math.trunc(seed) || 0), params: out };
  const trimmed = name.trim();
  if (trimmed) req.name = trimmed.slice(0, 255);
  return req;
}

// ---------- simulation ----------

// Scene modes only: the neighbour simulator replays a drive log, not a scene (simulate.start's neighbourLogId).
export const MODE_OPTIONS: { value: SceneSimulationMode; label: string; hint: string }[] = SCENE_SIMULATION_MODES.map((m) => ({
  value: m,
  label: m,
  hint: {
    hybrid: 'Ordered elements with Bernoulli pass-through (meshes + Gaussian vegetation)',
    voxel: 'Voxel Gaussians with permeability, beam sampled in its divergence cone',
    physics: '9-ray beam stencil, Lambertian intensity, return processing',
    mesh: 'One ray on the beam axis, closest surface (the usual simulator baseline)',
  }[m],
}));

/** Modes whose element hits need a range sampler. */
export const usesRangeSampler = (mode: SimulationMode): boolean => mode === 'hybrid' || mode === 'voxel';

export type RangeSampler = 'gaussian-point' | 'along-ray';
export const RANGE_SAMPLER_OPTIONS: { value: RangeSampler; label: string; hint: string }[] = [
  { value: 'along-ray', label: 'along-ray', hint: 'Range from the element’s Gaussian restricted to the ray' },
  { value: 'gaussian-point', label: 'gaussian-point', hint: 'A sample of the element’s N(μ, Σ); the point may leave the ray' },
];

/** The four classic built-ins (offered until the host's full profile list has loaded; ids as in src-common/builtin-profiles.ts). */
export const BUILTIN_PROFILE_IDS = ['lms291-180-1', 'vlp16', 'hdl32e', 'hdl64e'] as const;

type ProfileOptionSource = Pick<ProfileSummary, 'id' | 'name' | 'builtin' | 'lasers' | 'rotationHz'>;
export type ProfileOptionGroup = { type: 'group'; key: string; label: string; children: { value: string; label: string }[] };

/** Profile picker options: built-ins, then the project's own; plain ids before the list loads. */
export function profileOptions(list: readonly ProfileOptionSource[]): ProfileOptionGroup[] {
  const option = (p: ProfileOptionSource) => ({ value: p.id, label: `${p.id} · ${p.name} · ${p.lasers} lasers · ${+p.rotationHz.toFixed(2)} Hz` });
  if (!list.length) return [{ type: 'group', key: 'builtin', label: 'Built-in', children: BUILTIN_PROFILE_IDS.map((id) => ({ value: id, label: id })) }];
  const groups: ProfileOptionGroup[] = [];
  const builtin = list.filter((p) => p.builtin);
  const custom = list.filter((p) => !p.builtin);
  if (builtin.length) groups.push({ type: 'group', key: 'builtin', label: 'Built-in', children: builtin.map(option) });
  if (custom.length) groups.push({ type: 'group', key: 'custom', label: 'This project', children: custom.map(option) });
  return groups;
}

/** What a run of `seconds` fires: "≈ 2 revolutions · 58 k rays". */
export function formatRunEstimate(seconds: number | null, profile: Pick<ProfileSummary, 'rotationHz' | 'raysPerSecond'> | undefined): string {
  if (!profile || seconds === null || !(seconds > 0)) return '';
  const revs = seconds * profile.rotationHz;
  const r = revs >= 10 ? Math.round(revs) : +revs.toFixed(1);
  return `≈ ${r} revolution${r === 1 ? '' : 's'} · ${formatCompact(seconds * profile.raysPerSecond)} rays`;
}

/** Whether a scene carries a trail to drive along (the off-road and hybrid-strip generators add one). */
export function hasTrail(meta: Record<string, unknown> | undefined): boolean {
  return Array.isArray(meta?.trail) && meta.trail.length >= 2;
}

/** The Simulate form: its source (scene, fitted model or neighbour replay), sensor, trajectory and placement. */
export interface SimulateForm extends PlacementForm, SourceForm {
  profileId: string | null;
  /** The engine's mode for a scene or a model (the neighbour source is its own mode). */
  mode: SceneSimulationMode;
  seed: number | null;
  name: string;
  trajectoryKind: TrajectoryKind;
  seconds: number | null;
  /** Static position or straight-line start (vehicle frame origin in the world). */
  position: [number | null, number | null, number | null];
  headingDeg: number | null;
  speed: number | null;
  logId: number | null;
  /** Log trajectory: only the first seconds (null: the whole log). */
  logSeconds: number | null;
  rangeSampler: RangeSampler;
}

export function defaultSimulateForm(): SimulateForm {
  return {
    ...defaultSource(),
    profileId: 'vlp16',
    mode: 'hybrid',
    seed: 1,
    name: '',
    trajectoryKind: 'static',
    seconds: 1,
    position: [0, 0, 0],
    headingDeg: 0,
    speed: 2.4,
    logId: null,
    logSeconds: null,
    rangeSampler: 'along-ray',
    ...defaultPlacement(),
  };
}

/** The simulate request for a filled form, or why it cannot be sent yet. */
export function simulateRequest(f: SimulateForm): Checked<Request<'simulate.start'>> {
  const source = sourceFields(f);
  if (!source.ok) return source;
  if (f.trajectoryKind === 'rays') return raysRequest(f, source.value);
  if (f.trajectoryKind === 'trail' && f.source === 'neighbour') return { ok: false, reason: 'The neighbour simulator has no trail: choose Drive log' };
  if (!f.profileId) return { ok: false, reason: 'Choose a sensor profile' };
  let trajectory: Request<'simulate.start'>['trajectory'];
  if (f.trajectoryKind === 'trail') {
    if (!finite(f.speed) || f.speed <= 0 || f.speed > 60) return { ok: false, reason: 'Speed is above 0, at most 60 m/s' };
    if (f.seconds !== null && !(f.seconds > 0 && f.seconds <= 3600)) return { ok: false, reason: 'Seconds must be positive' };
    trajectory = f.seconds === null ? { kind: 'trail', speed: f.speed } : { kind: 'trail', speed: f.speed, seconds: f.seconds };
  } else if (f.trajectoryKind === 'log') {
    if (f.logId === null) return { ok: false, reason: 'Choose a drive log' };
    if (f.logSeconds !== null && !(f.logSeconds > 0)) return { ok: false, reason: 'Seconds must be positive' };
    trajectory = f.logSeconds === null ? { kind: 'log', logId: f.logId } : { kind: 'log', logId: f.logId, seconds: f.logSeconds };
  } else {
    if (!finite(f.seconds) || f.seconds <= 0) return { ok: false, reason: 'Seconds must be positive' };
    if (f.seconds > 3600) return { ok: false, reason: 'At most 3600 seconds' };
    if (!f.position.every(finite)) return { ok: false, reason: 'Enter x, y and z' };
    const p = f.position as [number, number, number];
    const headingDeg = finite(f.headingDeg) ? f.headingDeg : 0;
    if (f.trajectoryKind === 'static') trajectory = { kind: 'static', seconds: f.seconds, position: [p[0], p[1], p[2]], headingDeg };
    else {
      if (!finite(f.speed) || f.speed < 0 || f.speed > 60) return { ok: false, reason: 'Speed is 0 to 60 m/s' };
      trajectory = { kind: 'straight', seconds: f.seconds, start: [p[0], p[1], p[2]], headingDeg, speed: f.speed };
    }
  }
  const placement = placementFields(f);
  if (!placement.ok) return placement;
  const value: Request<'simulate.start'> = {
    ...source.value,
    profileId: f.profileId,
    mode: sourceMode(f.source, f.mode),
    seed: finite(f.seed) ? Math.max(0, Math.trunc(f.seed)) : 1,
    trajectory,
    ...placement.value,
  };
  return { ok: true, value: withCommon(value, f) };
}

/** A log's own rays (from any source): no trajectory and no mount; the log's profile unless one is chosen. */
function raysRequest(f: SimulateForm, source: SourceFields): Checked<Request<'simulate.start'>> {
  if (f.logId === null) return { ok: false, reason: 'Choose a drive log' };
  const value: Request<'simulate.start'> = {
    ...source,
    ...(f.profileId ? { profileId: f.profileId } : {}),
    mode: sourceMode(f.source, f.mode),
    seed: finite(f.seed) ? Math.max(0, Math.trunc(f.seed)) : 1,
    raysFromLogId: f.logId,
  };
  return { ok: true, value: withCommon(value, f) };
}

function withCommon(value: Request<'simulate.start'>, f: SimulateForm): Request<'simulate.start'> {
  if (f.source !== 'neighbour' && usesRangeSampler(f.mode)) value.rangeSampler = f.rangeSampler;
  const name = f.name.trim();
  if (name) value.name = name.slice(0, 255);
  return value;
}

// ---------- display ----------

/** "(1.5, -2, 0)" with at most 2 decimals. */
export function formatPoint(p: unknown): string {
  if (!Array.isArray(p) || p.length < 3 || !p.slice(0, 3).every((v) => num(v) !== null)) return '—';
  return `(${(p.slice(0, 3) as number[]).map((v) => String(+v.toFixed(2))).join(', ')})`;
}

const heading = (deg: unknown) => `heading ${+(num(deg) ?? 0).toFixed(1)}°`;

/** A run's trajectory in one line; `logName` resolves a drive log id to its name. */
export function formatTrajectory(t: Record<string, unknown> | null | undefined, logName?: (id: number) => string | undefined, params?: Record<string, unknown>): string {
  const rays = num(params?.raysFromLogId);
  if (rays !== null) {
    const name = logName?.(rays);
    return `The rays of drive log ${name ? `“${name}”` : `#${rays}`}`;
  }
  if (!t || typeof t !== 'object') return '—';
  const seconds = num(t.seconds);
  if (t.kind === 'static') return `Static ${seconds !== null ? formatDuration(seconds) : ''} at ${formatPoint(t.position)}, ${heading(t.headingDeg)}`;
  if (t.kind === 'straight') {
    const speed = num(t.speed) ?? 0;
    return `Straight ${+speed.toFixed(2)} m/s for ${seconds !== null ? formatDuration(seconds) : '—'} from ${formatPoint(t.start)}, ${heading(t.headingDeg)}`;
  }
  if (t.kind === 'trail') return `Along the scene's trail at ${+(num(t.speed) ?? 0).toFixed(2)} m/s${seconds !== null ? ` for ${formatDuration(seconds)}` : ''}`;
  if (t.kind === 'log') {
    const id = num(t.logId);
    const name = id !== null ? logName?.(id) : undefined;
    const which = name ? `“${name}”` : `#${id ?? '?'}`;
    return `Drive log ${which}${seconds !== null ? `, first ${formatDuration(seconds)}` : ''}`;
  }
  return String(t.kind ?? '—');
}

/** Share of `part` in `part + other` as "87.3 %" (empty when both are 0). */
export function formatShare(part: number, other: number): string {
  const total = part + other;
  return total > 0 ? `${((100 * part) / total).toFixed(1)} %` : '';
}

/** "12,345 (87.3 %)". */
export function countWithShare(part: number, other: number): string {
  const share = formatShare(part, other);
  return share ? `${formatCount(part)} (${share})` : formatCount(part);
}

/** The profile's display name stored with the run (params.profile.name), else its id. */
export function runProfileLabel(run: Pick<RunInfo, 'profileId' | 'params'>): string {
  const profile = run.params?.profile as { name?: unknown } | undefined;
  const name = typeof profile?.name === 'string' ? profile.name : '';
  return name && name !== run.profileId ? `${name} (${run.profileId})` : run.profileId;
}

/** camelCase / snake_case key → "camel case". */
export function humanizeKey(key: string): string {
  return key
    .replace(/_/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .trim();
}

/** Scene bounds in the shapes the host may store: {min, max} or six numbers (min xyz, max xyz). */
export function sceneBounds(b: unknown): { min: [number, number, number]; max: [number, number, number] } | null {
  if (b && typeof b === 'object' && !Array.isArray(b) && 'min' in b && 'max' in b) {
    const { min, max } = b as { min: unknown; max: unknown };
    if (Array.isArray(min) && Array.isArray(max) && min.length >= 3 && max.length >= 3 && [...min.slice(0, 3), ...max.slice(0, 3)].every((v) => num(v) !== null)) {
      return { min: min.slice(0, 3) as [number, number, number], max: max.slice(0, 3) as [number, number, number] };
    }
    return null;
  }
  const arr = Array.isArray(b) ? b : b && typeof b === 'object' ? Object.values(b as object) : null;
  if (arr && arr.length === 6 && arr.every((v) => num(v) !== null)) {
    const a = arr as number[];
    return { min: [a[0]!, a[1]!, a[2]!], max: [a[3]!, a[4]!, a[5]!] };
  }
  return null;
}

/** "120 × 120 × 14.2 m" (x × y × z). */
export function formatExtent(b: unknown): string {
  const bb = sceneBounds(b);
  if (!bb) return '—';
  const d = [0, 1, 2].map((i) => bb.max[i]! - bb.min[i]!);
  if (d.some((v) => v < 0)) return '—';
  const fmt = (v: number) => String(+v.toFixed(v >= 100 ? 0 : v >= 1 ? 1 : 2));
  return `${d.map(fmt).join(' × ')} m`;
}

/** Keys of scene meta shown elsewhere (table columns, the kind's parameter list; an authored scene's terrain as its `ground` line). */
const META_SKIP = new Set(['kind', 'seed', 'params', 'name', 'bounds', 'terrain']);

function formatMetaNumber(key: string, v: number): string {
  if (/Bytes$/.test(key)) return v >= 1024 ** 2 ? `${(v / 1024 ** 2).toFixed(1)} MiB` : `${(v / 1024).toFixed(1)} KiB`;
  if (/Ms$/.test(key)) return formatDuration(v / 1000);
  if (/[a-z0-9]M$/.test(key)) return formatMetres(v);
  if (Number.isInteger(v)) return formatCount(v);
  return String(+v.toPrecision(4));
}

/** Label of a meta key: "buildMs" → "build time", "memoryBytes" → "memory", else humanized. */
function metaLabel(key: string): string {
  if (/Ms$/.test(key)) return `${humanizeKey(key.slice(0, -2))} time`;
  if (/Bytes$/.test(key)) return humanizeKey(key.slice(0, -5));
  if (/[a-z0-9]M$/.test(key)) return humanizeKey(key.slice(0, -1)); // "lengthM" → "length": the value carries its "m"
  return humanizeKey(key);
}

/** A meta value as words: numbers by their key's unit, booleans as Yes / No. */
function formatMetaValue(key: string, v: number | string | boolean): string {
  if (typeof v === 'boolean') return formatYesNo(v);
  return typeof v === 'number' ? formatMetaNumber(key, v) : v;
}

/** Kind-specific parameter with its label and unit (falls back to the humanized key). */
export function formatParam(kind: unknown, key: string, v: unknown): [string, string] {
  const spec = SCENE_KIND_SPECS[kind as SceneKind]?.params.find((p) => p.key === key);
  const n = num(v);
  const value =
    typeof v === 'boolean' ? formatYesNo(v) : n === null ? String(v) : spec?.toggle ? formatYesNo(n !== 0) : spec?.unit === 'm' ? formatMetres(n) : spec?.unit ? `${+n.toPrecision(6)} ${spec.unit}` : formatMetaNumber(key, n);
  const label = spec?.label ?? metaLabel(key);
  return [label.charAt(0).toUpperCase() + label.slice(1), value];
}

/**
 * The scalar facts of a scene's meta: top-level numbers, strings and booleans, and those one
 * level down in plain objects (e.g. `counts: {trees, shrubs}`); arrays (trail poses) are skipped.
 */
function metaScalars(meta: Record<string, unknown>): [key: string, value: number | string | boolean, nested: boolean][] {
  const out: [string, number | string | boolean, boolean][] = [];
  const scalar = (v: unknown): v is number | string | boolean => num(v) !== null || typeof v === 'string' || typeof v === 'boolean';
  for (const [k, v] of Object.entries(meta)) {
    if (META_SKIP.has(k)) continue;
    if (scalar(v)) out.push([k, v, false]);
    else if (v && typeof v === 'object' && !Array.isArray(v) && !ArrayBuffer.isView(v)) {
      for (const [k2, v2] of Object.entries(v as Record<string, unknown>)) if (scalar(v2)) out.push([k2, v2, true]);
    }
  }
  return out;
}

/** Every fact in a scene's meta as label/value rows, whatever the generator put there. */
export function sceneFacts(meta: Record<string, unknown>): [string, string][] {
  const rows: [string, string][] = [];
  if (typeof meta.kind === 'string') rows.push(['Kind', SCENE_KIND_SPECS[meta.kind as SceneKind]?.label ?? meta.kind]);
  if (num(meta.seed) !== null) rows.push(['Seed', String(meta.seed)]);
  const params = meta.params && typeof meta.params === 'object' ? (meta.params as Record<string, unknown>) : {};
  for (const [k, v] of Object.entries(params)) rows.push(formatParam(meta.kind, k, v));
  for (const [k, v] of metaScalars(meta)) {
    const label = metaLabel(k);
    const cap = label.charAt(0).toUpperCase() + label.slice(1);
    rows.push([cap, formatMetaValue(k, v)]);
  }
  if (sceneBounds(meta.bounds)) rows.push(['Extent', formatExtent(meta.bounds)]);
  return rows;
}

/** "trees" → "tree" for a count of one (the nouns below are regular). */
const singular = (noun: string) => noun.replace(/s$/, '');

/** The nouns a scene is counted in, in the order the table shows them. */
const HEADLINE_NOUNS = ['triangles', 'elements', 'ellipsoids', 'voxels', 'stems', 'rods', 'trees', 'instances', 'objects', 'primitives'];

/**
 * Up to `max` counts for a table cell ("1.5 M triangles · 12 trees · 240 instances"): numeric
 * meta keys (also one level down) that end in a known noun (triangleCount, instancedTriangles,
 * trees…); placed ("instanced") and plain counts win over unique ones, one entry per noun, none zero.
 */
export function sceneHeadline(meta: Record<string, unknown>, max = 3): string {
  const found = new Map<string, { value: number; rank: number }>();
  for (const [key, v, nested] of metaScalars(meta)) {
    const n = num(v);
    if (n === null || n === 0) continue; // nothing of a kind is not news
    const words = humanizeKey(key).split(' ');
    let noun = words[words.length - 1]!;
    if (noun === 'count' && words.length > 1) noun = words[words.length - 2]!;
    if (!noun.endsWith('s')) noun += 's';
    if (!HEADLINE_NOUNS.includes(noun)) continue;
    // Prefer the plain and placed ("instanced…") totals over parts ("terrainTriangles") and
    // "unique…" counts, and top-level facts over nested ones.
    const rank = (words.length === 1 || words[0] === 'instanced' ? 0 : words[0] === 'unique' ? 2 : 1) + (nested ? 0.5 : 0);
    const prev = found.get(noun);
    if (!prev || rank < prev.rank) found.set(noun, { value: n, rank });
  }
  return HEADLINE_NOUNS.filter((noun) => found.has(noun))
    .slice(0, max)
    .map((noun) => `${formatCompact(found.get(noun)!.value)} ${found.get(noun)!.value === 1 ? singular(noun) : noun}`)
    .join(' · ');
}

// ---------- where to put the vehicle ----------


export interface SuggestedStart {
  position: [number, number, number];
  headingDeg: number;
  why: string;
}

/** [tx, ty, tz, qx, qy, qz, qw] or null. */
function pose7(v: unknown): number[] | null {
  return Array.isArray(v) && v.length === 7 && v.every((x) => num(x) !== null) ? (v as number[]) : null;
}

const round = (v: number, digits: number) => +v.toFixed(digits) || 0; // || 0: no "-0"

/**
 * A sensible vehicle pose for a scene: on the ground at the start of the trail, heading along it
 * (off-road, hybrid strip), or with the sensor at the origin looking along +x (the validation
 * fixtures; `mountZ` is the profile's mount height, unknown: no suggestion).
 */
export function suggestedStart(meta: Record<string, unknown>, mountZ: number | null): SuggestedStart | null {
  const trail = Array.isArray(meta.trail) ? pose7(meta.trail[0]) : pose7(meta.trailStart);
  if (trail) {
    const [x, y, z, , , qz, qw] = trail as [number, number, number, number, number, number, number];
    const yaw = (2 * Math.atan2(qz, qw) * 180) / Math.PI;
    return { position: [round(x, 2), round(y, 2), round(z - GENERATED_TRAIL_SENSOR_HEIGHT_M, 2)], headingDeg: round(yaw, 1), why: 'on the ground at the start of the trail, heading along it' };
  }
  if ((meta.kind === 'cylinder-stand' || meta.kind === 'rod-bench') && mountZ !== null && Number.isFinite(mountZ)) {
    return { position: [0, 0, round(-mountZ, 3)], headingDeg: 0, why: 'the sensor at the origin looking along +x (the vehicle one mount height below)' };
  }
  return null;
}

// ---------- ground truth ----------


/** A class legend with the ground-truth names (other legends unchanged). */
export function withGroundTruthNames(legend: Legend): Legend {
  if (legend.kind !== 'classes') return legend;
  return { ...legend, label: 'Ground-truth class', entries: legend.entries.map((e) => ({ ...e, name: (SITE_CLASS_NAMES as Record<number, string>)[e.id] ?? e.name })) };
}
