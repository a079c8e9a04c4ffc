/**
 * Split a stored drive log in two at a packet (the first packet of a scan, which the host found
 * from the log's timeline): the packets before it make the first log, the rest the second, each
 * renumbered from packet 0 and with its clock starting at its first packet. The host feeds the
 * stored chunks one at a time (chunk-feed.ts) and stores each part's chunks as they are posted,
 * so neither thread holds the log whole (docs/design.md, "Jobs and workers").
 *
 * Packed chunks stay packed; their rays are rebuilt here only to count hits and bounds.
 */
import type { MessagePort } from 'node:worker_threads';
import type { TaskContext } from './task-context';
import { feedChunks } from './chunk-feed';
import { chunkBuffers, type PacketChunk } from '../../src-common/packets';
import type { SensorProfile } from '../../src-common/sensor-profile';
import { chunkPacketRange } from '../formats/chunk-range';
import { withRays } from '../formats/packed-rays';
import { BoundsAccumulator } from '../geometry/bounds';
import { chunkBounds } from '../formats/chunk-points';

export interface SplitLogInput {
  feed: MessagePort;
  /** First packet of the second log. */
  at: number;
  /** Packets in the log (for progress). */
  packets: number;
}

export interface SplitPartTotals {
  packets: number;
  rays: number;
  hits: number;
  misses: number;
  durationS: number;
  bounds: { min: [number, number, number]; max: [number, number, number] } | null;
  /** Seconds from the log's start to this part's first packet (added to the log's absolute start). */
  startOffsetS: number;
}

export interface SplitLogOutput {
  parts: [SplitPartTotals, SplitPartTotals];
  /** The profile that decodes the log's packed chunks, when it has any. */
  decodeProfile: SensorProfile | null;
}

/** What each part's chunk is posted as: `{ type: 'output', name: SPLIT_CHUNK, value: { part, chunk } }`. */
export const SPLIT_CHUNK = 'split-chunk';

class PartCounter {
  packets = 0;
  rays = 0;
  hits = 0;
  end = 0;
  startOffsetS = NaN;
  private readonly bounds = new BoundsAccumulator();

  add(raw: PacketChunk): void {
    const c = withRays(raw);
    this.packets += c.packetCount;
    this.rays += c.rayCount;
    for (let r = 0; r < c.rayCount; r++) if (!Number.isNaN(c.rayRange[r]!)) this.hits++;
    for (let p = 0; p < c.packetCount; p++) {
      let last = 0;
      for (let r = c.rayStart[p]!; r < c.rayStart[p + 1]!; r++) if (c.rayTime[r]! > last) last = c.rayTime[r]!;
      this.end = Math.max(this.end, c.packetTime[p]! + last);
    }
    const b = chunkBounds(c);
    if (b) this.bounds.merge(b);
  }

  totals(): SplitPartTotals {
    return { packets: this.packets, rays: this.rays, hits: this.hits, misses: this.rays - this.hits, durationS: this.end, bounds: this.bounds.result(), startOffsetS: Number.isNaN(this.startOffsetS) ? 0 : this.startOffsetS };
  }
}

export async function splitLogTask(input: SplitLogInput, ctx: TaskContext): Promise<SplitLogOutput> {
  const { at } = input;
  const parts = [new PartCounter(), new PartCounter()] as const;
  let shift = NaN;
  let decodeProfile: SensorProfile | null = null;
  let seen = 0;
  const post = (part: 0 | 1, chunk: PacketChunk) => {
    parts[part].add(chunk);
    // The store attaches the decoder on read; the copy is stored without it.
    const stored: PacketChunk = chunk.packed ? { ...chunk, packed: { codec: chunk.packed.codec, bytes: chunk.packed.bytes } } : chunk;
    ctx.post({ type: 'output', name: SPLIT_CHUNK, value: { part, chunk: stored } }, chunkBuffers(stored));
  };
  for await (const c of feedChunks<PacketChunk>(input.feed, { raw: true })) {
    ctx.checkCancelled();
    if (c.packed?.decoder && !decodeProfile) decodeProfile = c.packed.decoder.profile;
    const cut = Math.min(Math.max(at - c.packetStart, 0), c.packetCount);
    if (cut > 0) post(0, chunkPacketRange(c, 0, cut, c.packetStart, 0));
    if (cut < c.packetCount) {
      // The second log's clock starts at its first packet.
      if (Number.isNaN(shift)) shift = c.packetTime[cut]!;
      if (Number.isNaN(parts[1].startOffsetS)) parts[1].startOffsetS = shift;
      post(1, chunkPacketRange(c, cut, c.packetCount, c.packetStart + cut - at, shift));
    }
    seen += c.packetCount;
    ctx.progress(seen / Math.max(1, input.packets), 'splitting');
  }
  parts[0].startOffsetS = 0;
  return { parts: [parts[0].totals(), parts[1].totals()], decodeProfile };
}
