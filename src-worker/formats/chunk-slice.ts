/**
 * The packets of a log whose times fall in [from, to), as new chunks numbered from packet 0:
 * the "slice of the training log" model tuning fits and scores (thesis: 10 s). Chunks are cut
 * at packet boundaries (chunk-range.ts); arrays are copied, so the slice owns its memory.
 */
import type { PacketChunk } from '../../src-common/packets';
import { chunkPacketRange } from './chunk-range';

export function slicePacketsByTime(chunks: Iterable<PacketChunk>, from: number, to: number): PacketChunk[] {
  const out: PacketChunk[] = [];
  let next = 0;
  for (const c of chunks) {
    let p0 = 0;
    while (p0 < c.packetCount && !(c.packetTime[p0]! >= from)) p0++;
    let p1 = p0;
    while (p1 < c.packetCount && c.packetTime[p1]! < to) p1++;
    if (p1 === p0) continue;
    out.push(chunkPacketRange(c, p0, p1, next, 0));
    next += p1 - p0;
  }
  return out;
}
