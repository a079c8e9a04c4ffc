import { describe, expect, it } from 'vitest';
import { FALLOFF_BINS, falloffBin, falloffBinWeight, falloffProbabilities } from '../../../src-worker/fit/ellipsoid-kappa';
import { falloffHitProbability, meanFalloffWeight } from '../../../src-worker/scene/ellipsoid-falloff';
import { hitProbability } from '../../../src-worker/fit/replay';
import { RandomStream } from '../../../src-worker/random/stream';
import { SceneBuilder } from '../../../src-worker/scene/scene-builder';
import { createSceneQuery } from '../../../src-worker/scene/scene-bvh';
import type { ElementHit } from '../../../src-worker/scene/scene-query';

/** One ellipsoid's bins from (m², hit) samples, threshold k. */
function bins(samples: { m2: number; hit: boolean }[], k: number): { hits: Uint32Array; passes: Uint32Array } {
  const hits = new Uint32Array(FALLOFF_BINS), passes = new Uint32Array(FALLOFF_BINS);
  for (const s of samples) (s.hit ? hits : passes)[falloffBin(s.m2, k * k)]!++;
  return { hits, passes };
}

describe('ellipsoid hit-probability falloff', () => {
  it('w̄ is the mean of exp(−m²/2) over a disk of radius k (checked by quadrature)', () => {
    for (const k of [1, 2, 3, 3.5]) {
      let num = 0, den = 0;
      for (let i = 0; i < 20000; i++) {
        const m = ((i + 0.5) / 20000) * k;
        num += Math.exp(-0.5 * m * m) * m;
        den += m;
      }
      expect(meanFalloffWeight(k)).toBeCloseTo(num / den, 6);
    }
  });

  it('P(hit | m) is the stored p at w̄, higher nearer the centre, and keeps 0 and 1', () => {
    const k = 3.5, wBar = meanFalloffWeight(k);
    const mAtWBar = Math.sqrt(-2 * Math.log(wBar));
    expect(falloffHitProbability(0.6, mAtWBar * mAtWBar, wBar)).toBeCloseTo(0.6, 12);
    expect(falloffHitProbability(0.6, 0, wBar)).toBeGreaterThan(0.6);
    expect(falloffHitProbability(0.6, 9, wBar)).toBeLessThan(0.1);
    expect(falloffHitProbability(1, 9, wBar)).toBe(1);
    expect(falloffHitProbability(0, 0, wBar)).toBe(0);
  });

  it('bins split m² ∈ [0, k²) evenly and stand for the mean weight over them', () => {
    const k2 = 9;
    expect(falloffBin(0, k2)).toBe(0);
    expect(falloffBin(8.99, k2)).toBe(FALLOFF_BINS - 1);
    expect(falloffBin(100, k2)).toBe(FALLOFF_BINS - 1);
    // The bins' weights average to w̄ (each bin holds an equal share of the cross-section).
    let sum = 0;
    for (let j = 0; j < FALLOFF_BINS; j++) sum += falloffBinWeight(j, k2);
    expect(sum / FALLOFF_BINS).toBeCloseTo(meanFalloffWeight(3), 12);
  });

  it('with every ray in one bin it solves the constant model at that bin’s weight', () => {
    const k = 3, k2 = 9, wBar = meanFalloffWeight(k);
    for (const j of [0, 4, 11]) {
      const wj = falloffBinWeight(j, k2);
      for (const [h, m] of [[7, 3], [1, 9], [40, 2]] as const) {
        // Stored as float32, p keeps κ only while 1 − p ≥ ~1e-6 (κw̄ ≤ 14): see ellipsoid-kappa.ts.
        if ((Math.log1p(h / m) / wj) * wBar > 14) continue;
        const hits = new Uint32Array(FALLOFF_BINS), passes = new Uint32Array(FALLOFF_BINS);
        hits[j] = h;
        passes[j] = m;
        const p = falloffProbabilities(hits, passes, 0, 0, k)[0]!;
        const kappa = -Math.log1p(-p) / wBar;
        expect(1 - Math.exp(-kappa * wj)).toBeCloseTo(h / (h + m), 4);
      }
    }
  });

  it('with no rays the prior alone gives its mean a / (a + b)', () => {
    const none = new Uint32Array(FALLOFF_BINS);
    expect(falloffProbabilities(none, none, 1, 2, 3.5)[0]).toBeCloseTo(hitProbability(Uint32Array.of(0), Uint32Array.of(0), 1, 2)[0]!, 5);
  });

  it('no hits and no prior → 0; hits and no passes → 1', () => {
    const { hits, passes } = bins([{ m2: 1, hit: false }], 3);
    expect(falloffProbabilities(hits, passes, 0, 1, 3)[0]).toBe(0);
    const h = bins([{ m2: 1, hit: true }], 3);
    expect(falloffProbabilities(h.hits, h.passes, 0, 0, 3)[0]).toBe(1);
  });

  it('recovers κ from rays drawn by the model (seeded, 20,000 rays, within 5 %)', () => {
    const k = 3.5, wBar = meanFalloffWeight(k), rng = new RandomStream(7);
    for (const kappa of [0.5, 2, 6]) {
      const samples: { m2: number; hit: boolean }[] = [];
      for (let i = 0; i < 20000; i++) {
        const m = k * Math.sqrt(rng.next()); // uniform over the disk of radius k
        samples.push({ m2: m * m, hit: rng.next() < 1 - Math.exp(-kappa * Math.exp(-0.5 * m * m)) });
      }
      const { hits, passes } = bins(samples, k);
      const p = falloffProbabilities(hits, passes, 0, 0, k)[0]!;
      const kappaHat = -Math.log(1 - p) / wBar;
      expect(Math.abs(kappaHat - kappa) / kappa).toBeLessThan(0.05);
    }
  });
});

describe('a scene built with the falloff', () => {
  it('hands the simulator P(hit | m) for ellipsoids, in the kernel walk and the reference walk alike', () => {
    const scene = (falloff: boolean) => {
      const b = new SceneBuilder();
      b.addInstance(b.addEllipsoids(new Float64Array([0, 0, 0]), new Float64Array([1, 0, 0, 1, 0, 1]), 0.6));
      return b.build({ mahalanobisThreshold: 3, ellipsoidHitFalloff: falloff });
    };
    const wBar = meanFalloffWeight(3);
    for (const walk of ['auto', 'js'] as const) {
      const withFalloff = createSceneQuery(scene(true), walk), constant = createSceneQuery(scene(false), walk);
      for (const y of [0, 1, 2, 2.9]) {
        const seen: number[] = [];
        for (const q of [withFalloff, constant]) q.traverse(-10, y, 0, 1, 0, 0, 0, 100, (h: ElementHit) => { seen.push(h.pHit); return false; });
        expect(seen).toHaveLength(2);
        expect(seen[0]).toBeCloseTo(falloffHitProbability(0.6, y * y, wBar), 6);
        expect(seen[1]).toBeCloseTo(0.6, 6);
      }
    }
  });
});
