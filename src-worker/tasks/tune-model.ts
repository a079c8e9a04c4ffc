/**
 * Tuning θ on a slice of a training log (src-worker/fit/tuning.ts), in one worker: each of the
 * Nelder–Mead evaluations fits the slice, re-simulates its rays and scores them with the
 * observation metrics (src-worker/evaluate). Progress is the share of the evaluation budget
 * spent; cancel is checked inside every fit and simulation.
 */
import type { TaskContext } from './task-context';
import type { PacketChunk } from '../../src-common/packets';
import { tuneFit, type TuneInput, type TuneResult } from '../fit/tuning';
import { evaluatePacketChunks } from '../evaluate/observation-metrics';

export type TuneModelInput = TuneInput;

export function tuneModelTask(input: TuneModelInput, ctx: TaskContext): TuneResult {
  ctx.progress(0, `tuning ${input.boxes.map((b) => b.name).join(', ')}`, true);
  const score = (real: readonly PacketChunk[], sim: readonly PacketChunk[]) => {
    const m = evaluatePacketChunks(real, sim, { perPacket: false, pointCloud: false });
    // No true hit at all: packet error is undefined, J is NaN and the search scores it worst.
    return { packetError: m.packetError ?? NaN, f1: m.f1 ?? 0 };
  };
  return tuneFit(input, score, {
    progress: (f, m) => ctx.progress(f, m, true),
    checkCancelled: () => ctx.checkCancelled(),
  });
}
