/**
 * Packets [p0, p1) of a stored chunk as a chunk of their own, renumbered from `packetStart` and
 * with `timeShift` seconds taken off their times: what splitting a log into two keeps of each
 * chunk. A packed chunk stays packed (its payloads sliced, docs/drive-logs.md "Storage"), so a
 * capture split in two takes the capture's size, not ten times it; every other array — poses,
 * rays, per-ray classes and objects — is copied as stored.
 */
import { CHUNK_ARRAY_FIELDS, PACKED_STRIDE, POSE_STRIDE, type PacketChunk } from '../../src-common/packets';

export function chunkPacketRange(c: PacketChunk, p0: number, p1: number, packetStart: number, timeShift: number): PacketChunk {
  if (!(Number.isInteger(p0) && Number.isInteger(p1) && p0 >= 0 && p1 > p0 && p1 <= c.packetCount)) {
    throw new RangeError(`packets ${p0}…${p1} are not inside a chunk of ${c.packetCount}`);
  }
  const r0 = c.rayStart[p0]!, r1 = c.rayStart[p1]!;
  const rayStart = new Uint32Array(p1 - p0 + 1);
  for (let p = p0; p <= p1; p++) rayStart[p - p0] = c.rayStart[p]! - r0;
  const packetTime = c.packetTime.slice(p0, p1);
  for (let i = 0; i < packetTime.length; i++) packetTime[i] = packetTime[i]! - timeShift;
  // A packed chunk's ray arrays are empty: its rays live in the payloads.
  const rays = c.packed ? 0 : 1;
  const perRay = (f: (typeof CHUNK_ARRAY_FIELDS)[number], stride: number) => c[f].slice(rays * stride * r0, rays * stride * r1);
  const out: PacketChunk = {
    packetStart,
    packetCount: p1 - p0,
    rayCount: r1 - r0,
    packetTime,
    packetPose: c.packetPose.slice(POSE_STRIDE * p0, POSE_STRIDE * p1),
    rayStart,
    rayDir: perRay('rayDir', 3) as Float32Array<ArrayBuffer>,
    rayRange: perRay('rayRange', 1) as Float32Array<ArrayBuffer>,
    rayIntensity: perRay('rayIntensity', 1) as Float32Array<ArrayBuffer>,
    rayTime: perRay('rayTime', 1) as Float32Array<ArrayBuffer>,
    rayRing: perRay('rayRing', 1) as Uint16Array<ArrayBuffer>,
    rayReturn: perRay('rayReturn', 1) as Uint8Array<ArrayBuffer>,
    rayObject: perRay('rayObject', 1) as Uint32Array<ArrayBuffer>,
    rayClass: perRay('rayClass', 1) as Uint8Array<ArrayBuffer>,
  };
  if (c.packed) {
    const stride = PACKED_STRIDE[c.packed.codec];
    out.packed = {
      codec: c.packed.codec,
      bytes: c.packed.bytes.slice(stride * p0, stride * p1),
      ...(c.packed.decoder ? { decoder: c.packed.decoder } : {}),
    };
  }
  return out;
}
