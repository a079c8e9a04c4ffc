/**
 * Where on an element a ray passes, and what the model learned there (docs/methods.md §1 step 4,
 * *hit cells*): ellipsoids, and ground triangles.
 *
 * One hit probability per ellipsoid — even one falling off with the Mahalanobis distance m — says
 * every ray at the same m returns alike. Real clusters are not Gaussian blobs: the corner of a wall,
 * a branch with sky beside it, a shrub's open side hold rays that always return next to rays that
 * never do, at the same m (a static VLP-16 repeats 99 % of its rays' outcomes revolution after
 * revolution; docs/fitting-and-primitives.md). So each ellipsoid also keeps a coarse map of its
 * own volume: the ray's point of closest approach x* = o + t*·d, whitened by the ellipsoid's
 * Cholesky factor, u = L⁻¹(x* − μ) (|u| = m), falls in one of G³ cells of the cube [−k, k]³ (k the
 * Mahalanobis threshold). The replay counts the hits and passes of every cell a ray reaches, and
 * the simulator reads, for a ray in cell c,
 *
 *     P(hit) = (h_c + s·P_falloff(m)) / (h_c + n_c + s)
 *
 * — the cell's own rate, shrunk towards the ellipsoid's falloff curve by s pseudo-rays (a cell no
 * training ray reached is the falloff curve itself). Whitening makes the cells follow the
 * ellipsoid's shape, so a thin wall's cells tile its face, not the air beside it.
 *
 * A ground triangle is cut the same way by the barycentric coordinates (u, v) of the point where
 * the ray crosses its plane: G × G cells of the unit square, the half u + v ≤ 1 used — a triangle
 * over a ditch's edge, or half in a shrub's shadow, returns on one side and not the other.
 *
 * Cells are in the element's own frame (the Gaussian record's μ and L, the triangle's vertices,
 * are local to its primitive), so the ray is moved into that frame first; a model scene's
 * instances are the identity, and the same cell comes out of the replay and of the simulation.
 */
import { GAUSS_STRIDE, GaussField, INST_FLOATS, INST_IDENTITY_ROTATION, INST_INTS } from './scene-data';
import type { HitCells, SceneData } from '../../src-common/scene-data';

/** The largest grid: G³ cell indices must fit a Uint16 key. */
export const MAX_CELL_GRID = 40;

/**
 * The cell of a ray's closest approach to Gaussian record `g` of `gauss` (local frame): o + t·d
 * whitened, binned into grid³ cells over [−k, k]³. The ray is already in the Gaussian's frame.
 */
export function gaussCell(gauss: Float64Array, g: number, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, t: number, k: number, grid: number): number {
  const o = g * GAUSS_STRIDE, c = o + GaussField.chol;
  const x = ox + t * dx - gauss[o]!, y = oy + t * dy - gauss[o + 1]!, z = oz + t * dz - gauss[o + 2]!;
  // Forward substitution with the row-major lower factor [L00, L10, L11, L20, L21, L22].
  const u0 = x / gauss[c]!;
  const u1 = (y - gauss[c + 1]! * u0) / gauss[c + 2]!;
  const u2 = (z - gauss[c + 3]! * u0 - gauss[c + 4]! * u1) / gauss[c + 5]!;
  return (cellAxis(u0, k, grid) * grid + cellAxis(u1, k, grid)) * grid + cellAxis(u2, k, grid);
}

function cellAxis(u: number, k: number, grid: number): number {
  const i = Math.floor(((u + k) / (2 * k)) * grid);
  return i < 0 || i !== i ? 0 : i >= grid ? grid - 1 : i;
}

/**
 * The cell of the point o + t·d on triangle `tri` of `verts` (9 floats a triangle, local frame):
 * its barycentric (u, v) binned into grid² cells of [0, 1]². The ray is already in the frame.
 */
