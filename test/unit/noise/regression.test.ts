/**
 * P-Reg and NP-Reg (docs/methods.md §8) on synthetic repeated scans drawn from a known model:
 * P_null, bias μ and σ vary with the nominal range r and the incidence δ, and differ per beam.
 */
import { describe, expect, it } from 'vitest';
import { learnNoise } from '../../../src-worker/noise/learn';
import { LearnedNoiseSampler } from '../../../src-worker/noise/sampler';
import type { StaticCells } from '../../../src-worker/noise/features';
import { binCount, DEFAULT_BINS, histogramMatch, parametricCdf } from '../../../src-worker/noise/risk';
import { RandomStream } from '../../../src-worker/random/stream';

/** The true model: beam 1 reads 2 cm long. */
const truth = (beam: number, r: number, d: number) => ({
  pNull: 0.02 + 0.15 * (d / 1.2),
  mu: 0.005 + 0.0005 * r + (beam === 1 ? 0.02 : 0),
  sigma: 0.005 + 0.0008 * r,
});

function synthetic(cellsPerBeam: number, scans: number, seed: number): StaticCells {
  const rng = new RandomStream(seed, 0);
  const N = 2 * cellsPerBeam;
  const c: StaticCells = {
    scans,
    beams: [0, 1],
    azimuthStep: 0.01,
    beam: new Uint16Array(N),
    bin: new Int32Array(N),
    range: new Float64Array(N),
    incidence: new Float64Array(N),
    obs: new Float32Array(N * scans),
  };
  for (let i = 0; i < N; i++) {
    const beam = i < cellsPerBeam ? 0 : 1;
    const r = 2 + 28 * rng.next(), d = 1.2 * rng.next();
    c.beam[i] = beam;
    c.bin[i] = i;
    c.range[i] = r;
    c.incidence[i] = d;
    const t = truth(beam, r, d);
    for (let s = 0; s < scans; s++) c.obs[i * scans + s] = rng.next() < t.pNull ? NaN : r + t.mu + t.sigma * rng.normal();
  }
  return c;
}

const QUERIES: [number, number, number][] = [];
for (const beam of [0, 1]) for (const r of [6, 15, 25]) for (const d of [0.2, 0.6, 1.0]) QUERIES.push([beam, r, d]);

describe('learned sensor noise on synthetic scans', () => {
  const cells = synthetic(700, 60, 11);

  it('P-Reg recovers P_null within 0.04, μ within 4 mm and σ within 4 mm over r ∈ [6, 25] m, δ ∈ [0.2, 1] rad, per beam', () => {
    const out = learnNoise(cells, { method: 'p-reg', testFraction: 0.3, seed: 3 });
    expect(out.summary).toMatchObject({ method: 'p-reg', beams: 2, trainScans: 42, testScans: 18 });
    const sampler = new LearnedNoiseSampler(out.tables);
    for (const [beam, r, d] of QUERIES) {
      const got = sampler.parameters(beam, r, d), want = truth(beam, r, d);
      expect(Math.abs(got.pNull - want.pNull), `P_null beam ${beam} r ${r} δ ${d}`).toBeLessThan(0.04);
      expect(Math.abs(got.mu - want.mu), `μ beam ${beam} r ${r} δ ${d}`).toBeLessThan(0.004);
      expect(Math.abs(got.sigma - want.sigma), `σ beam ${beam} r ${r} δ ${d}`).toBeLessThan(0.004);
    }
    // More training states, lower risk; and the learned model beats Gaussian noise with no bias and no nulls.
    const curve = out.summary.riskByTrainingSize;
    expect(curve.length).toBeGreaterThanOrEqual(4);
    expect(curve[curve.length - 1]!.risk).toBeLessThan(curve[0]!.risk);
    expect(out.summary.risk).toBeLessThan(out.summary.baselines.physics.risk);
  });

  it('NP-Reg predicts histograms within 1 cm of histogram match of the true distribution', () => {
    const out = learnNoise(cells, { method: 'np-reg', testFraction: 0.3, seed: 3 });
    const sampler = new LearnedNoiseSampler(out.tables);
    const B = binCount(DEFAULT_BINS);
    const want = new Float64Array(B), got = new Float64Array(B);
    for (const [beam, r, d] of QUERIES) {
      const t = truth(beam, r, d);
      parametricCdf(t.pNull, t.mu, t.sigma, DEFAULT_BINS, want);
      // The model's histogram at (r, δ), read back by drawing from it.
      const rng = new RandomStream(5, beam * 100 + r);
      const hist = new Float64Array(B);
      const n = 20_000;
      for (let k = 0; k < n; k++) {
        const v = sampler.draw(beam, r, d, rng);
        const res = v - r;
        const bin = Number.isNaN(v) ? B - 1 : res < -DEFAULT_BINS.span ? 0 : res >= DEFAULT_BINS.span ? B - 2 : 1 + Math.floor((res + DEFAULT_BINS.span) / DEFAULT_BINS.width);
        hist[bin] = hist[bin]! + 1 / n;
      }
      let acc = 0;
      for (let k = 0; k < B; k++) got[k] = acc += hist[k]!;
      expect(histogramMatch(got, want, DEFAULT_BINS.width), `beam ${beam} r ${r} δ ${d}`).toBeLessThan(0.01);
    }
    const curve = out.summary.riskByTrainingSize;
    expect(curve[curve.length - 1]!.risk).toBeLessThan(curve[0]!.risk);
  });

  it('is seeded: the same seed gives the same model and curve', () => {
    const a = learnNoise(cells, { method: 'p-reg', testFraction: 0.3, seed: 8 });
    const b = learnNoise(cells, { method: 'p-reg', testFraction: 0.3, seed: 8 });
    expect(a.summary).toEqual(b.summary);
    expect(a.tables).toEqual(b.tables);
  });

  it('refuses too few scans, naming them', () => {
    const few = synthetic(50, 2, 1);
    expect(() => learnNoise(few, { method: 'p-reg', testFraction: 0.3, seed: 1 })).toThrow(/2 scan\(s\).*at least 2 training scans and 1 test scan/);
  });
});
