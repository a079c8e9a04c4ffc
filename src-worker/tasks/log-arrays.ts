/**
 * A drive log read for the tasks of a job: the chunks the host feeds (chunk-feed.ts) cut to the
 * fields those tasks read — fitting: pose, directions, ranges (16 bytes a ray); extraction adds
 * the rays' object and class ids — and copied once into shared memory, so every task of the job
 * reads the same bytes (the fit's elements stage and each replay batch). With `window`, only the
 * packets whose times fall in it, renumbered from 0 (the slice model tuning fits; chunk-slice.ts).
 */
import type { MessagePort } from 'node:worker_threads';
import type { TaskContext } from './task-context';
import type { PacketChunk } from '../../src-common/packets';
import { slicePacketsByTime } from '../formats/chunk-slice';
import { feedChunks } from './chunk-feed';
import { toShared } from '../../src-common/shared-memory';

export interface LogArraysInput {
  feed: MessagePort;
  /** The fields kept of every chunk; every field when absent. */
  fields?: readonly (keyof PacketChunk)[];
  /** Only the packets timed in [first + startS, first + startS + seconds), first = the log's first packet's time. */
  window?: { startS: number; seconds: number };
}

export interface LogArraysOutput {
  /** The chunks (shared), as many as the log's (fewer with a window: those it touches). */
  chunks: Partial<PacketChunk>[];
  packets: number;
  /** Time of the log's first packet (0 when it has none). */
  firstTime: number;
}

export async function logArraysTask(input: LogArraysInput, ctx: TaskContext): Promise<LogArraysOutput> {
  const chunks: Partial<PacketChunk>[] = [];
  let firstTime: number | null = null;
  let packets = 0;
  for await (const c of feedChunks<PacketChunk>(input.feed)) {
    ctx.checkCancelled();
    if (firstTime === null && c.packetCount > 0) firstTime = c.packetTime[0]!;
    let kept: PacketChunk | undefined = c;
    if (input.window) {
      const from = (firstTime ?? 0) + input.window.startS;
      kept = slicePacketsByTime([c], from, from + input.window.seconds)[0];
      if (!kept) continue;
      kept.packetStart = packets; // the slice's packets are numbered from 0 across its chunks
    }
    packets += kept.packetCount;
    chunks.push(toShared(input.fields ? pick(kept, input.fields) : kept));
  }
  return { chunks, packets, firstTime: firstTime ?? 0 };
}

function pick(c: PacketChunk, fields: readonly (keyof PacketChunk)[]): Partial<PacketChunk> {
  const out: Record<string, unknown> = {};
  for (const f of fields) out[f] = c[f];
  return out as Partial<PacketChunk>;
}
