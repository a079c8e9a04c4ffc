/**
 * θ: the parameters of fitting a hybrid model (docs/methods.md §1–2; thesis 004 Table 4.1, seed 001
 * Table I, seed 000 §III). One flat record of numbers, so a request, the CLI's `--param k=v`
 * and a derivative-free tuner all address them by name; the fit report stores the θ it used.
 *
 * Where this implementation differs from the thesis's tools the default says why:
 * - The cloud is subsampled to the centroids of `cellSize` cells (the thesis subsampled too);
 *   neighbour counts, clusters per point and points per cluster count these subsampled points.
 * - Table 4.1's "maximum distance to neighbour 5 m" reads as the isolated-point filter of the
 *   ground (`isolatedDistance`); with a cloud this dense a 5 m feature ball would hold
 *   thousands of points, so the feature radius d_φ is its own parameter (`phiRadius`).
 * - The ground surface is a local-linear regression with compactly supported (Wendland)
 *   weights and a ridge on the slopes (`surfaceRadius`, `surfaceRegularization`) in place of
 *   ALGLIB's compact RBFs (radius 5 m, regularisation 0.001): the same kind of regularised,
 *   locally supported fit, evaluated at the mesh vertices.
 * - Defaults measured on the reference site's training drive (per-ray ground truth):
 *   φ_default = 0.2 instead of 0.01 (isolated points in sparse vegetation are not ground) and a
 *   slope test (trunks and shrub faces are locally planar too) lift non-ground recall from 0.51
 *   to 0.93 at ground precision and recall ≥ 0.99; tuning (θ search) may move them again.
 */

export const FIT_PARAM_DEFAULTS = {
  /** Side of the subsampling cells (m): the fitted cloud is their centroids. */
  cellSize: 0.1,
  /** Side of the square x-y blocks modelled independently (m). */
  blockSize: 40,

  /** d_φ: radius of the neighbourhood of the spherical variation (m). */
  phiRadius: 0.75,
  /** N_min,φ: fewer neighbours than this → φ_default (Table 4.1: 10). */
  phiMinNeighbors: 10,
  /** φ_default (Table 4.1: 0.01, which made sparse vegetation ground here: see the file comment). */
  phiDefault: 0.2,
  /** φ_thresh: ground when φ < this (Table 4.1: 0.09). */
  phiThreshold: 0.09,
  /** d_smooth,φ: bilateral smoothing radius of φ (004 eq. 4.1–4.2), 0 = off (the thesis's "optionally"). */
  smoothRadius: 0,
  /** η_d, η_φ of eq. 4.2. */
  smoothEtaD: 1,
  smoothEtaPhi: 1,
  /** Ground also needs a local normal within this angle of vertical (deg); 90 = no test (the thesis's rule). */
  maxGroundSlopeDeg: 45,

  /** Ground points whose nearest ground neighbour is farther than this are dropped (m). */
  isolatedDistance: 1,
  /** Ground mesh vertices: one per x-y cell of this side holding ground points (m). */
  vertexSpacing: 0.5,
  /** Support radius of the surface regression's weights (m). */
  surfaceRadius: 1,
  /** Ridge on the regression's slopes (regularisation: larger = smoother). */
  surfaceRegularization: 0.001,
  /** Triangles with a side longer than this are dropped (m; Table 4.1: 10). */
  maxTriangleSide: 10,
  /** A ray returning within this of a triangle's intersection hits it (m; Table 4.1: 0.75). */
  maxResidual: 0.75,
  /** (hit, miss) count priors of triangles (Table 4.1: (1, 2)). */
  groundHitPrior: 1,
  groundMissPrior: 2,

  /** Clusters per (subsampled) non-ground point (Table 4.1: 0.042). */
  clustersPerPoint: 0.042,
  /** Minimum (subsampled) points per cluster (Table 4.1: 5). */
  minClusterPoints: 5,
  /** Branching factor of the top-down k-means. */
  branching: 2,
  /** Lloyd iterations per k-means split. */
  kmeansIterations: 8,
  /** Rays meet an ellipsoid within this Mahalanobis distance (Table 4.1: 3.5). */
  mahalanobisThreshold: 3.5,
  /** (hit, miss) count priors of ellipsoids (Table 4.1: (0, 1)). */
  ellipsoidHitPrior: 0,
  ellipsoidMissPrior: 1,
  /**
   * 1: learn both kinds' (hit, miss) priors from the log's own replay counts (the maximum of the
   * beta-binomial marginal likelihood, docs/methods.md §1 step 4) instead of the four fixed
   * priors above (the default: on real scans and on the demo it recovers more of the hits the
   * fixed priors lose, docs/methods.md §1); 0: Table 4.1's fixed priors.
   */
  learnHitPriors: 1,
  /**
   * 1: an ellipsoid's hit probability falls off with how far from its centre a ray passes —
   * Beer–Lambert along the Gaussian, P(hit | m) = 1 − exp(−κ·exp(−m²/2)), κ by maximum likelihood
   * over the replay (docs/methods.md §1 step 4); 0: one constant p_hit per ellipsoid (Table 4.1).
   */
  ellipsoidHitFalloff: 1,
  /**
   * How the training sensor itself reads the ground. 1: a ray without a return counts a miss at
   * every ground triangle it crosses (Table 4.1's replay: its dropouts are reproduced); 0: only
   * rays that returned from beyond a triangle count as passing it. Another sensor always reads the
   * ground the second way (docs/methods.md §1 step 4: a ray cannot cross the ground into the sky,
   * so a missing return there is the training sensor's own).
   */
  groundNoReturnMisses: 1,
  /**
   * Hit cells per axis of each ellipsoid (docs/methods.md §1 step 4): the replay counts hits and
   * passes by where in the ellipsoid's whitened volume a ray passes, G³ cells over [−k, k]³, and
   * the simulator reads a ray's hit probability from its cell; 0: by the Mahalanobis distance only.
   */
  ellipsoidCells: 16,
  /**
   * Hit cells per side of each ground triangle: G × G cells of its barycentric coordinates, as for
   * ellipsoids; 0: one p_hit per triangle.
   */
  groundCells: 6,
  /** s: pseudo-rays of the element's own hit probability in each hit cell (small: a cell's own rays decide). */
  hitCellPrior: 0.25,

  /** Voxel side of the permeability model (m; seed 000 used 0.3 m for mobile data). */
  voxelSize: 0.3,
  /** Voxels with fewer raw points are not modelled. */
  voxelMinPoints: 5,
  /** τ: rays meet a voxel Gaussian within this Mahalanobis distance (seed 000: 2). */
  voxelTau: 2,

  /** Max range for replaying misses (m); 0 = the log's sensor profile, else the farthest return. */
  maxRange: 0,
} as const;

