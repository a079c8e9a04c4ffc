import { describe, expect, it } from 'vitest';
import { simulatePackets } from '../../../src-worker/simulate/simulate';
import type { SimulationContext } from '../../../src-worker/simulate/types';
import type { ReturnMode } from '../../../src-common/sensor-profile';
import { staticTrajectory } from '../../../src-worker/geometry/trajectory';
import { dirAt, fixedRays, makeProfile, planeScene, type TestPlane } from './helpers';

/**
 * A two-depth edge: a near panel at x = 10 covering y ≥ −1 mm and a far wall at x = 12. The beam
 * along +x (circular, 10 mrad, equal-area stencil radius 37 mm at 10 m) puts its centre, the
 * three sub-rays on the +y side and the two at ±z on the panel (6 sub-rays) and the three on
 * the −y side on the far wall.
 */
function edge(nearRho: number, farRho: number): TestPlane[] {
  return [
    { n: [1, 0, 0], c: 10, reflectance: nearRho, objectId: 1, classId: 1, where: (_x, y) => y >= -0.001 },
    { n: [1, 0, 0], c: 12, reflectance: farRho, objectId: 2, classId: 2 },
  ];
}

function pulse(planes: TestPlane[], mode: ReturnMode, cutoff: number, extra: Partial<SimulationContext> = {}) {
  const ctx: SimulationContext = {
    scene: planeScene(planes),
    profile: makeProfile({ beam: { shape: 'circular', divergenceH: 0.01, divergenceV: 0.01 }, returns: { mode, signalCutoff: cutoff } }),
    rays: fixedRays([dirAt(0)]),
    trajectory: staticTrajectory(),
    seed: 3,
    mode: 'physics',
    ...extra,
  };
  const c = simulatePackets(ctx, 0, 1);
  return Array.from({ length: c.rayCount }, (_, i) => ({ range: c.rayRange[i]!, intensity: c.rayIntensity[i]!, ret: c.rayReturn[i]!, obj: c.rayObject[i]! }));
}

describe('physics mode', () => {
  it('casts 9 sub-rays per pulse', () => {
    const scene = planeScene(edge(0.5, 0.5));
    simulatePackets({ scene, profile: makeProfile(), rays: fixedRays([dirAt(0), dirAt(0.1)]), trajectory: staticTrajectory(), seed: 0, mode: 'physics' }, 0, 1);
    expect(scene.calls).toBe(18);
  });

  it('strongest: the most intense sub-ray', () => {
    const r = pulse(edge(0.3, 0.9), 'strongest', 1);
    expect(r).toHaveLength(1);
    expect(r[0]!.range).toBeCloseTo(12, 2);
    expect(r[0]!.obj).toBe(2);
    expect(r[0]!.intensity).toBeCloseTo(0.9, 3);
    expect(pulse(edge(0.9, 0.3), 'strongest', 1)[0]!.range).toBeCloseTo(10, 2);
  });

  it('last: the farthest sub-ray, whatever the intensities', () => {
    expect(pulse(edge(0.9, 0.3), 'last', 1)[0]!.range).toBeCloseTo(12, 2);
    expect(pulse(edge(0.3, 0.9), 'last', 1)[0]!.range).toBeCloseTo(12, 2);
  });

  it('first: the mean of the sub-returns within the cutoff of the nearest (a mixed pixel when the cutoff spans both)', () => {
    const tight = pulse(edge(0.5, 0.5), 'first', 1);
    expect(tight[0]!.range).toBeCloseTo(10, 2);
    expect(tight[0]!.obj).toBe(1);
    const wide = pulse(edge(0.5, 0.5), 'first', 5);
    expect(wide[0]!.range).toBeCloseTo((6 * 10 + 3 * 12) / 9, 2); // 10.667: on neither surface
  });

  it('strongest+last: two returns (0 and 1) when apart by more than the cutoff, one when they coincide', () => {
    const dual = pulse(edge(0.9, 0.3), 'strongest+last', 1);
    expect(dual.map((d) => d.ret)).toEqual([0, 1]);
    expect(dual[0]!.range).toBeCloseTo(10, 2);
    expect(dual[1]!.range).toBeCloseTo(12, 2);
    expect(dual[1]!.obj).toBe(2);
    // the strongest is the last: one return
    expect(pulse(edge(0.3, 0.9), 'strongest+last', 1)).toHaveLength(1);
    // echoes closer than the cutoff are one echo
    expect(pulse(edge(0.9, 0.3), 'strongest+last', 3)).toHaveLength(1);
    // a plain wall: one return
    expect(pulse([{ n: [1, 0, 0], c: 10 }], 'strongest+last', 1)).toHaveLength(1);
  });

  it('Lambertian cos θ: a wall at 60° incidence returns half the intensity (±1% over the spot)', () => {
    const tilt = Math.PI / 3;
    const oblique = pulse([{ n: [Math.cos(tilt), Math.sin(tilt), 0], c: 10 * Math.cos(tilt), reflectance: 0.6 }], 'first', 100)[0]!;
    const normal = pulse([{ n: [1, 0, 0], c: 10, reflectance: 0.6 }], 'first', 100)[0]!;
    expect(normal.intensity).toBeCloseTo(0.6, 4); // the outer sub-rays meet the wall 3.7 mrad off normal
    expect(oblique.intensity / normal.intensity).toBeGreaterThan(0.495);
    expect(oblique.intensity / normal.intensity).toBeLessThan(0.505);
  });

  it('misses when every sub-ray misses; sub-rays beyond max range do not count', () => {
    const none = pulse([], 'first', 1);
    expect(none).toHaveLength(1);
    expect(Number.isNaN(none[0]!.range)).toBe(true);
    const profile = makeProfile({ range: { max: 11 }, beam: { divergenceH: 0.01 }, returns: { mode: 'last', signalCutoff: 1 } });
    const r = pulse(edge(0.5, 0.5), 'last', 1, { profile });
    expect(r[0]!.range).toBeCloseTo(10, 2); // the far wall at 12 m is beyond max
  });

  it('adds range noise and quantises', () => {
    const profile = makeProfile({ range: { noiseSigma: 0.01, resolution: 0.002 }, returns: { mode: 'strongest', signalCutoff: 1 } });
    const ctx: SimulationContext = { scene: planeScene([{ n: [1, 0, 0], c: 10 }]), profile, rays: fixedRays(Array.from({ length: 50 }, () => dirAt(0))), trajectory: staticTrajectory(), seed: 5, mode: 'physics' };
    const c = simulatePackets(ctx, 0, 100);
    let s = 0, s2 = 0;
    for (const r of c.rayRange) {
      expect(Math.abs(r / 0.002 - Math.round(r / 0.002))).toBeLessThan(1e-3);
      s += r - 10;
      s2 += (r - 10) ** 2;
    }
    const n = c.rayCount;
    expect(Math.abs(s / n)).toBeLessThan(0.001);
    expect(Math.sqrt(s2 / n)).toBeGreaterThan(0.009);
    expect(Math.sqrt(s2 / n)).toBeLessThan(0.011);
  });
});
