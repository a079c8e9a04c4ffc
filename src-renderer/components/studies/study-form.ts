/**
 * The "New study" form as plain data (pure; unit-tested): its defaults (the service's own, from
 * StudyDefinition), the sensors with their mounts, an optional mount sweep crossed like the CLI's
 * `--mounts {"height": [..], "pitchDeg": [..]}` (fields in height, pitch, yaw, x, y order, each
 * profile with every mount), the request it sends or the reason it cannot yet, and where the
 * service will put start and goal when they are left empty (src-common/study-defaults.ts, as the service does, so the
 * placeholders tell the truth).
 */
import { StudyDefinition, StudyMount, type Request } from '../../../src-main/api/contract';
import type { StudyLoop } from '../../../src-common/modes';
import { sceneBounds } from '../scenes/scene-format';
import { finite, type Checked } from '../../form-check';
import { MOUNT_FIELDS, MOUNT_KEYS, type MountKey } from './study-format';
import { defaultStudyEnds } from '../../../src-common/study-defaults';
import { sceneTrail } from '../../../src-common/scene-meta';
import { RAD_TO_DEG } from '../../../src-common/units';

export type MountValues = Record<MountKey, number>;

export interface SensorForm {
  profileId: string;
  /** null while a field is being typed (NInputNumber's empty value). */
  mount: Record<MountKey, number | null>;
}

export interface SweepAxis {
  on: boolean;
  from: number | null;
  to: number | null;
  step: number | null;
}

export interface StudyForm {
  name: string;
  sceneId: number | null;
  loop: StudyLoop;
  simulation: 'physics' | 'hybrid';
  seconds: number | null;
  seed: number | null;
  speed: number | null;
  /** Empty (null) coordinates: the service's default from the scene. */
  start: [number | null, number | null];
  goal: [number | null, number | null];
  headingDeg: number | null;
  sensors: SensorForm[];
  sweepOn: boolean;
  sweep: Record<MountKey, SweepAxis>;
  /** Cost grid and vehicle: null keeps the service's default. */
  hMax: number | null;
  cellM: number | null;
  gridCells: number | null;
  vehicleLength: number | null;
  vehicleWidth: number | null;
  clearance: number | null;
}

/** The service's defaults, read from the schema itself so the form cannot drift from it. */
export const DEFAULTS = StudyDefinition.parse({ sceneId: 1, sensors: [{ profileId: 'x' }] });
export const DEFAULT_MOUNT: MountValues = StudyMount.parse({});

/** Mount limits of the schema (StudyMount). */
export const MOUNT_LIMITS: Record<MountKey, { min: number; max: number; step: number }> = {
  height: { min: 0.2, max: 10, step: 0.1 },
  pitchDeg: { min: -90, max: 90, step: 1 },
  yawDeg: { min: -180, max: 180, step: 5 },
  x: { min: -10, max: 10, step: 0.1 },
  y: { min: -10, max: 10, step: 0.1 },
};

export const MIN_PROFILES = 1;
export const MAX_PROFILES = 4;
/** The schema's limit on sensors × mounts. */
export const MAX_RUNS = 256;

export function defaultStudyForm(): StudyForm {
  return {
    name: '',
    sceneId: null,
    loop: DEFAULTS.loop,
    simulation: DEFAULTS.simulation,
    seconds: DEFAULTS.seconds,
    seed: DEFAULTS.seed,
    speed: DEFAULTS.vehicle.speed,
    start: [null, null],
    goal: [null, null],
    headingDeg: null,
    sensors: [],
    sweepOn: false,
    // The question of Goodin et al. (2018): height 1–3 m × pitch −10…+10°
    sweep: {
      height: { on: true, from: 1, to: 3, step: 0.5 },
      pitchDeg: { on: true, from: -10, to: 10, step: 5 },
      yawDeg: { on: false, from: -30, to: 30, step: 15 },
      x: { on: false, from: 0, to: 1, step: 0.5 },
      y: { on: false, from: -0.5, to: 0.5, step: 0.5 },
    },
    hMax: null,
    cellM: null,
    gridCells: null,
    vehicleLength: null,
    vehicleWidth: null,
    clearance: null,
  };
}

