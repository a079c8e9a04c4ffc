/**
 * From what the beam met to what the sensor reports: return processing of a pulse's sub-returns
 * (003 §3.2.3), range noise, quantisation and limits.
 */
import type { ReturnMode } from '../../src-common/sensor-profile';
import type { RandomStream } from '../random/stream';

/** One reported return of a pulse: its range, intensity, and which sub-return gives its ids. */
export interface PulseReturn {
  range: number;
  intensity: number;
  /** Index (into the sub-return arrays) whose object and class the return reports. */
  sub: number;
}

export function newPulseReturns(): [PulseReturn, PulseReturn] {
  return [{ range: NaN, intensity: 0, sub: -1 }, { range: NaN, intensity: 0, sub: -1 }];
}

/**
 * Return processing of one pulse over its n sub-returns (ranges t[0..n), intensities I[0..n),
 * in stencil order; only sub-rays that hit). Writes up to two returns, ordered by return number,
 * and gives their count (0 when n = 0):
 * - `strongest`: the most intense sub-return (the first in stencil order on a tie, so a uniform
 *   target reports the centre ray);
 * - `last`: the farthest sub-return;
 * - `first`: the mean range (and mean intensity) of the sub-returns within `cutoff` of the nearest;
 *   ids from the nearest. This averaging is what produces mixed pixels (003 Fig. 2);
 * - `strongest+last`: the strongest as return 0 and the last as return 1, unless the last lies
 *   within `cutoff` of the strongest: the receiver cannot separate echoes closer than the
 *   cutoff, so they are one echo and only the strongest is reported.
 * For a single sub-return the intensity is that sub-ray's; intensities stay on the scale of
 * one ray (a uniform wall reports ρ·I₀·cos θ in every mode).
 */
export function processPulse(
  mode: ReturnMode,
  cutoff: number,
  n: number,
  t: ArrayLike<number>,
  I: ArrayLike<number>,
  out: [PulseReturn, PulseReturn],
): number {
  if (n <= 0) return 0;
  let strongest = 0, farthest = 0, nearest = 0;
  for (let k = 1; k < n; k++) {
    if (I[k]! > I[strongest]!) strongest = k;
    if (t[k]! > t[farthest]!) farthest = k;
    if (t[k]! < t[nearest]!) nearest = k;
  }
  const o0 = out[0];
  switch (mode) {
    case 'strongest':
      o0.range = t[strongest]!;
      o0.intensity = I[strongest]!;
      o0.sub = strongest;
      return 1;
    case 'last':
      o0.range = t[farthest]!;
      o0.intensity = I[farthest]!;
      o0.sub = farthest;
      return 1;
    case 'first': {
      const limit = t[nearest]! + cutoff;
      let sumT = 0, sumI = 0, m = 0;
      for (let k = 0; k < n; k++) {
        if (t[k]! <= limit) {
          sumT += t[k]!;
          sumI += I[k]!;
          m++;
        }
      }
      o0.range = sumT / m;
      o0.intensity = sumI / m;
      o0.sub = nearest;
      return 1;
    }
    case 'strongest+last': {
      o0.range = t[strongest]!;
      o0.intensity = I[strongest]!;
      o0.sub = strongest;
      if (t[farthest]! - t[strongest]! < cutoff || farthest === strongest) return 1;
      const o1 = out[1];
      o1.range = t[farthest]!;
      o1.intensity = I[farthest]!;
      o1.sub = farthest;
      return 2;
    }
  }
}

/** Sensor-side measurement of a range: additive N(0, σ²) noise, quantisation, limits. */
export interface RangeModel {
  sigma: number;
  resolution: number;
  min: number;
  max: number;
}

/** The reported range, or NaN when it falls outside [min, max]. Draws only when σ > 0. */
export function measureRange(r: number, m: RangeModel, rng: RandomStream): number {
  let v = m.sigma > 0 ? r + m.sigma * rng.normal() : r;
  if (m.resolution > 0) v = Math.round(v / m.resolution) * m.resolution;
  return v >= m.min && v <= m.max ? v : NaN;
}

/** Reported range of a model-sampled return (hybrid, voxel): quantisation and limits only. */
export function quantiseRange(r: number, m: RangeModel): number {
  const v = m.resolution > 0 ? Math.round(r / m.resolution) * m.resolution : r;
  return v >= m.min && v <= m.max ? v : NaN;
}
