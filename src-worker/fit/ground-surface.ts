/**
 * The ground surface of a hybrid model (seed 001 §IV, thesis 004 §4.3.1.2, docs/methods.md §1, step 2):
 * filter isolated ground points, fit a regularised surface through the rest, sample it at mesh
 * vertices, Delaunay-triangulate the vertices in x-y (delaunator) and drop triangles with a side
 * above the limit (the triangulation bridges gaps with long, spurious triangles).
 *
 * The regression (the thesis used ALGLIB's compact RBFs): at each vertex (x₀, y₀) a local plane
 * z = a + b·dx + c·dy through the ground points within `surfaceRadius` R, weighted by the
 * compactly supported Wendland function w(d) = (1 − d/R)⁴ (4d/R + 1), with a ridge
 * λ·Σw·R²·(b² + c²) on the slopes — λ = 0 is a plain local-linear fit, λ → ∞ the weighted mean.
 * Vertices: one per `vertexSpacing` x-y cell holding ground points, at their mean x-y.
 *
 * Per block (vertexBlock) with the neighbouring blocks' ground points as margin; the
 * triangulation (triangulateGround) then runs once over every block's vertices, so the mesh has
 * no seams at block borders.
 */
import Delaunator from 'delaunator';
import type { FitParams } from '../../src-common/fit-params';
import { KdTree } from './kd-tree';

export interface GroundVertices {
  /** x, y, z per vertex. */
  xyz: Float64Array;
  count: number;
  /** Core ground points dropped as isolated. */
  isolated: number;
}

/**
 * Mesh vertices of one block. `xyz` holds the ground points (3 each), the block's own `core`
 * first, then the margin. Vertices come from the core points only; the margin feeds the
 * isolation test and the regression.
 */
export function vertexBlock(xyz: Float64Array, n: number, core: number, params: FitParams): GroundVertices {
  if (core === 0) return { xyz: new Float64Array(0), count: 0, isolated: 0 };
  // 1. Isolated points: the nearest other ground point farther than the limit.
  const tree3 = new KdTree(xyz, 3, 12, n);
  const keep = new Uint8Array(n);
  const lim2 = params.isolatedDistance * params.isolatedDistance;
  let kept = 0, isolated = 0;
  for (let i = 0; i < n; i++) {
    const j = tree3.nearest(xyz[3 * i]!, xyz[3 * i + 1]!, xyz[3 * i + 2]!, i);
    if (j >= 0 && tree3.nearestD2 <= lim2) {
      keep[i] = 1;
      kept++;
    } else if (i < core) {
      isolated++;
    }
  }
  const keptXyz = new Float64Array(3 * kept);
  const keptXy = new Float64Array(2 * kept);
  const keptCore: number[] = [];
  for (let i = 0, k = 0; i < n; i++) {
    if (!keep[i]) continue;
    keptXyz.set(xyz.subarray(3 * i, 3 * i + 3), 3 * k);
    keptXy[2 * k] = xyz[3 * i]!;
    keptXy[2 * k + 1] = xyz[3 * i + 1]!;
    if (i < core) keptCore.push(k);
    k++;
  }

  // 2. One vertex per x-y cell of the kept core points, at their mean x-y. Cells are keyed by
  //    their integer index; a Map keeps first-seen order, which follows the sorted input.
  const s = params.vertexSpacing;
  const cells = new Map<number, number>();
  const sums: number[] = [];
  for (const k of keptCore) {
    const x = keptXyz[3 * k]!, y = keptXyz[3 * k + 1]!;
    const key = Math.floor(x / s) * 67_108_864 + Math.floor(y / s); // 2^26 per row: exact below 2^53
    let v = cells.get(key);
    if (v === undefined) {
      v = sums.length / 3;
      cells.set(key, v);
      sums.push(0, 0, 0);
    }
    sums[3 * v] = sums[3 * v]! + x;
    sums[3 * v + 1] = sums[3 * v + 1]! + y;
    sums[3 * v + 2]! += 1;
  }

  // 3. Height of each vertex from the regression.
  const tree2 = new KdTree(keptXy, 2, 12, kept);
  const R = params.surfaceRadius, lambda = params.surfaceRegularization;
  const nv = sums.length / 3;
  const out = new Float64Array(3 * nv);
  let count = 0;
  for (let v = 0; v < nv; v++) {
    const x0 = sums[3 * v]! / sums[3 * v + 2]!, y0 = sums[3 * v + 1]! / sums[3 * v + 2]!;
    const z = regressHeight(tree2, keptXyz, x0, y0, R, lambda);
    if (Number.isNaN(z)) continue;
    out[3 * count] = x0;
    out[3 * count + 1] = y0;
    out[3 * count + 2] = z;
    count++;
  }
  return { xyz: out.slice(0, 3 * count), count, isolated };
}

/**
 * The regularised local-linear height at (x0, y0) from the points of `tree` (2-D, over x-y of
 * `xyz`) within R; NaN when no point is within R.
 */
