/**
 * A scene composed from an annotation and a primitive library (docs/methods.md §3;
 * src-worker/primitives/compose.ts), built in a worker: planning is cheap, but the two-level
 * BVH of a few hundred placed primitives over a fitted ground takes seconds. The scene comes
 * back in SharedArrayBuffers, ready to store and to simulate.
 */
import type { TaskContext } from './task-context';
import type { ModelArrays } from '../../src-common/fitted-model';
import type { SceneData } from '../../src-common/scene-data';
import {
  composeScene,
  groundFromHeightGrid,
  groundFromModel,
  heightFunctionGrid,
  type CompositionPlan,
  type EntryLike,
} from '../primitives';
import type { ComposeMode } from '../../src-common/modes';
import type { Primitive } from '../../src-common/primitive';

export interface ComposeSceneInput {
  entries: EntryLike[];
  library: Primitive[];
  mode: ComposeMode;
  /** A fitted model's ground, or a flat ground at height z over the entries' extent (+ margin). */
  ground:
    | { kind: 'model'; model: Pick<ModelArrays, 'groundPositions' | 'groundPHit' | 'voxelMeans' | 'voxelCovariances' | 'voxelPermeability'>; variance: number }
    | { kind: 'flat'; z: number; marginM: number };
  mahalanobisThreshold: number;
  voxelTau: number;
  /** The hybrid primitives' ellipsoid p_hit falls off with Mahalanobis distance (their model's θ). */
  ellipsoidHitFalloff?: boolean;
}

export interface ComposeSceneOutput {
  data: SceneData;
  plan: CompositionPlan;
  counts: { entries: number; placements: number; cells: number; uniquePrimitives: number; fallbacks: number; skipped: number };
  bounds: { min: [number, number, number]; max: [number, number, number] };
}

export function composeSceneTask(input: ComposeSceneInput, ctx: TaskContext): ComposeSceneOutput {
  ctx.progress(0, 'placing primitives', true);
  const g = input.ground;
  const ground = g.kind === 'model'
    ? groundFromModel(g.model, g.variance)
    : groundFromHeightGrid(heightFunctionGrid(() => g.z, entriesExtent(input.entries, g.marginM), 1), { variance: 0 });
  ctx.checkCancelled();
  const scene = composeScene(input.entries, input.library, ground, {
    mode: input.mode,
    mahalanobisThreshold: input.mahalanobisThreshold,
    voxelTau: input.voxelTau,
    ellipsoidHitFalloff: input.ellipsoidHitFalloff ?? false,
    shared: true,
  });
  ctx.progress(1, `${scene.counts.placements} placements`, true);
  return { data: scene.data, plan: scene.plan, counts: scene.counts, bounds: sceneBounds(scene.data) };
}

function entriesExtent(entries: readonly EntryLike[], margin: number): { x0: number; y0: number; x1: number; y1: number } {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const e of entries) {
    const r = Math.hypot(e.box.size[0], e.box.size[1]) / 2;
    x0 = Math.min(x0, e.box.center[0] - r); x1 = Math.max(x1, e.box.center[0] + r);
    y0 = Math.min(y0, e.box.center[1] - r); y1 = Math.max(y1, e.box.center[1] + r);
  }
  if (!Number.isFinite(x0)) return { x0: -margin, y0: -margin, x1: margin, y1: margin };
  return { x0: x0 - margin, y0: y0 - margin, x1: x1 + margin, y1: y1 + margin };
}

function sceneBounds(data: SceneData): ComposeSceneOutput['bounds'] {
  const b = data.bounds;
  return { min: [b[0]!, b[1]!, b[2]!], max: [b[3]!, b[4]!, b[5]!] };
}
