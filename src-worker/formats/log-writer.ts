/**
 * Turns any format's stream of DecodedPackets into stored chunks: the clock starts at the log's
 * first packet, each packet gets its pose (an external pose track, else the format's own pose,
 * else identity), chunks are cut at packet boundaries once they hold `raysPerChunk` rays, and
 * rays, hits, misses and world bounds are counted on the way.
 */
import { ChunkBuilder } from './chunk-builder';
import { PackedChunkBuilder } from './packed-rays';
import { poseRotationMatrix } from '../geometry/pose';
import { chunkBounds } from './chunk-points';
import type { ChunkSink, DecodedPacket } from './log-source';
import { IDENTITY_POSE, POSE_STRIDE, RING_UNKNOWN } from '../../src-common/packets';
import { BoundsAccumulator } from '../geometry/bounds';
import { composePoses } from '../geometry/trajectory';

/** Where packet poses come from when the format has none (a poses file). */
export interface PoseLookup {
  /** Writes world ← sensor (7 numbers) for packet `index` at log-relative `time` (s) into out. */
  poseFor(index: number, time: number, absoluteTime: number, out: Float64Array): void;
}

export interface LogWriterOptions {
  poses?: PoseLookup | null;
  /**
   * Vehicle ← sensor (a Pose7): the pose from the poses file or the format (or the origin) is the
   * vehicle's, and each packet's sensor pose is that pose · mount (docs/drive-logs.md, *Mounts
   * and extrinsics*). Null: the pose is the sensor's.
   */
  mount?: ArrayLike<number> | null;
  /** Rays per stored chunk (the last chunk may hold fewer; a packet is never split). */
  raysPerChunk?: number;
}

export interface LogWriteSummary {
  packets: number;
  rays: number;
  hits: number;
  misses: number;
  /** Seconds from the first packet's time to the last packet's (+ its last ray's firing time). */
  durationS: number;
  /** Absolute time of the first packet on the format's clock (0 for formats without a clock). */
  startTime: number;
  bounds: { min: [number, number, number]; max: [number, number, number] } | null;
  /** Packets whose time went backwards (kept in file order, counted). */
  timeReversals: number;
}

export const DEFAULT_RAYS_PER_CHUNK = 1 << 17;

export class LogWriter {
  private builder: ChunkBuilder;
  /** Set once the first packet arrives packed: every packet of the log is then stored packed. */
  private packedBuilder: PackedChunkBuilder | null = null;
  private readonly rotation = new Float64Array(9);
  private readonly raysPerChunk: number;
  private readonly pose = new Float64Array(POSE_STRIDE);
  private readonly vehicle = new Float64Array(POSE_STRIDE);
  private readonly bounds = new BoundsAccumulator();
  private t0 = NaN;
  private lastTime = -Infinity;
  private endTime = 0;
  private packets = 0;
  private rays = 0;
  private hits = 0;
  private reversals = 0;

  constructor(
    private readonly sink: ChunkSink,
    private readonly opts: LogWriterOptions = {},
  ) {
    this.raysPerChunk = Math.max(1, opts.raysPerChunk ?? DEFAULT_RAYS_PER_CHUNK);
    this.builder = new ChunkBuilder(0, this.raysPerChunk + 1024, 256);
  }

