/**
 * The simulation engine's entry points: simulate packets of a sensor moving through a scene in
 * one of four modes (mesh, physics, hybrid, voxel) — or replaying a training log (neighbour) —
 * writing PacketChunks.
 *
 * Determinism: packet p draws only from `new RandomStream(seed, p)`, in ray order, so any split
 * of the packets into calls or workers gives bit-identical output.
 *
 * Per ray: a direction with a NaN (or of zero length) is skipped and counted (issue item 8); the
 * sensor pose at the ray's firing time (trajectory ∘ mount) casts it; its returns are written in
 * the frame of the packet's start pose (firing.ts). Every pulse writes at least one record: a
 * miss (range NaN) or its returns (return numbers 0 and 1 for a dual return). A recorded packet
 * (`PacketRays.pose`, log-rays.ts) is fired from its own pose, and a ray of it without a direction
 * is kept as a miss, so the run has the log's layout ray for ray.
 */
import { RandomStream } from '../random/stream';
import type { SceneQuery } from '../scene/scene-query';
import { sensorPoseAt, isStationary } from '../geometry/trajectory';
import type { PacketChunk } from '../../src-common/packets';
import { ChunkBuilder } from '../formats/chunk-builder';
import type { ModeCaster } from './caster';
import { Firing, ReturnEmitter } from './firing';
import { MeshCaster } from './mesh';
import { NeighbourCaster } from './neighbour';
import { PhysicsCaster } from './physics';
import type { RangeModel } from './returns';
import { StochasticCaster } from './stochastic';
import { LearnedNoiseCaster } from './learned-noise';
import { LearnedNoiseSampler } from '../noise/sampler';
import type { SimulationContext, SimulationStats } from './types';

/** A context prepared for simulation: the mode's caster and scratch state, reusable. */
export class Simulator {
  readonly caster: ModeCaster;
  readonly range: RangeModel;
  private readonly mount: Float64Array;
  private readonly stationary: boolean;
  private readonly packetPose = new Float64Array(7);
  private readonly scratch = new Float64Array(7);
  private readonly firing = new Firing();
  private readonly emitter = new ReturnEmitter();

  constructor(readonly ctx: SimulationContext) {
    const { profile, scene, mode } = ctx;
    const o = ctx.options ?? {};
    const mount = ctx.mount ?? profile.mount;
    if (mount.length !== 7) throw new Error('simulate: the mount pose needs 7 numbers');
    this.mount = Float64Array.from(mount as ArrayLike<number>);
    this.stationary = isStationary(ctx.trajectory);
    // A learned noise model replaces the Gaussian range noise (learned-noise.ts).
    const sigma = ctx.learnedNoise ? 0 : (o.noiseSigma ?? profile.range.noiseSigma);
    if (!(sigma >= 0)) throw new Error(`simulate: range noise σ must be ≥ 0 (got ${sigma})`);
    this.range = {
      sigma,
      resolution: Math.max(0, profile.range.resolution || 0),
      min: Math.max(0, profile.range.min || 0),
      max: profile.range.max,
    };
    if (!(this.range.max > this.range.min)) throw new Error(`simulate: profile range max (${profile.range.max}) must exceed min (${profile.range.min})`);
    const needScene = (): SceneQuery => {
      if (!scene) throw new Error(`simulate: ${mode} mode needs a scene`);
      return scene;
    };
    switch (mode) {
      case 'neighbour':
        if (!ctx.neighbour) throw new Error('simulate: neighbour mode needs a training log index (context.neighbour)');
        this.caster = new NeighbourCaster(ctx.neighbour.index, this.range, ctx.neighbour.radius, ctx.neighbour.leaveOutS ?? 0);
        break;
      case 'mesh':
        this.caster = new MeshCaster(needScene(), profile, this.range);
        break;
      case 'physics':
        this.caster = new PhysicsCaster(needScene(), profile, this.range, {
          returnMode: o.returnMode ?? profile.returns.mode,
          signalCutoff: o.signalCutoff ?? profile.returns.signalCutoff,
          stencilScale: o.stencilScale,
        });
        break;
      case 'hybrid':
      case 'voxel':
        this.caster = new StochasticCaster(needScene(), profile, this.range, {
          rangeSampler: o.rangeSampler ?? (mode === 'hybrid' ? 'gaussian-point' : 'along-ray'),
          coneSampling: o.coneSampling ?? mode === 'voxel',
          surfaceSigma: sigma,
        });
        break;
      default:
        throw new Error(`simulate: unknown mode '${String(mode)}'`);
    }
    if (ctx.learnedNoise) this.caster = new LearnedNoiseCaster(this.caster, new LearnedNoiseSampler(ctx.learnedNoise), scene, this.range);
  }

