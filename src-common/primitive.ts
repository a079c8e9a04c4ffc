/**
 * A terrain primitive (thesis 004 §4.3.1.4): one object's scene elements at the identity pose,
 * with its class and box extents — the unit a scene is composed from. One type for both
 * libraries: data-driven hybrid primitives (ellipsoids + voxel Gaussians, raw points for
 * previews, extract.ts) and procedural mesh primitives (triangles only, mesh-library.ts).
 *
 * The primitive frame (every array below is in it):
 *   origin  the centre of the box's base: x, y at the box centre, z = 0 at the box bottom
 *           (the object's foot), so a primitive placed at an annotation box stands on the ground
 *           whichever reference point the annotation's own pose used (the reference site's
 *           poses are at the foot, the thesis's segment poses at the centroid);
 *   axes    x along the box length (the object's yaw axis), y across it, z up;
 *   box     [−l/2, l/2] × [−w/2, w/2] × [0, h] for extents [l, w, h].
 * Elements may reach a little past the box (a Gaussian's spread, a leaf past the fitted box).
 */
import { referenceClassName } from './classes';
import type { ComposeMode } from './modes';

/** Gaussians as the fitted model stores them: μ (3 each), Σ (6 each: xx, xy, xz, yy, yz, zz). */
export interface GaussianArrays {
  means: Float64Array;
  covariances: Float64Array;
}

/** Ellipsoids of a hybrid model (docs/methods.md §1): μ, Σ, p_hit. */
export interface PrimitiveEllipsoids extends GaussianArrays {
  pHit: Float32Array;
}

/** Voxel Gaussians of the permeability model (docs/methods.md §2): μ, Σ, permeability ρ. */
export interface PrimitiveVoxels extends GaussianArrays {
  permeability: Float32Array;
}

/** Where a primitive's elements came from. */
export type PrimitiveSource =
  /** A whole labelled segment of a fitted log (an object). */
  | 'object'
  /** One cell of a shrub patch (a patch is split into uniform cells). */
  | 'patch-cell'
  /** Built by a procedural generator (mesh baseline). */
  | 'procedural';

export interface Primitive {
  /** Unique within its library (the store's row id, or the index in a library built in memory). */
  id: number;
  /** Class id (SiteClass / ReferenceClass: the shrub and tree sizes of docs/methods.md §3). */
  class: number;
  /** Box extents [length along x, width along y, height along z] (m). */
  extents: [number, number, number];
  source: PrimitiveSource;
  /** Hybrid elements: ellipsoids (hybrid mode) and voxel Gaussians (voxel mode). */
  ellipsoids?: PrimitiveEllipsoids;
  voxels?: PrimitiveVoxels;
  /** Opaque triangles, 9 floats each (mesh and physics modes). */
  triangles?: Float32Array;
  /** Diffuse reflectance per triangle in [0, 1]; absent: 0.5 for all. */
  reflectance?: Float32Array;
  /** Raw hits of the segment, 3 floats each (capped; for point previews and neighbour-style use). */
  points?: Float32Array;
  /**
   * Provenance: the world ← primitive pose it was extracted at ([tx, ty, tz, qx, qy, qz, qw],
   * a pure yaw), the annotation entry or cluster it came from, and the patch cell [i, j].
   */
  origin?: { pose: [number, number, number, number, number, number, number]; segmentId: number; cell?: [number, number] };
}

/** Simulation modes a composed scene is built for (the simulator's modes; physics sees what mesh sees). */

/** Element counts of a primitive (what a library listing shows). */
export function primitiveCounts(p: Primitive): { ellipsoids: number; voxels: number; triangles: number; points: number } {
  return {
    ellipsoids: p.ellipsoids ? p.ellipsoids.pHit.length : 0,
    voxels: p.voxels ? p.voxels.permeability.length : 0,
    triangles: p.triangles ? p.triangles.length / 9 : 0,
    points: p.points ? p.points.length / 3 : 0,
  };
}

/**
 * Whether a primitive has the elements a mode simulates: ellipsoids (hybrid), voxels (voxel),
 * triangles (mesh, physics). Composition only picks primitives that do, so one mixed library
 * serves every mode.
 */
export function hasElementsFor(p: Primitive, mode: ComposeMode): boolean {
  const c = primitiveCounts(p);
  if (mode === 'hybrid') return c.ellipsoids > 0;
  if (mode === 'voxel') return c.voxels > 0;
  return c.triangles > 0;
}

/** Checks a primitive's arrays agree (one read back from the store, or built by a generator). */
export function checkPrimitive(p: Primitive): void {
  const bad = (why: string) => new Error(`primitive ${p.id}: ${why}`);
  if (!Number.isInteger(p.class)) throw bad(`class ${String(p.class)} is not an integer`);
  if (p.extents.length !== 3 || p.extents.some((v) => !(Number.isFinite(v) && v >= 0))) throw bad(`extents ${JSON.stringify(p.extents)} are not three finite sizes ≥ 0`);
  const gauss = (name: string, g: GaussianArrays, n: number) => {
    if (g.means.length !== 3 * n) throw bad(`${name} has ${g.means.length} mean values for ${n} elements (3 each)`);
    if (g.covariances.length !== 6 * n) throw bad(`${name} has ${g.covariances.length} covariance values for ${n} elements (6 each)`);
  };
  if (p.ellipsoids) gauss('ellipsoids', p.ellipsoids, p.ellipsoids.pHit.length);
  if (p.voxels) gauss('voxels', p.voxels, p.voxels.permeability.length);
  if (p.triangles && p.triangles.length % 9 !== 0) throw bad(`triangles has ${p.triangles.length} values (9 per triangle)`);
  if (p.reflectance && p.reflectance.length * 9 !== (p.triangles?.length ?? 0)) throw bad(`reflectance has ${p.reflectance.length} values for ${(p.triangles?.length ?? 0) / 9} triangles`);
  if (p.points && p.points.length % 3 !== 0) throw bad(`points has ${p.points.length} values (3 per point)`);
}

/** Primitives per class name. */
export function countByClass(primitives: readonly Primitive[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of primitives) {
    const name = referenceClassName(p.class);
    out[name] = (out[name] ?? 0) + 1;
  }
  return out;
}
