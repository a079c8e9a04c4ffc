/**
 * The simulation engine's inputs: a scene (SceneQuery), a sensor profile, the rays the sensor
 * fires packet by packet, a vehicle trajectory, a seed and a mode.
 */
import type { SceneQuery } from '../scene/scene-query';
import type { ReturnMode, SensorProfile } from '../../src-common/sensor-profile';
import type { Trajectory } from '../geometry/trajectory';
import type { NeighbourIndexData } from './neighbour-index';
import type { LearnedNoiseTables } from '../../src-common/noise-model';

/**
 * - `mesh`: one ray on the beam axis, closest surface, Gaussian range noise (what general-purpose
 *   simulators do; the baseline of 000 §V-C and 001).
 * - `physics`: 9-ray beam stencil, Lambertian intensity, return processing (003 §3.2).
 * - `hybrid`: ordered elements with Bernoulli pass-through (001 §IV, docs/methods.md §1).
 * - `voxel`: voxel Gaussians with permeability, beam sampled inside its divergence cone (000 §IV).
 * - `neighbour`: no scene; replays a training log's hits (004 §4.3.2's baseline, neighbour.ts):
 *   needs `SimulationContext.neighbour`.
 */
export type SimulationMode = 'mesh' | 'physics' | 'hybrid' | 'voxel' | 'neighbour';

/**
 * How a hit on an ellipsoid / voxel Gaussian becomes a return:
 * - `gaussian-point`: a sample of N(μ, Σ) (001: the point may leave the ray);
 * - `along-ray`: t ~ N(μ_t, σ_t²), the Gaussian restricted to the ray (000 eq. 2–3).
 */
export type RangeSampler = 'gaussian-point' | 'along-ray';

/**
 * The rays of one packet, as the sensor fires them. Structurally the `PacketRays` of
 * src-worker/sensors/scan-pattern.ts, so `(p) => packetRays(pattern, p)` is a ray source.
 * Arrays may be reused between calls.
 */
export interface PacketRays {
  /** Start time of the packet on the trajectory's clock (s). */
  startTime: number;
  count: number;
  /** Direction per ray in the sensor frame, 3 each (normalised by the simulator; NaN ⇒ skipped). */
  dir: ArrayLike<number>;
  /** Firing time of each ray relative to `startTime` (s). */
  time: ArrayLike<number>;
  /** Laser index per ray. */
  ring: ArrayLike<number>;
  /** Optional beam origin per ray in the sensor frame (calibration offsets), 3 each. */
  origin?: ArrayLike<number> | null;
  /**
   * A recorded packet's own sensor pose (world ← sensor, 7 numbers): the packet is stored with it
   * and every ray is fired from it, whatever its firing time — a log's convention is that
   * `packetPose · (range · dir)` is the world point (log-rays.ts) — while `time` is still recorded.
   * Absent: the trajectory ∘ mount at each firing time.
   */
  pose?: ArrayLike<number> | null;
}

/** The rays of packet p (an adapter over the sensors' scan pattern, or a test's own). */
export type PacketRaySource = (packetIndex: number) => PacketRays;

export interface SimulationOptions {
  /** Hybrid and voxel: how an element hit becomes a range. Default: hybrid `gaussian-point`
   * (001), voxel `along-ray` (000 eq. 2–3). */
  rangeSampler?: RangeSampler;
  /** Range noise σ (m) for mesh and physics returns (and for surface elements without their own
   * variance in hybrid/voxel); default profile.range.noiseSigma. */
  noiseSigma?: number;
  /** Physics: where the 8 outer sub-rays sit, as a fraction of the spot's half-width at 1 m.
   * Default: the equal-area placement (circle/ellipse √5/3, rectangle 2/3; see stencil.ts). */
  stencilScale?: number;
  /** Hybrid / voxel: sample each ray uniformly inside the beam's divergence cone (000 §IV).
   * Default: voxel true, hybrid false. */
  coneSampling?: boolean;
  /** Override the profile's return mode / signal cutoff (physics). */
  returnMode?: ReturnMode;
  signalCutoff?: number;
}

/** What the neighbour mode replays: a training log's hit index and the perpendicular threshold d⊥ (m). */
export interface NeighbourSource {
  index: NeighbourIndexData;
  radius: number;
  /**
   * Leave out training hits logged within this many seconds of the query ray (trajectory clock =
   * the log's clock from its first packet, as a 'log' trajectory has): 0 = use every hit.
   */
  leaveOutS?: number;
}

export interface SimulationContext {
  /** The scene; null only in neighbour mode, which has none. */
  scene: SceneQuery | null;
  /** Neighbour mode's training log. */
  neighbour?: NeighbourSource | null;
  profile: SensorProfile;
  rays: PacketRaySource;
  /** World ← vehicle over time; the sensor pose is this ∘ profile.mount. */
  trajectory: Trajectory;
  /** Vehicle ← sensor; default profile.mount (identity when the trajectory holds sensor poses). */
  mount?: ArrayLike<number> | null;
  seed: number;
  mode: SimulationMode;
  options?: SimulationOptions;
  /** A learned noise model (docs/methods.md §8) drawing every return's range and nulls instead of the Gaussian range noise. */
  learnedNoise?: LearnedNoiseTables | null;
}

/** Counters of one simulation call (accumulated when the same object is passed again). */
export interface SimulationStats {
  /** Rays fired (pulses), not counting skipped ones. */
  rays: number;
  /** Output records with a range (a dual-return pulse can give two). */
  hits: number;
  /** Pulses that produced no return. */
  misses: number;
  /** Input rays whose direction had a NaN (or zero length): skipped, not output (issue item 8). */
  skippedNaN: number;
}

export function newSimulationStats(): SimulationStats {
  return { rays: 0, hits: 0, misses: 0, skippedNaN: 0 };
}
