/**
 * A static k-d tree over 2-D or 3-D points for the fitting's neighbourhood queries (spherical
 * variation, isolated-point filtering, surface regression).
 *
 * Everything lives in ONE ArrayBuffer: the points copied in tree order (so a leaf's points are
 * contiguous and a query streams through them), their original indices, and per node its box,
 * point range and first child (children are allocated in pairs, so the second is first + 1).
 * Nodes split their widest box side at the median (quickselect), down to `leafSize` points.
 * Queries walk the tree with an explicit stack and prune by the squared distance from the query
 * to a node's box; they allocate nothing (results go to buffers the tree owns and reuses).
 *
 *   const tree = new KdTree(xyz, 3);                 // xyz: n × 3 numbers
 *   const n = tree.radius(x, y, z, 0.5);             // tree.found[0..n) = original indices
 *   const j = tree.nearest(x, y, z, self);           // −1 when empty; tree.nearestD2
 */
import { grown } from '../arrays/typed-arrays';

export type KdDim = 2 | 3;

const STACK_DEPTH = 96;

export class KdTree {
  readonly dim: KdDim;
  readonly count: number;
  readonly nodeCount: number;
  /** The one buffer behind every array below. */
  readonly buffer: ArrayBuffer;
  /** Points in tree order, dim per point. */
  readonly points: Float64Array;
  /** Original index of each point in tree order. */
  readonly ids: Int32Array;
  /** Per node: min then max corner (2·dim numbers). */
  private readonly box: Float64Array;
  /** Per node: [start, end) into the tree-ordered points. */
  private readonly range: Int32Array;
  /** Per node: first child (the second is first + 1), −1 for a leaf. */
  private readonly child: Int32Array;
  private readonly stack = new Int32Array(STACK_DEPTH);

  /** Original indices found by the last radius query (valid up to its return value). */
  found: Int32Array = new Int32Array(64);
  /** Squared distances of those points. */
  foundD2: Float64Array = new Float64Array(64);
  /** Squared distance to the point returned by the last nearest query. */
  nearestD2 = Infinity;

  /**
   * @param coords dim numbers per point (copied; the input is not kept)
   * @param count number of points (default coords.length / dim)
   */
  constructor(coords: ArrayLike<number>, dim: KdDim, leafSize = 12, count = Math.floor(coords.length / dim)) {
    if (dim !== 2 && dim !== 3) throw new Error(`k-d tree: dimension ${String(dim)} (2 or 3)`);
    if (!(leafSize >= 1)) throw new Error(`k-d tree: leaf size ${leafSize}`);
    this.dim = dim;
    this.count = count;
    const maxNodes = Math.max(1, 2 * Math.ceil(count / Math.max(1, Math.floor(leafSize / 2))) + 1);
    // Layout: points f64 | box f64 | ids i32 | range i32 | child i32 (f64 parts first: aligned).
    const bytes = 8 * (count * dim + maxNodes * 2 * dim) + 4 * (count + maxNodes * 3);
    this.buffer = new ArrayBuffer(bytes);
    let at = 0;
    this.points = new Float64Array(this.buffer, at, count * dim); at += 8 * count * dim;
    this.box = new Float64Array(this.buffer, at, maxNodes * 2 * dim); at += 8 * maxNodes * 2 * dim;
    this.ids = new Int32Array(this.buffer, at, count); at += 4 * count;
    this.range = new Int32Array(this.buffer, at, maxNodes * 2); at += 8 * maxNodes;
    this.child = new Int32Array(this.buffer, at, maxNodes);
    for (let i = 0; i < count; i++) {
      this.ids[i] = i;
      for (let a = 0; a < dim; a++) {
        const v = coords[i * dim + a]!;
        if (!Number.isFinite(v)) throw new Error(`k-d tree: point ${i} is not finite`);
        this.points[i * dim + a] = v;
      }
    }
    this.nodeCount = this.build(leafSize);
  }

  /** Builds the tree iteratively (explicit stack of nodes to split); returns the node count. */
  private build(leafSize: number): number {
    const dim = this.dim, pts = this.points, ids = this.ids, box = this.box, range = this.range, child = this.child;
    let nodes = 1;
    range[0] = 0;
    range[1] = this.count;
    const todo: number[] = [0];
    while (todo.length > 0) {
      const n = todo.pop()!;
      const s = range[2 * n]!, e = range[2 * n + 1]!;
      // Box of the node's points.
      const bo = n * 2 * dim;
      for (let a = 0; a < dim; a++) {
        box[bo + a] = Infinity;
        box[bo + dim + a] = -Infinity;
      }
      for (let i = s; i < e; i++) {
        for (let a = 0; a < dim; a++) {
          const v = pts[i * dim + a]!;
          if (v < box[bo + a]!) box[bo + a] = v;
          if (v > box[bo + dim + a]!) box[bo + dim + a] = v;
        }
      }
      child[n] = -1;
      if (e - s <= leafSize) continue;
      let axis = 0, widest = -1;
      for (let a = 0; a < dim; a++) {
        const w = box[bo + dim + a]! - box[bo + a]!;
        if (w > widest) {
          widest = w;
          axis = a;
        }
      }
      if (!(widest > 0)) continue; // all points coincide: a leaf, however many
      const mid = (s + e) >> 1;
      select(pts, ids, dim, axis, s, e - 1, mid);
      const c = nodes;
      nodes += 2;
      child[n] = c;
      range[2 * c] = s;
      range[2 * c + 1] = mid;
      range[2 * c + 2] = mid;
      range[2 * c + 3] = e;
      todo.push(c + 1, c);
    }
    return nodes;
  }

