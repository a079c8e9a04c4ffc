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
  /**
   * Hit cells of the ellipsoids (θ's ellipsoidCells > 0; src-worker/scene/hit-cells.ts):
   * compressed rows, ellipsoid i's cells at [start[i], start[i + 1]) of key (cell index, ascending),
   * hits and passes. Absent in models fitted without them (or before they existed).
   */
  ellipsoidCellStart?: Uint32Array;
  ellipsoidCellKey?: Uint16Array;
  ellipsoidCellHits?: Uint32Array;
  ellipsoidCellPasses?: Uint32Array;
  /** The same for the ground triangles (θ's groundCells > 0), one row per triangle. */
  groundCellStart?: Uint32Array;
  groundCellKey?: Uint16Array;
  groundCellHits?: Uint32Array;
  groundCellPasses?: Uint32Array;
  /**
   * The ground as another sensor sees it (fitted with θ's groundNoReturnMisses = 1): p_hit from
   * the rays that returned only, and per ground cell the passes that were rays without a return
   * (to subtract from groundCellPasses). Absent: the same for every sensor.
   */
  groundPHitReturned?: Float32Array;
  groundCellNoReturns?: Uint32Array;
  /** The same for the ellipsoids: p_hit from the passes of rays that returned, and per cell the no-return passes. */
  ellipsoidPHitReturned?: Float32Array;
  ellipsoidCellNoReturns?: Uint32Array;
}

export const MODEL_ARRAY_NAMES = [
  'groundPositions', 'groundPHit', 'groundBlock', 'groundHits', 'groundMisses',
  'ellipsoidMeans', 'ellipsoidCovariances', 'ellipsoidPHit', 'ellipsoidBlock', 'ellipsoidPoints', 'ellipsoidHits', 'ellipsoidMisses',
  'voxelMeans', 'voxelCovariances', 'voxelPermeability', 'voxelBlock', 'voxelPoints', 'voxelEnds', 'voxelPasses',
] as const satisfies readonly (keyof ModelArrays)[];

/** The hit-cell arrays of each kind (a model may lack them: older models, or θ that leaves them out; all four or none). */
const CELL_GROUPS = {
  ellipsoid: ['ellipsoidCellStart', 'ellipsoidCellKey', 'ellipsoidCellHits', 'ellipsoidCellPasses'],
  ground: ['groundCellStart', 'groundCellKey', 'groundCellHits', 'groundCellPasses'],
} as const satisfies Record<string, readonly (keyof ModelArrays)[]>;

export const OPTIONAL_MODEL_ARRAY_NAMES = [...CELL_GROUPS.ellipsoid, ...CELL_GROUPS.ground, 'groundPHitReturned', 'groundCellNoReturns', 'ellipsoidPHitReturned', 'ellipsoidCellNoReturns'] as const;

/** The scalars a scene built from the arrays needs. */
export interface ModelScalars {
  groundVariance: number;
  mahalanobisThreshold: number;
  voxelTau: number;
  /** Ellipsoid p_hit falls off with the ray's Mahalanobis distance (θ's ellipsoidHitFalloff); absent: constant. */
  ellipsoidHitFalloff?: boolean;
  /** The hit cells' grids and prior (θ's ellipsoidCells, groundCells, hitCellPrior); absent: none read. */
  hitCells?: { ellipsoidGrid: number; groundGrid: number; prior: number };
}

/** Checks the arrays agree with each other (a stored model read back, or one built in a test). */
export function checkModelArrays(a: ModelArrays): void {
  const t = a.groundPHit.length, e = a.ellipsoidPHit.length, v = a.voxelPermeability.length;
  const expect = (name: keyof ModelArrays, n: number) => {
    const len = a[name]?.length ?? 0;
    if (len !== n) throw new Error(`model array ${name} has ${len} values, expected ${n}`);
  };
  expect('groundPositions', 9 * t);
  for (const n of ['groundBlock', 'groundHits', 'groundMisses'] as const) expect(n, t);
  expect('ellipsoidMeans', 3 * e);
  expect('ellipsoidCovariances', 6 * e);
  for (const n of ['ellipsoidBlock', 'ellipsoidPoints', 'ellipsoidHits', 'ellipsoidMisses'] as const) expect(n, e);
  expect('voxelMeans', 3 * v);
  expect('voxelCovariances', 6 * v);
  for (const n of ['voxelBlock', 'voxelPoints', 'voxelEnds', 'voxelPasses'] as const) expect(n, v);
  for (const [kind, names] of [['ellipsoid', CELL_GROUPS.ellipsoid], ['ground', CELL_GROUPS.ground]] as const) {
    const present = names.filter((n) => a[n] !== undefined).length;
    if (present !== 0 && present !== names.length) throw new Error(`model arrays: ${present} of the ${names.length} ${kind} hit-cell arrays`);
    const start = a[names[0]];
    if (!start) continue;
    const rows = kind === 'ellipsoid' ? e : t;
    if (start.length !== rows + 1) throw new Error(`model array ${names[0]} has ${start.length} values, expected ${rows + 1}`);
    for (let i = 0; i < rows; i++) if (start[i]! > start[i + 1]!) throw new Error(`model array ${names[0]} decreases at ${i}`);
    for (const name of names.slice(1)) expect(name, start[rows]!);
  }
  if (a.groundPHitReturned) expect('groundPHitReturned', t);
  if (a.ellipsoidPHitReturned) expect('ellipsoidPHitReturned', e);
  if (a.ellipsoidCellNoReturns) {
    if (!a.ellipsoidCellStart) throw new Error('model array ellipsoidCellNoReturns without ellipsoid hit cells');
    expect('ellipsoidCellNoReturns', a.ellipsoidCellStart[e]!);
  }
  if (a.groundCellNoReturns) {
    if (!a.groundCellStart) throw new Error('model array groundCellNoReturns without ground hit cells');
    expect('groundCellNoReturns', a.groundCellStart[t]!);
  }
}
