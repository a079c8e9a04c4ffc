/**
 * The last step of a fit (src-worker/fit/fit.ts finishFit): the replay batches' counts added in
 * batch order — integer counts, and σ²_ground's per-batch sums added in that fixed order, so the
 * model is the same whatever the pool's size — then p_hit, ρ and σ²_ground per element and the
 * arrays the project stores, transferred back through the port (output 'model').
 */
import type { TaskContext } from './task-context';
import { finishFit, type FittedElements, type FitResult } from '../fit/fit';
import type { FitParams } from '../../src-common/fit-params';
import { addReplayCounts, newReplayCounts, type ReplayCounts } from '../fit/replay';
import { transferList } from '../../src-common/shared-memory';

export interface FinishFitInput {
  fitted: Pick<FittedElements, 'elements' | 'report' | 'trail'>;
  /** Every replay batch's counts, in batch order. */
  batches: ReplayCounts[];
  params: FitParams;
  replayMs: number;
}

/** The output 'model': the arrays, scalars, report and trail the project stores. */
export type FinishFitOutput = FitResult;

export function finishFitTask(input: FinishFitInput, ctx: TaskContext): { triangles: number; ellipsoids: number; voxels: number } {
  const e = input.fitted.elements;
  const totals = newReplayCounts(e.groundBlock.length, e.ellipsoidBlock.length, e.voxelBlock.length);
  for (const c of input.batches) {
    ctx.checkCancelled();
    addReplayCounts(totals, { ...c, residualSum: 0 });
  }
  totals.residualSum = input.batches.reduce((a, c) => a + c.residualSum, 0);
  const result: FitResult = finishFit(input.fitted, totals, input.params, input.replayMs);
  ctx.post({ type: 'output', name: 'model', value: result }, transferList(result));
  return { triangles: result.arrays.groundPHit.length, ellipsoids: result.arrays.ellipsoidPHit.length, voxels: result.arrays.voxelPermeability.length };
}