  /**
   * Every point within distance r of q (inclusive); returns how many, their original indices
   * in `found` and squared distances in `foundD2`. For 2-D trees z is ignored.
   */
  radius(qx: number, qy: number, qz: number, r: number): number {
    if (this.count === 0 || !(r >= 0)) return 0;
    const dim = this.dim, pts = this.points, ids = this.ids, box = this.box, range = this.range, child = this.child, stack = this.stack;
    const r2 = r * r;
    let n = 0;
    let sp = 0;
    stack[sp++] = 0;
    while (sp > 0) {
      const node = stack[--sp]!;
      if (boxDistance2(box, node * 2 * dim, dim, qx, qy, qz) > r2) continue;
      const c = child[node]!;
      if (c >= 0) {
        stack[sp++] = c;
        stack[sp++] = c + 1;
        continue;
      }
      const e = range[2 * node + 1]!;
      for (let i = range[2 * node]!; i < e; i++) {
        const o = i * dim;
        const dx = pts[o]! - qx, dy = pts[o + 1]! - qy;
        const d2 = dim === 3 ? dx * dx + dy * dy + (pts[o + 2]! - qz) ** 2 : dx * dx + dy * dy;
        if (d2 > r2) continue;
        if (n === this.found.length) this.grow();
        this.found[n] = ids[i]!;
        this.foundD2[n] = d2;
        n++;
      }
    }
    return n;
  }

  /**
   * The original index of the point nearest to q, skipping index `exclude` (e.g. the query point
   * itself); −1 when there is none. Its squared distance goes to `nearestD2`.
   */
  nearest(qx: number, qy: number, qz: number, exclude = -1): number {
    this.nearestD2 = Infinity;
    if (this.count === 0) return -1;
    const dim = this.dim, pts = this.points, ids = this.ids, box = this.box, range = this.range, child = this.child, stack = this.stack;
    let best = -1, bestD2 = Infinity;
    let sp = 0;
    stack[sp++] = 0;
    while (sp > 0) {
      const node = stack[--sp]!;
      // '>' rather than '>=': a tie in a farther node may have a lower index (the tie rule below).
      if (boxDistance2(box, node * 2 * dim, dim, qx, qy, qz) > bestD2) continue;
      const c = child[node]!;
      if (c >= 0) {
        // Nearer child last, so it is popped (searched) first and tightens the bound sooner.
        const dl = boxDistance2(box, c * 2 * dim, dim, qx, qy, qz);
        const dr = boxDistance2(box, (c + 1) * 2 * dim, dim, qx, qy, qz);
        if (dl <= dr) {
          stack[sp++] = c + 1;
          stack[sp++] = c;
        } else {
          stack[sp++] = c;
          stack[sp++] = c + 1;
        }
        continue;
      }
      const e = range[2 * node + 1]!;
      for (let i = range[2 * node]!; i < e; i++) {
        const id = ids[i]!;
        if (id === exclude) continue;
        const o = i * dim;
        const dx = pts[o]! - qx, dy = pts[o + 1]! - qy;
        const d2 = dim === 3 ? dx * dx + dy * dy + (pts[o + 2]! - qz) ** 2 : dx * dx + dy * dy;
        // Ties go to the lower original index, so results do not depend on the tree's layout.
        if (d2 < bestD2 || (d2 === bestD2 && id < best)) {
          bestD2 = d2;
          best = id;
        }
      }
    }
    this.nearestD2 = bestD2;
    return best;
  }

  private grow(): void {
    this.found = grown(this.found, this.found.length * 2);
    this.foundD2 = grown(this.foundD2, this.foundD2.length * 2);
  }
}

/** Squared distance from q to the box at box[o..o+2·dim) (0 inside). */
function boxDistance2(box: Float64Array, o: number, dim: number, qx: number, qy: number, qz: number): number {
  let d2 = 0, v: number;
  v = box[o]! - qx; if (v > 0) d2 += v * v; else { v = qx - box[o + dim]!; if (v > 0) d2 += v * v; }
  v = box[o + 1]! - qy; if (v > 0) d2 += v * v; else { v = qy - box[o + dim + 1]!; if (v > 0) d2 += v * v; }
  if (dim === 3) {
    v = box[o + 2]! - qz; if (v > 0) d2 += v * v; else { v = qz - box[o + 5]!; if (v > 0) d2 += v * v; }
  }
  return d2;
}

/** Quickselect (Hoare partition) of points [lo, hi] so that position k holds the k-th smallest along `axis`. */
function select(pts: Float64Array, ids: Int32Array, dim: number, axis: number, lo: number, hi: number, k: number): void {
  while (hi > lo) {
    // Median of three as the pivot: sorted or clustered input does not degrade to O(n²).
    const mid = (lo + hi) >> 1;
    const a = pts[lo * dim + axis]!, b = pts[mid * dim + axis]!, c = pts[hi * dim + axis]!;
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = lo, j = hi;
    while (i <= j) {
      while (pts[i * dim + axis]! < pivot) i++;
      while (pts[j * dim + axis]! > pivot) j--;
      if (i <= j) {
        swap(pts, ids, dim, i, j);
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

function swap(pts: Float64Array, ids: Int32Array, dim: number, i: number, j: number): void {
  const t = ids[i]!;
  ids[i] = ids[j]!;
  ids[j] = t;
  for (let a = 0; a < dim; a++) {
    const v = pts[i * dim + a]!;
    pts[i * dim + a] = pts[j * dim + a]!;
    pts[j * dim + a] = v;
  }
}
