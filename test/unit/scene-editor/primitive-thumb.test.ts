// A library thumbnail's shapes: the side view fitted to its square, Gaussians as their projected
// 2σ ellipses (turned with their x-z correlation), triangles projected, large meshes thinned.
import { describe, expect, it } from 'vitest';
import { primitiveThumb } from '../../../src-renderer/components/scene-editor/primitive-thumb';

const gaussians = (means: number[], covs: number[], pHit: number[]) => ({ means: Float64Array.from(means), covariances: Float64Array.from(covs), pHit: Float32Array.from(pHit) });

describe('primitive thumbnails', () => {
  it('fits a shrub of two ellipsoids into the square, standing on the bottom margin', () => {
    // Two round Gaussians (σ = 0.5 m) side by side at z = 1, drawn to 2σ: bounds x −2…2, z 0…2.
    const t = primitiveThumb({ ellipsoids: gaussians([-1, 0, 1, 1, 0, 1], [0.25, 0, 0, 0.25, 0, 0.25, 0.25, 0, 0, 0.25, 0, 0.25], [1, 0.5]), voxels: null, triangles: null }, 40, 2);
    expect(t.ellipses).toHaveLength(2);
    const k = 36 / 4; // (40 − 2·2) px over a 4 m span
    const [a, b] = t.ellipses;
    expect(a!.cx).toBeCloseTo(20 - k, 9);
    expect(b!.cx).toBeCloseTo(20 + k, 9);
    expect(a!.cy).toBeCloseTo(40 - 2 - 1 * k, 9);
    expect(a!.rx).toBeCloseTo(2 * 0.5 * k, 9);
    expect(a!.ry).toBeCloseTo(2 * 0.5 * k, 9);
    expect(b!.alpha).toBeCloseTo(0.5, 6);
  });

  it('turns an ellipse with its x-z correlation, z up on the page', () => {
    // Variance 1 along (1, 1)/√2 and 0.01 across: x and z rise together, so on the page (y down) the long axis points up-right: angle −45°.
    const v1 = 1, v2 = 0.01, a = (v1 + v2) / 2, b = (v1 - v2) / 2;
    const t = primitiveThumb({ ellipsoids: gaussians([0, 0, 0], [a, 0, b, 0.1, 0, a], [1]), voxels: null, triangles: null }, 100, 0);
    const e = t.ellipses[0]!;
    expect(e.angle).toBeCloseTo(-Math.PI / 4, 6);
    expect(e.rx / e.ry).toBeCloseTo(Math.sqrt(v1 / v2), 6);
  });

  it('projects triangles and thins a large mesh to a few thousand', () => {
    const one = primitiveThumb({ ellipsoids: null, voxels: null, triangles: Float32Array.from([0, 0, 0, 2, 5, 0, 1, 0, 2]) }, 20, 0);
    expect(Array.from(one.triangles)).toEqual([0, 20, 20, 20, 10, 0]);
    const many = new Float32Array(9 * 100_000).map((_, i) => (i * 7919) % 13);
    expect(primitiveThumb({ ellipsoids: null, voxels: null, triangles: many }, 40).triangles.length / 6).toBeLessThanOrEqual(4000);
    expect(primitiveThumb({ ellipsoids: null, voxels: null, triangles: null }, 40)).toEqual({ ellipses: [], triangles: new Float32Array(0) });
  });
});
