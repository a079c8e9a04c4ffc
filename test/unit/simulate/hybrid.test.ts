import { describe, expect, it } from 'vitest';
import { simulatePackets } from '../../../src-worker/simulate/simulate';
import type { SimulationContext, SimulationOptions } from '../../../src-worker/simulate/types';
import { ElementKind } from '../../../src-worker/scene/scene-query';
import { staticTrajectory } from '../../../src-worker/geometry/trajectory';
import { dirAt, elementScene, fixedRays, makeProfile, meanVar, type TestGaussian } from './helpers';

const RAYS = 100;
const PACKETS = 200; // 20,000 pulses

function run(scene: SimulationContext['scene'], options: SimulationOptions = {}, mode: 'hybrid' | 'voxel' = 'hybrid', seed = 11) {
  const ctx: SimulationContext = {
    scene,
    profile: makeProfile({ range: { min: 0.5, max: 100 } }),
    rays: fixedRays(Array.from({ length: RAYS }, () => dirAt(0))),
    trajectory: staticTrajectory(),
    seed,
    mode,
    options,
  };
  return simulatePackets(ctx, 0, PACKETS);
}

const sphere = (x: number, pHit: number, objectId: number, s = 0.05): TestGaussian => ({
  kind: ElementKind.Ellipsoid, mean: [x, 0, 0], cov: [s * s, 0, 0, 0, s * s, 0, 0, 0, s * s], pHit, objectId,
});

/** |observed − expected| within 4 binomial standard deviations. */
function expectBinomial(count: number, n: number, p: number) {
  expect(Math.abs(count - n * p)).toBeLessThan(4 * Math.sqrt(n * p * (1 - p)));
}

describe('hybrid mode', () => {
  it('pass-through frequencies are the products of the hit probabilities (n = 20,000, ±4σ)', () => {
    const c = run(elementScene([sphere(5, 0.3, 1), sphere(10, 0.5, 2), sphere(15, 0.8, 3)]), { rangeSampler: 'along-ray' });
    const n = c.rayCount;
    expect(n).toBe(RAYS * PACKETS);
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < n; i++) counts[Number.isNaN(c.rayRange[i]) ? 0 : c.rayObject[i]!]!++;
    expectBinomial(counts[1]!, n, 0.3);
    expectBinomial(counts[2]!, n, 0.7 * 0.5);
    expectBinomial(counts[3]!, n, 0.7 * 0.5 * 0.8);
    expectBinomial(counts[0]!, n, 0.7 * 0.5 * 0.2);
    // returns carry the element's range
    for (let i = 0; i < n; i++) if (c.rayObject[i] === 2) expect(Math.abs(c.rayRange[i]! - 10)).toBeLessThan(0.3);
  });

  it('elements nearer than the minimum range (0.5 m) are not visited: they neither return nor stop the pulse', () => {
    const c = run(elementScene([sphere(0.3, 1, 1, 0.02), sphere(10, 1, 2)]));
    expect(c.rayCount).toBe(RAYS * PACKETS);
    expect(Array.from(c.rayObject).every((o) => o === 2)).toBe(true);
  });

  it('a return near the minimum range is drawn within the window, not lost (σ 0.3 m at 0.7 m, minimum 0.5 m)', () => {
    // Along the ray the Gaussian is N(0.7, 0.3²): 25 % of its mass lies under 0.5 m.
    const c = run(elementScene([sphere(0.7, 1, 1, 0.3)]), { rangeSampler: 'along-ray' });
    const n = c.rayCount;
    let hits = 0, sum = 0;
    for (let i = 0; i < n; i++) {
      const r = c.rayRange[i]!;
      if (Number.isNaN(r)) continue;
      hits++;
      sum += r;
      expect(r).toBeGreaterThanOrEqual(0.5);
    }
    expect(hits).toBe(n);
    // The mean of N(0.7, 0.3²) truncated below at 0.5: 0.7 + 0.3·φ(−2/3)/(1 − Φ(−2/3)) = 0.828 (±4 σ/√n).
    expect(Math.abs(sum / hits - 0.828)).toBeLessThan(4 * 0.2 / Math.sqrt(n));
  });

  it('p_hit = 0 elements are invisible and p_hit = 1 elements always return', () => {
    const c = run(elementScene([sphere(5, 0, 1), sphere(10, 1, 2), sphere(15, 1, 3)]));
    expect(Array.from(c.rayObject).every((o) => o === 2)).toBe(true);
  });

  // A tilted ellipsoid off the ray: μ = (10, 0.05, 0.02), Σ with correlations.
  const cov = [0.04, 0.01, 0.005, 0.01, 0.02, 0.002, 0.005, 0.002, 0.01];
  const tilted: TestGaussian = { kind: ElementKind.Ellipsoid, mean: [10, 0.05, 0.02], cov, pHit: 1, objectId: 4 };

  it('along-ray sampler: ranges ~ N(μ_t, σ_t²) of 000 eq. 2–3, on the beam axis', () => {
    // expected μ_t, σ_t² for the ray from the origin along +x
    const scene = elementScene([tilted]);
    let muT = 0, varT = 0;
    scene.traverse(0, 0, 0, 1, 0, 0, 0, 100, (h) => {
      muT = h.muT;
      varT = h.varT;
      return true;
    });
    expect(varT).toBeGreaterThan(0);
    const c = run(scene, { rangeSampler: 'along-ray' });
    const { mean, variance, n } = meanVar(c.rayRange);
    expect(Math.abs(mean - muT)).toBeLessThan(4 * Math.sqrt(varT / n));
    expect(variance / varT).toBeGreaterThan(1 - 4 * Math.sqrt(2 / n));
    expect(variance / varT).toBeLessThan(1 + 4 * Math.sqrt(2 / n));
    for (let i = 0; i < n; i++) expect(c.rayDir[3 * i]).toBe(1); // reported along the beam
  });

  it('gaussian-point sampler: points ~ N(μ, Σ) (001), leaving the ray', () => {
    const c = run(elementScene([tilted]), { rangeSampler: 'gaussian-point' });
    const n = c.rayCount;
    const pts = [new Float64Array(n), new Float64Array(n), new Float64Array(n)];
    for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) pts[k]![i] = c.rayRange[i]! * c.rayDir[3 * i + k]!;
    const m = pts.map((p) => meanVar(p).mean);
    for (let k = 0; k < 3; k++) expect(Math.abs(m[k]! - tilted.mean[k]!)).toBeLessThan(4 * Math.sqrt(cov[4 * k]! / n));
    for (let a = 0; a < 3; a++) {
      for (let b = 0; b < 3; b++) {
        let s = 0;
        for (let i = 0; i < n; i++) s += (pts[a]![i]! - m[a]!) * (pts[b]![i]! - m[b]!);
        const sab = cov[3 * a + b]!;
        const tol = 4 * Math.sqrt((cov[4 * a]! * cov[4 * b]! + sab * sab) / n); // sd of a sample covariance
        expect(Math.abs(s / n - sab)).toBeLessThan(tol);
      }
    }
  });

  it('ground triangles: t + N(0, σ²_ground)', () => {
    const sigma = 0.03;
    // ground plane z = −1 seen by a ray 10° down: t = 1 / sin 10°
    const scene = elementScene([{ kind: ElementKind.Ground, n: [0, 0, 1], c: -1, pHit: 1, variance: sigma * sigma, objectId: 9 }]);
    const ctx: SimulationContext = {
      scene, profile: makeProfile(), rays: fixedRays(Array.from({ length: RAYS }, () => dirAt(0, -Math.PI / 18))),
      trajectory: staticTrajectory(), seed: 2, mode: 'hybrid',
    };
    const c = simulatePackets(ctx, 0, PACKETS);
    const { mean, variance, n } = meanVar(c.rayRange);
    const t = 1 / Math.sin(Math.PI / 18);
    expect(Math.abs(mean - t)).toBeLessThan(4 * sigma / Math.sqrt(n));
    expect(Math.sqrt(variance)).toBeCloseTo(sigma, 3);
    expect(c.rayObject[0]).toBe(9);
  });
});

