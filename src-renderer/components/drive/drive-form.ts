/**
 * The live drive's settings as plain data (pure; unit-tested): one to four sensors with their
 * mounts, the engine's mode, the time limit, the vehicle's speed, the seed, start and goal (empty:
 * the scene's defaults, as a study takes them), and the request `drive.start` is sent — or why it
 * cannot be yet. A drive is a closed-loop study, so the schema is StudyDefinition's.
 */
import { StudyDefinition, type Request } from '../../../src-main/api/contract';
import { finite, type Checked } from '../../form-check';
import { DEFAULTS, DEFAULT_MOUNT, MAX_PROFILES, MOUNT_LIMITS } from '../studies/study-form';

export interface DriveSensor {
  profileId: string;
  height: number | null;
  pitchDeg: number | null;
}

export interface DriveForm {
  sceneId: number;
  sensors: DriveSensor[];
  simulation: 'hybrid' | 'physics';
  seconds: number | null;
  speed: number | null;
  seed: number | null;
  /** null: the scene's default. */
  start: [number, number] | null;
  goal: [number, number] | null;
}

/** A drive shows its scans as they are simulated: hybrid mode by default (several times faster than physics on mesh scenes). */
export function defaultDriveForm(sceneId: number, profileIds: readonly string[]): DriveForm {
  return {
    sceneId,
    sensors: profileIds.slice(0, MAX_PROFILES).map((profileId) => ({ profileId, height: DEFAULT_MOUNT.height, pitchDeg: DEFAULT_MOUNT.pitchDeg })),
    simulation: 'hybrid',
    seconds: DEFAULTS.seconds,
    speed: DEFAULTS.vehicle.speed,
    seed: DEFAULTS.seed,
    start: null,
    goal: null,
  };
}

/** The form's sensors for a new profile selection: kept mounts for kept profiles, the default mount for new ones. */
export function withDriveProfiles(sensors: readonly DriveSensor[], profileIds: readonly string[]): DriveSensor[] {
  return profileIds.map((id) => sensors.find((s) => s.profileId === id) ?? { profileId: id, height: DEFAULT_MOUNT.height, pitchDeg: DEFAULT_MOUNT.pitchDeg });
}

export function driveRequest(f: DriveForm): Checked<Request<'drive.start'>> {
  if (f.sensors.length < 1) return { ok: false, reason: 'Choose a sensor (up to 4 drive side by side)' };
  if (f.sensors.length > MAX_PROFILES) return { ok: false, reason: `At most ${MAX_PROFILES} sensors drive side by side` };
  if (!finite(f.seconds) || f.seconds <= 0 || f.seconds > 3600) return { ok: false, reason: 'Time limit: above 0, at most 3600 s' };
  if (!finite(f.speed) || f.speed <= 0 || f.speed > 2) return { ok: false, reason: 'Speed: above 0, at most 2 m/s' };
  const sensors = [];
  for (const s of f.sensors) {
    const h = MOUNT_LIMITS.height, p = MOUNT_LIMITS.pitchDeg;
    if (!finite(s.height) || s.height < h.min || s.height > h.max) return { ok: false, reason: `${s.profileId}: height is ${h.min} to ${h.max} m` };
    if (!finite(s.pitchDeg) || s.pitchDeg < p.min || s.pitchDeg > p.max) return { ok: false, reason: `${s.profileId}: pitch is ${p.min} to ${p.max}°` };
    sensors.push({ profileId: s.profileId, mount: { ...DEFAULT_MOUNT, height: s.height, pitchDeg: s.pitchDeg } });
  }
  if (f.start && f.goal && Math.hypot(f.goal[0] - f.start[0], f.goal[1] - f.start[1]) < 1) return { ok: false, reason: 'The goal must be at least 1 m from the start' };
  const vehicle: Record<string, unknown> = { speed: f.speed };
  if (f.start) vehicle.start = f.start;
  if (f.goal) vehicle.goal = f.goal;
  const definition = {
    sceneId: f.sceneId,
    loop: 'closed' as const,
    simulation: f.simulation,
    seconds: f.seconds,
    seed: finite(f.seed) ? Math.max(0, Math.trunc(f.seed)) : DEFAULTS.seed,
    vehicle,
    sensors,
    // Points per run sent with the frames: enough to see grass from trees without flooding the page.
    cloudBudget: 60_000,
  };
  const parsed = StudyDefinition.safeParse(definition);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, reason: `${issue.path.join('.')}: ${issue.message}` };
  }
  return { ok: true, value: { definition: definition as Request<'drive.start'>['definition'] } };
}

/** The pace choices: simulated seconds per second of the clock (×1 is real time; Max: as fast as the scans arrive). */
export const PACES = [
  { value: 1, label: '×1' },
  { value: 2, label: '×2' },
  { value: 5, label: '×5' },
  { value: Number.POSITIVE_INFINITY, label: 'Max' },
] as const;

/**
 * The form a link opens with (the scene editor's *Drive live…*): `profile`, `height`, `pitch` for
 * the first sensor and `start` ("x,y"); anything missing or unreadable keeps the default.
 */
export function driveFormFromQuery(sceneId: number, query: Record<string, unknown>): DriveForm {
  const text = (k: string) => (typeof query[k] === 'string' ? (query[k] as string) : null);
  const num = (k: string) => {
    const t = text(k);
    return t !== null && t.trim() !== '' && Number.isFinite(Number(t)) ? Number(t) : null;
  };
  const f = defaultDriveForm(sceneId, [text('profile') || 'vlp16']);
  const s = f.sensors[0]!;
  s.height = num('height') ?? s.height;
  s.pitchDeg = num('pitch') ?? s.pitchDeg;
  const start = text('start')?.split(',').map(Number);
  if (start?.length === 2 && start.every(Number.isFinite)) f.start = [start[0]!, start[1]!];
  return f;
}
