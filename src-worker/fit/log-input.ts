/**
 * What fitting reads of a drive log: per packet the sensor pose, per ray the unit direction in
 * the sensor frame and the range (NaN = a miss) — 16 bytes a ray, a third of a full chunk, so a
 * long log fits in a worker's memory and crosses to it by transfer.
 */
import type { PacketChunk } from '../formats/packets';

export type FitLogChunk = Pick<PacketChunk, 'packetStart' | 'packetCount' | 'rayCount' | 'packetPose' | 'rayStart' | 'rayDir' | 'rayRange'>;

/** The fields fitting needs of a stored chunk (the arrays themselves, not copies). */
export function toFitChunk(c: PacketChunk): FitLogChunk {
  return { packetStart: c.packetStart, packetCount: c.packetCount, rayCount: c.rayCount, packetPose: c.packetPose, rayStart: c.rayStart, rayDir: c.rayDir, rayRange: c.rayRange };
}

/** The chunk's distinct buffers, for a transfer list (a list with one buffer twice is refused). */
export function fitChunkBuffers(c: FitLogChunk, out: ArrayBuffer[] = []): ArrayBuffer[] {
  for (const b of [c.packetPose.buffer, c.rayStart.buffer, c.rayDir.buffer, c.rayRange.buffer]) if (!out.includes(b)) out.push(b);
  return out;
}

/** Total packets and rays of a list of chunks. */
export function logSize(chunks: readonly FitLogChunk[]): { packets: number; rays: number } {
  let packets = 0, rays = 0;
  for (const c of chunks) {
    packets += c.packetCount;
    rays += c.rayCount;
  }
  return { packets, rays };
}
