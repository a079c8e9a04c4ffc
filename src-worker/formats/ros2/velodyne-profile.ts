/**
 * Fits a Velodyne profile's timing to the model its packets say they come from.
 *
 * A Velodyne calibration file carries geometry only, so importCalibration tells the timing from
 * the laser count and elevations (src-worker/sensors/models.ts); a 32-laser file stated or read as
 * an HDL-32E (1.152 µs spacing, 46.08 µs sequence) whose packets say VLP-32C is re-timed here.
 * A VLP-32C fires its 32 lasers in pairs 2.304 µs apart with one 55.296 µs sequence per block
 * (VLP-32C manual, the ROS velodyne driver's timing table): with the HDL-32E timing its rays
 * would be interpolated up to 0.03° off in azimuth (at 10 Hz) and stamped up to 0.1 ms off
 * (12 blocks × the 9.2 µs difference in sequence period).
 */
import type { SensorProfile } from '../../../src-common/sensor-profile';
import { VLP32C_PRODUCT_ID, VLP32C_TIMING } from '../velodyne/velodyne-packet';

export type VelodyneTimingModel = 'vlp32c';

/** The laser time offsets of a VLP-32C: channel i fires with its pair at ⌊i/2⌋ · 2.304 µs. */
export function vlp32cLaserTime(i: number): number {
  return Math.floor(i / 2) * VLP32C_TIMING.pairSpacing;
}

/** True when the profile already has the VLP-32C firing layout (one group of 32 at 55.296 µs). */
export function hasVlp32cTiming(profile: SensorProfile): boolean {
  const g = profile.groups[0];
  return (
    profile.groups.length === 1 && g !== undefined && g.lasers.length === 32 &&
    Math.abs(g.firingPeriod - VLP32C_TIMING.sequencePeriod) < 1e-12 &&
    g.lasers.every((l, i) => Math.abs(l.timeOffset - vlp32cLaserTime(i)) < 1e-12)
  );
}

/**
 * A copy of `profile` with the firing timing of `model` (geometry untouched), or the profile
 * itself when it has that timing already or cannot take it (not one group of 32 lasers).
 */
export function velodyneProfileForModel(profile: SensorProfile, model: VelodyneTimingModel): { profile: SensorProfile; retimed: boolean } {
  const g = profile.groups[0];
  if (model !== 'vlp32c' || profile.groups.length !== 1 || !g || g.lasers.length !== 32 || hasVlp32cTiming(profile)) {
    return { profile, retimed: false };
  }
  const out: SensorProfile = structuredClone(profile);
  const group = out.groups[0]!;
  group.firingPeriod = VLP32C_TIMING.sequencePeriod;
  group.lasers.forEach((l, i) => { l.timeOffset = vlp32cLaserTime(i); });
  out.sequencesPerPacket = VLP32C_TIMING.sequencesPerPacket;
  out.name = out.name.replace('HDL-32E', 'VLP-32C');
  out.description += ' Timing set to the VLP-32C firing layout (laser pairs 2.304 µs apart, 55.296 µs per sequence), as its packets carry product id 0x28.';
  return { profile: out, retimed: true };
}

/** The timing model a packet's product id asks for, or null. */
export function velodyneTimingModel(productId: number, lowerBlocks: number): VelodyneTimingModel | null {
  return lowerBlocks === 0 && productId === VLP32C_PRODUCT_ID ? 'vlp32c' : null;
}