export type FitParamName = keyof typeof FIT_PARAM_DEFAULTS;
export type FitParams = { -readonly [K in FitParamName]: number };

/** Allowed range per parameter [min, max] (inclusive); integers where noted. */
const LIMITS: Record<FitParamName, [number, number, 'int'?]> = {
  cellSize: [0.01, 2],
  blockSize: [5, 10_000],
  phiRadius: [0.05, 20],
  phiMinNeighbors: [3, 10_000, 'int'],
  phiDefault: [0, 1 / 3],
  phiThreshold: [0, 1 / 3],
  smoothRadius: [0, 20],
  smoothEtaD: [0, 100],
  smoothEtaPhi: [0, 100],
  maxGroundSlopeDeg: [0, 90],
  isolatedDistance: [0.01, 100],
  vertexSpacing: [0.05, 20],
  surfaceRadius: [0.05, 50],
  surfaceRegularization: [0, 1e6],
  maxTriangleSide: [0.1, 1_000],
  maxResidual: [0.001, 100],
  groundHitPrior: [0, 1e6],
  groundMissPrior: [0, 1e6],
  clustersPerPoint: [1e-6, 1],
  minClusterPoints: [1, 1e6, 'int'],
  branching: [2, 64, 'int'],
  kmeansIterations: [1, 1_000, 'int'],
  mahalanobisThreshold: [0.1, 100],
  ellipsoidHitPrior: [0, 1e6],
  ellipsoidMissPrior: [0, 1e6],
  learnHitPriors: [0, 1, 'int'],
  ellipsoidHitFalloff: [0, 1, 'int'],
  groundNoReturnMisses: [0, 1, 'int'],
  ellipsoidCells: [0, 40, 'int'],
  groundCells: [0, 40, 'int'],
  hitCellPrior: [0, 1e6],
  voxelSize: [0.01, 50],
  voxelMinPoints: [1, 1e6, 'int'],
  voxelTau: [0.1, 100],
  maxRange: [0, 100_000],
};

/** Defaults overridden by `overrides`; throws naming the parameter on an unknown name or a bad value. */
export function resolveFitParams(overrides: Record<string, number> = {}): FitParams {
  const out = { ...FIT_PARAM_DEFAULTS } as FitParams;
  for (const [name, value] of Object.entries(overrides)) {
    if (!Object.prototype.hasOwnProperty.call(LIMITS, name)) {
      throw new Error(`fit parameter "${name}" is not known (known: ${Object.keys(LIMITS).join(', ')})`);
    }
    const [min, max, kind] = LIMITS[name as FitParamName];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max || (kind === 'int' && !Number.isInteger(value))) {
      throw new Error(`fit parameter ${name} = ${String(value)}: expected ${kind === 'int' ? 'a whole number' : 'a number'} in [${min}, ${max}]`);
    }
    out[name as FitParamName] = value;
  }
  if (out.groundHitPrior + out.groundMissPrior <= 0) throw new Error('fit parameters: groundHitPrior + groundMissPrior must be positive');
  if (out.ellipsoidHitPrior + out.ellipsoidMissPrior <= 0) throw new Error('fit parameters: ellipsoidHitPrior + ellipsoidMissPrior must be positive');
  return out;
}
