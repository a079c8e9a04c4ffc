/**
 * Vehicle trajectories: timed poses (world ← vehicle) with linear interpolation of the
 * translation and spherical-linear interpolation (slerp) of the rotation, clamped at both ends.
 *
 * The simulator asks for the sensor pose at every ray's own firing time (world ← vehicle at t,
 * composed with the mount vehicle ← sensor), which is what gives a moving sensor the motion
 * distortion of a real one. Poses are [tx, ty, tz, qx, qy, qz, qw] (POSE_STRIDE = 7) in flat
 * Float64Arrays; the functions write into caller-owned arrays so the ray loop allocates nothing.
 */
import { rotateByQuaternion } from './pose';

const STRIDE = 7;

export interface Trajectory {
  /** Sample times (s), strictly increasing. */
  readonly times: Float64Array;
  /** 7 numbers per sample: world ← vehicle. */
  readonly poses: Float64Array;
}

/**
 * A trajectory from samples. Quaternions are normalised and made sign-continuous (each one in
 * the hemisphere of its predecessor) so interpolation takes the short way round. Throws a
 * message naming the sample on bad input.
 */
export function createTrajectory(times: ArrayLike<number>, poses: ArrayLike<number>): Trajectory {
  const n = times.length;
  if (n === 0) throw new Error('trajectory: at least one pose is required');
  if (poses.length !== n * STRIDE) {
    throw new Error(`trajectory: ${n} times need ${n * STRIDE} pose numbers, got ${poses.length}`);
  }
  const t = new Float64Array(n);
  const p = new Float64Array(n * STRIDE);
  for (let i = 0; i < n; i++) {
    const ti = times[i]!;
    if (!Number.isFinite(ti)) throw new Error(`trajectory: time ${i} is not finite`);
    if (i > 0 && !(ti > t[i - 1]!)) throw new Error(`trajectory: times must increase strictly (sample ${i})`);
    t[i] = ti;
    for (let k = 0; k < STRIDE; k++) {
      const v = poses[i * STRIDE + k]!;
      if (!Number.isFinite(v)) throw new Error(`trajectory: pose ${i} has a non-finite number at ${k}`);
      p[i * STRIDE + k] = v;
    }
    const o = i * STRIDE;
    let qx = p[o + 3]!, qy = p[o + 4]!, qz = p[o + 5]!, qw = p[o + 6]!;
    const norm = Math.hypot(qx, qy, qz, qw);
    if (!(norm > 1e-9)) throw new Error(`trajectory: pose ${i} has a zero quaternion`);
    qx /= norm; qy /= norm; qz /= norm; qw /= norm;
    if (i > 0) {
      const po = o - STRIDE;
      if (qx * p[po + 3]! + qy * p[po + 4]! + qz * p[po + 5]! + qw * p[po + 6]! < 0) {
        qx = -qx; qy = -qy; qz = -qz; qw = -qw;
      }
    }
    p[o + 3] = qx; p[o + 4] = qy; p[o + 5] = qz; p[o + 6] = qw;
  }
  return { times: t, poses: p };
}

/** A vehicle standing still at `pose` (identity by default). */
export function staticTrajectory(pose: ArrayLike<number> = [0, 0, 0, 0, 0, 0, 1]): Trajectory {
  return createTrajectory([0], pose);
}

/**
 * A vehicle moving at constant velocity (m/s, world frame) with a fixed orientation, sampled at
 * t0 and t1; handy for motion-distortion checks.
 */
export function constantVelocityTrajectory(
  start: ArrayLike<number>,
  velocity: readonly [number, number, number],
  t0: number,
  t1: number,
): Trajectory {
  const dt = t1 - t0;
  const end = Array.from(start as ArrayLike<number>);
  end[0] = start[0]! + velocity[0] * dt;
  end[1] = start[1]! + velocity[1] * dt;
  end[2] = start[2]! + velocity[2] * dt;
  return createTrajectory([t0, t1], [...Array.from(start), ...end]);
}

