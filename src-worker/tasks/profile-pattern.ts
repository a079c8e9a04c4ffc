/**
 * One revolution's beams of a profile for the Sensors page's 3D view, decimated to at most
 * `maxRays`, in the vehicle frame. A revolution can hold millions of rays (a custom profile may
 * have up to 5 M), so it is built here, not on the host.
 */
import type { ProfilePattern, SensorProfile } from '../../src-common/sensor-profile';
import { azimuthStep, packetDurationOf } from '../../src-common/profile-timing';
import { RAD_TO_DEG } from '../../src-common/units';
import { decimatePattern, revolutionPattern } from '../sensors/scan-pattern';
import { rotateByQuaternion } from '../geometry/pose';

export interface ProfilePatternInput {
  profile: SensorProfile;
  maxRays: number;
}

export function profilePatternTask({ profile, maxRays }: ProfilePatternInput): ProfilePattern {
  const pattern = revolutionPattern(profile);
  const d = decimatePattern(pattern, maxRays);
  return {
    id: profile.id,
    directions: toVehicleFrame(profile.mount, d.dir),
    ring: d.ring,
    ringElevationsDeg: profile.groups.flatMap((g) => g.lasers.map((l) => l.elevation * RAD_TO_DEG)),
    origin: [profile.mount[0], profile.mount[1], profile.mount[2]],
    totalRays: pattern.rayCount,
    stride: d.stride,
    raysPerSecond: pattern.rayCount * profile.rotationHz,
    azimuthStepsDeg: profile.groups.map((_, i) => azimuthStep(profile, i) * RAD_TO_DEG),
    packetsPerRevolution: pattern.packetsPerRevolution,
    packetDurationS: packetDurationOf(profile),
  };
}

/** Sensor-frame directions (3 per ray) rotated by the mount's quaternion into the vehicle frame. */
function toVehicleFrame(mount: readonly number[], dir: Float32Array): Float32Array {
  const [qx, qy, qz, qw] = [mount[3]!, mount[4]!, mount[5]!, mount[6]!];
  if (qx === 0 && qy === 0 && qz === 0) return dir;
  const out = new Float32Array(dir.length);
  for (let i = 0; i < dir.length; i += 3) rotateByQuaternion(qx, qy, qz, qw, dir[i]!, dir[i + 1]!, dir[i + 2]!, out, i);
  return out;
}
