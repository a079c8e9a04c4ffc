import { describe, expect, it } from 'vitest';
import { learnBetaPrior } from '../../../src-worker/fit/learned-prior';
import { RandomStream } from '../../../src-worker/random/stream';

/** A Beta(a, b) draw from two Gamma draws (Marsaglia–Tsang; shape ≥ 1 via the boost u^(1/k)). */
function gamma(r: RandomStream, k: number): number {
  if (k < 1) return gamma(r, k + 1) * Math.pow(r.nextOpen(), 1 / k);
  const d = k - 1 / 3, c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const x = r.normal(), v = Math.pow(1 + c * x, 3);
    if (v <= 0) continue;
    if (Math.log(r.nextOpen()) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}

/** Counts of `n` elements whose hit rates are Beta(a, b) and which `rays` rays (1…max) each meet. */
function counts(seed: number, n: number, a: number, b: number, maxRays: number): { hits: Uint32Array; misses: Uint32Array } {
  const r = new RandomStream(seed, 3);
  const hits = new Uint32Array(n), misses = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const x = gamma(r, a), y = gamma(r, b), p = x / (x + y);
    const rays = 1 + Math.floor(r.next() * maxRays);
    for (let k = 0; k < rays; k++) (r.next() < p ? hits : misses)[i]!++;
  }
  return { hits, misses };
}

describe('hit-probability priors learned from the counts (beta-binomial maximum likelihood)', () => {
  it('recovers the Beta prior the hit rates were drawn from', () => {
    // Seeded draws: 20,000 elements met by 1–20 rays each. Tolerances: ±15 % on a and b, ±0.01 on the mean.
    for (const [a, b] of [[2, 5], [0.4, 0.05], [5, 1]] as const) {
      const c = counts(7, 20_000, a, b, 20);
      const prior = learnBetaPrior(c.hits, c.misses, { a: 1, b: 2 });
      expect(prior.elements).toBe(20_000);
      expect(prior.a / (prior.a + prior.b)).toBeCloseTo(a / (a + b), 2);
      expect(prior.a).toBeGreaterThan(0.85 * a);
      expect(prior.a).toBeLessThan(1.15 * a);
      expect(prior.b).toBeGreaterThan(0.85 * b);
      expect(prior.b).toBeLessThan(1.15 * b);
    }
  });

  it('ignores elements no ray met, and falls back when fewer than two were met', () => {
    const c = counts(3, 5_000, 2, 5, 10);
    const padded = { hits: new Uint32Array(8_000), misses: new Uint32Array(8_000) };
    padded.hits.set(c.hits);
    padded.misses.set(c.misses);
    const plain = learnBetaPrior(c.hits, c.misses, { a: 1, b: 2 });
    const withUnmet = learnBetaPrior(padded.hits, padded.misses, { a: 1, b: 2 });
    expect(withUnmet).toEqual(plain);
    expect(learnBetaPrior(Uint32Array.of(3, 0), Uint32Array.of(1, 0), { a: 1, b: 2 })).toEqual({ a: 1, b: 2, elements: 1 });
  });
});
