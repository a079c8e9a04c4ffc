/**
 * The ground of a composed scene: from a fitted model or a heightfield (docs/methods.md §3).
 * One form for both: world triangles with p_hit and σ²_ground (hybrid mode's ground triangles,
 * the mesh and physics modes' ground surface), plus voxel Gaussians for the voxel mode, which
 * models the ground with voxels too (seed 000; kindsForMode('voxel') has no triangles).
 *
 *   groundFromModel(fit.arrays, fit.scalars.groundVariance)     the model's ground triangles, and
 *                                                               its voxels on the ground surface
 *   groundFromHeightGrid(grid, { variance, pHit })              a heightfield (HeightGrid, or
 *                                                               heightFunctionGrid(fn, bounds, cell))
 *   groundVoxels(ground, voxelSize)                             the voxel mode's ground (given, or
 *                                                               made from the triangles)
 */
import type { ModelArrays } from '../../src-common/fitted-model';
import { GroundIndex, heightGridTriangles, type HeightGrid } from './ground-index';
import type { PrimitiveVoxels } from '../../src-common/primitive';

export interface ComposeGround {
  /** World triangles, 9 floats each. */
  positions: Float32Array;
  /** p_hit per triangle, or one for all. */
  pHit: Float32Array | number;
  /** σ²_ground (m²). */
  variance: number;
  /** Reflectance the mesh and physics modes see; default 0.3 (SceneBuilder.addGround's). */
  reflectance?: number;
  /** The voxel mode's ground; absent: made from the triangles (groundVoxels). */
  voxels?: PrimitiveVoxels;
}

/**
 * A fitted model's ground: its triangles with their p_hit and σ²_ground, and its voxel Gaussians
 * whose mean lies within `clearance` of the triangle surface (the ground's voxels; extraction
 * leaves exactly these out of primitives). Covers only where the model's log drove.
 */
export function groundFromModel(
  model: Pick<ModelArrays, 'groundPositions' | 'groundPHit' | 'voxelMeans' | 'voxelCovariances' | 'voxelPermeability'>,
  groundVariance: number,
  opts: { clearance?: number } = {},
): ComposeGround {
  const clearance = opts.clearance ?? 0.25;
  const index = new GroundIndex(model.groundPositions);
  const keep: number[] = [];
  const m = model.voxelMeans;
  for (let i = 0; i < model.voxelPermeability.length; i++) {
    const g = index.heightAt(m[3 * i]!, m[3 * i + 1]!);
    if (g === g && Math.abs(m[3 * i + 2]! - g) <= clearance) keep.push(i);
  }
  const means = new Float64Array(3 * keep.length), covariances = new Float64Array(6 * keep.length);
  const permeability = new Float32Array(keep.length);
  keep.forEach((i, k) => {
    means.set(m.subarray(3 * i, 3 * i + 3), 3 * k);
    covariances.set(model.voxelCovariances.subarray(6 * i, 6 * i + 6), 6 * k);
    permeability[k] = model.voxelPermeability[i]!;
  });
  return { positions: model.groundPositions, pHit: model.groundPHit, variance: groundVariance, voxels: { means, covariances, permeability } };
}

/**
 * A heightfield's ground: two triangles per grid square. `variance` is σ²_ground — pass the
 * training model's (FitResult.scalars.groundVariance) so the composed ground is as noisy as the
 * fitted one; default 0.07 m², thesis Table 4.1. `pHit` default 1 (solid ground).
 */
export function groundFromHeightGrid(grid: HeightGrid, opts: { variance?: number; pHit?: number; reflectance?: number } = {}): ComposeGround {
  return {
    positions: heightGridTriangles(grid),
    pHit: opts.pHit ?? 1,
    variance: opts.variance ?? 0.07,
    ...(opts.reflectance !== undefined ? { reflectance: opts.reflectance } : {}),
  };
}

/**
 * The voxel mode's ground: `ground.voxels` when given; otherwise one flat Gaussian per
 * `voxelSize` x-y cell the triangles cover — mean on the surface, σ²_ground across it, and
 * along it a spread σ = 0.75 s / τ: a uniform cell's s²/12 would leave the cell corners
 * uncovered (Mahalanobis 0.71 s / (s/√12) = 2.45 > τ = 2: vertical rays between four voxels
 * fall through the ground), at 0.75 s / τ a corner is at 0.94 τ. Permeability 1 − p_hit of the
 * triangle below (at most 0.99: ground stops rays).
 */
export function groundVoxels(ground: ComposeGround, voxelSize = 0.3, voxelTau = 2): PrimitiveVoxels {
  if (ground.voxels) return ground.voxels;
  if (!(voxelSize > 0)) throw new Error(`ground voxels: voxel size ${voxelSize} must be > 0`);
  if (!(voxelTau > 0)) throw new Error(`ground voxels: τ ${voxelTau} must be > 0`);
  const index = new GroundIndex(ground.positions);
  const p = ground.positions;
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let i = 0; i < p.length; i += 3) {
    x0 = Math.min(x0, p[i]!); x1 = Math.max(x1, p[i]!);
    y0 = Math.min(y0, p[i + 1]!); y1 = Math.max(y1, p[i + 1]!);
  }
  const means: number[] = [], covs: number[] = [], perm: number[] = [];
  const inPlane = ((0.75 * voxelSize) / voxelTau) ** 2, across = Math.max(ground.variance, 1e-4);
  const n = new Float64Array(3);
  if (p.length > 0) {
    const nx = Math.ceil((x1 - x0) / voxelSize), ny = Math.ceil((y1 - y0) / voxelSize);
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        const x = x0 + (i + 0.5) * voxelSize, y = y0 + (j + 0.5) * voxelSize;
        const z = index.heightAt(x, y);
        if (z !== z) continue;
        const t = index.lastTriangle;
        index.normal(t, n);
        means.push(x, y, z);
        // Σ = a (I − n nᵀ) + b n nᵀ = a I + (b − a) n nᵀ.
        const d = across - inPlane;
        covs.push(inPlane + d * n[0]! * n[0]!, d * n[0]! * n[1]!, d * n[0]! * n[2]!, inPlane + d * n[1]! * n[1]!, d * n[1]! * n[2]!, inPlane + d * n[2]! * n[2]!);
        const ph = typeof ground.pHit === 'number' ? ground.pHit : ground.pHit[t]!;
        perm.push(Math.min(0.99, Math.max(0, 1 - ph)));
      }
    }
  }
  return { means: Float64Array.from(means), covariances: Float64Array.from(covs), permeability: Float32Array.from(perm) };
}