/** True when every sample has the same pose (no motion to interpolate). */
export function isStationary(traj: Trajectory): boolean {
  const p = traj.poses;
  for (let i = STRIDE; i < p.length; i++) if (p[i] !== p[i % STRIDE]) return false;
  return true;
}

/** Index of the last sample with time ≤ t (0 before the start, n − 1 after the end). */
export function segmentIndex(traj: Trajectory, t: number): number {
  const times = traj.times;
  const n = times.length;
  if (n === 1 || t <= times[0]!) return 0;
  if (t >= times[n - 1]!) return n - 1;
  let lo = 0, hi = n - 1; // times[lo] <= t < times[hi]
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (times[mid]! <= t) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** World ← vehicle at time t, written to out[o..o+6]. Clamped outside [first, last] time. */
export function poseAt(traj: Trajectory, t: number, out: Float64Array | number[], o = 0): void {
  const times = traj.times;
  const poses = traj.poses;
  const n = times.length;
  const i = segmentIndex(traj, t);
  if (i >= n - 1 || t <= times[i]!) {
    for (let k = 0; k < STRIDE; k++) out[o + k] = poses[i * STRIDE + k]!;
    return;
  }
  const a = i * STRIDE, b = a + STRIDE;
  const u = (t - times[i]!) / (times[i + 1]! - times[i]!);
  out[o] = poses[a]! + (poses[b]! - poses[a]!) * u;
  out[o + 1] = poses[a + 1]! + (poses[b + 1]! - poses[a + 1]!) * u;
  out[o + 2] = poses[a + 2]! + (poses[b + 2]! - poses[a + 2]!) * u;
  slerp(poses, a + 3, poses, b + 3, u, out, o + 3);
}

/**
 * Spherical linear interpolation between unit quaternions (x, y, z, w) at qa[ao..] and qb[bo..];
 * takes the short way round; normalised lerp when they are nearly equal.
 */
export function slerp(
  qa: ArrayLike<number>, ao: number,
  qb: ArrayLike<number>, bo: number,
  u: number,
  out: Float64Array | number[], oo: number,
): void {
  const ax = qa[ao]!, ay = qa[ao + 1]!, az = qa[ao + 2]!, aw = qa[ao + 3]!;
  let bx = qb[bo]!, by = qb[bo + 1]!, bz = qb[bo + 2]!, bw = qb[bo + 3]!;
  let dot = ax * bx + ay * by + az * bz + aw * bw;
  if (dot < 0) {
    dot = -dot; bx = -bx; by = -by; bz = -bz; bw = -bw;
  }
  let wa: number, wb: number;
  if (dot > 0.9995) {
    wa = 1 - u;
    wb = u;
  } else {
    const theta = Math.acos(Math.min(1, dot));
    const s = Math.sin(theta);
    wa = Math.sin((1 - u) * theta) / s;
    wb = Math.sin(u * theta) / s;
  }
  let x = wa * ax + wb * bx, y = wa * ay + wb * by, z = wa * az + wb * bz, w = wa * aw + wb * bw;
  // Not Math.hypot: it guards against overflow a unit quaternion cannot reach and is several
  // times slower (slerp runs for every distinct firing time of every packet).
  const norm = Math.sqrt(x * x + y * y + z * z + w * w);
  x /= norm; y /= norm; z /= norm; w /= norm;
  out[oo] = x; out[oo + 1] = y; out[oo + 2] = z; out[oo + 3] = w;
}

/** out = a ∘ b (apply b, then a): e.g. (world ← vehicle) ∘ (vehicle ← sensor) = world ← sensor. */
export function composePoses(
  a: ArrayLike<number>, ao: number,
  b: ArrayLike<number>, bo: number,
  out: Float64Array | number[], oo: number,
): void {
  const ax = a[ao + 3]!, ay = a[ao + 4]!, az = a[ao + 5]!, aw = a[ao + 6]!;
  const bx = b[bo + 3]!, by = b[bo + 4]!, bz = b[bo + 5]!, bw = b[bo + 6]!;
  // translation: a.t + R_a b.t
  const px = b[bo]!, py = b[bo + 1]!, pz = b[bo + 2]!;
  const tx = 2 * (ay * pz - az * py);
  const ty = 2 * (az * px - ax * pz);
  const tz = 2 * (ax * py - ay * px);
  const rx = px + aw * tx + (ay * tz - az * ty);
  const ry = py + aw * ty + (az * tx - ax * tz);
  const rz = pz + aw * tz + (ax * ty - ay * tx);
  const ox = a[ao]! + rx, oy = a[ao + 1]! + ry, oz = a[ao + 2]! + rz;
  // rotation: q_a q_b
  const qx = aw * bx + ax * bw + ay * bz - az * by;
  const qy = aw * by - ax * bz + ay * bw + az * bx;
  const qz = aw * bz + ax * by - ay * bx + az * bw;
  const qw = aw * bw - ax * bx - ay * by - az * bz;
  out[oo] = ox; out[oo + 1] = oy; out[oo + 2] = oz;
  out[oo + 3] = qx; out[oo + 4] = qy; out[oo + 5] = qz; out[oo + 6] = qw;
}

/** out = a⁻¹. */
export function invertPose(a: ArrayLike<number>, ao: number, out: Float64Array | number[], oo: number): void {
  const qx = -a[ao + 3]!, qy = -a[ao + 4]!, qz = -a[ao + 5]!, qw = a[ao + 6]!;
  // Translation of a⁻¹: −t rotated by the conjugate quaternion.
  rotateByQuaternion(qx, qy, qz, qw, -a[ao]!, -a[ao + 1]!, -a[ao + 2]!, out, oo);
  out[oo + 3] = qx; out[oo + 4] = qy; out[oo + 5] = qz; out[oo + 6] = qw;
}

/** Rotate (x, y, z) by the pose's quaternion (no translation). */
export function rotateVector(
  pose: ArrayLike<number>, o: number,
  x: number, y: number, z: number,
  out: Float64Array | Float32Array | number[], oi: number,
): void {
  rotateByQuaternion(pose[o + 3]!, pose[o + 4]!, pose[o + 5]!, pose[o + 6]!, x, y, z, out, oi);
}

/** Rotate (x, y, z) by the inverse of the pose's quaternion. */
export function rotateVectorInverse(
  pose: ArrayLike<number>, o: number,
  x: number, y: number, z: number,
  out: Float64Array | Float32Array | number[], oi: number,
): void {
  rotateByQuaternion(-pose[o + 3]!, -pose[o + 4]!, -pose[o + 5]!, pose[o + 6]!, x, y, z, out, oi);
}

/** pose · (x, y, z). */
export function applyPose(
  pose: ArrayLike<number>, o: number,
  x: number, y: number, z: number,
  out: Float64Array | Float32Array | number[], oi: number,
): void {
  rotateVector(pose, o, x, y, z, out, oi);
  out[oi] = out[oi]! + pose[o]!;
  out[oi + 1] = out[oi + 1]! + pose[o + 1]!;
  out[oi + 2] = out[oi + 2]! + pose[o + 2]!;
}

/** pose⁻¹ · (x, y, z): a world point into the pose's frame. */
export function applyPoseInverse(
  pose: ArrayLike<number>, o: number,
  x: number, y: number, z: number,
  out: Float64Array | Float32Array | number[], oi: number,
): void {
  rotateVectorInverse(pose, o, x - pose[o]!, y - pose[o + 1]!, z - pose[o + 2]!, out, oi);
}

/** World ← sensor at time t: poseAt(traj, t) ∘ mount (vehicle ← sensor). */
export function sensorPoseAt(
  traj: Trajectory,
  mount: ArrayLike<number>,
  t: number,
  out: Float64Array | number[],
  o = 0,
  scratch: Float64Array | number[] = new Float64Array(STRIDE),
): void {
  poseAt(traj, t, scratch, 0);
  composePoses(scratch, 0, mount, 0, out, o);
}

