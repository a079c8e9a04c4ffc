/**
 * The simulated packets whose rays a real packet may pair with (docs/methods.md §6, *Pairing*):
 * pairing by (firing time, direction) crosses packet boundaries, so the evaluator keeps the
 * simulated packets fired within the current real packet's time window — a few packets for a
 * Velodyne capture, one revolution for a scan — each with its rays' world points and which of
 * its rays are taken. Packets leave from the front once every ray of theirs was fired before
 * the window, so memory follows the window, not the run.
 */
import { POSE_STRIDE } from '../../src-common/packets';
import { poseRotationMatrix } from '../geometry/pose';
import type { EvalChunk } from './packet-cursor';

export interface WindowPacket {
  chunk: EvalChunk;
  /** Packet within the chunk, and within the run. */
  p: number;
  index: number;
  /** Packet time after the offset (s), and the span of its rays' firing times. */
  time: number;
  t0: number;
  t1: number;
  /** Its rays' range in the chunk's ray arrays. */
  r0: number;
  r1: number;
  /** Per ray (from r0): taken by a real ray. */
  used: Uint8Array;
  /** Rays taken. */
  pairs: number;
  /** World point per ray (3 each from r0; NaN for a miss). */
  world: Float64Array;
}

const ROT = new Float64Array(9);

/** Firing-time span [min, max] of a packet's rays relative to its time (0, 0 without rays or times). */
export function rayTimeSpan(c: Pick<EvalChunk, 'rayStart'> & { rayTime?: Float32Array }, p: number): [number, number] {
  const a = c.rayStart[p]!, b = c.rayStart[p + 1]!, t = c.rayTime;
  if (!t || t.length < b || b === a) return [0, 0];
  let lo = Infinity, hi = -Infinity;
  for (let r = a; r < b; r++) {
    const v = t[r]!;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return Number.isFinite(lo) && Number.isFinite(hi) ? [lo, hi] : [0, 0];
}

/** World point of every ray of a packet (NaN for misses) into `out` (grown as needed). */
export function packetWorld(c: EvalChunk, p: number, out: Float64Array): Float64Array {
  const a = c.rayStart[p]!, b = c.rayStart[p + 1]!;
  if (out.length < 3 * (b - a)) out = new Float64Array(Math.max(3 * (b - a), 2 * out.length));
  const o = p * POSE_STRIDE, pose = c.packetPose;
  poseRotationMatrix(pose, o, ROT, 0);
  const tx = pose[o]!, ty = pose[o + 1]!, tz = pose[o + 2]!;
  const d = c.rayDir, range = c.rayRange, rot = ROT;
  for (let r = a; r < b; r++) {
    const k = 3 * (r - a), rg = range[r]!;
    if (!Number.isFinite(rg)) {
      out[k] = out[k + 1] = out[k + 2] = NaN;
      continue;
    }
    const x = d[3 * r]! * rg, y = d[3 * r + 1]! * rg, z = d[3 * r + 2]! * rg;
    out[k] = rot[0]! * x + rot[1]! * y + rot[2]! * z + tx;
    out[k + 1] = rot[3]! * x + rot[4]! * y + rot[5]! * z + ty;
    out[k + 2] = rot[6]! * x + rot[7]! * y + rot[8]! * z + tz;
  }
  return out;
}

export class SimWindow {
  readonly packets: WindowPacket[] = [];
  /** Rays held. */
  rays = 0;
  /** Packets that left, their arrays reused by the next ones (no allocation per packet on the hot path). */
  private readonly spare: WindowPacket[] = [];

  push(chunk: EvalChunk, p: number, index: number, offset: number): WindowPacket {
    const time = chunk.packetTime[p]! + offset;
    const [lo, hi] = rayTimeSpan(chunk, p);
    const r0 = chunk.rayStart[p]!, r1 = chunk.rayStart[p + 1]!, n = r1 - r0;
    const w = this.spare.pop() ?? { chunk, p, index, time, t0: 0, t1: 0, r0, r1, used: new Uint8Array(n), pairs: 0, world: new Float64Array(3 * n) };
    w.chunk = chunk;
    w.p = p;
    w.index = index;
    w.time = time;
    w.t0 = time + lo;
    w.t1 = time + hi;
    w.r0 = r0;
    w.r1 = r1;
    w.pairs = 0;
    if (w.used.length < n) w.used = new Uint8Array(Math.max(n, 2 * w.used.length));
    else w.used.fill(0, 0, n);
    w.world = packetWorld(chunk, p, w.world);
    this.packets.push(w);
    this.rays += n;
    return w;
  }

  /** Removes from the front the packets all of whose rays fired before `t` (or every packet: t = Infinity). */
  evictBefore(t: number, leave: (w: WindowPacket) => void): void {
    while (this.packets.length > 0 && (this.packets[0]!.t1 < t || t === Infinity)) {
      const w = this.packets.shift()!;
      this.rays -= w.r1 - w.r0;
      leave(w);
      if (this.spare.length < 64) this.spare.push(w);
    }
  }
}
