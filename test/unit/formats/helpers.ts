import { expect } from 'vitest';
import { DecodeError } from '../../../src-worker/formats/decode-error';
import type { DecodedCloud } from '../../../src-worker/formats/decoded-cloud';

/** The shared real-data folder (test/helpers/shared-data.ts finds it); it warns once when absent. */
export { SHARED_DATA as DATA_DIR, HAS_SHARED_DATA as HAVE_DATA } from '../../helpers/shared-data';
export { sampleCloud } from '../../../src-worker/formats/sample-cloud';

/** Runs fn and returns the DecodeError it throws; fails when it returns or throws anything else. */
export function decodeErrorOf(fn: () => unknown): DecodeError {
  try {
    fn();
  } catch (e) {
    if (e instanceof DecodeError) return e;
    throw new Error(`expected a DecodeError, got ${String(e)}`, { cause: e });
  }
  throw new Error('expected a DecodeError, but decoding succeeded');
}

/** The invariants every returned cloud must hold, whatever the input. */
export function expectConsistent(c: DecodedCloud): void {
  expect(Number.isInteger(c.count) && c.count >= 0).toBe(true);
  expect(c.xyz).toBeInstanceOf(Float32Array);
  expect(c.xyz.length).toBe(3 * c.count);
  expect(c.intensity.length).toBe(c.count);
  if (c.ring) expect(c.ring.length).toBe(c.count);
  if (c.time) expect(c.time.length).toBe(c.count);
  if (c.viewpoint) expect(c.viewpoint.length).toBe(7);
  expect(Number.isFinite(c.timeBase)).toBe(true);
  let bad = 0;
  for (let i = 0; i < c.xyz.length; i += 3) {
    if (!(Number.isFinite(c.xyz[i]!) && Number.isFinite(c.xyz[i + 1]!) && Number.isFinite(c.xyz[i + 2]!))) bad++;
  }
  expect(c.dropped).toBe(bad);
}

/** Elevation range in degrees over finite points farther than minRange from the origin. */
export function elevationRange(xyz: Float32Array, minRange = 1): { min: number; max: number } {
  let min = Infinity, max = -Infinity;
  for (let i = 0; i < xyz.length; i += 3) {
    const x = xyz[i]!, y = xyz[i + 1]!, z = xyz[i + 2]!;
    const h = Math.hypot(x, y);
    if (!(Math.hypot(h, z) > minRange)) continue;
    const e = (Math.atan2(z, h) * 180) / Math.PI;
    if (e < min) min = e;
    if (e > max) max = e;
  }
  return { min, max };
}

/** Number of positions where two arrays differ (Object.is: NaN equals NaN, -0 differs from 0); fast on big arrays. */
export function mismatches(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Math.max(a.length, b.length);
  let bad = 0;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) bad++;
  return bad;
}
