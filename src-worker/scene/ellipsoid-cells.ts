/**
 * Where on an ellipsoid a ray passes, and what the model learned there (docs/methods.md §1 step 4,
 * *hit cells*).
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
 * Cells are in the ellipsoid's own frame (the Gaussian record's μ and L are local to its
 * primitive), so the ray is moved into that frame first; a model scene's instances are the
 * identity, and the same cell comes out of the replay and of the simulation.
 */
import { GAUSS_STRIDE, GaussField, INST_FLOATS, INST_IDENTITY_ROTATION, INST_INTS } from './scene-data';
import type { EllipsoidCells, SceneData } from '../../src-common/scene-data';

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

/** Scratch for a ray moved into an instance's frame (one walk at a time per thread). */
const LOCAL = new Float64Array(6);

/** gaussCell for a world ray and Gaussian element `g` of instance `inst` of a built scene. */
export function sceneGaussCell(data: SceneData, inst: number, g: number, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, t: number, grid: number): number {
  const x = data.instXform, xo = inst * INST_FLOATS;
  let lo0 = ox - x[xo + 9]!, lo1 = oy - x[xo + 10]!, lo2 = oz - x[xo + 11]!, ld0 = dx, ld1 = dy, ld2 = dz;
  if ((data.instInts[inst * INST_INTS + 3]! & INST_IDENTITY_ROTATION) === 0) {
    // Rᵀ v (R row-major): world → local, as instance-frame.ts moves rays.
    const l = LOCAL;
    l[0] = x[xo]! * lo0 + x[xo + 3]! * lo1 + x[xo + 6]! * lo2;
    l[1] = x[xo + 1]! * lo0 + x[xo + 4]! * lo1 + x[xo + 7]! * lo2;
    l[2] = x[xo + 2]! * lo0 + x[xo + 5]! * lo1 + x[xo + 8]! * lo2;
    l[3] = x[xo]! * dx + x[xo + 3]! * dy + x[xo + 6]! * dz;
    l[4] = x[xo + 1]! * dx + x[xo + 4]! * dy + x[xo + 7]! * dz;
    l[5] = x[xo + 2]! * dx + x[xo + 5]! * dy + x[xo + 8]! * dz;
    lo0 = l[0]!; lo1 = l[1]!; lo2 = l[2]!; ld0 = l[3]!; ld1 = l[4]!; ld2 = l[5]!;
  }
  return gaussCell(data.gauss, g, lo0, lo1, lo2, ld0, ld1, ld2, t, data.mahalanobisThreshold, grid);
}

/**
 * P(hit) of a ray in cell `cell` of model ellipsoid `row`: the cell's counts shrunk towards
 * `falloff` (the ellipsoid's P(hit | m)) by the cells' prior; `falloff` where the cell holds no
 * count. Keys are sorted per ellipsoid (binary search).
 */
export function cellHitProbability(cells: EllipsoidCells, row: number, cell: number, falloff: number): number {
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
