/**
 * The host's end of a log feed (src-worker/tasks/chunk-feed.ts): a task that reads a whole drive
 * log or run asks for its chunks one at a time, and each ask is answered in its own turn of the
 * event loop with the next chunk read from the store (each by its own lookup, so other requests
 * and the jobs' writes interleave) and transferred. The host thus never reads a log in one go,
 * however long it is.
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { FeedAnswer } from '../../src-worker/tasks/chunk-feed';
import type { TransientResult } from '../jobs/job-runner';
import type { TaskName } from '../../src-worker/tasks/registry';
import type { ProjectSession } from './project-session';

/** Every ArrayBuffer behind a chunk's arrays and packed payloads (fresh ones from the store: transferable). */
function buffersOf(chunk: object): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  const packed = (chunk as { packed?: { bytes?: unknown } }).packed;
  for (const v of [...Object.values(chunk), packed?.bytes]) if (ArrayBuffer.isView(v) && v.buffer instanceof ArrayBuffer) out.add(v.buffer);
  return [...out];
}

/** Serves `read()`'s chunks on a new channel; returns the task's end. `where` names the log in errors. */
export function serveChunks(read: () => Iterable<object>, where: string): { port: MessagePort; close: () => void } {
  const { port1, port2 } = new MessageChannel();
  let chunks: Iterator<object> | null = null;
  port1.on('message', () => {
    let answer: FeedAnswer<object>;
    let transfer: ArrayBuffer[] = [];
    try {
      chunks ??= read()[Symbol.iterator]();
      const next = chunks.next();
      answer = { chunk: next.done ? null : next.value };
      if (answer.chunk) transfer = buffersOf(answer.chunk);
    } catch (e) {
      // A store read failing (a corrupt row): the task fails with this message.
      answer = { error: `reading ${where}: ${(e as Error).message}` };
    }
    port1.postMessage(answer, transfer);
  });
  const close = () => {
    port1.removeAllListeners();
    port1.close();
  };
  port1.on('close', close);
  return { port: port2, close };
}

/**
 * Runs a task on the pool that reads `read()`'s chunks through a feed (`input` puts the port in
 * its input); the host's end is closed once the task has settled, whatever its outcome.
 */
export async function runFed(session: ProjectSession, task: TaskName, read: () => Iterable<object>, where: string, input: (feed: MessagePort) => object): Promise<TransientResult> {
  const { port, close } = serveChunks(read, where);
  try {
    // A MessagePort is transferable like a buffer: it moves to the worker with the input.
    return await session.runner.runTransient(task, input(port), [port as unknown as ArrayBuffer]);
  } finally {
    close();
  }
}

/** Every item of `items` (a store read per item), one per turn of the event loop. */
export async function readInTurns<T>(items: Iterable<T>): Promise<T[]> {
  const out: T[] = [];
  for (const item of items) {
    out.push(item);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return out;
}
