/**
 * Simulations drawing ranges and nulls from a learned noise model (docs/methods.md §8): a static
 * wall re-simulated in every scene mode, the returns' bias, spread and null fraction those of
 * the model; a model learnt from synthetic scans, re-simulated, gives back its σ.
 */
import { describe, expect, it } from 'vitest';
import { simulatePackets } from '../../../src-worker/simulate/simulate';
import { newSimulationStats, type SimulationContext, type SimulationMode } from '../../../src-worker/simulate/types';
import { staticTrajectory } from '../../../src-worker/geometry/trajectory';
import type { LearnedNoiseTables } from '../../../src-common/noise-model';
import { learnNoise } from '../../../src-worker/noise/learn';
import { LearnedNoiseSampler } from '../../../src-worker/noise/sampler';
import type { StaticCells } from '../../../src-worker/noise/features';
import { RandomStream } from '../../../src-worker/random/stream';
import { dirAt, elementScene, fixedRays, makeProfile, meanVar, planeScene } from '../simulate/helpers';
import { ElementKind } from '../../../src-worker/scene/scene-query';

const wall = (x: number) => ({ n: [1, 0, 0] as [number, number, number], c: x, reflectance: 0.8, objectId: 7, classId: 3 });

/** A P-Reg table for ring 0, constant over its grid. */
function constantModel(pNull: number, mu: number, sigma: number): LearnedNoiseTables {
  const r = [1, 50], delta = [0, 1.5];
  return { method: 'p-reg', bins: { width: 0.01, span: 0.3 }, defaultIncidence: 0, beams: [{ ring: 0, r, delta, pNull: [pNull, pNull, pNull, pNull], mu: [mu, mu, mu, mu], sigma: [sigma, sigma, sigma, sigma] }] };
}

function wallRun(mode: SimulationMode, learnedNoise: LearnedNoiseTables | null, packets = 200) {
  const ctx: SimulationContext = {
    scene: planeScene([wall(10)]),
    profile: makeProfile({ range: { noiseSigma: 0.005 } }),
    rays: fixedRays(Array.from({ length: 100 }, () => dirAt(0))),
    trajectory: staticTrajectory(),
    seed: 2,
    mode,
    learnedNoise,
  };
  const stats = newSimulationStats();
  const c = simulatePackets(ctx, 0, packets, stats);
  const hits = Array.from(c.rayRange).filter((v) => !Number.isNaN(v));
  return { stats, hits: Float64Array.from(hits), chunk: c };
}

describe('simulation with a learned noise model', () => {
  it('mesh and physics: bias, σ and null fraction of the model (20,000 pulses at a wall 10 m away)', () => {
    for (const mode of ['mesh', 'physics'] as const) {
      const { stats, hits } = wallRun(mode, constantModel(0.1, 0.03, 0.02));
      expect(stats.rays).toBe(20_000);
      expect(stats.misses / stats.rays, mode).toBeCloseTo(0.1, 1);
      const { mean, variance } = meanVar(hits);
      expect(Math.abs(mean - 10.03), mode).toBeLessThan(0.001);
      expect(Math.abs(Math.sqrt(variance) - 0.02) / 0.02, mode).toBeLessThan(0.03);
    }
  });

  it('hybrid, gaussian-point: a point sample is moved along its ray by the model (a 1 mm ellipsoid at 10 m: spread σ, nulls P_null)', () => {
    const s = 0.001;
    const ctx: SimulationContext = {
      scene: elementScene([{ kind: ElementKind.Ellipsoid, mean: [10, 0, 0], cov: [s * s, 0, 0, 0, s * s, 0, 0, 0, s * s], pHit: 1, objectId: 4 }]),
      profile: makeProfile(),
      rays: fixedRays(Array.from({ length: 100 }, () => dirAt(0))),
      trajectory: staticTrajectory(),
      seed: 5,
      mode: 'hybrid',
      options: { rangeSampler: 'gaussian-point' },
      learnedNoise: constantModel(0.2, 0.05, 0.03),
    };
    const stats = newSimulationStats();
    const c = simulatePackets(ctx, 0, 200, stats);
    expect(stats.misses / stats.rays).toBeCloseTo(0.2, 1);
    const hits = Float64Array.from(Array.from(c.rayRange).filter((v) => !Number.isNaN(v)));
    const { mean, variance } = meanVar(hits);
    expect(Math.abs(mean - 10.05)).toBeLessThan(0.002);
    expect(Math.abs(Math.sqrt(variance) - 0.03) / 0.03).toBeLessThan(0.05);
  });

  it('without a model the profile Gaussian stays (σ 5 mm, no nulls); with one, runs are deterministic', () => {
    const plain = wallRun('mesh', null);
    expect(plain.stats.misses).toBe(0);
    expect(Math.sqrt(meanVar(plain.hits).variance)).toBeCloseTo(0.005, 3);
    const a = wallRun('mesh', constantModel(0.1, 0, 0.02), 20).chunk, b = wallRun('mesh', constantModel(0.1, 0, 0.02), 20).chunk;
    expect(Array.from(a.rayRange)).toEqual(Array.from(b.rayRange));
  });

  it('a model learnt from scans of σ = 1.5 cm, re-simulated at a static wall, spreads its returns by the learnt σ within 10 %', () => {
    const S = 50, N = 800, rng = new RandomStream(4, 0);
    const cells: StaticCells = { scans: S, beams: [0], azimuthStep: 0.01, beam: new Uint16Array(N), bin: Int32Array.from({ length: N }, (_, i) => i), range: new Float64Array(N), incidence: new Float64Array(N), obs: new Float32Array(N * S) };
    for (let i = 0; i < N; i++) {
      cells.range[i] = 3 + 20 * rng.next();
      cells.incidence[i] = 1.2 * rng.next();
      for (let s = 0; s < S; s++) cells.obs[i * S + s] = cells.range[i]! + 0.015 * rng.normal();
    }
    const { tables } = learnNoise(cells, { method: 'p-reg', testFraction: 0.3, seed: 1 });
    const learnt = new LearnedNoiseSampler(tables).parameters(0, 10, 0);
    expect(learnt.sigma).toBeGreaterThan(0.012);
    expect(learnt.sigma).toBeLessThan(0.018);
    const { hits } = wallRun('mesh', tables);
    expect(Math.abs(Math.sqrt(meanVar(hits).variance) - learnt.sigma) / learnt.sigma).toBeLessThan(0.1);
  });
});
