/**
 * A fitted model as stored: flat typed arrays per element kind (each sorted by block), and the
 * few scalars a scene needs. The arrays are what the project keeps as BLOBs (model_arrays, one
 * row set per name below); model-scene.ts turns them into a SceneData for simulation.
 */

export interface ModelArrays {
  /** Ground triangles: 9 floats each (world frame). */
  groundPositions: Float32Array;
  groundPHit: Float32Array;
  groundBlock: Int32Array;
  /** Replay counts: rays returning from the triangle, rays passing through it. */
  groundHits: Uint32Array;
  groundMisses: Uint32Array;
  /** Ellipsoids: μ (3 each), Σ (6 each: xx, xy, xz, yy, yz, zz), p_hit. */
  ellipsoidMeans: Float64Array;
  ellipsoidCovariances: Float64Array;
  ellipsoidPHit: Float32Array;
  ellipsoidBlock: Int32Array;
  /** Raw hits the cluster was fitted to. */
  ellipsoidPoints: Uint32Array;
  ellipsoidHits: Uint32Array;
  ellipsoidMisses: Uint32Array;
  /** Voxel Gaussians: μ, Σ as for ellipsoids, permeability ρ. */
  voxelMeans: Float64Array;
  voxelCovariances: Float64Array;
  voxelPermeability: Float32Array;
  voxelBlock: Int32Array;
  voxelPoints: Uint32Array;
  /** Seed 000's n (rays ending in the voxel) and m (rays passing within τ). */
  voxelEnds: Uint32Array;
  voxelPasses: Uint32Array;
}

export const MODEL_ARRAY_NAMES = [
  'groundPositions', 'groundPHit', 'groundBlock', 'groundHits', 'groundMisses',
  'ellipsoidMeans', 'ellipsoidCovariances', 'ellipsoidPHit', 'ellipsoidBlock', 'ellipsoidPoints', 'ellipsoidHits', 'ellipsoidMisses',
  'voxelMeans', 'voxelCovariances', 'voxelPermeability', 'voxelBlock', 'voxelPoints', 'voxelEnds', 'voxelPasses',
] as const satisfies readonly (keyof ModelArrays)[];

/** The scalars a scene built from the arrays needs. */
export interface ModelScalars {
  groundVariance: number;
  mahalanobisThreshold: number;
  voxelTau: number;
  /** Ellipsoid p_hit falls off with the ray's Mahalanobis distance (θ's ellipsoidHitFalloff); absent: constant. */
  ellipsoidHitFalloff?: boolean;
}

/** Checks the arrays agree with each other (a stored model read back, or one built in a test). */
export function checkModelArrays(a: ModelArrays): void {
  const t = a.groundPHit.length, e = a.ellipsoidPHit.length, v = a.voxelPermeability.length;
  const expect = (name: keyof ModelArrays, n: number) => {
    if (a[name].length !== n) throw new Error(`model array ${name} has ${a[name].length} values, expected ${n}`);
  };
  expect('groundPositions', 9 * t);
  for (const n of ['groundBlock', 'groundHits', 'groundMisses'] as const) expect(n, t);
  expect('ellipsoidMeans', 3 * e);
  expect('ellipsoidCovariances', 6 * e);
  for (const n of ['ellipsoidBlock', 'ellipsoidPoints', 'ellipsoidHits', 'ellipsoidMisses'] as const) expect(n, e);
  expect('voxelMeans', 3 * v);
  expect('voxelCovariances', 6 * v);
  for (const n of ['voxelBlock', 'voxelPoints', 'voxelEnds', 'voxelPasses'] as const) expect(n, v);
}
