/**
 * World points of a chunk's hits: y = pose · (range · direction). Used for bounds on import
 * and for the decimated display cloud.
 */
import { POSE_STRIDE, type PacketChunk } from '../../src-common/packets';
import { transformPoint } from '../geometry/pose';
import { BoundsAccumulator } from '../geometry/bounds';

/** Calls fn(ray index, x, y, z, packet index) for every hit of the chunk, in order. */
export function forEachHit(
  c: PacketChunk,
  fn: (ray: number, x: number, y: number, z: number, packet: number) => void,
): void {
  const p3 = new Float64Array(3);
  for (let p = 0; p < c.packetCount; p++) {
    const o = p * POSE_STRIDE;
    for (let r = c.rayStart[p]!; r < c.rayStart[p + 1]!; r++) {
      const range = c.rayRange[r]!;
      if (Number.isNaN(range)) continue;
      transformPoint(c.packetPose, o, c.rayDir[3 * r]! * range, c.rayDir[3 * r + 1]! * range, c.rayDir[3 * r + 2]! * range, p3, 0);
      fn(r, p3[0]!, p3[1]!, p3[2]!, p);
    }
  }
}

export function countHits(c: PacketChunk): number {
  let hits = 0;
  for (let r = 0; r < c.rayCount; r++) if (!Number.isNaN(c.rayRange[r]!)) hits++;
  return hits;
}

export function chunkBounds(c: PacketChunk): { min: [number, number, number]; max: [number, number, number] } | null {
  const b = new BoundsAccumulator();
  forEachHit(c, (_r, x, y, z) => b.add(x, y, z));
  return b.result();
}