  /** Simulate packet p into the builder (whose next packet must be p). */
  simulatePacket(p: number, builder: ChunkBuilder, stats?: SimulationStats | null): void {
    if (builder.nextPacketIndex !== p) {
      throw new Error(`simulate: packet ${p} written to a chunk expecting packet ${builder.nextPacketIndex}`);
    }
    const { ctx, firing: f, emitter, packetPose, mount, scratch } = this;
    const rays = ctx.rays(p);
    const rng = new RandomStream(ctx.seed, p);
    const fixed = rays.pose ?? null;
    if (fixed) for (let k = 0; k < 7; k++) packetPose[k] = fixed[k]!;
    else sensorPoseAt(ctx.trajectory, mount, rays.startTime, packetPose, 0, scratch);
    builder.beginPacket(rays.startTime, packetPose);
    emitter.beginPacket(builder, packetPose);
    emitter.stats = stats ?? null;
    const dir = rays.dir, off = rays.time, ring = rays.ring, origin = rays.origin ?? null;
    let lastT = NaN;
    for (let i = 0; i < rays.count; i++) {
      const x = dir[3 * i]!, y = dir[3 * i + 1]!, z = dir[3 * i + 2]!;
      const n = Math.sqrt(x * x + y * y + z * z);
      const dt = off[i] ?? 0;
      if (!(n > 0) || !Number.isFinite(n) || !Number.isFinite(dt)) {
        if (stats) stats.skippedNaN++;
        if (fixed) {
          // A recorded ray keeps its place (evaluation pairs a log's rays index by index): a miss.
          builder.pushRay(x, y, z, NaN, 0, dt, ring[i] ?? 0, 0, 0, 0);
          if (stats) stats.misses++;
        }
        continue;
      }
      f.sx = x / n; f.sy = y / n; f.sz = z / n;
      let aligned: boolean;
      if (this.stationary || dt === 0 || fixed) {
        if (lastT !== rays.startTime) {
          f.pose.set(packetPose);
          lastT = rays.startTime;
        }
        aligned = true;
      } else {
        const tf = rays.startTime + dt;
        if (tf !== lastT) {
          sensorPoseAt(ctx.trajectory, mount, tf, f.pose, 0, scratch);
          lastT = tf;
        }
        aligned = false;
      }
      if (origin) {
        f.bx = origin[3 * i]!; f.by = origin[3 * i + 1]!; f.bz = origin[3 * i + 2]!;
        if (f.bx !== 0 || f.by !== 0 || f.bz !== 0) aligned = false;
      } else {
        f.bx = 0; f.by = 0; f.bz = 0;
      }
      f.aligned = aligned;
      f.ring = ring[i] ?? 0;
      f.time = dt;
      f.packetTime = rays.startTime;
      f.place();
      emitter.beginFiring(f);
      this.caster.fire(f, rng, emitter);
      emitter.endFiring();
      if (stats) stats.rays++;
    }
    builder.endPacket();
  }

  /** Packets [first, first + count) as one chunk. */
  simulatePackets(first: number, count: number, stats?: SimulationStats | null): PacketChunk {
    const builder = new ChunkBuilder(first);
    for (let p = first; p < first + count; p++) this.simulatePacket(p, builder, stats);
    return builder.finish();
  }
}

const prepared = new WeakMap<SimulationContext, Simulator>();

function simulatorFor(ctx: SimulationContext): Simulator {
  let s = prepared.get(ctx);
  if (!s) {
    s = new Simulator(ctx);
    prepared.set(ctx, s);
  }
  return s;
}

/** Simulate packet `packetIndex` into `writer` (its next packet must be that one). */
export function simulatePacket(
  ctx: SimulationContext,
  packetIndex: number,
  writer: ChunkBuilder,
  stats?: SimulationStats | null,
): void {
  simulatorFor(ctx).simulatePacket(packetIndex, writer, stats);
}

/** Simulate packets [first, first + count) into one chunk. */
export function simulatePackets(
  ctx: SimulationContext,
  first: number,
  count: number,
  stats?: SimulationStats | null,
): PacketChunk {
  return simulatorFor(ctx).simulatePackets(first, count, stats);
}
