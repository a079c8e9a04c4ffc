import { describe, expect, it } from 'vitest';
import { simulatePackets } from '../../../src-worker/simulate/simulate';
import { newSimulationStats, type SimulationContext } from '../../../src-worker/simulate/types';
import { staticTrajectory } from '../../../src-worker/geometry/trajectory';
import { dirAt, fixedRays, makeProfile, meanVar, planeScene } from './helpers';

const wall = (x: number, extra: object = {}) => ({ n: [1, 0, 0] as [number, number, number], c: x, reflectance: 0.8, objectId: 7, classId: 3, ...extra });

describe('mesh mode', () => {
  it('a wall at 10 m reads 10 m ± 4σ with σ = profile noise (n = 20,000)', () => {
    const sigma = 0.005;
    const ctx: SimulationContext = {
      scene: planeScene([wall(10)]),
      profile: makeProfile({ range: { noiseSigma: sigma } }),
      rays: fixedRays(Array.from({ length: 100 }, () => dirAt(0))),
      trajectory: staticTrajectory(),
      seed: 1,
      mode: 'mesh',
    };
    const stats = newSimulationStats();
    const c = simulatePackets(ctx, 0, 200, stats);
    expect(c.rayCount).toBe(20_000);
    expect(stats).toMatchObject({ rays: 20_000, hits: 20_000, misses: 0, skippedNaN: 0 });
    for (const r of c.rayRange) expect(Math.abs(r - 10)).toBeLessThan(4.5 * sigma); // max of 20k normals stays within ~4.5σ
    const { mean, variance } = meanVar(c.rayRange);
    expect(Math.abs(mean - 10)).toBeLessThan(4 * sigma / Math.sqrt(20_000));
    expect(Math.sqrt(variance)).toBeCloseTo(sigma, 4);
    expect(c.rayObject[0]).toBe(7);
    expect(c.rayClass[0]).toBe(3);
    expect(Array.from(c.rayReturn).every((v) => v === 0)).toBe(true);
  });

  it('Lambertian: 60° incidence gives half the intensity of normal incidence; r² falloff optional', () => {
    const tilt = Math.PI / 3;
    const n: [number, number, number] = [Math.cos(tilt), Math.sin(tilt), 0];
    const run = (plane: ReturnType<typeof wall>, falloff = false) => simulatePackets({
      scene: planeScene([plane]),
      profile: makeProfile({ intensity: { scale: 2, rangeFalloff: falloff } }),
      rays: fixedRays([dirAt(0)]),
      trajectory: staticTrajectory(),
      seed: 0,
      mode: 'mesh',
    }, 0, 1);
    const normal = run(wall(10)).rayIntensity[0]!;
    const oblique = run({ ...wall(10), n, c: 10 * Math.cos(tilt) }).rayIntensity[0]!;
    expect(normal).toBeCloseTo(0.8 * 2, 6);
    expect(oblique / normal).toBeCloseTo(0.5, 6);
    expect(run(wall(10), true).rayIntensity[0]).toBeCloseTo(1.6 / 100, 6);
  });

  it('misses beyond max range and inside min range; quantises to the resolution', () => {
    const profile = makeProfile({ range: { min: 1, max: 50, resolution: 0.002 } });
    const base = { profile, rays: fixedRays([dirAt(0)]), trajectory: staticTrajectory(), seed: 0, mode: 'mesh' as const };
    const far = simulatePackets({ ...base, scene: planeScene([wall(60)]) }, 0, 1);
    expect(Number.isNaN(far.rayRange[0])).toBe(true);
    const near = simulatePackets({ ...base, scene: planeScene([wall(0.7)]) }, 0, 1);
    expect(Number.isNaN(near.rayRange[0])).toBe(true);
    const none = simulatePackets({ ...base, scene: planeScene([]) }, 0, 1);
    expect(none.rayCount).toBe(1);
    expect(Number.isNaN(none.rayRange[0])).toBe(true);
    const q = simulatePackets({ ...base, scene: planeScene([wall(10.0033)]) }, 0, 1);
    expect(q.rayRange[0]).toBeCloseTo(10.004, 5);
  });
});
