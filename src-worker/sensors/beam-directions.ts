/**
 * The beam direction of every ray of a chunk: what pairing by direction should compare
 * (docs/drive-logs.md, *Ouster frames*). A stored hit is the exact point seen from the sensor
 * origin, so when the profile's beams start off the origin (an Ouster's beam-origin offset and
 * lidar-origin height, a Velodyne's per-laser offsets) its stored direction leans away from its
 * beam by up to offset / range — 0.2° at 10 m on an OS1. Each hit with a known ring is turned back
 * into its laser's beam through it (beamOfPoint, src-common/beam-geometry.ts); a miss, or a ray
 * of unknown ring, keeps its stored direction (a miss is stored along its beam already).
 */
import { RING_UNKNOWN, type PacketChunk } from '../../src-common/packets';
import type { SensorProfile } from '../../src-common/sensor-profile';
import { beamOfPoint } from '../../src-common/beam-geometry';

export function beamDirections(
  chunk: Pick<PacketChunk, 'rayCount' | 'rayDir' | 'rayRange' | 'rayRing'>,
  profile: SensorProfile,
  out: Float32Array = new Float32Array(3 * chunk.rayCount),
): Float32Array {
  const lasers = profile.groups.flatMap((g) => g.lasers);
  // A profile whose beams all start at the origin: the stored directions are the beams'.
  const offset = lasers.some((l) => l.verticalOffset !== 0 || l.horizontalOffset !== 0);
  const { rayDir: dir, rayRange: range, rayRing: ring } = chunk;
  for (let i = 0; i < chunk.rayCount; i++) {
    const dx = dir[3 * i]!, dy = dir[3 * i + 1]!, dz = dir[3 * i + 2]!;
    out[3 * i] = dx;
    out[3 * i + 1] = dy;
    out[3 * i + 2] = dz;
    const r = range[i]!;
    const k = ring[i]!;
    if (!offset || Number.isNaN(r) || k === RING_UNKNOWN || k >= lasers.length) continue;
    const b = beamOfPoint(lasers[k]!, r * dx, r * dy, r * dz);
    if (!b) continue;
    out[3 * i] = b.dx;
    out[3 * i + 1] = b.dy;
    out[3 * i + 2] = b.dz;
  }
  return out;
}
