/**
 * Driving the reference site's trail: vehicle poses (world ← vehicle, origin on the ground, x
 * forward) at a constant speed along the trail's centre line, sampled at a fixed rate — what a
 * pose system logs (thesis 004 §4.4.1: 2.4 m/s on average). The heading follows the trail, the
 * pitch the ground's slope along it; the sensor's mount (the profile's) goes on top.
 *
 *   const path = trailPath(terrain, x0, x1);                 // centre line, by arc length
 *   const drive = driveTrajectory(terrain, path, { startX, seconds, speed: 2.4, rateHz: 100 });
 *   drive.times (s from 0), drive.poses (7 per sample)
 */
import type { Terrain } from './terrain';
import { yawPitchPose } from './reference-annotations';

export interface TrailPath {
  /** Arc length (m) at each sample, from 0. */
  s: Float64Array;
  x: Float64Array;
  y: Float64Array;
}

export interface DriveSpec {
  /** Where the drive starts along the trail (x, m). */
  startX: number;
  seconds: number;
  /** m/s; default 2.4. */
  speed?: number;
  /** Pose samples per second; default 100. */
  rateHz?: number;
}

export interface DriveTrajectory {
  times: Float64Array;
  /** World ← vehicle, 7 per sample. */
  poses: Float64Array;
}

/** The trail's centre line y = trailY(x) sampled every `step` metres of x, with its arc length. */
export function trailPath(terrain: Terrain, x0: number, x1: number, step = 0.25): TrailPath {
  const n = Math.max(2, Math.ceil((x1 - x0) / step) + 1);
  const s = new Float64Array(n), x = new Float64Array(n), y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = x0 + ((x1 - x0) * i) / (n - 1);
    y[i] = terrain.trailY(x[i]!);
    if (i > 0) s[i] = s[i - 1]! + Math.hypot(x[i]! - x[i - 1]!, y[i]! - y[i - 1]!);
  }
  return { s, x, y };
}

/** x on the path at arc length `at` (clamped to the path). */
function xAtLength(path: TrailPath, at: number): number {
  const { s, x } = path;
  if (at <= 0) return x[0]!;
  if (at >= s[s.length - 1]!) return x[x.length - 1]!;
  let lo = 0, hi = s.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (s[mid]! <= at) lo = mid;
    else hi = mid;
  }
  const f = (at - s[lo]!) / (s[hi]! - s[lo]!);
  return x[lo]! + f * (x[hi]! - x[lo]!);
}

function lengthAtX(path: TrailPath, at: number): number {
  const { s, x } = path;
  const i = Math.min(x.length - 2, Math.max(0, Math.floor(((at - x[0]!) / (x[x.length - 1]! - x[0]!)) * (x.length - 1))));
  const f = (at - x[i]!) / (x[i + 1]! - x[i]!);
  return s[i]! + f * (s[i + 1]! - s[i]!);
}

/** A drive along the trail from `startX` for `seconds` (samples at `rateHz`, both ends included). */
export function driveTrajectory(terrain: Terrain, path: TrailPath, spec: DriveSpec): DriveTrajectory {
  const speed = spec.speed ?? 2.4, rate = spec.rateHz ?? 100;
  if (!(spec.seconds > 0) || !(speed > 0) || !(rate > 0)) throw new Error('driveTrajectory: seconds, speed and rate must be positive');
  const n = Math.round(spec.seconds * rate) + 1;
  const times = new Float64Array(n), poses = new Float64Array(7 * n);
  const s0 = lengthAtX(path, spec.startX);
  const end = path.s[path.s.length - 1]!;
  if (s0 + speed * spec.seconds > end + 1e-6) throw new Error(`driveTrajectory: the drive (${(speed * spec.seconds).toFixed(1)} m from x = ${spec.startX}) runs past the trail's end`);
  for (let i = 0; i < n; i++) {
    const t = i / rate;
    const at = s0 + speed * t;
    const x = xAtLength(path, at);
    const y = terrain.trailY(x);
    // Heading and slope over ±0.5 m of trail: smooth at the 100 Hz sampling.
    const xa = xAtLength(path, at - 0.5), xb = xAtLength(path, at + 0.5);
    const ya = terrain.trailY(xa), yb = terrain.trailY(xb);
    const yaw = Math.atan2(yb - ya, xb - xa);
    const rise = terrain.heightAt(xb, yb) - terrain.heightAt(xa, ya);
    // Nose up on a rising trail: a negative rotation about the vehicle's y axis.
    const pitch = -Math.atan2(rise, Math.hypot(xb - xa, yb - ya));
    times[i] = t;
    poses.set(yawPitchPose(x, y, terrain.heightAt(x, y), yaw, pitch), 7 * i);
  }
  return { times, poses };
}
