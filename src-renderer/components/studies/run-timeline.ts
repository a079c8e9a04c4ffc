/**
 * A study run's state at a simulated time, from the history `studies.run` returns: how many scans
 * have ended (the costmap and the plans follow them), where the vehicle is (interpolated between
 * the poses at scan starts), the track driven so far, and the plan it is following. Pure, so the
 * synced panels and the tests agree on what "time t" means: a scan counts once it has ended
 * (frameTime ≤ t), as in the host's `studies.costmap`.
 */

/** Scans ended by `t` (frameTime is ascending). */
export function framesAt(frameTime: ArrayLike<number>, t: number): number {
  let lo = 0, hi = frameTime.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (frameTime[mid]! <= t + 1e-9) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface VehiclePose {
  t: number;
  x: number;
  y: number;
  yaw: number;
}

const POSE = 5; // t, x, y, z, yaw

/** Rows of `poses` (t x y z yaw) at or before `t`: the index of the last one (−1 if none). */
function lastRowAtOrBefore(poses: ArrayLike<number>, t: number): number {
  const rows = Math.floor(poses.length / POSE);
  let lo = 0, hi = rows;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (poses[POSE * mid]! <= t + 1e-9) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

function wrapAngle(a: number): number {
  return a - 2 * Math.PI * Math.round(a / (2 * Math.PI));
}

/** The vehicle at `t`: linear between the bracketing rows (yaw the short way round); held at the ends. */
export function poseAt(poses: ArrayLike<number>, t: number): VehiclePose | null {
  const rows = Math.floor(poses.length / POSE);
  if (rows === 0) return null;
  const row = (r: number): VehiclePose => ({ t: poses[POSE * r]!, x: poses[POSE * r + 1]!, y: poses[POSE * r + 2]!, yaw: poses[POSE * r + 4]! });
  const r = lastRowAtOrBefore(poses, t);
  if (r < 0) return { ...row(0), t };
  if (r >= rows - 1) return { ...row(rows - 1), t };
  const a = row(r), b = row(r + 1);
  const dt = b.t - a.t;
  const u = dt > 0 ? Math.min(1, Math.max(0, (t - a.t) / dt)) : 1;
  return { t, x: a.x + u * (b.x - a.x), y: a.y + u * (b.y - a.y), yaw: wrapAngle(a.yaw + u * wrapAngle(b.yaw - a.yaw)) };
}

/** The track driven by `t`: x y pairs of the pose rows up to then, ending at the interpolated pose. */
export function trackAt(poses: ArrayLike<number>, t: number): Float64Array {
  const r = lastRowAtOrBefore(poses, t);
  const here = poseAt(poses, t);
  if (!here) return new Float64Array(0);
  const n = Math.max(0, r + 1);
  const out = new Float64Array(2 * (n + 1));
  for (let i = 0; i < n; i++) {
    out[2 * i] = poses[POSE * i + 1]!;
    out[2 * i + 1] = poses[POSE * i + 2]!;
  }
  out[2 * n] = here.x;
  out[2 * n + 1] = here.y;
  return out;
}

/** Index of the plan in force after `frames` scans (the last one made with at most that many): −1 before the first. */
export function planIndexAt(planFrame: ArrayLike<number>, frames: number): number {
  let lo = 0, hi = planFrame.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (planFrame[mid]! <= frames) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** The vertices (x y pairs) of plan `p`; empty when that plan found no path. */
export function planVertices(planStart: ArrayLike<number>, planXY: Float32Array, p: number): Float32Array {
  if (p < 0 || p + 1 >= planStart.length) return new Float32Array(0);
  return planXY.subarray(2 * planStart[p]!, 2 * planStart[p + 1]!);
}

/** Polyline length (m) of x y pairs. */
export function polylineLength(xy: ArrayLike<number>): number {
  let s = 0;
  for (let k = 2; k + 1 < xy.length; k += 2) s += Math.hypot(xy[k]! - xy[k - 2]!, xy[k + 1]! - xy[k - 1]!);
  return s;
}

/** Median spacing of ascending times (a scan's period); 0 for fewer than two. */
export function medianPeriod(times: ArrayLike<number>): number {
  if (times.length < 2) return times.length === 1 ? times[0]! : 0;
  const d: number[] = [];
  for (let i = 1; i < times.length; i++) d.push(times[i]! - times[i - 1]!);
  d.sort((a, b) => a - b);
  return d[d.length >> 1]!;
}

/**
 * The time `count` scans before or after `t` on the clock of the slowest shown sensor (its scan
 * ends), so one key press changes every panel — stepping a 75 Hz LMS-291 beside a 10 Hz VLP-16
 * would otherwise take 7 presses to move the VLP-16 once. Clamped to [0, end].
 */
export function stepTime(frameTimes: readonly ArrayLike<number>[], t: number, dir: 1 | -1, count = 1, end = Infinity): number {
  let clock: ArrayLike<number> | null = null, period = -1;
  for (const ft of frameTimes) {
    const p = medianPeriod(ft);
    if (ft.length && p > period) {
      period = p;
      clock = ft;
    }
  }
  if (!clock || !(period > 0)) return Math.max(0, Math.min(end, t));
  const n = clock.length, last = clock[n - 1]!;
  // Past that sensor's last scan (it reached the goal early), its period keeps the steps going.
  const tick = (k: number) => (k < 0 ? 0 : k < n ? clock[k]! : last + (k - n + 1) * period);
  // index of the tick at or before t (−1: before the first)
  const at = t <= last + 1e-9 ? framesAt(clock, t) - 1 : n - 1 + Math.floor((t - last) / period + 1e-6);
  const onTick = at >= 0 && Math.abs(tick(at) - t) < 1e-6;
  const k = Math.max(-1, dir > 0 ? at + count : (onTick ? at : at + 1) - count);
  return Math.max(0, Math.min(end, tick(k)));
}
