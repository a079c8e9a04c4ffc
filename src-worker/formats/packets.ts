/**
 * Building packets from decoded points (the scan formats' common step). The packet data model
 * itself is src-common/packets.ts.
 */
import { IDENTITY_POSE, RING_UNKNOWN, type PacketChunk } from '../../src-common/packets';

/**
 * One packet from an already-registered point list in the sensor frame (KITTI .bin, PCD):
 * each point becomes a hit along its own direction. Points at the origin carry no direction
 * and are dropped (counted by the caller through the returned rayCount).
 */
export function pointsToPacket(
  xyz: Float32Array,
  intensity: Float32Array | null,
  opts: { packetStart?: number; time?: number; pose?: readonly number[]; ring?: Uint16Array | null } = {},
): PacketChunk {
  const n = xyz.length / 3;
  let kept = 0;
  for (let i = 0; i < n; i++) {
    const x = xyz[3 * i]!, y = xyz[3 * i + 1]!, z = xyz[3 * i + 2]!;
    if (Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z) && x * x + y * y + z * z > 0) kept++;
  }
  const rayDir = new Float32Array(3 * kept);
  const rayRange = new Float32Array(kept);
  const rayIntensity = new Float32Array(kept);
  const rayRing = new Uint16Array(kept).fill(RING_UNKNOWN);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const x = xyz[3 * i]!, y = xyz[3 * i + 1]!, z = xyz[3 * i + 2]!;
    if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z))) continue;
    const r = Math.sqrt(x * x + y * y + z * z);
    if (!(r > 0)) continue;
    rayDir[3 * k] = x / r;
    rayDir[3 * k + 1] = y / r;
    rayDir[3 * k + 2] = z / r;
    rayRange[k] = r;
    rayIntensity[k] = intensity ? intensity[i]! : 0;
    if (opts.ring) rayRing[k] = opts.ring[i]!;
    k++;
  }
  const pose = opts.pose ?? IDENTITY_POSE;
  return {
    packetStart: opts.packetStart ?? 0,
    packetCount: 1,
    rayCount: kept,
    packetTime: new Float64Array([opts.time ?? 0]),
    packetPose: new Float64Array(pose),
    rayStart: new Uint32Array([0, kept]),
    rayDir,
    rayRange,
    rayIntensity,
    rayTime: new Float32Array(kept),
    rayRing,
    rayReturn: new Uint8Array(kept),
    rayObject: new Uint32Array(kept),
    rayClass: new Uint8Array(kept),
  };
}
