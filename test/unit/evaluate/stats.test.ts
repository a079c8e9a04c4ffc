import { describe, expect, it } from 'vitest';
import {
  bhattacharyyaCoefficient, bhattacharyyaDistance, binEdges, binProbabilities, histogram1d, histogramMatch, normalize,
} from '../../../src-worker/evaluate/histogram';
import {
  exponentialCdf, fitGammaShapeBinned, gammaCdf, gammaPdf, grassGammaCdf, lnGamma, regularizedGammaP, sampleGamma,
} from '../../../src-worker/evaluate/distributions';
import { RandomStream } from '../../../src-worker/random/stream';

describe('histograms', () => {
  it('bins values, drops or clamps the outside ones, ignores NaN', () => {
    const h = histogram1d([0, 0.5, 0.99, 1, 2, -1, NaN, 3], 0, 2, 2);
    expect(Array.from(h.counts)).toEqual([3, 2]);
    expect([h.total, h.below, h.above]).toEqual([5, 1, 1]);
    const c = histogram1d([-1, 3], 0, 2, 2, { clamp: true });
    expect(Array.from(c.counts)).toEqual([1, 1]);
    expect(Array.from(binEdges(0, 1, 4))).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(() => histogram1d([], 1, 1, 3)).toThrow(/hi > lo/);
  });

  it('Bhattacharyya: 0 for identical, ∞ for disjoint, −ln Σ√(pq) otherwise; histogram match', () => {
    expect(bhattacharyyaDistance([1, 2, 3], [2, 4, 6])).toBeCloseTo(0, 12);
    expect(bhattacharyyaDistance([1, 0], [0, 1])).toBe(Infinity);
    expect(bhattacharyyaCoefficient([1, 1], [1, 0])).toBeCloseTo(Math.SQRT1_2, 12);
    expect(bhattacharyyaDistance([1, 1], [1, 0])).toBeCloseTo(-Math.log(Math.SQRT1_2), 12);
    expect(histogramMatch([1, 0, 0], [0, 0, 1])).toBeCloseTo(2, 12);
    expect(Array.from(normalize([0, 0]))).toEqual([0, 0]);
    expect(() => bhattacharyyaDistance([1], [1, 2])).toThrow(/length/);
  });

  it('bin probabilities of a truncated law sum to 1', () => {
    const p = binProbabilities((x) => exponentialCdf(x, 0.5), 0, 5, 100);
    expect(p.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 12);
    expect(p[0]! / p[1]!).toBeCloseTo(Math.exp(0.5 * 0.05), 9);
  });
});

describe('distributions', () => {
  it('ln Γ and the incomplete gamma function match known values', () => {
    expect(lnGamma(1)).toBeCloseTo(0, 12);
    expect(lnGamma(5)).toBeCloseTo(Math.log(24), 12);
    expect(lnGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 12);
    expect(lnGamma(101)).toBeCloseTo(363.73937555556347, 8); // ln 100!
    expect(regularizedGammaP(1, 2)).toBeCloseTo(1 - Math.exp(-2), 12); // exponential
    expect(regularizedGammaP(3, 2)).toBeCloseTo(1 - Math.exp(-2) * (1 + 2 + 2), 12);
    expect(regularizedGammaP(3, 20)).toBeCloseTo(1 - Math.exp(-20) * (1 + 20 + 200), 12);
    expect(regularizedGammaP(0.5, 0.3)).toBeCloseTo(0.5614219739190003, 10); // erf(√0.3)
    expect(gammaCdf(0, 2, 1)).toBe(0);
    expect(gammaPdf(1, 1, 2)).toBeCloseTo(2 * Math.exp(-2), 12);
    expect(() => regularizedGammaP(0, 1)).toThrow();
  });

  it('the gamma law of 003 keeps the mean 1/(λd) for any α and is the exponential at α = 1', () => {
    for (const x of [0.1, 0.7, 2, 4]) expect(grassGammaCdf(x, 1, 0.5)).toBeCloseTo(exponentialCdf(x, 0.5), 12);
    // mean = ∫ (1 − F) dx
    for (const alpha of [0.7, 2, 5]) {
      let m = 0;
      for (let x = 0.0005; x < 40; x += 0.001) m += (1 - grassGammaCdf(x, alpha, 0.5)) * 0.001;
      expect(m).toBeCloseTo(2, 2);
    }
  });

  it('gamma samples have mean k/β and variance k/β² (n = 100,000)', () => {
    const rng = new RandomStream(3, 0);
    for (const [k, b] of [[0.5, 1], [2.5, 4], [9, 3]] as const) {
      let s = 0, s2 = 0;
      const n = 100_000;
      for (let i = 0; i < n; i++) {
        const x = sampleGamma(k, b, rng);
        s += x;
        s2 += x * x;
      }
      const mean = s / n, variance = s2 / n - mean * mean;
      expect(Math.abs(mean - k / b)).toBeLessThan(4 * Math.sqrt(k / b / b / n));
      expect(variance / (k / b / b)).toBeGreaterThan(0.97);
      expect(variance / (k / b / b)).toBeLessThan(1.03);
    }
  });

  it('the binned ML fit recovers α from samples of the law (tied rate, truncated window)', () => {
    const rng = new RandomStream(5, 1);
    for (const alpha of [1, 2.5, 4]) {
      const ld = 1;
      const xs: number[] = [];
      while (xs.length < 5000) {
        const x = sampleGamma(alpha, alpha * ld, rng);
        if (x < 5) xs.push(x); // the window truncates
      }
      const h = histogram1d(xs, 0, 5, 100);
      const fit = fitGammaShapeBinned(h.counts, 0, 5, ld);
      expect(Math.abs(fit.alpha / alpha - 1)).toBeLessThan(0.08);
    }
  });
});
