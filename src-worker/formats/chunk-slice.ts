/**
 * The packets of a log whose times fall in [from, to), as new chunks numbered from packet 0:
 * the "slice of the training log" model tuning fits and scores (thesis: 10 s). Chunks are cut
 * at packet boundaries; arrays are copied, so the slice owns its memory.
 */
import { CHUNK_ARRAY_FIELDS, POSE_STRIDE, type PacketChunk } from '../../src-common/packets';

export function slicePacketsByTime(chunks: Iterable<PacketChunk>, from: number, to: number): PacketChunk[] {
  const out: PacketChunk[] = [];
  let next = 0;
  for (const c of chunks) {
    let p0 = 0;
    while (p0 < c.packetCount && !(c.packetTime[p0]! >= from)) p0++;
    let p1 = p0;
    while (p1 < c.packetCount && c.packetTime[p1]! < to) p1++;
    if (p1 === p0) continue;
    const r0 = c.rayStart[p0]!, r1 = c.rayStart[p1]!;
    const rayStart = new Uint32Array(p1 - p0 + 1);
    for (let p = p0; p <= p1; p++) rayStart[p - p0] = c.rayStart[p]! - r0;
    const perRay = (f: (typeof CHUNK_ARRAY_FIELDS)[number], stride: number) => c[f].slice(stride * r0, stride * r1);
    out.push({
      packetStart: next,
      packetCount: p1 - p0,
      rayCount: r1 - r0,
      packetTime: c.packetTime.slice(p0, p1),
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
    });
    next += p1 - p0;
  }
  return out;
}
