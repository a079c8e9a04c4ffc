/**
 * Lambertian return intensity (003 §3.2.2): I = ρ · I₀ · cos θ, with θ the angle between the
 * surface normal and the ray; optionally divided by r² (profile.intensity.rangeFalloff).
 */
import type { SensorProfile } from '../../src-common/sensor-profile';

export function lambertian(
  reflectance: number,
  nx: number, ny: number, nz: number,
  dx: number, dy: number, dz: number,
  range: number,
  intensity: SensorProfile['intensity'],
): number {
  const cos = Math.abs(nx * dx + ny * dy + nz * dz);
  let i = reflectance * intensity.scale * cos;
  if (intensity.rangeFalloff && range > 0) i /= range * range;
  return i;
}

/** Intensity of a model-sampled return (hybrid, voxel: no surface normal or reflectance). */
export function modelIntensity(range: number, intensity: SensorProfile['intensity']): number {
  return intensity.rangeFalloff && range > 0 ? intensity.scale / (range * range) : intensity.scale;
}
