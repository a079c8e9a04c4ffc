/**
 * What a simulator asks of a scene. Implemented by the two-level acceleration structure in
 * src-worker/scene/ (a BVH per primitive plus instance transforms); simulators in
 * src-worker/simulate/ depend only on this interface.
 *
 * Rays are in world coordinates: origin (ox, oy, oz), unit direction (dx, dy, dz), and only
 * intersections with t in (tmin, tmax] count. Out-records are caller-owned and reused so the
 * inner loops allocate nothing.
 */

export const ElementKind = {
  /** Opaque mesh triangle (physics and mesh modes; p_hit = 1 in hybrid mode). */
  Surface: 0,
  /** Ground triangle of a fitted hybrid model (p_hit, shared σ²_ground). */
  Ground: 1,
  /** Gaussian ellipsoid (μ, Σ, p_hit). */
  Ellipsoid: 2,
  /** Voxel Gaussian with permeability ρ (p_hit = 1 − ρ). */
  Voxel: 3,
} as const;
export type ElementKind = (typeof ElementKind)[keyof typeof ElementKind];

/** Closest opaque hit, for the physics and mesh modes. */
export interface SurfaceHit {
  t: number;
  /** Unit geometric normal in world coordinates, facing the ray's origin. */
  nx: number;
  ny: number;
  nz: number;
  /** Diffuse reflectance in [0, 1]. */
  reflectance: number;
  objectId: number;
  classId: number;
}

/**
 * One element a ray meets, for the hybrid and voxel modes. For triangles `t` is the
 * intersection distance; for ellipsoids and voxels it is the distance to the point of minimum
 * Mahalanobis distance along the ray (seed 000 eq. 1) and `mahalanobis` is that minimum.
 */
export interface ElementHit {
  kind: ElementKind;
  t: number;
  mahalanobis: number;
  /** Probability that the ray returns from this element (1 − ρ for voxels). */
  pHit: number;
  objectId: number;
  classId: number;
  /** Range sampling along the ray (seed 000 eq. 2–3): μ_t and σ_t² of the element's Gaussian
   * restricted to the ray; for triangles μ_t = t and σ_t² = the ground variance (or 0). */
  muT: number;
  varT: number;
  /** World-frame Gaussian of the element (ellipsoids, voxels): mean and the lower-triangular
   * Cholesky factor L of Σ (row-major l00, l10, l11, l20, l21, l22), for sampling N(μ, Σ)
   * (the 001 sampler); zeros for triangles. */
  mean: Float64Array;
  chol: Float64Array;
}

export interface SceneQuery {
  /** Closest opaque surface on the ray; false if none. */
  closestSurface(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number, out: SurfaceHit): boolean;
  /**
   * Every element the ray meets, nearest first (ellipsoids/voxels count when their minimum
   * Mahalanobis distance is below the scene's threshold). `visit` returns true to stop, so a
   * ray that returns from its first element costs one element, not all of them.
   */
  /**
   * Optional: closestSurface for `count` (≤ 32) rays sharing the origin, directions dirs[3k..3k+2],
   * in one traversal. Fills out[k] for each ray k that hits and returns the bit mask of those rays;
   * each result equals closestSurface's for that ray (up to which of two hits at exactly equal
   * t wins).
   */
  closestSurfaceBeam?(ox: number, oy: number, oz: number, dirs: ArrayLike<number>, count: number, tmin: number, tmax: number, out: SurfaceHit[]): number;
  traverse(
    ox: number, oy: number, oz: number, dx: number, dy: number, dz: number,
    tmin: number, tmax: number,
    visit: (hit: ElementHit) => boolean,
  ): void;
}

export function newSurfaceHit(): SurfaceHit {
  return { t: 0, nx: 0, ny: 0, nz: 0, reflectance: 0, objectId: 0, classId: 0 };
}
