/**
 * A recorded log as the simulator's input: its packets' own rays (direction, firing time, ring)
 * fired from its own sensor poses. Simulating a model this way gives one simulated pulse per
 * logged pulse, in the same order, so evaluation pairs rays index by index (docs/methods.md §6) — what
 * model tuning and "simulate this drive again in that scene" need.
 *
 * Every ray is fired from its packet's pose (firing time 0), not from the pose at its own firing
 * time: a log's convention is that `packetPose · (range · dir)` is the world point (decoders and
 * the simulator both write returns in the packet frame), so the logged direction is the one
 * from the packet's origin. Firing it from there reproduces the logged geometry exactly and keeps
 * the simulated direction equal to the logged one, which the index pairing relies on; the
 * difference from the true beam origin is the vehicle's motion within one packet (≈ 1 ms).
 *
 * Second returns of a dual-return pulse (rayReturn ≠ 0) are the same pulse again and are not
 * fired twice. Packets are indexed 0… across the chunks given (their `packetStart` is ignored),
 * and the trajectory is the packets' poses at their times (sensor poses: mount = identity).
 *
 * `logChunkRays` is the same for the user-facing path (`thicket simulate --rays-from`,
 * src-worker/tasks/simulate-log-rays.ts): one stored chunk, its packets at their indices in the
 * log, each fired from its own packet pose (`PacketRays.pose`, so no trajectory is interpolated
 * and packets sharing a time keep their own poses) with each ray's logged firing time recorded.
 */
import { type PacketChunk, POSE_STRIDE } from '../../src-common/packets';
import { createTrajectory, type Trajectory } from '../geometry/trajectory';
import type { PacketRays, PacketRaySource } from './types';

export type LogRayChunk = Pick<PacketChunk, 'packetCount' | 'packetTime' | 'packetPose' | 'rayStart' | 'rayDir' | 'rayTime' | 'rayRing' | 'rayReturn'>;

export interface LogRays {
  rays: PacketRaySource;
  trajectory: Trajectory;
  packets: number;
  /** Pulses fired (first returns and misses). */
  pulses: number;
}

/**
 * The rays of one chunk as a source indexed by the packets' places in the log
 * (`chunk.packetStart` …), each packet carrying its own pose and its rays their logged times.
 */
export function logChunkRays(chunk: LogRayChunk & Pick<PacketChunk, 'packetStart'>): { rays: PacketRaySource; pulses: number } {
  let pulses = 0;
  for (let r = 0; r < chunk.rayStart[chunk.packetCount]!; r++) if (chunk.rayReturn[r] === 0) pulses++;
  const scratch = new PacketScratch();
  const pose = new Float64Array(POSE_STRIDE);
  const rays: PacketRaySource = (p) => {
    const k = p - chunk.packetStart;
    if (!(k >= 0 && k < chunk.packetCount)) throw new Error(`log rays: packet ${p} is outside the chunk (packets ${chunk.packetStart}…${chunk.packetStart + chunk.packetCount - 1})`);
    for (let i = 0; i < POSE_STRIDE; i++) pose[i] = chunk.packetPose[k * POSE_STRIDE + i]!;
    const out = scratch.fill(chunk, k, true);
    out.pose = pose;
    return out;
  };
  return { rays, pulses };
}

/** One packet's first-return rays, in reusable arrays (the simulator reads a packet before asking for the next). */
class PacketScratch {
  private dir = new Float32Array(0);
  private time = new Float32Array(0);
  private ring = new Uint16Array(0);
  readonly out: PacketRays = { startTime: 0, count: 0, dir: this.dir, time: this.time, ring: this.ring };

  /** `loggedTimes`: each ray's logged firing time, else 0 (fired at the packet's time). */
  fill(c: LogRayChunk, packet: number, loggedTimes: boolean): PacketRays {
    const a = c.rayStart[packet]!, b = c.rayStart[packet + 1]!;
    if (this.time.length < b - a) {
      this.dir = new Float32Array(3 * (b - a));
      this.time = new Float32Array(b - a);
      this.ring = new Uint16Array(b - a);
    }
    const { dir, time, ring } = this;
    let n = 0;
    for (let r = a; r < b; r++) {
      if (c.rayReturn[r] !== 0) continue;
      dir[3 * n] = c.rayDir[3 * r]!;
      dir[3 * n + 1] = c.rayDir[3 * r + 1]!;
      dir[3 * n + 2] = c.rayDir[3 * r + 2]!;
      time[n] = loggedTimes ? c.rayTime[r]! : 0;
      ring[n] = c.rayRing[r]!;
      n++;
    }
    const out = this.out;
    out.startTime = c.packetTime[packet]!;
    out.count = n;
    out.dir = dir;
    out.time = time;
    out.ring = ring;
    return out;
  }
}

export function logRays(chunks: readonly LogRayChunk[]): LogRays {
  const where: { chunk: number; packet: number }[] = [];
  const times: number[] = [];
  const poses: number[] = [];
  let pulses = 0;
  chunks.forEach((c, ci) => {
    for (let p = 0; p < c.packetCount; p++) {
      where.push({ chunk: ci, packet: p });
      const t = c.packetTime[p]!;
      // The trajectory needs strictly increasing times; packets sharing a time share a pose.
      if (times.length === 0 || t > times[times.length - 1]!) {
        times.push(t);
        for (let k = 0; k < POSE_STRIDE; k++) poses.push(c.packetPose[p * POSE_STRIDE + k]!);
      }
      for (let r = c.rayStart[p]!; r < c.rayStart[p + 1]!; r++) if (c.rayReturn[r] === 0) pulses++;
    }
  });
  if (where.length === 0) throw new Error('log rays: the log slice has no packets');
  if (times.length === 1) {
    // One scan: hold its pose so the trajectory has two samples.
    times.push(times[0]! + 1);
    poses.push(...poses.slice(0, POSE_STRIDE));
  }
  const trajectory = createTrajectory(times, poses);
  const scratch = new PacketScratch();
  const rays: PacketRaySource = (p) => {
    const w = where[p];
    if (!w) throw new Error(`log rays: packet ${p} is outside the slice (${where.length} packets)`);
    return scratch.fill(chunks[w.chunk]!, w.packet, false);
  };
  return { rays, trajectory, packets: where.length, pulses };
}
