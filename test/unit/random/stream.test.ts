import { describe, expect, it } from 'vitest';
import { RandomStream } from '../../../src-worker/random/stream';

describe('RandomStream', () => {
  it('is deterministic per (seed, index) and differs across indices and seeds', () => {
    const draw = (seed: number, index: number) => {
      const r = new RandomStream(seed, index);
      return Array.from({ length: 5 }, () => r.nextUint32());
    };
    expect(draw(42, 7)).toEqual(draw(42, 7));
    expect(draw(42, 7)).not.toEqual(draw(42, 8));
    expect(draw(42, 7)).not.toEqual(draw(43, 7));
    expect(draw(2 ** 40, 0)).not.toEqual(draw(0, 0)); // high words of the seed count
    expect(draw(0, 2 ** 33)).not.toEqual(draw(0, 0));
  });

  it('uniform draws have mean 1/2 and variance 1/12 (n = 200,000, ±4σ)', () => {
    const r = new RandomStream(1, 0);
    const n = 200_000;
    let s = 0, s2 = 0;
    for (let i = 0; i < n; i++) {
      const x = r.next();
      expect(x >= 0 && x < 1).toBe(true);
      s += x;
      s2 += x * x;
    }
    const mean = s / n;
    expect(Math.abs(mean - 0.5)).toBeLessThan(4 * Math.sqrt(1 / 12 / n));
    expect(s2 / n - mean * mean).toBeCloseTo(1 / 12, 3);
  });

  it('normal draws have mean 0, variance 1 and the right tail mass (n = 200,000)', () => {
    const r = new RandomStream(9, 3);
    const n = 200_000;
    let s = 0, s2 = 0, beyond2 = 0;
    for (let i = 0; i < n; i++) {
      const x = r.normal();
      s += x;
      s2 += x * x;
      if (Math.abs(x) > 2) beyond2++;
    }
    expect(Math.abs(s / n)).toBeLessThan(4 / Math.sqrt(n));
    expect(s2 / n).toBeCloseTo(1, 1);
    expect(beyond2 / n).toBeCloseTo(0.0455, 2); // P(|Z| > 2)
  });

  it('consecutive packet streams are uncorrelated (lag-1 correlation of first draws < 0.01)', () => {
    const xs = Array.from({ length: 50_000 }, (_, i) => new RandomStream(5, i).next());
    const m = xs.reduce((a, b) => a + b) / xs.length;
    let num = 0, den = 0;
    for (let i = 0; i < xs.length - 1; i++) {
      num += (xs[i]! - m) * (xs[i + 1]! - m);
      den += (xs[i]! - m) ** 2;
    }
    expect(Math.abs(num / den)).toBeLessThan(0.01);
  });
});
