/**
 * Exact nearest-neighbour distances of a fixed set of query points to a cloud too large to hold:
 * the cloud streams past once and each of its points lowers the distances of the queries it is
 * nearer to. The point-cloud error's second pass (point-cloud-error.ts): queries are a sample,
 * targets the whole cloud, so the mean is unbiased however large the cloud.
 *
 * A k-d tree over the queries (not the cloud) keeps, per node, an upper bound of the squared
 * best distances of its queries; a streamed point visits only nodes whose box is nearer than
 * that bound. Bounds start from an upper bound per query (its distance to a sample of the same
 * cloud: a subset's nearest point is never nearer than the cloud's) and are tightened every
 * REFRESH points, so the walk prunes more as the pass goes on.
 */

const LEAF = 8;
const REFRESH = 1 << 16;

export class StreamedNearest {
  /** Squared best distance per query (in the caller's order). */
  readonly best2: Float64Array;
  private readonly n: number;
  /** Queries in tree order (x, y, z) and their original indices. */
  private readonly pts: Float64Array;
  private readonly ids: Int32Array;
  // Per node: box (min xyz, max xyz), point range, first child (second = first + 1; −1 = leaf), bound.
  private readonly box: Float64Array;
  private readonly start: Int32Array;
  private readonly end: Int32Array;
  private readonly child: Int32Array;
  private readonly bound: Float64Array;
  private nodes = 0;
  private readonly stack = new Int32Array(128);
  private offers = 0;

  /**
   * @param queries x, y, z per query
   * @param initialBest2 an upper bound of each query's squared nearest distance (Infinity allowed)
   */
  constructor(queries: Float64Array, initialBest2: Float64Array) {
    const n = (this.n = queries.length / 3);
    if (initialBest2.length !== n) throw new Error(`streamed nearest: ${initialBest2.length} bounds for ${n} queries`);
    this.best2 = Float64Array.from(initialBest2);
    this.pts = Float64Array.from(queries);
    this.ids = new Int32Array(n);
    for (let i = 0; i < n; i++) this.ids[i] = i;
    const maxNodes = 2 * Math.ceil(n / (LEAF / 2)) + 1;
    this.box = new Float64Array(6 * maxNodes);
    this.start = new Int32Array(maxNodes);
    this.end = new Int32Array(maxNodes);
    this.child = new Int32Array(maxNodes);
    this.bound = new Float64Array(maxNodes);
    this.build();
    this.refresh();
  }

  /** One point of the cloud. */
  add(x: number, y: number, z: number): void {
    const { box, child, bound, stack, pts, ids, best2 } = this;
    if (this.n === 0) return;
    let sp = 0;
    stack[sp++] = 0;
    while (sp > 0) {
      const node = stack[--sp]!;
      const o = 6 * node;
      let d2 = 0, v: number;
      v = box[o]! - x; if (v > 0) d2 += v * v; else { v = x - box[o + 3]!; if (v > 0) d2 += v * v; }
      v = box[o + 1]! - y; if (v > 0) d2 += v * v; else { v = y - box[o + 4]!; if (v > 0) d2 += v * v; }
      v = box[o + 2]! - z; if (v > 0) d2 += v * v; else { v = z - box[o + 5]!; if (v > 0) d2 += v * v; }
      if (!(d2 < bound[node]!)) continue;
      const c = child[node]!;
      if (c >= 0) {
        stack[sp++] = c;
        stack[sp++] = c + 1;
        continue;
      }
      for (let i = this.start[node]!; i < this.end[node]!; i++) {
        const dx = pts[3 * i]! - x, dy = pts[3 * i + 1]! - y, dz = pts[3 * i + 2]! - z;
        const e2 = dx * dx + dy * dy + dz * dz;
        const id = ids[i]!;
        if (e2 < best2[id]!) best2[id] = e2;
      }
    }
    if (++this.offers % REFRESH === 0) this.refresh();
  }

  /** Mean of the best distances (not squared). */
  meanDistance(): number {
    let s = 0;
    for (let i = 0; i < this.n; i++) s += Math.sqrt(this.best2[i]!);
    return this.n > 0 ? s / this.n : NaN;
  }

  /** Recomputes every node's bound from its queries (children come after parents: walk backwards). */
  private refresh(): void {
    const { child, bound, best2, ids } = this;
    for (let node = this.nodes - 1; node >= 0; node--) {
      const c = child[node]!;
      if (c >= 0) {
        bound[node] = Math.max(bound[c]!, bound[c + 1]!);
        continue;
      }
      let m = 0;
      for (let i = this.start[node]!; i < this.end[node]!; i++) m = Math.max(m, best2[ids[i]!]!);
      bound[node] = m;
    }
  }

  /** Median splits on the widest side, iteratively (children allocated in pairs after their parent). */
  private build(): void {
    const { pts, ids, box } = this;
    this.nodes = 1;
    this.start[0] = 0;
    this.end[0] = this.n;
    const todo = [0];
    while (todo.length > 0) {
      const node = todo.pop()!;
      const s = this.start[node]!, e = this.end[node]!;
      const o = 6 * node;
      box.fill(Infinity, o, o + 3);
      box.fill(-Infinity, o + 3, o + 6);
      for (let i = s; i < e; i++) {
        for (let a = 0; a < 3; a++) {
          const v = pts[3 * i + a]!;
          if (v < box[o + a]!) box[o + a] = v;
          if (v > box[o + 3 + a]!) box[o + 3 + a] = v;
        }
      }
      this.child[node] = -1;
      if (e - s <= LEAF) continue;
      let axis = 0, widest = -1;
      for (let a = 0; a < 3; a++) {
        const w = box[o + 3 + a]! - box[o + a]!;
        if (w > widest) {
          widest = w;
          axis = a;
        }
      }
      if (!(widest > 0)) continue;
      const mid = (s + e) >> 1;
      select(pts, ids, axis, s, e - 1, mid);
      const c = this.nodes;
      this.nodes += 2;
      this.child[node] = c;
      this.start[c] = s;
      this.end[c] = mid;
      this.start[c + 1] = mid;
      this.end[c + 1] = e;
      todo.push(c + 1, c);
    }
  }
}

/** Quickselect so that position k holds the k-th smallest coordinate along `axis` (Hoare, median of three). */
function select(pts: Float64Array, ids: Int32Array, axis: number, lo: number, hi: number, k: number): void {
  while (hi > lo) {
    const mid = (lo + hi) >> 1;
    const a = pts[3 * lo + axis]!, b = pts[3 * mid + axis]!, c = pts[3 * hi + axis]!;
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = lo, j = hi;
    while (i <= j) {
      while (pts[3 * i + axis]! < pivot) i++;
      while (pts[3 * j + axis]! > pivot) j--;
      if (i <= j) {
        for (let t = 0; t < 3; t++) {
          const v = pts[3 * i + t]!;
          pts[3 * i + t] = pts[3 * j + t]!;
          pts[3 * j + t] = v;
        }
        const id = ids[i]!;
        ids[i] = ids[j]!;
        ids[j] = id;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}
