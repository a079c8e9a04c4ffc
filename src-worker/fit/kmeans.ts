/**
 * Top-down hierarchical k-means (thesis 004 §4.3.1.2: FLANN's hierarchical k-means; seed 000's
 * top-down variant splits in two): all points start in one cluster; the cluster with the largest
 * within-cluster sum of squares is split by k-means into `branching` children, and so on until
 * there are `target` clusters or nothing can be split — cutting the dendrogram where it lowers the
 * total variance most, greedily. A split that would leave a child with fewer than `minPoints`
 * points is refused and its cluster kept whole.
 *
 * Deterministic per seed: k-means++ seeding draws from the caller's RandomStream, and ties in
 * the split order go to the older cluster.
 */
import type { RandomStream } from '../random/stream';

export interface KMeansOptions {
  /** Clusters wanted (at most; fewer when points run out). */
  target: number;
  branching: number;
  iterations: number;
  minPoints: number;
}

export interface KMeansResult {
  /** Cluster index per point (0 … count − 1). */
  assign: Int32Array;
  count: number;
  /** Splits refused because a child would be too small. */
  refused: number;
}

interface Cluster {
  start: number;
  end: number;
  sse: number;
  id: number;
}

export function hierarchicalKMeans(xyz: Float64Array, n: number, opts: KMeansOptions, rng: RandomStream, checkCancelled: () => void = () => {}): KMeansResult {
  const assign = new Int32Array(n);
  if (n === 0) return { assign, count: 0, refused: 0 };
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const target = Math.max(1, Math.floor(opts.target));
  const k0 = Math.max(2, Math.floor(opts.branching));
  let nextId = 0;
  const heap: Cluster[] = [];
  const finals: Cluster[] = [];
  const root: Cluster = { start: 0, end: n, sse: sse(xyz, order, 0, n), id: nextId++ };
  heapPush(heap, root);
  let clusters = 1, refused = 0;
  const labels = new Int32Array(n);
  const centers = new Float64Array(3 * 64);
  while (clusters < target && heap.length > 0) {
    checkCancelled();
    const c = heapPop(heap);
    const size = c.end - c.start;
    const k = Math.min(k0, target - clusters + 1);
    if (size < k * opts.minPoints || !(c.sse > 0)) {
      finals.push(c);
      continue;
    }
    lloyd(xyz, order, c.start, c.end, k, opts.iterations, rng, labels, centers);
    // Partition order[start, end) by label (stable counting sort).
    const counts = new Int32Array(k);
    for (let i = c.start; i < c.end; i++) counts[labels[i]!]!++;
    let small = false;
    for (let j = 0; j < k; j++) if (counts[j]! < opts.minPoints) small = true;
    if (small) {
      refused++;
      finals.push(c);
      continue;
    }
    const starts = new Int32Array(k);
    for (let j = 1; j < k; j++) starts[j] = starts[j - 1]! + counts[j - 1]!;
    const tmp = order.slice(c.start, c.end);
    const tmpLabels = labels.slice(c.start, c.end);
    const fill = starts.slice();
    for (let i = 0; i < tmp.length; i++) order[c.start + fill[tmpLabels[i]!]!++] = tmp[i]!;
    for (let j = 0; j < k; j++) {
      const s = c.start + starts[j]!, e = s + counts[j]!;
      heapPush(heap, { start: s, end: e, sse: sse(xyz, order, s, e), id: nextId++ });
    }
    clusters += k - 1;
  }
  const all = [...finals, ...heap].sort((a, b) => a.start - b.start);
  all.forEach((c, idx) => {
    for (let i = c.start; i < c.end; i++) assign[order[i]!] = idx;
  });
  return { assign, count: all.length, refused };
}

/** Within-cluster sum of squared distances to the mean of points order[s..e). */
function sse(xyz: Float64Array, order: Int32Array, s: number, e: number): number {
  let mx = 0, my = 0, mz = 0;
  for (let i = s; i < e; i++) {
    const p = 3 * order[i]!;
    mx += xyz[p]!; my += xyz[p + 1]!; mz += xyz[p + 2]!;
  }
  const m = e - s;
  mx /= m; my /= m; mz /= m;
  let t = 0;
  for (let i = s; i < e; i++) {
    const p = 3 * order[i]!;
    t += (xyz[p]! - mx) ** 2 + (xyz[p + 1]! - my) ** 2 + (xyz[p + 2]! - mz) ** 2;
  }
  return t;
}

/**
 * k-means (k-means++ seeding, then Lloyd) of points order[s..e); labels[s..e) get 0 … k−1.
 * An emptied cluster takes the point farthest from its centre, so all k stay in use.
 */
