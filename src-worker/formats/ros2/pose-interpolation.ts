/**
 * Timed poses that grow as a bag streams (a tf edge, an odometry track), sampled at any time:
 * linear in position, slerp in rotation, clamped at both ends (a pose just outside the recorded
 * span is better held than extrapolated).
 *
 * geometry/pose-track.ts (PoseTrack) does this for a pose file, built once from all its rows. A
 * bag's poses arrive one at a time, sometimes out of order, so this keeps a growable sorted
 * series instead, and samples it with the same trajectory.ts poseAt that PoseTrack uses.
 */
import { poseAt } from '../../geometry/trajectory';
import { grown } from '../../arrays/typed-arrays';

const STRIDE = 7;

/** A growable, time-sorted series of poses. */
export class PoseSeries {
  private times = new Float64Array(16);
  private poses = new Float64Array(16 * STRIDE);
  count = 0;

  /** Latest sample time (−∞ when empty). */
  get last(): number {
    return this.count > 0 ? this.times[this.count - 1]! : -Infinity;
  }

  /**
   * Adds a sample (a later sample at the same time replaces it). The quaternion is normalised;
   * a pose with a non-finite number or a zero quaternion is refused (returns false).
   */
  add(t: number, pose: ArrayLike<number>): boolean {
    if (!Number.isFinite(t)) return false;
    for (let k = 0; k < STRIDE; k++) if (!Number.isFinite(pose[k]!)) return false;
    const n = Math.hypot(pose[3]!, pose[4]!, pose[5]!, pose[6]!);
    if (!(n > 1e-9)) return false;
    // Position of the first sample later than t (samples usually arrive in order: check the end first).
    let i = this.count;
    if (i > 0 && t < this.times[i - 1]!) {
      let lo = 0, hi = i;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.times[mid]! <= t) lo = mid + 1;
        else hi = mid;
      }
      i = lo;
    }
    if (i > 0 && this.times[i - 1] === t) {
      this.write(i - 1, pose, n);
      return true;
    }
    if (this.count === this.times.length) this.grow();
    this.times.copyWithin(i + 1, i, this.count);
    this.poses.copyWithin((i + 1) * STRIDE, i * STRIDE, this.count * STRIDE);
    this.times[i] = t;
    this.write(i, pose, n);
    this.count++;
    return true;
  }

  /** The pose at time t into out[oo..]; false when the series is empty. */
  sample(t: number, out: Float64Array | number[], oo = 0): boolean {
    const n = this.count;
    if (n === 0) return false;
    // Strictly increasing times and unit quaternions: a valid Trajectory over the filled part.
    poseAt({ times: this.times.subarray(0, n), poses: this.poses.subarray(0, n * STRIDE) }, t, out, oo);
    return true;
  }

  private write(i: number, pose: ArrayLike<number>, norm: number): void {
    const o = i * STRIDE;
    for (let k = 0; k < 3; k++) this.poses[o + k] = pose[k]!;
    for (let k = 3; k < STRIDE; k++) this.poses[o + k] = pose[k]! / norm;
  }

  private grow(): void {
    this.times = grown(this.times, this.times.length * 2);
    this.poses = grown(this.poses, this.poses.length * 2);
  }
}
