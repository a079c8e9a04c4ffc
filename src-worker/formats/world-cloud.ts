/**
 * The hits of a log (or of a packet range of it) as one point cloud, for exporters: in the
 * world frame (each ray moved by its own packet's pose, so a moving sensor's sweep comes out
 * undistorted), or in the frame of a reference pose (a KITTI scan is stored in the sensor frame
 * of its first packet, with that pose in poses.txt).
 */
import type { DecodedCloud } from './decoded-cloud';
import { POSE_STRIDE, type PacketChunk } from '../../src-common/packets';
import { transformPoint } from '../geometry/pose';
import { invertPose } from '../geometry/trajectory';

export interface WorldCloud extends DecodedCloud {
  /** Per point: seconds since the log's start (packet time + firing time), float64. */
  absoluteTime: Float64Array<ArrayBuffer>;
  cls: Uint8Array<ArrayBuffer>;
  ret: Uint8Array<ArrayBuffer>;
  ring: Uint16Array<ArrayBuffer>;
}

/**
 * Hits of packets [from, to) of `chunks` (all when omitted). `reference` = world ← frame pose
 * of the output frame; null = world. xyz are float32, so keep the reference near the points
 * (a georeferenced log would lose millimetres far from its origin).
 */
export function worldCloud(chunks: readonly PacketChunk[], opts: { from?: number; to?: number; reference?: ArrayLike<number> | null } = {}): WorldCloud {
  const from = opts.from ?? 0;
  const to = opts.to ?? Infinity;
  let n = 0;
  for (const c of chunks) {
    const p0 = Math.max(from - c.packetStart, 0), p1 = Math.min(to - c.packetStart, c.packetCount);
    for (let p = p0; p < p1; p++) for (let r = c.rayStart[p]!; r < c.rayStart[p + 1]!; r++) if (!Number.isNaN(c.rayRange[r]!)) n++;
  }
  const xyz = new Float32Array(3 * n);
  const intensity = new Float32Array(n);
  const ring = new Uint16Array(n);
  const absoluteTime = new Float64Array(n);
  const cls = new Uint8Array(n);
  const ret = new Uint8Array(n);
  let inv: Float64Array | null = null;
  if (opts.reference) {
    inv = new Float64Array(POSE_STRIDE);
    invertPose(opts.reference, 0, inv, 0);
  }
  const w = new Float64Array(3), q = new Float64Array(3);
  let k = 0;
  for (const c of chunks) {
    const p0 = Math.max(from - c.packetStart, 0), p1 = Math.min(to - c.packetStart, c.packetCount);
    for (let p = p0; p < p1; p++) {
      for (let r = c.rayStart[p]!; r < c.rayStart[p + 1]!; r++) {
        const range = c.rayRange[r]!;
        if (Number.isNaN(range)) continue;
        transformPoint(c.packetPose, p * POSE_STRIDE, c.rayDir[3 * r]! * range, c.rayDir[3 * r + 1]! * range, c.rayDir[3 * r + 2]! * range, w, 0);
        if (inv) transformPoint(inv, 0, w[0]!, w[1]!, w[2]!, q, 0);
        const out = inv ? q : w;
        xyz[3 * k] = out[0]!;
        xyz[3 * k + 1] = out[1]!;
        xyz[3 * k + 2] = out[2]!;
        intensity[k] = c.rayIntensity[r]!;
        ring[k] = c.rayRing[r]!;
        absoluteTime[k] = c.packetTime[p]! + c.rayTime[r]!;
        cls[k] = c.rayClass[r]!;
        ret[k] = c.rayReturn[r]!;
        k++;
      }
    }
  }
  let t0 = Infinity;
  for (let i = 0; i < n; i++) if (absoluteTime[i]! < t0) t0 = absoluteTime[i]!;
  if (!Number.isFinite(t0)) t0 = 0;
  const time = new Float32Array(n);
  for (let i = 0; i < n; i++) time[i] = absoluteTime[i]! - t0;
  return { count: n, xyz, intensity, ring, time, timeBase: t0, viewpoint: null, dropped: 0, absoluteTime, cls, ret };
}
