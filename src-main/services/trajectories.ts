/**
 * Trajectories for simulation from a request: vehicle poses (world ← vehicle) sampled over time,
 * or — re-simulating a recorded drive — the log's own sensor poses (then the profile's mount is
 * not applied again: `sensorPoses` is true).
 */
import { ApiError, type TrajectorySpec } from '../api/contract';
import { POSE_STRIDE } from '../../src-common/packets';
import type { ProjectSession } from './project-session';

export interface Trajectory {
  /** Seconds, increasing; the first is 0. */
  times: Float64Array;
  /** 7 per sample: tx, ty, tz, qx, qy, qz, qw. */
  poses: Float64Array;
  /** True when the poses are sensor poses already (from a log). */
  sensorPoses: boolean;
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

export function buildTrajectory(session: ProjectSession, spec: TrajectorySpec, sceneMeta: Record<string, unknown> = {}): Trajectory {
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
  const times: number[] = [];
  const poses: number[] = [];
  for (const c of session.store.logs.chunks(spec.logId)) {
    for (let p = 0; p < c.packetCount; p++) {
      const t = c.packetTime[p]!;
      if (times.length && t <= times[times.length - 1]!) continue; // keep times strictly increasing
      times.push(t);
      for (let k = 0; k < POSE_STRIDE; k++) poses.push(c.packetPose[p * POSE_STRIDE + k]!);
    }
  }
  if (times.length === 0) throw new ApiError('bad_input', `drive log ${spec.logId} has no packets to take poses from`);
  const t0 = times[0]!;
  let end = times.length;
  if (spec.seconds !== undefined) while (end > 1 && times[end - 1]! - t0 > spec.seconds) end--;
  if (end === 1) {
    // One pose (a single scan): hold it for one revolution's worth of time.
    times.push(t0 + (spec.seconds ?? 0.1));
    poses.push(...poses.slice(0, POSE_STRIDE));
    end = 2;
  }
  return {
    times: Float64Array.from(times.slice(0, end), (t) => t - t0),
    poses: Float64Array.from(poses.slice(0, end * POSE_STRIDE)),
    sensorPoses: true,
  };
}
