import { describe, expect, it } from 'vitest';
import { cellHitProbability, gaussCell, sceneGaussCell, sceneTriangleCell, triangleCell } from '../../../src-worker/scene/hit-cells';
import { SceneBuilder } from '../../../src-worker/scene/scene-builder';
import { GAUSS_STRIDE } from '../../../src-worker/scene/scene-data';
import type { HitCells } from '../../../src-common/scene-data';

/** One ellipsoid, Σ = diag(4, 0.25, 1) at (10, 2, -1), threshold 3, placed at `pose` (world ← local: t, q). */
function oneEllipsoid(pose?: number[]) {
  const b = new SceneBuilder();
  const prim = b.addEllipsoids(new Float64Array([10, 2, -1]), new Float64Array([4, 0, 0, 0.25, 0, 1]), new Float32Array([0.5]));
  b.addInstance(prim, pose);
  return b.build({ mahalanobisThreshold: 3 });
}

describe('hit cells of an ellipsoid', () => {
  it('bins the whitened point of closest approach: u = L⁻¹(x − μ) over [−k, k]³', () => {
    const data = oneEllipsoid();
    expect(data.gauss.length).toBe(GAUSS_STRIDE);
    // A ray along +z through x = μ + (2σx, −1σy, ·): closest approach at z = μz, u = (2, −1, 0).
    const ox = 10 + 2 * 2, oy = 2 - 1 * 0.5, oz = -11;
    const t = 10; // oz + t = μz
    const cell = gaussCell(data.gauss, 0, ox, oy, oz, 0, 0, 1, t, 3, 6);
    // Grid 6 over [−3, 3]: u = 2 → bin 5, u = −1 → bin 2, u = 0 → bin 3.
    expect(cell).toBe((5 * 6 + 2) * 6 + 3);
    // Outside the cube clamps to the edge cells.
    expect(gaussCell(data.gauss, 0, 10 + 100, 2, -11, 0, 0, 1, 10, 3, 6)).toBe((5 * 6 + 3) * 6 + 3);
    expect(gaussCell(data.gauss, 0, 10 - 100, 2 - 100, -11, 0, 0, 1, 10, 3, 6)).toBe((0 * 6 + 0) * 6 + 3);
  });

  it('finds the same cell for a world ray through a rotated, moved instance as for the ray in its frame', () => {
    // Rotate 90° about z and move by (5, -3, 2): local (x, y, z) → world (−y + 5, x − 3, z + 2).
    const data = oneEllipsoid([5, -3, 2, 0, 0, Math.SQRT1_2, Math.SQRT1_2]);
    const local = gaussCell(data.gauss, 0, 14, 1.5, -11, 0, 0, 1, 10, 3, 8);
    // The same local ray in world coordinates: origin (−1.5 + 5, 14 − 3, −11 + 2), direction +z.
    expect(sceneGaussCell(data, 0, 0, 3.5, 11, -9, 0, 0, 1, 10, 8)).toBe(local);
  });

  it('bins a point on a triangle by its barycentric coordinates, through the instance\'s frame', () => {
    const verts = Float32Array.of(2, 0, 0, 2, 4, 0, 2, 0, 10); // a = (0, 4, 0), b = (0, 0, 10) from the first vertex
    // The point v0 + 0.2·a + 0.7·b on a ray along +x from (0, 0.8, 7): t = 2.
    expect(triangleCell(verts, 0, 0, 0.8, 7, 1, 0, 0, 2, 5)).toBe(1 * 5 + 3);
    expect(triangleCell(verts, 0, 0, -3, -3, 1, 0, 0, 2, 5)).toBe(0); // outside: clamped to the corner cell
    const b = new SceneBuilder();
    const prim = b.addGround(verts, Float32Array.of(1), 0);
    b.addInstance(prim, [5, -3, 2, 0, 0, Math.SQRT1_2, Math.SQRT1_2]);
    const data = b.build();
    // The same ray in world coordinates (local (x, y, z) → world (−y + 5, x − 3, z + 2)).
    expect(sceneTriangleCell(data, 0, 0, -0.8 + 5, -3, 9, 0, 1, 0, 2, 5)).toBe(1 * 5 + 3);
  });

  it('reads a cell as its counts shrunk towards the falloff curve, and the curve where it has none', () => {
    const cells: HitCells = {
      grid: 4, prior: 0.5, row: Int32Array.of(0, 1),
      start: Uint32Array.of(0, 2, 3), key: Uint16Array.of(5, 9, 5), hits: Uint32Array.of(3, 0, 1), passes: Uint32Array.of(1, 6, 0),
    };
    expect(cellHitProbability(cells, 0, 5, 0.4)).toBeCloseTo((3 + 0.5 * 0.4) / (4 + 0.5), 12);
    expect(cellHitProbability(cells, 0, 9, 0.4)).toBeCloseTo((0 + 0.2) / (6 + 0.5), 12);
    expect(cellHitProbability(cells, 0, 7, 0.4)).toBe(0.4); // no count: the curve
    expect(cellHitProbability(cells, 1, 5, 0.2)).toBeCloseTo(1.1 / 1.5, 12);
    expect(cellHitProbability(cells, 1, 9, 0.2)).toBe(0.2); // another ellipsoid's key
  });
});
