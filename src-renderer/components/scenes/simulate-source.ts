/**
 * What the Simulate form simulates, and along what (simulate.start's source; docs/simulation.md):
 * a stored scene, a fitted model (built into a geo-specific scene whose trail is the sensor path
 * of the log it was fitted to), or the neighbour simulator replaying a training drive log
 * (Tallavajhula, "Lidar Simulation for Robotic Application Development", 2018, §4.3.2). Which
 * trajectories each source takes mirrors what the host accepts, so the form never offers a
 * combination it would refuse, and says why where it cannot.
 */
import type { Request } from '../../../src-main/api/contract';
import type { SceneSimulationMode, SimulationMode } from '../../../src-common/modes';
import { finite, type Checked } from '../../form-check';

export type SimulateSource = 'scene' | 'model' | 'neighbour';

export const SOURCE_OPTIONS: { value: SimulateSource; label: string; hint: string }[] = [
  { value: 'scene', label: 'Scene', hint: 'A stored scene: generated, composed or placed by hand' },
  { value: 'model', label: 'Fitted model', hint: 'A model fitted to a drive log, simulated as the scene it describes (geo-specific)' },
  { value: 'neighbour', label: 'Neighbour replay', hint: 'Replays a training drive log: a ray returns where that log saw a hit near it' },
];

/** 'rays': fire exactly a drive log's own rays from its own poses (simulate.start's raysFromLogId). */
export type TrajectoryKind = 'static' | 'straight' | 'trail' | 'log' | 'rays';

export interface SourceForm {
  source: SimulateSource;
  sceneId: number | null;
  modelId: number | null;
  /** The training log the neighbour simulator replays. */
  neighbourLogId: number | null;
  /** Hits closer than this to a ray count (d⊥, m); null: the simulator's default (0.1 m). */
  neighbourRadius: number | null;
  /** Leave out the hits logged within this many seconds of each ray; null or 0: off. */
  neighbourLeaveOutS: number | null;
}

export const defaultSource = (): SourceForm => ({ source: 'scene', sceneId: null, modelId: null, neighbourLogId: null, neighbourRadius: null, neighbourLeaveOutS: null });

export type SourceFields = Pick<Request<'simulate.start'>, 'sceneId' | 'modelId' | 'neighbourLogId' | 'neighbourRadius' | 'neighbourLeaveOutS'>;

/** The request's source fields (exactly one of scene, model, training log, with the neighbour options), or why not yet. */
export function sourceFields(f: SourceForm): Checked<SourceFields> {
  if (f.source === 'scene') return f.sceneId === null ? { ok: false, reason: 'Choose a scene' } : { ok: true, value: { sceneId: f.sceneId } };
  if (f.source === 'model') return f.modelId === null ? { ok: false, reason: 'Choose a fitted model (Fit model… on a drive log)' } : { ok: true, value: { modelId: f.modelId } };
  if (f.neighbourLogId === null) return { ok: false, reason: 'Choose the drive log to replay' };
  const value: SourceFields = { neighbourLogId: f.neighbourLogId };
  if (f.neighbourRadius !== null) {
    if (!finite(f.neighbourRadius) || f.neighbourRadius <= 0 || f.neighbourRadius > 5) return { ok: false, reason: 'Neighbour radius is above 0, at most 5 m' };
    value.neighbourRadius = f.neighbourRadius;
  }
  if (f.neighbourLeaveOutS !== null) {
    if (!finite(f.neighbourLeaveOutS) || f.neighbourLeaveOutS < 0 || f.neighbourLeaveOutS > 3600) return { ok: false, reason: 'Leave-out is 0 to 3600 s' };
    if (f.neighbourLeaveOutS > 0) value.neighbourLeaveOutS = f.neighbourLeaveOutS;
  }
  return { ok: true, value };
}

/** The mode a run of this source is simulated in: the neighbour simulator is its own mode; scenes and models take the form's. */
export const sourceMode = (source: SimulateSource, mode: SceneSimulationMode): SimulationMode => (source === 'neighbour' ? 'neighbour' : mode);

export interface TrajectoryChoice {
  kind: TrajectoryKind;
  label: string;
  disabled: boolean;
  /** What it does, or why this source cannot take it. */
  title: string;
}

/**
 * The trajectories offered for a source. Every source takes a fixed pose, a straight line, a drive
 * log's poses and a log's own rays; a trail is a scene's (off-road and hybrid-strip scenes carry
 * one) or a model's (its training drive); the neighbour simulator has no scene, hence no trail.
 */
export function trajectoryChoices(source: SimulateSource, sceneHasTrail: boolean): TrajectoryChoice[] {
  const trail: Pick<TrajectoryChoice, 'disabled' | 'title'> =
    source === 'model'
      ? { disabled: false, title: 'Drive the model’s training drive again (the sensor path of the log it was fitted to)' }
      : source === 'neighbour'
        ? { disabled: true, title: 'The neighbour simulator replays a drive log and has no scene trail: choose Drive log to follow a log’s poses' }
        : sceneHasTrail
          ? { disabled: false, title: 'Drive along the scene’s trail' }
          : { disabled: true, title: 'This scene has no trail (off-road and hybrid-strip scenes do)' };
  return [
    { kind: 'static', label: 'Standing', disabled: false, title: 'Stand at one pose' },
    { kind: 'straight', label: 'Straight', disabled: false, title: 'Drive a straight line at constant speed' },
    { kind: 'trail', label: 'Trail', ...trail },
    { kind: 'log', label: 'Drive log', disabled: false, title: 'Follow a drive log’s sensor poses' },
    { kind: 'rays', label: "Log's rays", disabled: false, title: "Fire exactly a drive log's own rays from its own poses, misses included; the run pairs with the log ray by ray" },
  ];
}

/**
 * The neighbour simulator's default training log: the newest other than the log whose rays are
 * fired (replaying a log against itself copies its returns unless hits are left out; after a
 * split, the newest other log is the training half), else the newest.
 */
export function defaultNeighbourLog(logIds: readonly number[], firedLogId: number | null): number | null {
  return logIds.findLast((id) => id !== firedLogId) ?? logIds.at(-1) ?? null;
}