export function regressHeight(tree: KdTree, xyz: Float64Array, x0: number, y0: number, R: number, lambda: number): number {
  const k = tree.radius(x0, y0, 0, R);
  if (k === 0) return NaN;
  // Weighted normal equations of [1, dx, dy] (symmetric 3×3) and the right-hand side.
  let s0 = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0, sz = 0, sxz = 0, syz = 0;
  // Heights relative to the first neighbour: keeps the sums small.
  const zRef = xyz[3 * tree.found[0]! + 2]!;
  for (let j = 0; j < k; j++) {
    const i = tree.found[j]!;
    const d = Math.sqrt(tree.foundD2[j]!) / R;
    const w = d >= 1 ? 0 : (1 - d) ** 4 * (4 * d + 1);
    if (w <= 0) continue;
    const dx = xyz[3 * i]! - x0, dy = xyz[3 * i + 1]! - y0, dz = xyz[3 * i + 2]! - zRef;
    s0 += w; sx += w * dx; sy += w * dy; sxx += w * dx * dx; sxy += w * dx * dy; syy += w * dy * dy;
    sz += w * dz; sxz += w * dx * dz; syz += w * dy * dz;
  }
  if (!(s0 > 0)) {
    // Only points exactly at distance R: their mean.
    let m = 0;
    for (let j = 0; j < k; j++) m += xyz[3 * tree.found[j]! + 2]!;
    return m / k;
  }
  const ridge = lambda * s0 * R * R;
  // Solve [[s0, sx, sy], [sx, sxx+ridge, sxy], [sy, sxy, syy+ridge]] β = [sz, sxz, syz] (Cramer).
  const a = s0, b = sx, c = sy, d = sxx + ridge, e = sxy, f = syy + ridge;
  const m00 = d * f - e * e, m01 = c * e - b * f, m02 = b * e - c * d;
  const det = a * m00 + b * m01 + c * m02;
  if (!(Math.abs(det) > 1e-12 * Math.max(1e-300, a * d * f))) return zRef + sz / s0; // collinear: the weighted mean
  const beta0 = (m00 * sz + m01 * sxz + m02 * syz) / det;
  return zRef + beta0;
}

export interface GroundMesh {
  /** 9 floats per triangle (v0, v1, v2; counter-clockwise seen from above). */
  positions: Float32Array;
  count: number;
  /** Triangles the Delaunay triangulation made, and those dropped for a long side or no area. */
  delaunay: number;
  droppedLong: number;
  droppedDegenerate: number;
}

/** Delaunay triangulation (x-y) of every block's vertices, then the side-length filter. */
export function triangulateGround(vertices: Float64Array, count: number, params: FitParams): GroundMesh {
  if (count < 3) return { positions: new Float32Array(0), count: 0, delaunay: 0, droppedLong: 0, droppedDegenerate: 0 };
  const coords = new Float64Array(2 * count);
  for (let i = 0; i < count; i++) {
    coords[2 * i] = vertices[3 * i]!;
    coords[2 * i + 1] = vertices[3 * i + 1]!;
  }
  const tri = new Delaunator(coords).triangles;
  const nt = tri.length / 3;
  const out = new Float32Array(9 * nt);
  const max2 = params.maxTriangleSide * params.maxTriangleSide;
  let k = 0, droppedLong = 0, droppedDegenerate = 0;
  for (let t = 0; t < nt; t++) {
    const a = tri[3 * t]!, b = tri[3 * t + 1]!, c = tri[3 * t + 2]!;
    const ax = vertices[3 * a]!, ay = vertices[3 * a + 1]!, az = vertices[3 * a + 2]!;
    const bx = vertices[3 * b]!, by = vertices[3 * b + 1]!, bz = vertices[3 * b + 2]!;
    const cx = vertices[3 * c]!, cy = vertices[3 * c + 1]!, cz = vertices[3 * c + 2]!;
    const ab = (bx - ax) ** 2 + (by - ay) ** 2 + (bz - az) ** 2;
    const bc = (cx - bx) ** 2 + (cy - by) ** 2 + (cz - bz) ** 2;
    const ca = (ax - cx) ** 2 + (ay - cy) ** 2 + (az - cz) ** 2;
    if (ab > max2 || bc > max2 || ca > max2) {
      droppedLong++;
      continue;
    }
    // Twice the x-y area; delaunator's triangles are clockwise in its y-down convention, i.e.
    // counter-clockwise here — keep whichever order gives an upward normal.
    const area2 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
    if (!(Math.abs(area2) > 1e-12)) {
      droppedDegenerate++;
      continue;
    }
    const [p, q] = area2 > 0 ? [b, c] : [c, b];
    const o = 9 * k;
    out[o] = ax; out[o + 1] = ay; out[o + 2] = az;
    out[o + 3] = vertices[3 * p]!; out[o + 4] = vertices[3 * p + 1]!; out[o + 5] = vertices[3 * p + 2]!;
    out[o + 6] = vertices[3 * q]!; out[o + 7] = vertices[3 * q + 1]!; out[o + 8] = vertices[3 * q + 2]!;
    k++;
  }
  return { positions: out.slice(0, 9 * k), count: k, delaunay: nt, droppedLong, droppedDegenerate };
}
