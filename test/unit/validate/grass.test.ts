import { describe, expect, it } from 'vitest';
import { validateGrass } from '../../../src-worker/validate/grass';

describe('grass validation (003 §3.4.1)', () => {
  // 8 cases × 2000 stands, seed 1: a few seconds
  const report = validateGrass({ seed: 1, samples: 2000 });

  it('covers λ ∈ {50, 100}, d ∈ {10, 20} mm, D ∈ {20, 30} m', () => {
    expect(report.cases.map((c) => [c.lambda, c.d, c.D])).toEqual([
      [50, 0.01, 20], [50, 0.01, 30], [50, 0.02, 20], [50, 0.02, 30],
      [100, 0.01, 20], [100, 0.01, 30], [100, 0.02, 20], [100, 0.02, 30],
    ]);
    for (const c of report.cases) {
      expect(c.samples).toBe(2000);
      expect(c.returns).toBeGreaterThan(1990);
      expect(c.expectedMeanPenetration).toBeCloseTo(1 / (c.lambda * c.d), 12);
    }
  });

  it('the gamma law fits the simulated ranges better than the exponential law, in every case', () => {
    for (const c of report.cases) {
      expect(c.bhattacharyyaGamma, `λ=${c.lambda} d=${c.d} D=${c.D}`).toBeLessThan(c.bhattacharyyaExponential);
      expect(c.alpha).toBeGreaterThan(1); // averaging over the spot: not exponential
    }
  });

  it('the fitted shape grows with distance (the spot widens, more averaging)', () => {
    for (let i = 0; i < report.cases.length; i += 2) expect(report.cases[i + 1]!.alpha).toBeGreaterThan(report.cases[i]!.alpha);
  });

  it('mean penetration: within ±15% of 1/(λd) where the 5 m stand does not truncate the free path (λd ≥ 1 m⁻¹), and within ±5% of the truncated mean everywhere', () => {
    for (const c of report.cases) {
      const ld = c.lambda * c.d;
      if (ld >= 1) expect(Math.abs(c.meanPenetration * ld - 1), `λ=${c.lambda} d=${c.d} D=${c.D}`).toBeLessThan(0.15);
      expect(Math.abs(c.meanPenetration / c.expectedTruncatedMeanPenetration - 1)).toBeLessThan(0.05);
    }
  });

  it('mean penetration of λ = 50, d = 10 mm is within ±15% of 1/(λd) = 2 m in a stand deep enough (25 m) not to truncate it', () => {
    const deep = validateGrass({ seed: 2, samples: 1000, lambdas: [50], diameters: [0.01], standDepth: 25 });
    for (const c of deep.cases) {
      expect(Math.abs(c.meanPenetration / c.expectedMeanPenetration - 1)).toBeLessThan(0.15);
      expect(c.bhattacharyyaGamma).toBeLessThan(c.bhattacharyyaExponential);
    }
  });

  it('is deterministic for a seed', () => {
    const a = validateGrass({ seed: 7, samples: 50, lambdas: [100], diameters: [0.02], distances: [20] });
    const b = validateGrass({ seed: 7, samples: 50, lambdas: [100], diameters: [0.02], distances: [20] });
    expect(a).toEqual(b);
  });
});