function lloyd(xyz: Float64Array, order: Int32Array, s: number, e: number, k: number, iterations: number, rng: RandomStream, labels: Int32Array, centers: Float64Array): void {
  const m = e - s;
  // k-means++: first centre uniform, then proportional to the squared distance to the nearest.
  const d2 = new Float64Array(m);
  let first = s + Math.min(m - 1, Math.floor(rng.next() * m));
  for (let a = 0; a < 3; a++) centers[a] = xyz[3 * order[first]! + a]!;
  for (let i = 0; i < m; i++) d2[i] = dist2(xyz, 3 * order[s + i]!, centers, 0);
  for (let c = 1; c < k; c++) {
    let total = 0;
    for (let i = 0; i < m; i++) total += d2[i]!;
    let pick = m - 1;
    if (total > 0) {
      let u = rng.next() * total;
      for (let i = 0; i < m; i++) {
        u -= d2[i]!;
        if (u < 0) {
          pick = i;
          break;
        }
      }
    }
    first = s + pick;
    for (let a = 0; a < 3; a++) centers[3 * c + a] = xyz[3 * order[first]! + a]!;
    for (let i = 0; i < m; i++) d2[i] = Math.min(d2[i]!, dist2(xyz, 3 * order[s + i]!, centers, 3 * c));
  }
  const sums = new Float64Array(3 * k);
  const counts = new Int32Array(k);
  for (let it = 0; it < iterations; it++) {
    let changed = false;
    sums.fill(0);
    counts.fill(0);
    for (let i = s; i < e; i++) {
      const p = 3 * order[i]!;
      const best = nearestCentre(xyz, p, centers, k);
      if (labels[i] !== best || it === 0) changed = true;
      labels[i] = best;
      counts[best]!++;
      sums[3 * best] = sums[3 * best]! + xyz[p]!;
      sums[3 * best + 1] = sums[3 * best + 1]! + xyz[p + 1]!;
      sums[3 * best + 2] = sums[3 * best + 2]! + xyz[p + 2]!;
    }
    for (let c = 0; c < k; c++) {
      if (counts[c]! > 0) {
        for (let a = 0; a < 3; a++) centers[3 * c + a] = sums[3 * c + a]! / counts[c]!;
        continue;
      }
      // Empty: restart it at the point farthest from its own centre.
      let far = s, fd = -1;
      for (let i = s; i < e; i++) {
        const d = dist2(xyz, 3 * order[i]!, centers, 3 * labels[i]!);
        if (d > fd) {
          fd = d;
          far = i;
        }
      }
      for (let a = 0; a < 3; a++) centers[3 * c + a] = xyz[3 * order[far]! + a]!;
      changed = true;
    }
    if (!changed) break;
  }
  // Final assignment to the final centres.
  for (let i = s; i < e; i++) labels[i] = nearestCentre(xyz, 3 * order[i]!, centers, k);
}

/** The centre (0 … k−1) nearest to the point at xyz[p..p+2]; a tie goes to the lower index. */
function nearestCentre(xyz: Float64Array, p: number, centers: Float64Array, k: number): number {
  let best = 0, bd = Infinity;
  for (let c = 0; c < k; c++) {
    const d = dist2(xyz, p, centers, 3 * c);
    if (d < bd) {
      bd = d;
      best = c;
    }
  }
  return best;
}

function dist2(xyz: Float64Array, p: number, c: Float64Array, o: number): number {
  const dx = xyz[p]! - c[o]!, dy = xyz[p + 1]! - c[o + 1]!, dz = xyz[p + 2]! - c[o + 2]!;
  return dx * dx + dy * dy + dz * dz;
}

/** Max-heap on sse; equal sse: the older (smaller id) cluster first. */
function before(a: Cluster, b: Cluster): boolean {
  return a.sse > b.sse || (a.sse === b.sse && a.id < b.id);
}

function heapPush(h: Cluster[], c: Cluster): void {
  h.push(c);
  let i = h.length - 1;
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (!before(h[i]!, h[p]!)) break;
    [h[i], h[p]] = [h[p]!, h[i]!];
    i = p;
  }
}

function heapPop(h: Cluster[]): Cluster {
  const top = h[0]!;
  const last = h.pop()!;
  if (h.length > 0) {
    h[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1, r = l + 1;
      let m = i;
      if (l < h.length && before(h[l]!, h[m]!)) m = l;
      if (r < h.length && before(h[r]!, h[m]!)) m = r;
      if (m === i) break;
      [h[i], h[m]] = [h[m]!, h[i]!];
      i = m;
    }
  }
  return top;
}
