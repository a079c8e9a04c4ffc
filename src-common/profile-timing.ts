/**
 * A sensor profile's timing facts (docs/methods.md §5): how many firing sequences a revolution
 * holds, how long a packet lasts, where the head points at a time, and how many rays a revolution
 * emits. Cheap closed forms over the profile, shared by the engine's scan pattern
 * (src-worker/sensors/scan-pattern.ts), the host's profile summaries and the pages. The timing
 * model itself is described in src-common/sensor-profile.ts.
 */
import type { SensorProfile } from './sensor-profile';

const TWO_PI = 2 * Math.PI;
// Tolerance on counts of firing periods: files round periods to 12 significant digits.
export const PROFILE_TIMING_EPS = 1e-6;
const EPS = PROFILE_TIMING_EPS;

/** Sequences of each group in one revolution: ceil(T / period), tolerant of float noise. */
export function sequencesPerRevolution(profile: SensorProfile, groupIndex: number): number {
  const T = 1 / profile.rotationHz;
  return Math.max(1, Math.ceil(T / profile.groups[groupIndex]!.firingPeriod - EPS));
}

export function packetDurationOf(profile: SensorProfile): number {
  const fastest = Math.min(...profile.groups.map((g) => g.firingPeriod));
  return profile.sequencesPerPacket * fastest;
}

/** Azimuth step between successive sequences of a group (rad). */
export function azimuthStep(profile: SensorProfile, groupIndex: number): number {
  return TWO_PI * profile.rotationHz * profile.groups[groupIndex]!.firingPeriod;
}

/** Encoder azimuth at time t (rad, not wrapped). */
export function encoderAzimuth(profile: SensorProfile, t: number): number {
  const w = TWO_PI * profile.rotationHz * t;
  return profile.spin === 'cw' ? profile.azimuthEnd - w : profile.azimuthStart + w;
}

/** True when the head at encoder azimuth `az` is inside the emitted window. */
export function inAzimuthWindow(profile: SensorProfile): (az: number) => boolean {
  const span = profile.azimuthEnd - profile.azimuthStart;
  if (span >= TWO_PI - 1e-9) return () => true;
  const tol = 1e-7;
  return (az) => {
    let rel = (az - profile.azimuthStart) % TWO_PI;
    if (rel < 0) rel += TWO_PI;
    if (rel > TWO_PI - tol) rel -= TWO_PI;
    return rel >= -tol && rel <= span + tol;
  };
}

/** Rays one revolution emits (no arrays built). */
export function raysPerRevolution(profile: SensorProfile): number {
  const inWindow = inAzimuthWindow(profile);
  let rays = 0;
  profile.groups.forEach((g, gi) => {
    const n = sequencesPerRevolution(profile, gi);
    let emitted = 0;
    for (let k = 0; k < n; k++) if (inWindow(encoderAzimuth(profile, k * g.firingPeriod))) emitted++;
    rays += emitted * g.lasers.length;
  });
  return rays;
}