/** The form's sensors for a new profile selection: kept mounts for kept profiles, the default mount for new ones. */
export function withProfiles(sensors: readonly SensorForm[], profileIds: readonly string[]): SensorForm[] {
  return profileIds.map((id) => sensors.find((s) => s.profileId === id) ?? { profileId: id, mount: { ...DEFAULT_MOUNT } });
}


/** from, from + step, … ≤ to (rounded to 1e-6 so 0.1 steps stay clean); a reason when the axis is unusable. */
export function sweepValues(a: SweepAxis): Checked<number[]> {
  if (!finite(a.from) || !finite(a.to)) return { ok: false, reason: 'enter from and to' };
  if (a.to < a.from) return { ok: false, reason: '“to” is below “from”' };
  if (a.to === a.from) return { ok: true, value: [a.from] };
  if (!finite(a.step) || a.step <= 0) return { ok: false, reason: 'the step must be positive' };
  const n = Math.floor((a.to - a.from) / a.step + 1e-9) + 1;
  if (n > MAX_RUNS) return { ok: false, reason: `${n} values: at most ${MAX_RUNS}` };
  return { ok: true, value: Array.from({ length: n }, (_, i) => Math.round((a.from! + i * a.step!) * 1e6) / 1e6) };
}

/**
 * Each sensor's mounts: its own, or with a sweep every combination of the swept fields' values
 * (height varying slowest); a reason when a value is missing or outside the schema's limits.
 */
export function sensorMounts(f: StudyForm, s: SensorForm): Checked<MountValues[]> {
  const base = { ...DEFAULT_MOUNT };
  for (const k of MOUNT_KEYS) {
    if (f.sweepOn && f.sweep[k].on) continue;
    const v = s.mount[k], lim = MOUNT_LIMITS[k];
    if (!finite(v) || v < lim.min || v > lim.max) return { ok: false, reason: `${s.profileId}: ${MOUNT_FIELDS[k].label.toLowerCase()} is ${lim.min} to ${lim.max} ${MOUNT_FIELDS[k].unit}` };
    base[k] = v;
  }
  let list: MountValues[] = [base];
  if (!f.sweepOn) return { ok: true, value: list };
  for (const k of MOUNT_KEYS) {
    const axis = f.sweep[k];
    if (!axis.on) continue;
    const values = sweepValues(axis);
    if (!values.ok) return { ok: false, reason: `Sweep ${MOUNT_FIELDS[k].label.toLowerCase()}: ${values.reason}` };
    const lim = MOUNT_LIMITS[k];
    const bad = values.value.find((v) => v < lim.min || v > lim.max);
    if (bad !== undefined) return { ok: false, reason: `Sweep ${MOUNT_FIELDS[k].label.toLowerCase()}: ${bad} is outside ${lim.min} … ${lim.max} ${MOUNT_FIELDS[k].unit}` };
    list = list.flatMap((m) => values.value.map((v) => ({ ...m, [k]: v })));
  }
  return { ok: true, value: list };
}

/** Sweep values of every swept field (for the form's summary); null for an unusable axis. */
export function sweepSummary(f: StudyForm): { key: MountKey; values: number[] | null }[] {
  return MOUNT_KEYS.filter((k) => f.sweep[k].on).map((key) => {
    const v = sweepValues(f.sweep[key]);
    return { key, values: v.ok ? v.value : null };
  });
}

/** Runs the form would start (sensors × mounts); 0 when a sweep axis is unusable. */
export function runCount(f: StudyForm): number {
  let n = 0;
  for (const s of f.sensors) {
    const m = sensorMounts(f, s);
    if (!m.ok) return 0;
    n += m.value.length;
  }
  return n;
}

function optionalXY(p: [number | null, number | null], what: string): Checked<[number, number] | undefined> {
  if (p[0] === null && p[1] === null) return { ok: true, value: undefined };
  if (!finite(p[0]) || !finite(p[1])) return { ok: false, reason: `Enter both x and y of the ${what}, or neither (the scene's default)` };
  return { ok: true, value: [p[0], p[1]] };
}

