/**
 * A drive log or run as the applications read it (docs/methods.md, "Application-level risk"):
 * every `stride`-th hit as a point in the world frame (relative to `origin`, the first packet's
 * position, so Float64 coordinates stay small), with its class and packet, and per packet its
 * pose; the scans (revolutions) cut by the capture's rule (src-worker/formats/capture-scans.ts).
 */
import type { PacketChunk } from '../../src-common/packets';
import { POSE_STRIDE } from '../../src-common/packets';
import { ScanCounter } from '../formats/capture-scans';
import { applyPose, applyPoseInverse } from '../geometry/trajectory';

export interface LogPoints {
  /** World x, y, z per point, minus `origin`. */
  xyz: Float64Array;
  cls: Uint8Array;
  packet: Uint32Array;
  count: number;
  /** Per packet: pose (world ← sensor) with its translation minus `origin`. */
  poses: Float64Array;
  packets: number;
  origin: [number, number, number];
  /** First packet of each scan, ascending. */
  scanStarts: Uint32Array;
}

export class LogPointsBuilder {
  private xyz = new Float64Array(3 * 65536);
  private cls = new Uint8Array(65536);
  private packet = new Uint32Array(65536);
  private count = 0;
  private poses: number[] = [];
  private packets = 0;
  private origin: [number, number, number] | null = null;
  private readonly scans = new ScanCounter();
  private seen = 0;
  private readonly p = new Float64Array(3);

  constructor(private readonly stride = 1) {}

  add(c: PacketChunk): void {
    for (let k = 0; k < c.packetCount; k++) {
      const po = k * POSE_STRIDE;
      this.origin ??= [c.packetPose[po]!, c.packetPose[po + 1]!, c.packetPose[po + 2]!];
      const pose = [c.packetPose[po]! - this.origin[0], c.packetPose[po + 1]! - this.origin[1], c.packetPose[po + 2]! - this.origin[2], c.packetPose[po + 3]!, c.packetPose[po + 4]!, c.packetPose[po + 5]!, c.packetPose[po + 6]!];
      for (const v of pose) this.poses.push(v);
      const r0 = c.rayStart[k]!, r1 = c.rayStart[k + 1]!;
      this.scans.add(c.packetTime[k]!, r1 > r0 ? c.rayTime[r1 - 1]! : 0, r1 > r0 ? c.rayDir.subarray(3 * r0, 3 * r0 + 3) : null);
      for (let r = r0; r < r1; r++) {
        const range = c.rayRange[r]!;
        if (!Number.isFinite(range) || c.rayReturn[r] !== 0) continue;
        if (this.seen++ % this.stride !== 0) continue;
        applyPose(pose, 0, c.rayDir[3 * r]! * range, c.rayDir[3 * r + 1]! * range, c.rayDir[3 * r + 2]! * range, this.p, 0);
        this.push(this.p[0]!, this.p[1]!, this.p[2]!, c.rayClass[r] ?? 0, this.packets);
      }
      this.packets++;
    }
  }

  private push(x: number, y: number, z: number, cls: number, packet: number): void {
    if (this.count === this.cls.length) {
      const n = this.cls.length * 2;
      const xyz = new Float64Array(3 * n); xyz.set(this.xyz); this.xyz = xyz;
      const c = new Uint8Array(n); c.set(this.cls); this.cls = c;
      const p = new Uint32Array(n); p.set(this.packet); this.packet = p;
    }
    const i = this.count++;
    this.xyz[3 * i] = x; this.xyz[3 * i + 1] = y; this.xyz[3 * i + 2] = z;
    this.cls[i] = cls;
    this.packet[i] = packet;
  }

  finish(): LogPoints {
    const scans = this.scans.finish();
    return {
      xyz: this.xyz.subarray(0, 3 * this.count),
      cls: this.cls.subarray(0, this.count),
      packet: this.packet.subarray(0, this.count),
      count: this.count,
      poses: Float64Array.from(this.poses),
      packets: this.packets,
      origin: this.origin ?? [0, 0, 0],
      scanStarts: scans.starts,
    };
  }
}

/** Points [from, to) of scan k (0-based): points are in packet order. */
export function scanPointRange(d: LogPoints, k: number): { from: number; to: number } {
  const p0 = d.scanStarts[k]!, p1 = k + 1 < d.scanStarts.length ? d.scanStarts[k + 1]! : d.packets;
  return { from: lowerBound(d.packet, d.count, p0), to: lowerBound(d.packet, d.count, p1) };
}

function lowerBound(a: Uint32Array, n: number, v: number): number {
  let lo = 0, hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A scan for matching: its points in the frame of its first packet's pose (motion undone), at most `cap` (evenly strided). */
export interface Scan {
  points: Float64Array;
  pose: Float64Array;
}

export function scanInOwnFrame(d: LogPoints, k: number, cap: number): Scan {
  const { from, to } = scanPointRange(d, k);
  const pose = d.poses.slice(POSE_STRIDE * d.scanStarts[k]!, POSE_STRIDE * (d.scanStarts[k]! + 1));
  const n = to - from;
  const step = Math.max(1, Math.ceil(n / cap));
  const m = Math.ceil(n / step);
  const points = new Float64Array(3 * m);
  for (let j = 0, i = from; i < to; i += step, j++) applyPoseInverse(pose, 0, d.xyz[3 * i]!, d.xyz[3 * i + 1]!, d.xyz[3 * i + 2]!, points, 3 * j);
  return { points, pose };
}

/** Up to `max` scan indices evenly spread over 0 … scans − 1 − reserve (reserve 1: each has a successor). */
export function spreadScans(scans: number, max: number, reserve: number): number[] {
  const n = scans - reserve;
  if (n <= 0) return [];
  if (n <= max) return Array.from({ length: n }, (_, i) => i);
  return Array.from({ length: max }, (_, i) => Math.floor(((i + 0.5) * n) / max));
}
