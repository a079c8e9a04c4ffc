/**
 * Re-simulating a recorded drive: the log's own sensor poses as a trajectory, from the packets'
 * times and poses the host feeds chunk by chunk. Times are kept strictly increasing (a repeated
 * time is dropped), start at 0 and stop at `seconds` when given; a log of one pose holds it for
 * `seconds` (or 0.1 s). Returned in shared memory: every batch of the run reads it.
 */
import type { MessagePort } from 'node:worker_threads';
import type { TaskContext } from './task-context';
import { POSE_STRIDE } from '../../src-common/packets';
import type { PacketMeta } from '../formats/timeline';
import { feedChunks } from './chunk-feed';
import { toShared } from '../../src-common/shared-memory';
import { composePoses } from '../geometry/trajectory';

export interface LogTrajectoryInput {
  feed: MessagePort;
  seconds?: number;
  /**
   * The inverse of the log's mount (sensor ← vehicle): each pose becomes pose · unmount, the
   * vehicle's, so another sensor can be mounted on the same drive (docs/drive-logs.md, *Mounts
   * and extrinsics*). Absent: the sensor's poses.
   */
  unmount?: number[];
}

/**
 * The poses, or null when the log has no packets. `coverS`: the time the kept packets cover,
 * each lasting the log's mean packet period (n packets span n − 1 periods between their first
 * and last times, and cover n), so a log re-simulated at its own packet rate gets all its packets.
 */
export type LogTrajectoryOutput = { times: Float64Array; poses: Float64Array; coverS: number } | null;

export async function logTrajectoryTask(input: LogTrajectoryInput, ctx: TaskContext): Promise<LogTrajectoryOutput> {
  const times: number[] = [];
  const poses: number[] = [];
  const vehicle = new Float64Array(POSE_STRIDE);
  for await (const c of feedChunks<PacketMeta>(input.feed)) {
    ctx.checkCancelled();
    for (let p = 0; p < c.packetCount; p++) {
      const t = c.packetTime[p]!;
      if (times.length && t <= times[times.length - 1]!) continue; // keep times strictly increasing
      times.push(t);
      if (input.unmount) {
        composePoses(c.packetPose, p * POSE_STRIDE, input.unmount, 0, vehicle, 0);
        poses.push(...vehicle);
      } else for (let k = 0; k < POSE_STRIDE; k++) poses.push(c.packetPose[p * POSE_STRIDE + k]!);
    }
  }
  if (times.length === 0) return null;
  const t0 = times[0]!;
  let end = times.length;
  if (input.seconds !== undefined) while (end > 1 && times[end - 1]! - t0 > input.seconds) end--;
  let coverS: number;
  if (end === 1) {
    // One pose (a single scan): hold it for one revolution's worth of time.
    times.push(t0 + (input.seconds ?? 0.1));
    poses.push(...poses.slice(0, POSE_STRIDE));
    coverS = input.seconds ?? 0.1;
    end = 2;
  } else {
    const span = times[end - 1]! - t0;
    coverS = (span * end) / (end - 1);
  }
  return {
    ...toShared({
      times: Float64Array.from(times.slice(0, end), (t) => t - t0),
      poses: Float64Array.from(poses.slice(0, end * POSE_STRIDE)),
    }),
    coverS,
  };
}
