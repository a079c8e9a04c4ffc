/**
 * The study's vehicle: a generic passenger-sized skid-steered wheeled vehicle (003 §3.5.3), a
 * rectangle on the ground, and its sensor mount.
 *
 *   vehiclePose(x, y, yaw, ground, spec) → world ← vehicle, origin on the ground at the
 *     footprint's centre, pitched and rolled to the ground under the footprint's edges
 *   mountPose(mount) → vehicle ← sensor (height above the ground, pitch, yaw, x, y)
 *
 * Angles: yaw counter-clockwise from +x; the mount's pitch is a right-handed rotation about the
 * vehicle's y (left) axis, so a positive pitch tilts the sensor's forward axis down.
 */
import { rollPitchYawToQuaternion } from '../geometry/pose';
import type { GroundField } from './ground-height';

export interface VehicleSpec {
  /** Top speed (m/s); 003 drove at 2 m/s. */
  speed: number;
  length: number;
  width: number;
  /** Largest yaw rate (rad/s). */
  maxYawRate: number;
}

export interface MountSpec {
  /** Sensor height above the ground (m). */
  height: number;
  pitchDeg: number;
  yawDeg: number;
  /** Position on the vehicle (m): forward, left of the footprint's centre. */
  x: number;
  y: number;
}

export type Pose7 = [number, number, number, number, number, number, number];

export function mountPose(m: MountSpec): Pose7 {
  const q = rollPitchYawToQuaternion(0, (m.pitchDeg * Math.PI) / 180, (m.yawDeg * Math.PI) / 180);
  return [m.x, m.y, m.height, q[0], q[1], q[2], q[3]];
}

export function vehiclePose(x: number, y: number, yaw: number, ground: Pick<GroundField, 'heightAt'>, spec: Pick<VehicleSpec, 'length' | 'width'>, out: Float64Array | number[], o = 0): void {
  const c = Math.cos(yaw), s = Math.sin(yaw);
  const hl = spec.length / 2, hw = spec.width / 2;
  const front = ground.heightAt(x + hl * c, y + hl * s), back = ground.heightAt(x - hl * c, y - hl * s);
  const left = ground.heightAt(x - hw * s, y + hw * c), right = ground.heightAt(x + hw * s, y - hw * c);
  // Nose up (front higher) is a negative pitch about +y; left side up is a positive roll about +x.
  const pitch = -Math.atan2(front - back, spec.length);
  const roll = Math.atan2(left - right, spec.width);
  const q = rollPitchYawToQuaternion(roll, pitch, yaw);
  out[o] = x;
  out[o + 1] = y;
  out[o + 2] = ground.heightAt(x, y);
  out[o + 3] = q[0]; out[o + 4] = q[1]; out[o + 5] = q[2]; out[o + 6] = q[3];
}

/** Wraps an angle into (−π, π]. */
export function wrapAngle(a: number): number {
  let r = a % (2 * Math.PI);
  if (r <= -Math.PI) r += 2 * Math.PI;
  else if (r > Math.PI) r -= 2 * Math.PI;
  return r;
}