export function triangleCell(verts: Float32Array, tri: number, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, t: number, grid: number): number {
  const o = 9 * tri;
  const px = ox + t * dx - verts[o]!, py = oy + t * dy - verts[o + 1]!, pz = oz + t * dz - verts[o + 2]!;
  const ax = verts[o + 3]! - verts[o]!, ay = verts[o + 4]! - verts[o + 1]!, az = verts[o + 5]! - verts[o + 2]!;
  const bx = verts[o + 6]! - verts[o]!, by = verts[o + 7]! - verts[o + 1]!, bz = verts[o + 8]! - verts[o + 2]!;
  const aa = ax * ax + ay * ay + az * az, ab = ax * bx + ay * by + az * bz, bb = bx * bx + by * by + bz * bz;
  const pa = px * ax + py * ay + pz * az, pb = px * bx + py * by + pz * bz, det = aa * bb - ab * ab;
  const u = (bb * pa - ab * pb) / det, v = (aa * pb - ab * pa) / det;
  return cellAxis(u - 0.5, 0.5, grid) * grid + cellAxis(v - 0.5, 0.5, grid);
}

/** Scratch for a ray moved into an instance's frame (one walk at a time per thread). */
const LOCAL = new Float64Array(6);

/** gaussCell for a world ray and Gaussian element `g` of instance `inst` of a built scene. */
export function sceneGaussCell(data: SceneData, inst: number, g: number, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, t: number, grid: number): number {
  const l = localRay(data, inst, ox, oy, oz, dx, dy, dz);
  return gaussCell(data.gauss, g, l[0]!, l[1]!, l[2]!, l[3]!, l[4]!, l[5]!, t, data.mahalanobisThreshold, grid);
}

/** triangleCell for a world ray and triangle `tri` (triVerts order) of instance `inst` of a built scene. */
export function sceneTriangleCell(data: SceneData, inst: number, tri: number, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, t: number, grid: number): number {
  const l = localRay(data, inst, ox, oy, oz, dx, dy, dz);
  return triangleCell(data.triVerts, tri, l[0]!, l[1]!, l[2]!, l[3]!, l[4]!, l[5]!, t, grid);
}

/** The world ray in instance inst's frame (LOCAL: origin, direction). */
function localRay(data: SceneData, inst: number, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number): Float64Array {
  const x = data.instXform, xo = inst * INST_FLOATS;
  const lo0 = ox - x[xo + 9]!, lo1 = oy - x[xo + 10]!, lo2 = oz - x[xo + 11]!, ld0 = dx, ld1 = dy, ld2 = dz;
  if ((data.instInts[inst * INST_INTS + 3]! & INST_IDENTITY_ROTATION) === 0) {
    // Rᵀ v (R row-major): world → local, as instance-frame.ts moves rays.
    const l = LOCAL;
    l[0] = x[xo]! * lo0 + x[xo + 3]! * lo1 + x[xo + 6]! * lo2;
    l[1] = x[xo + 1]! * lo0 + x[xo + 4]! * lo1 + x[xo + 7]! * lo2;
    l[2] = x[xo + 2]! * lo0 + x[xo + 5]! * lo1 + x[xo + 8]! * lo2;
    l[3] = x[xo]! * dx + x[xo + 3]! * dy + x[xo + 6]! * dz;
    l[4] = x[xo + 1]! * dx + x[xo + 4]! * dy + x[xo + 7]! * dz;
    l[5] = x[xo + 2]! * dx + x[xo + 5]! * dy + x[xo + 8]! * dz;
    return l;
  }
  const l = LOCAL;
  l[0] = lo0; l[1] = lo1; l[2] = lo2; l[3] = ld0; l[4] = ld1; l[5] = ld2;
  return l;
}

/**
 * P(hit) of a ray in cell `cell` of model element `row`: the cell's counts shrunk towards
 * `falloff` (the element's own P(hit): an ellipsoid's at the ray's m, a triangle's p_hit) by the
 * cells' prior; `falloff` where the cell holds no count. Keys are sorted per element (binary search).
 */
export function cellHitProbability(cells: HitCells, row: number, cell: number, falloff: number): number {
  let lo = cells.start[row]!, hi = cells.start[row + 1]!;
  const key = cells.key;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (key[mid]! < cell) lo = mid + 1;
    else hi = mid;
  }
  if (lo === cells.start[row + 1]! || key[lo] !== cell) return falloff;
  const h = cells.hits[lo]!, n = cells.passes[lo]!, s = cells.prior;
  return (h + s * falloff) / (h + n + s);
}
