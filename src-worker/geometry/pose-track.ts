/**
 * A track of timed poses (world ← sensor, [tx, ty, tz, qx, qy, qz, qw]) from a pose file, asked
 * for the pose at any time: linear in position, slerp in rotation, clamped at both ends. It is
 * a Trajectory (geometry/trajectory.ts) built from unsorted file rows, so the interpolation,
 * the quaternion normalisation and the sign continuity are that module's — nothing is redone.
 *
 * KITTI rows have no times: `fromRows` puts pose i at time i (scan index), so poseAt(i) is scan
 * i's pose and fractional indices interpolate between scans.
 */
import { createTrajectory, poseAt, type Trajectory } from './trajectory';

const STRIDE = 7;

export class PoseTrack {
  readonly trajectory: Trajectory;
  /** Input rows left out because another row had the same time (the first one is kept). */
  readonly duplicatesDropped: number;

  private constructor(trajectory: Trajectory, duplicatesDropped: number) {
    this.trajectory = trajectory;
    this.duplicatesDropped = duplicatesDropped;
  }

  /**
   * From times (s) and 7 numbers per pose, in any order: sorted by time (stable), rows with a
   * time already seen dropped. Throws on non-finite numbers, a zero quaternion or no poses.
   */
  static fromTimed(times: ArrayLike<number>, poses: ArrayLike<number>): PoseTrack {
    const n = times.length;
    if (poses.length !== STRIDE * n) throw new Error(`pose track: ${n} times need ${STRIDE * n} pose numbers, got ${poses.length}`);
    for (let i = 0; i < n; i++) if (!Number.isFinite(times[i]!)) throw new Error(`pose track: time ${i} is not finite`);
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => times[a]! - times[b]! || a - b);
    const keep = order.filter((i, k) => k === 0 || times[i]! !== times[order[k - 1]!]!);
    const t = Float64Array.from(keep, (i) => times[i]!);
    const p = new Float64Array(STRIDE * keep.length);
    keep.forEach((i, k) => {
      for (let j = 0; j < STRIDE; j++) p[STRIDE * k + j] = poses[STRIDE * i + j]!;
    });
    return new PoseTrack(createTrajectory(t, p), n - keep.length);
  }

  /** KITTI-style rows without times: pose i at time i (or t0 + i·dt). */
  static fromRows(poses: ArrayLike<number>, opts: { t0?: number; dt?: number } = {}): PoseTrack {
    const n = Math.floor(poses.length / STRIDE);
    if (poses.length !== STRIDE * n) throw new Error(`pose track: ${poses.length} numbers are not whole poses of ${STRIDE}`);
    const t0 = opts.t0 ?? 0, dt = opts.dt ?? 1;
    if (!(dt > 0)) throw new Error(`pose track: dt must be positive, got ${dt}`);
    return PoseTrack.fromTimed(Float64Array.from({ length: n }, (_, i) => t0 + i * dt), poses);
  }

  /** From parsePosesFile's result: timed rows as they are, KITTI rows by index. */
  static fromFile(f: { times: ArrayLike<number> | null; poses: ArrayLike<number> }): PoseTrack {
    return f.times ? PoseTrack.fromTimed(f.times, f.poses) : PoseTrack.fromRows(f.poses);
  }

  get count(): number {
    return this.trajectory.times.length;
  }

  get startTime(): number {
    return this.trajectory.times[0]!;
  }

  get endTime(): number {
    return this.trajectory.times[this.count - 1]!;
  }

  /** World ← sensor at `time` into out[o..o+6]; the first/last pose outside the track's span. */
  poseAt(time: number, out: Float64Array | number[], o = 0): void {
    poseAt(this.trajectory, time, out, o);
  }
}
