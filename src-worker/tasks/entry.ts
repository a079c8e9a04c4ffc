/**
 * The piscina worker entry: every heavy computation runs here, off the main thread.
 * Built to out/main/worker.js; in development and tests it runs from source through tsx
 * (see src-main/jobs/worker-location.ts).
 */
import { TaskContext } from './task-context';
import type { TaskEnvelope } from './protocol';
import { TASKS } from './registry';

export default async function runTask(envelope: TaskEnvelope): Promise<unknown> {
  const ctx = new TaskContext(envelope.port, envelope.cancel);
  ctx.progress(0, 'started', true);
  try {
    // Cancelled (or a sibling failed) while this task waited in the queue: end before any work.
    ctx.checkCancelled();
    const task = TASKS[envelope.task as keyof typeof TASKS];
    if (!task) throw new Error(`unknown worker task "${envelope.task}"`);
    return await task(envelope.input as never, ctx);
  } finally {
    envelope.port.postMessage({ type: 'end' });
    envelope.port.close();
  }
}