/** The study.start request for a filled form, or why it cannot be sent yet. */
export function studyRequest(f: StudyForm): Checked<Request<'study.start'>> {
  if (f.sceneId === null) return { ok: false, reason: 'Choose a scene' };
  if (f.sensors.length < MIN_PROFILES) return { ok: false, reason: 'Choose the sensors to compare (2 to 4 profiles)' };
  if (f.sensors.length > MAX_PROFILES) return { ok: false, reason: `At most ${MAX_PROFILES} profiles: the page shows 4 panels side by side` };
  if (!finite(f.seconds) || f.seconds <= 0 || f.seconds > 3600) return { ok: false, reason: 'Duration: above 0, at most 3600 s' };
  if (!finite(f.speed) || f.speed <= 0 || f.speed > 2) return { ok: false, reason: 'Speed: above 0, at most 2 m/s' };
  const sensors: { profileId: string; mount: MountValues }[] = [];
  for (const s of f.sensors) {
    const mounts = sensorMounts(f, s);
    if (!mounts.ok) return mounts;
    for (const m of mounts.value) sensors.push({ profileId: s.profileId, mount: m });
  }
  if (sensors.length < 2) return { ok: false, reason: 'Compare at least 2 runs: choose a second profile, or sweep the mount' };
  if (sensors.length > MAX_RUNS) return { ok: false, reason: `${sensors.length} runs: at most ${MAX_RUNS} (narrow the sweep)` };
  const start = optionalXY(f.start, 'start');
  if (!start.ok) return start;
  const goal = optionalXY(f.goal, 'goal');
  if (!goal.ok) return goal;

  const vehicle: Record<string, unknown> = { speed: f.speed };
  if (start.value) vehicle.start = start.value;
  if (goal.value) vehicle.goal = goal.value;
  if (finite(f.headingDeg)) vehicle.startHeadingDeg = f.headingDeg;
  if (finite(f.vehicleLength)) vehicle.length = f.vehicleLength;
  if (finite(f.vehicleWidth)) vehicle.width = f.vehicleWidth;
  if (finite(f.clearance)) vehicle.clearance = f.clearance;
  const grid: Record<string, unknown> = {};
  if (finite(f.hMax)) grid.hMax = f.hMax;
  if (finite(f.cellM)) grid.cellM = f.cellM;
  if (finite(f.gridCells)) grid.width = grid.height = Math.round(f.gridCells);
  const definition = {
    ...(f.name.trim() ? { name: f.name.trim().slice(0, 255) } : {}),
    sceneId: f.sceneId,
    loop: f.loop,
    simulation: f.simulation,
    seconds: f.seconds,
    seed: finite(f.seed) ? Math.max(0, Math.trunc(f.seed)) : DEFAULTS.seed,
    vehicle,
    sensors,
    ...(Object.keys(grid).length ? { grid } : {}),
  };
  // The schema has the last word (limits of the advanced fields); its first complaint is the reason.
  const parsed = StudyDefinition.safeParse(definition);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, reason: `${issue.path.join('.')}: ${issue.message}` };
  }
  return { ok: true, value: { definition: definition as Request<'study.start'>['definition'] } };
}

// ---------- where the service puts start and goal (src-common/study-defaults.ts) ----------

export interface DefaultLayout {
  start: [number, number];
  goal: [number, number];
  headingDeg: number;
  /** Where they come from, for the form's hint. */
  from: 'trail' | 'bounds';
}

/** Start, goal and heading the service derives from a scene when the form leaves them empty. */
export function defaultLayout(meta: Record<string, unknown>): DefaultLayout {
  const bb = sceneBounds(meta.bounds);
  const e = defaultStudyEnds(sceneTrail(meta), bb ? [...bb.min, ...bb.max] : null);
  return { start: e.start, goal: e.goal, headingDeg: e.heading * RAD_TO_DEG, from: e.from };
}
