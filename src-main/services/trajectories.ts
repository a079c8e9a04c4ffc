/**
 * Trajectories for simulation from a request: vehicle poses (world ← vehicle) sampled over time,
 * or — re-simulating a recorded drive — the log's own sensor poses (then the profile's mount is
 * not applied again: `sensorPoses` is true).
 */
import { ApiError, type TrajectorySpec } from '../api/contract';
import type { MessagePort } from 'node:worker_threads';
import type { ProjectSession } from './project-session';
import { runFed } from './chunk-server';
import type { LogTrajectoryInput, LogTrajectoryOutput } from '../../src-worker/tasks/log-trajectory';
import { invertPose7 } from '../../src-common/extrinsic';

export interface Trajectory {
  /** Seconds, increasing; the first is 0. */
  times: Float64Array;
  /** 7 per sample: tx, ty, tz, qx, qy, qz, qw. */
  poses: Float64Array;
  /** True when the poses are sensor poses already (from a log). */
  sensorPoses: boolean;
  /**
   * Seconds the trajectory covers when more than its times' span: a log's n packets cover n
   * packet periods, one more than lie between their first and last times.
   */
  coverS?: number;
}

const yawQuat = (deg: number) => {
  const h = (deg * Math.PI) / 360;
  return [0, 0, Math.sin(h), Math.cos(h)];
};

/**
 * Driving along a polyline of sensor poses (a scene's trail) at constant speed: times from the
 * arc length; cut at `seconds` when given.
 */
export function trailTrajectory(trail: readonly (readonly number[])[], speed: number, seconds?: number): Trajectory {
  if (trail.length < 2) throw new ApiError('bad_input', 'the scene has no trail to drive along (generate an offroad or hybrid-strip scene)');
  const times = [0];
  for (let i = 1; i < trail.length; i++) {
    const a = trail[i - 1]!, b = trail[i]!;
    times.push(times[i - 1]! + Math.hypot(b[0]! - a[0]!, b[1]! - a[1]!, b[2]! - a[2]!) / speed);
  }
  let end = trail.length;
  if (seconds !== undefined) while (end > 2 && times[end - 2]! >= seconds) end--;
  return {
    times: Float64Array.from(times.slice(0, end)),
    poses: Float64Array.from(trail.slice(0, end).flatMap((p) => [...p])),
    sensorPoses: true,
  };
}

/**
 * `vehicle`: a log's poses are wanted as the vehicle's (another sensor is mounted on that drive):
 * the log's own mount, recorded at import (`info.mount`, vehicle ← sensor), is undone; a log
 * imported without one has its sensor as the vehicle frame.
 */
export async function buildTrajectory(session: ProjectSession, spec: TrajectorySpec, sceneMeta: Record<string, unknown> = {}, opts: { vehicle?: boolean } = {}): Promise<Trajectory> {
  if (spec.kind === 'trail') {
    const trail = Array.isArray(sceneMeta.trail) ? (sceneMeta.trail as number[][]) : [];
    return trailTrajectory(trail, spec.speed, spec.seconds);
  }
  if (spec.kind === 'static') {
    const q = yawQuat(spec.headingDeg);
    const pose = [...spec.position, ...q];
    return { times: new Float64Array([0, spec.seconds]), poses: new Float64Array([...pose, ...pose]), sensorPoses: false };
  }
  if (spec.kind === 'straight') {
    const q = yawQuat(spec.headingDeg);
    const a = (spec.headingDeg * Math.PI) / 180;
    const d = spec.speed * spec.seconds;
    const end = [spec.start[0] + d * Math.cos(a), spec.start[1] + d * Math.sin(a), spec.start[2]];
    return { times: new Float64Array([0, spec.seconds]), poses: new Float64Array([...spec.start, ...q, ...end, ...q]), sensorPoses: false };
  }
  const log = session.store.logs.get(spec.logId);
  if (!log) throw new ApiError('not_found', `no drive log ${spec.logId} in this project`);
  // The log's poses are read in a worker as the host feeds it the chunks' times and poses.
  const logMount = Array.isArray(log.info.mount) && log.info.mount.length === 7 ? (log.info.mount as number[]) : null;
  const unmount = opts.vehicle && logMount ? [...invertPose7(logMount)] : null;
  const input = (feed: MessagePort): LogTrajectoryInput => ({ feed, ...(spec.seconds !== undefined ? { seconds: spec.seconds } : {}), ...(unmount ? { unmount } : {}) });
  const { result } = await runFed(session, 'log-trajectory', () => session.store.logs.chunkMeta(spec.logId), `drive log ${spec.logId}`, input);
  const poses = result as LogTrajectoryOutput;
  if (!poses) throw new ApiError('bad_input', `drive log ${spec.logId} has no packets to take poses from`);
  return { ...poses, sensorPoses: !opts.vehicle };
}