describe('voxel mode', () => {
  it('passes a voxel with its permeability ρ (return rate 1 − ρ, n = 20,000, ±4σ) and samples eq. 2–3', () => {
    const rho = 0.6;
    const voxel: TestGaussian = { kind: ElementKind.Voxel, mean: [8, 0, 0], cov: [0.01, 0, 0, 0, 0.01, 0, 0, 0, 0.01], pHit: 1 - rho, objectId: 5 };
    const c = run(elementScene([voxel], 2), {}, 'voxel');
    let hits = 0;
    const ranges: number[] = [];
    for (let i = 0; i < c.rayCount; i++) {
      if (!Number.isNaN(c.rayRange[i])) {
        hits++;
        ranges.push(c.rayRange[i]!);
      }
    }
    expectBinomial(hits, c.rayCount, 1 - rho);
    const { mean, variance } = meanVar(ranges);
    // the cone-sampled rays are within 1.5 mrad of the axis: μ_t ≈ 8, σ_t² ≈ 0.01
    expect(Math.abs(mean - 8)).toBeLessThan(4 * Math.sqrt(0.01 / hits));
    expect(variance).toBeGreaterThan(0.01 * (1 - 4 * Math.sqrt(2 / hits)));
    expect(variance).toBeLessThan(0.01 * (1 + 4 * Math.sqrt(2 / hits)));
  });

  it('samples the beam uniformly inside its divergence cone (000 §IV)', () => {
    const scene = elementScene([]);
    scene.record = true;
    const div = 0.004;
    const ctx: SimulationContext = {
      scene, profile: makeProfile({ beam: { shape: 'circular', divergenceH: div, divergenceV: div } }),
      rays: fixedRays(Array.from({ length: RAYS }, () => dirAt(0))), trajectory: staticTrajectory(), seed: 4, mode: 'voxel',
    };
    simulatePackets(ctx, 0, 100);
    const R = Math.tan(div / 2);
    const r2: number[] = [];
    let sy = 0, sz = 0;
    for (const [x, y, z] of scene.dirs) {
      const oy = y! / x!, oz = z! / x!;
      expect(Math.hypot(oy, oz)).toBeLessThanOrEqual(R * (1 + 1e-9));
      r2.push((oy * oy + oz * oz) / (R * R));
      sy += oy;
      sz += oz;
    }
    const n = r2.length;
    expect(n).toBe(10_000);
    // uniform over the disc: r²/R² ~ U(0, 1), mean 1/2, variance 1/12
    expect(Math.abs(meanVar(r2).mean - 0.5)).toBeLessThan(4 * Math.sqrt(1 / 12 / n));
    expect(Math.abs(sy / n)).toBeLessThan(4 * R * 0.5 / Math.sqrt(n));
    expect(Math.abs(sz / n)).toBeLessThan(4 * R * 0.5 / Math.sqrt(n));
    // hybrid does not jitter by default
    scene.dirs.length = 0;
    simulatePackets({ ...ctx, mode: 'hybrid' }, 0, 1);
    expect(scene.dirs.every((d) => d[0] === 1 && d[1] === 0 && d[2] === 0)).toBe(true);
  });
});
