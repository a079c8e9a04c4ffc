/**
 * What fitting reads of a drive log: per packet the sensor pose, per ray the unit direction in
 * the sensor frame and the range (NaN = a miss) — 16 bytes a ray, half of a full chunk; the
 * fit service copies them once into shared memory for every stage of the fit.
 */
import type { PacketChunk } from '../../src-common/packets';

export type FitLogChunk = Pick<PacketChunk, 'packetStart' | 'packetCount' | 'rayCount' | 'packetPose' | 'rayStart' | 'rayDir' | 'rayRange'>;

/** The fields fitting needs of a stored chunk (the arrays themselves, not copies). */
export function toFitChunk(c: PacketChunk): FitLogChunk {
  return { packetStart: c.packetStart, packetCount: c.packetCount, rayCount: c.rayCount, packetPose: c.packetPose, rayStart: c.rayStart, rayDir: c.rayDir, rayRange: c.rayRange };
}
