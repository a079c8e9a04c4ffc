/**
 * A drive log's time axis for playback: the time of every packet, where each sweep (one
 * revolution of a spinning lidar, one scan of a sector scanner) starts, and the trajectory
 * decimated for display. Built from the packets' times, poses and first-ray directions only,
 * so a caller can stream chunks through it without holding the log's rays.
 *
 * Sweeps are cut where the azimuth of each packet's first ray wraps: the format-independent
 * signal (no profile, calibration or packet rate needed) that every spinning or scanning sensor
 * gives. See `sweepStarts` for the rule.
 */
import { POSE_STRIDE } from '../../src-common/packets';

/** The fields of a chunk the timeline reads (a PacketChunk has them all). */
export interface PacketMeta {
  packetStart: number;
  packetCount: number;
  packetTime: Float64Array;
  packetPose: Float64Array;
  rayStart: Uint32Array;
  rayDir: Float32Array;
}

export type SweepRule = 'azimuth' | 'packet' | 'single';

export interface TimelineData {
  packets: number;
  /** Seconds since the log's start per packet (NaN for a packet no chunk holds). */
  packetTime: Float64Array<ArrayBuffer>;
  /** First packet of each sweep, ascending, the first 0; sweep k ends where k + 1 starts, the last at `packets`. */
  sweepStart: Uint32Array<ArrayBuffer>;
  sweepBy: SweepRule;
  trajectory: {
    /** Index of each kept packet, ascending, the first and last packet included. */
    packet: Uint32Array<ArrayBuffer>;
    /** Sensor position (world) of each kept packet, x, y, z. */
    position: Float64Array<ArrayBuffer>;
  };
}

const TWO_PI = 2 * Math.PI;

/** a − b wrapped into (−π, π]. */
function angleDelta(a: number, b: number): number {
  let d = (a - b) % TWO_PI;
  if (d > Math.PI) d -= TWO_PI;
  else if (d <= -Math.PI) d += TWO_PI;
  return d;
}

/**
 * Sweep boundaries from the azimuth of each packet's first ray (NaN where a packet has no ray).
 *
 * The spin direction is the sign of the median step between packets (robust to the one big
 * step per sweep). Then:
 * - a median step of ~0 means the azimuth does not advance between packets, so each packet is
 *   a whole scan (KITTI, PCD, a PointCloud2 per revolution): one sweep per packet;
 * - a sector scanner (field of view < 360°) flies back once per scan: a step of more than 45°
 *   against the spin starts a sweep;
 * - a spinning sensor never steps back: a sweep starts each time the azimuth, measured from the
 *   first packet's in the spin direction, wraps past a full turn.
 */
export function sweepStarts(azimuth: Float64Array): { starts: Uint32Array<ArrayBuffer>; by: SweepRule } {
  const n = azimuth.length;
  const known: number[] = [];
  for (let p = 0; p < n; p++) if (Number.isFinite(azimuth[p]!)) known.push(p);
  if (n <= 1 || known.length <= 1) return { starts: new Uint32Array([0]), by: 'single' };
  const steps = new Float64Array(known.length - 1);
  for (let i = 1; i < known.length; i++) steps[i - 1] = angleDelta(azimuth[known[i]!]!, azimuth[known[i - 1]!]!);
  const median = Float64Array.from(steps).sort()[steps.length >> 1]!;
  if (Math.abs(median) < 1e-4) return { starts: Uint32Array.from({ length: n }, (_, p) => p), by: 'packet' };
  const dir = median > 0 ? 1 : -1;
  const starts = [0];
  const flyback = steps.some((s) => s * dir < -Math.PI / 4);
  if (flyback) {
    for (let i = 0; i < steps.length; i++) if (steps[i]! * dir < -Math.PI / 4) starts.push(known[i + 1]!);
  } else {
    // Accumulated rotation since the first packet; a new sweep at each whole turn. The 1e-9 turn
    // of slack puts a packet that lands exactly on a whole turn (up to rounding) in the new sweep.
    const turns = (a: number) => Math.floor(a / TWO_PI + 1e-9);
    let turned = 0;
    for (let i = 0; i < steps.length; i++) {
      const before = turns(turned);
      turned += steps[i]! * dir;
      if (turns(turned) > before) starts.push(known[i + 1]!);
    }
  }
  return { starts: Uint32Array.from(starts), by: 'azimuth' };
}

/** Streams chunks (in any order) into a timeline. */
export class TimelineBuilder {
  private readonly times: number[] = [];
  private readonly azimuths: number[] = [];
  private readonly xyz: number[] = [];
  private total = 0;

  add(c: PacketMeta): void {
    for (let p = 0; p < c.packetCount; p++) {
      const i = c.packetStart + p;
      while (this.times.length <= i) {
        this.times.push(NaN);
        this.azimuths.push(NaN);
        this.xyz.push(NaN, NaN, NaN);
      }
      this.times[i] = c.packetTime[p]!;
      const o = p * POSE_STRIDE;
      this.xyz[3 * i] = c.packetPose[o]!;
      this.xyz[3 * i + 1] = c.packetPose[o + 1]!;
      this.xyz[3 * i + 2] = c.packetPose[o + 2]!;
      const r = c.rayStart[p]!;
      // Azimuth in the sensor frame: the sensor's own rotation, whatever the vehicle does.
      if (c.rayStart[p + 1]! > r) this.azimuths[i] = Math.atan2(c.rayDir[3 * r + 1]!, c.rayDir[3 * r]!);
    }
    this.total = Math.max(this.total, c.packetStart + c.packetCount);
  }

  finish(maxPoses: number): TimelineData {
    const n = this.total;
    const { starts, by } = sweepStarts(Float64Array.from(this.azimuths.slice(0, n)));
    // Trajectory: every k-th packet with a known pose, and always the last.
    const stride = Math.max(1, Math.ceil(n / Math.max(2, maxPoses - 1)));
    const kept: number[] = [];
    for (let p = 0; p < n; p += stride) kept.push(p);
    if (n > 0 && kept[kept.length - 1] !== n - 1) kept.push(n - 1);
    const packets = kept.filter((p) => Number.isFinite(this.xyz[3 * p]!));
    const position = new Float64Array(3 * packets.length);
    packets.forEach((p, k) => position.set([this.xyz[3 * p]!, this.xyz[3 * p + 1]!, this.xyz[3 * p + 2]!], 3 * k));
    return {
      packets: n,
      packetTime: Float64Array.from(this.times.slice(0, n)),
      sweepStart: starts,
      sweepBy: by,
      trajectory: { packet: Uint32Array.from(packets), position },
    };
  }
}

export function buildTimeline(chunks: Iterable<PacketMeta>, maxPoses: number): TimelineData {
  const b = new TimelineBuilder();
  for (const c of chunks) b.add(c);
  return b.finish(maxPoses);
}
