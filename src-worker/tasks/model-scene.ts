/**
 * A fitted model as the scene a simulation runs (a geo-specific scene; src-worker/fit/model-scene.ts):
 * its stored element arrays built into a SceneData in shared memory — ground + ellipsoids for
 * hybrid mode, the voxel Gaussians for voxel mode, the ground triangles (as surfaces) for physics
 * and mesh modes — with the sensor's trail as the scene's, so `--trail` drives the logged path again.
 */
import type { TaskContext } from './task-context';
import type { SceneData } from '../../src-common/scene-data';
import type { SceneSimulationMode } from '../../src-common/modes';
import { POSE_STRIDE } from '../../src-common/packets';
import type { ModelArrays } from '../../src-common/fitted-model';
import { buildModelScene, kindsForMode } from '../fit/model-scene';
import { FIT_PARAM_DEFAULTS } from '../../src-common/fit-params';

export interface ModelSceneInput {
  /** The model as stored (transferred). */
  arrays: ModelArrays;
  /** θ as stored with the model (the Mahalanobis limit and τ decide how near a ray meets a Gaussian). */
  params: Record<string, unknown>;
  groundVariance: number;
  mode: SceneSimulationMode;
  /** The sensor's trail, POSE_STRIDE numbers a pose. */
  trail: Float64Array;
  /**
   * The simulated sensor is not the one the model was fitted to: the ground is read as the rays
   * that returned saw it (ModelArrays.groundPHitReturned), the training sensor's dropouts left out.
   */
  otherSensor?: boolean;
}

/** The scene and its trail, or — the model has none of the elements the mode simulates — why not. */
export type ModelSceneOutput = { data: SceneData; trail: number[][] } | { missing: string };

export function modelSceneTask(input: ModelSceneInput, ctx: TaskContext): ModelSceneOutput {
  const { arrays: a, params: p, mode } = input;
  const kinds = kindsForMode(mode);
  const triangles = a.groundPHit.length, ellipsoids = a.ellipsoidPHit.length, voxels = a.voxelPermeability.length;
  if ((kinds.voxels ? voxels : triangles + (kinds.ellipsoids ? ellipsoids : 0)) === 0) {
    return { missing: `no elements ${mode} mode simulates (${triangles} triangles, ${ellipsoids} ellipsoids, ${voxels} voxels)` };
  }
  const num = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
  const scalars = {
    groundVariance: input.groundVariance,
    mahalanobisThreshold: num(p.mahalanobisThreshold, FIT_PARAM_DEFAULTS.mahalanobisThreshold),
    voxelTau: num(p.voxelTau, FIT_PARAM_DEFAULTS.voxelTau),
    // A model fitted before the falloff existed has no such θ and keeps one p_hit per ellipsoid.
    ellipsoidHitFalloff: p.ellipsoidHitFalloff === 1,
    // Hit cells where the model has them (fitted with θ's ellipsoidCells or groundCells > 0).
    hitCells: { ellipsoidGrid: num(p.ellipsoidCells, 0), groundGrid: num(p.groundCells, 0), prior: num(p.hitCellPrior, FIT_PARAM_DEFAULTS.hitCellPrior) },
  };
  ctx.checkCancelled();
  const { data } = buildModelScene(input.otherSensor ? asOtherSensor(a) : a, scalars, kinds, { shared: true });
  const trail: number[][] = [];
  for (let o = 0; o + POSE_STRIDE <= input.trail.length; o += POSE_STRIDE) trail.push(Array.from(input.trail.subarray(o, o + POSE_STRIDE)));
  return { data, trail };
}

/**
 * The arrays as another sensor than the training one would see them (docs/methods.md §1 step 4,
 * *Rays without a return and the ground*): the ground's p_hit and its cells' passes without the
 * training sensor's no-return rays. Unchanged for a model that does not keep them apart.
 */
export function asOtherSensor(a: ModelArrays): ModelArrays {
  if (!a.groundPHitReturned && !a.ellipsoidPHitReturned) return a;
  const out: ModelArrays = { ...a };
  if (a.groundPHitReturned) out.groundPHit = a.groundPHitReturned;
  if (a.ellipsoidPHitReturned) out.ellipsoidPHit = a.ellipsoidPHitReturned;
  const less = (p: Uint32Array, nr: Uint32Array) => p.map((v, i) => v - nr[i]!);
  if (a.groundCellPasses && a.groundCellNoReturns) out.groundCellPasses = less(a.groundCellPasses, a.groundCellNoReturns);
  if (a.ellipsoidCellPasses && a.ellipsoidCellNoReturns) out.ellipsoidCellPasses = less(a.ellipsoidCellPasses, a.ellipsoidCellNoReturns);
  return out;
}