  add(p: DecodedPacket): void {
    if (Number.isNaN(this.t0)) this.t0 = Number.isFinite(p.time) ? p.time : 0;
    const abs = Number.isFinite(p.time) ? p.time : this.lastTime;
    const t = abs - this.t0;
    if (abs < this.lastTime) this.reversals++;
    this.lastTime = abs;
    if (this.opts.poses) this.opts.poses.poseFor(this.packets, t, abs, this.pose);
    else if (p.pose) for (let i = 0; i < POSE_STRIDE; i++) this.pose[i] = p.pose[i]!;
    else this.pose.set(IDENTITY_POSE);
    if (this.opts.mount) {
      this.vehicle.set(this.pose);
      composePoses(this.vehicle, 0, this.opts.mount, 0, this.pose, 0);
    }
    if (this.packets === 0 && p.packed) this.packedBuilder = new PackedChunkBuilder(0, p.packed.codec);
    if (this.packedBuilder) return this.addPacked(p, t);
    const b = this.builder;
    b.beginPacket(t, this.pose);
    let lastRay = 0;
    for (let i = 0; i < p.count; i++) {
      const range = p.range[i]!;
      if (!Number.isNaN(range)) this.hits++;
      const rt = p.rayTime ? p.rayTime[i]! : 0;
      if (rt > lastRay) lastRay = rt;
      b.pushRay(
        p.dir[3 * i]!, p.dir[3 * i + 1]!, p.dir[3 * i + 2]!,
        range, p.intensity[i]!, rt,
        p.ring ? p.ring[i]! : RING_UNKNOWN, p.ret ? p.ret[i]! : 0,
        p.object ? p.object[i]! : 0, p.cls ? p.cls[i]! : 0,
      );
    }
    b.endPacket();
    this.packets++;
    this.rays += p.count;
    this.endTime = Math.max(this.endTime, t + lastRay);
    if (b.rayCount >= this.raysPerChunk) this.flush();
  }

  /** Packed mode: the payload is kept; hits, bounds and the duration are counted from the rays. */
  private addPacked(p: DecodedPacket, t: number): void {
    if (!p.packed) throw new Error('a log stored packed needs every packet packed');
    const b = this.packedBuilder!;
    let lastRay = 0;
    // The pose as a rotation matrix once per packet: this loop runs for every ray of a capture.
    const m = this.rotation;
    poseRotationMatrix(this.pose, 0, m, 0);
    const [tx, ty, tz] = [this.pose[0]!, this.pose[1]!, this.pose[2]!];
    let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
    const { dir, range: ranges, rayTime, count } = p;
    if (rayTime) for (let i = 0; i < count; i++) if (rayTime[i]! > lastRay) lastRay = rayTime[i]!;
    let hits = 0;
    for (let i = 0; i < count; i++) {
      const range = ranges[i]!;
      if (range !== range) continue; // NaN: a miss
      hits++;
      const dx = dir[3 * i]! * range, dy = dir[3 * i + 1]! * range, dz = dir[3 * i + 2]! * range;
      const x = m[0]! * dx + m[1]! * dy + m[2]! * dz + tx;
      const y = m[3]! * dx + m[4]! * dy + m[5]! * dz + ty;
      const z = m[6]! * dx + m[7]! * dy + m[8]! * dz + tz;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      if (z < z0) z0 = z;
      if (z > z1) z1 = z;
    }
    this.hits += hits;
    if (x0 <= x1) {
      this.bounds.add(x0, y0, z0);
      this.bounds.add(x1, y1, z1);
    }
    b.add(p.packed.bytes, t, this.pose, p.count);
    this.packets++;
    this.rays += p.count;
    this.endTime = Math.max(this.endTime, t + lastRay);
    if (b.rayCount >= this.raysPerChunk) this.flush();
  }

  /** Flushes the last chunk and returns the totals. */
  finish(): LogWriteSummary {
    this.flush();
    return {
      packets: this.packets,
      rays: this.rays,
      hits: this.hits,
      misses: this.rays - this.hits,
      durationS: this.endTime,
      startTime: Number.isNaN(this.t0) ? 0 : this.t0,
      bounds: this.bounds.result(),
      timeReversals: this.reversals,
    };
  }

  private flush(): void {
    const pb = this.packedBuilder;
    if (pb) {
      if (pb.packetCount === 0) return;
      this.sink(pb.finish());
      this.packedBuilder = new PackedChunkBuilder(this.packets, pb.codec);
      return;
    }
    const b = this.builder;
    if (b.packetCount === 0) return;
    const chunk = b.finish();
    this.bounds.merge(chunkBounds(chunk));
    this.sink(chunk);
    this.builder = new ChunkBuilder(this.packets, this.raysPerChunk + 1024, 256);
  }
}
