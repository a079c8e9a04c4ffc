/**
 * Small tasks that exercise the job machinery itself: used by the runner's tests and by
 * `thicket bench` to measure pool overhead. They do real work (a seeded checksum loop) so
 * cancellation and progress are observed from inside a busy loop, as in real tasks.
 */
import type { TaskContext } from './task-context';

export interface SpinInput {
  steps: number;
  /** Iterations of the checksum loop per step. */
  work: number;
  /** Throw at this step (to test failure handling). */
  failAt?: number;
}

export function spin(input: SpinInput, ctx: TaskContext): { steps: number; checksum: number } {
  let h = 2166136261;
  for (let s = 0; s < input.steps; s++) {
    ctx.checkCancelled();
    if (input.failAt === s) throw new Error(`spin failed on purpose at step ${s}`);
    for (let i = 0; i < input.work; i++) h = Math.imul(h ^ (i + s), 16777619) >>> 0;
    ctx.progress((s + 1) / input.steps, `step ${s + 1} of ${input.steps}`);
  }
  return { steps: input.steps, checksum: h };
}

/** Sums a transferred Float64Array and reports whether it arrived as a transfer (detached on the sender). */
export function sumArray(input: { values: Float64Array }): { sum: number; length: number } {
  let sum = 0;
  for (let i = 0; i < input.values.length; i++) sum += input.values[i]!;
  return { sum, length: input.values.length };
}
