/**
 * An evaluation's per-ray range errors for the Evaluation page's difference colouring
 * (src-main/services/evaluation-ray-errors.ts; docs/methods.md §6, *Per-ray range error*): the
 * run and the log are paired again exactly as the evaluation did (its stored options), fed
 * through the same MessagePort protocol as 'evaluate-run', and the pairs are sampled evenly down
 * to the display budget (src-worker/evaluate/ray-errors.ts). The point-cloud error, per-packet
 * series and second pass are skipped: only the pairing is needed.
 *
 * Output 'ray-errors': the sample (transferred). Return value: { seen } — pairs with a hit.
 */
import type { MessagePort, Transferable } from 'node:worker_threads';
import type { TaskContext } from './task-context';
import { ObservationEvaluator } from '../evaluate/observation-metrics';
import { RayErrorSampler, type RayErrorSample } from '../evaluate/ray-errors';
import type { EvaluationOptions } from '../../src-common/evaluation-options';
import { ChunkFeed, type EvaluateRunInput } from './evaluate-run';

/** What the task posts as 'ray-errors' (re-exported for the host, which imports only task entry points). */
export type { RayErrorSample };

export interface EvaluationRayErrorsInput {
  feed: MessagePort;
  /** The evaluation's options as stored. */
  options: EvaluationOptions;
  beams?: EvaluateRunInput['beams'];
  /** Pairs to keep at most. */
  budget: number;
  /** The evaluation's pairs with a hit (TH + FH + FM): the decimation's stride. */
  total: number;
  realPackets: number;
  simPackets: number;
}

export async function evaluationRayErrorsTask(input: EvaluationRayErrorsInput, ctx: TaskContext): Promise<{ seen: number }> {
  const feed = new ChunkFeed(input.feed, input.beams);
  try {
    const sampler = new RayErrorSampler(input.budget, input.total);
    const check = () => ctx.checkCancelled();
    const ev = new ObservationEvaluator({ ...input.options, perPacket: false, pointCloud: false, exactPointCloud: false }, { checkCancelled: check, pair: sampler.add });
    const total = Math.max(1, input.realPackets + input.simPackets);
    for (let need = ev.step(); need !== 'done'; need = ev.step()) {
      check();
      ctx.progress((ev.real.consumed + ev.sim.consumed) / total, 'pairing rays');
      // Without the point-cloud error there is no second pass: only chunks are asked for.
      if (need === 'restart-real' || need === 'restart-sim') throw new Error('evaluation ray errors: unexpected second pass');
      ev.feed(need, await feed.next(need));
    }
    const sample = sampler.finish();
    const transfer: Transferable[] = [sample.real.buffer, sample.sim.buffer, sample.error.buffer];
    ctx.post({ type: 'output', name: 'ray-errors', value: sample }, transfer);
    return { seen: sample.seen };
  } finally {
    feed.close();
  }
}
