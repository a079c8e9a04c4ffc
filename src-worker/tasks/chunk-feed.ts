/**
 * The worker's end of a log feed. A task that needs a whole drive log (to fit it, index its hits,
 * take its poses) gets a MessagePort instead of the chunks: the host answers each ask with the
 * next chunk read from the store (src-main/services/chunk-server.ts), transferred, so the host
 * reads one chunk per turn of its event loop and no log is copied whole between threads. One
 * chunk is asked ahead, so the host's read of the next overlaps the work on this one.
 */
import type { MessagePort } from 'node:worker_threads';
import type { PacketChunk } from '../../src-common/packets';
import { withRays } from '../formats/packed-rays';

/** What the host answers to each ask ('next'): a chunk, null after the last, or why it could not read. */
export type FeedAnswer<C> = { chunk: C | null } | { error: string };

/** `raw`: packed chunks as stored (payloads and their decoder), for a task that copies them whole. */
export async function* feedChunks<C>(port: MessagePort, opts: { raw?: boolean } = {}): AsyncGenerator<C, void, undefined> {
  const answers: FeedAnswer<C>[] = [];
  let wake: (() => void) | null = null;
  let closed = false;
  port.on('message', (m: FeedAnswer<C>) => {
    answers.push(m);
    wake?.();
  });
  port.on('close', () => {
    closed = true;
    wake?.();
  });
  try {
    port.postMessage('next');
    for (;;) {
      while (answers.length === 0) {
        if (closed) throw new Error('the host closed the log feed');
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
      const m = answers.shift()!;
      if ('error' in m) throw new Error(m.error);
      if (m.chunk === null) return;
      port.postMessage('next');
      // A stored capture's chunk arrives packed: its rays are rebuilt here, not on the host.
      yield !opts.raw && (m.chunk as Partial<PacketChunk>).packed ? (withRays(m.chunk as unknown as PacketChunk) as unknown as C) : m.chunk;
    }
  } finally {
    closeFeed(port);
  }
}

/** Ends the feed (also for a task that fails before reading it): the host's end closes with it. */
export function closeFeed(port: MessagePort): void {
  port.removeAllListeners();
  port.close();
}
