import { describe, expect, it } from 'vitest';
import { float32Down, float32Up } from '../../../src-worker/geometry/bounds';

describe('float32Down / float32Up', () => {
  it('terminate and bracket x next to powers of two (regression: the old loop hung on ties)', () => {
    for (const p of [-4, -2, -1, -0.5, 0.5, 1, 2, 1024]) {
      for (const x of [p * (1 + 1e-9), p * (1 - 1e-9)]) {
        const lo = float32Down(x), hi = float32Up(x);
        expect(lo).toBeLessThanOrEqual(x);
        expect(hi).toBeGreaterThanOrEqual(x);
        expect(Math.fround(lo)).toBe(lo);
        expect(Math.fround(hi)).toBe(hi);
        expect(hi - lo).toBeLessThanOrEqual(Math.abs(p) * 2 ** -22);
      }
    }
  });

  it('are exact on float32 values, and handle zero and tiny values', () => {
    expect(float32Down(1.5)).toBe(1.5);
    expect(float32Up(-3)).toBe(-3);
    expect(float32Down(0)).toBe(0);
    expect(float32Down(-1e-50)).toBeLessThan(0);
    expect(float32Up(1e-50)).toBeGreaterThan(0);
  });
});
