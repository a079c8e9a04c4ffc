/**
 * Binned-SAH bounding volume hierarchy over axis-aligned element boxes, built with an explicit
 * stack into flat typed arrays (no per-node objects, no recursion).
 *
 * Layout of the result (what src-worker/scene/ stores and traverses):
 *  - nodeBounds: Float32Array, 6 per node: minx, miny, minz, maxx, maxy, maxz.
 *  - nodeLinks:  Int32Array, 2 per node: [first, count].
 *      count = 0: inner node; its children are nodes `first` and `first + 1` (siblings are
 *                 adjacent, so their bounds are read together).
 *      count > 0: leaf; it holds elements order[first .. first + count − 1].
 *  - order: element indices in leaf order (callers reorder their element arrays by it, so a
 *    leaf's elements are contiguous and `first` indexes the reordered arrays directly).
 * Node 0 is the root. Leaves hold at most `maxLeaf` elements (default 4) unless more elements
 * than that share one centroid, in which case they are split by index.
 */

export interface Bvh {
  nodeBounds: Float32Array;
  nodeLinks: Int32Array;
  nodeCount: number;
  order: Int32Array;
}

export interface BvhBuildOptions {
  /** Largest leaf (elements); default 4. */
  maxLeaf?: number;
  /** SAH bins per axis; default 16. */
  bins?: number;
}

const EMPTY: Bvh = { nodeBounds: new Float32Array(0), nodeLinks: new Int32Array(0), nodeCount: 0, order: new Int32Array(0) };

/**
 * Builds a BVH over `count` boxes: boxes[6i .. 6i+5] = (minx, miny, minz, maxx, maxy, maxz).
 * Boxes are used as given (float32): callers round them outwards where they come from doubles.
 */
export function buildBvh(boxes: Float32Array, count: number, opts: BvhBuildOptions = {}): Bvh {
  const n = count;
  if (n === 0) return EMPTY;
  const maxLeaf = Math.max(1, opts.maxLeaf ?? 4);
  const B = Math.max(2, opts.bins ?? 16);

  const order = new Int32Array(n);
  const cent = new Float32Array(3 * n);
  for (let i = 0; i < n; i++) {
    order[i] = i;
    const o = 6 * i;
    cent[3 * i] = 0.5 * (boxes[o]! + boxes[o + 3]!);
    cent[3 * i + 1] = 0.5 * (boxes[o + 1]! + boxes[o + 4]!);
    cent[3 * i + 2] = 0.5 * (boxes[o + 2]! + boxes[o + 5]!);
  }

  const maxNodes = 2 * n - 1;
  const nb = new Float32Array(6 * maxNodes);
  const nl = new Int32Array(2 * maxNodes);
  const binCount = new Int32Array(B);
  const binBox = new Float64Array(6 * B);
  const leftArea = new Float64Array(B);
  const leftCount = new Int32Array(B);

  let stack = new Int32Array(3 * 64);
  let sp = 0;
  stack[sp++] = 0; stack[sp++] = 0; stack[sp++] = n;
  let nodeCount = 1;

  while (sp > 0) {
    const end = stack[--sp]!, start = stack[--sp]!, node = stack[--sp]!;
    // Bounds of the node and of its centroids.
    let bx0 = Infinity, by0 = Infinity, bz0 = Infinity, bx1 = -Infinity, by1 = -Infinity, bz1 = -Infinity;
    let cx0 = Infinity, cy0 = Infinity, cz0 = Infinity, cx1 = -Infinity, cy1 = -Infinity, cz1 = -Infinity;
    for (let i = start; i < end; i++) {
      const e = order[i]!;
      const o = 6 * e;
      let v = boxes[o]!; if (v < bx0) bx0 = v;
      v = boxes[o + 1]!; if (v < by0) by0 = v;
      v = boxes[o + 2]!; if (v < bz0) bz0 = v;
      v = boxes[o + 3]!; if (v > bx1) bx1 = v;
      v = boxes[o + 4]!; if (v > by1) by1 = v;
      v = boxes[o + 5]!; if (v > bz1) bz1 = v;
      const c = 3 * e;
      v = cent[c]!; if (v < cx0) cx0 = v; if (v > cx1) cx1 = v;
      v = cent[c + 1]!; if (v < cy0) cy0 = v; if (v > cy1) cy1 = v;
      v = cent[c + 2]!; if (v < cz0) cz0 = v; if (v > cz1) cz1 = v;
    }
    const nbo = 6 * node;
    nb[nbo] = bx0; nb[nbo + 1] = by0; nb[nbo + 2] = bz0; nb[nbo + 3] = bx1; nb[nbo + 4] = by1; nb[nbo + 5] = bz1;
    const cnt = end - start;
    if (cnt <= maxLeaf) {
      nl[2 * node] = start;
      nl[2 * node + 1] = cnt;
      continue;
    }

    // Binned SAH over the three axes.
    let bestCost = Infinity, bestAxis = -1, bestSplit = -1;
    for (let axis = 0; axis < 3; axis++) {
      const cmin = axis === 0 ? cx0 : axis === 1 ? cy0 : cz0;
      const cmax = axis === 0 ? cx1 : axis === 1 ? cy1 : cz1;
      const ext = cmax - cmin;
      if (!(ext > 0)) continue;
      const k = (B * (1 - 1e-6)) / ext;
      binCount.fill(0);
      for (let b = 0; b < B; b++) {
        const o = 6 * b;
        binBox[o] = Infinity; binBox[o + 1] = Infinity; binBox[o + 2] = Infinity;
        binBox[o + 3] = -Infinity; binBox[o + 4] = -Infinity; binBox[o + 5] = -Infinity;
      }
      for (let i = start; i < end; i++) {
        const e = order[i]!;
        const b = Math.floor((cent[3 * e + axis]! - cmin) * k);
        binCount[b]!++;
        const o = 6 * b, s = 6 * e;
        let v = boxes[s]!; if (v < binBox[o]!) binBox[o] = v;
        v = boxes[s + 1]!; if (v < binBox[o + 1]!) binBox[o + 1] = v;
        v = boxes[s + 2]!; if (v < binBox[o + 2]!) binBox[o + 2] = v;
        v = boxes[s + 3]!; if (v > binBox[o + 3]!) binBox[o + 3] = v;
        v = boxes[s + 4]!; if (v > binBox[o + 4]!) binBox[o + 4] = v;
        v = boxes[s + 5]!; if (v > binBox[o + 5]!) binBox[o + 5] = v;
      }
      // Sweep from the left: area and count of bins 0..b.
      let ax0 = Infinity, ay0 = Infinity, az0 = Infinity, ax1 = -Infinity, ay1 = -Infinity, az1 = -Infinity, ac = 0;
      for (let b = 0; b < B - 1; b++) {
        const o = 6 * b;
        if (binCount[b]! > 0) {
          ac += binCount[b]!;
          if (binBox[o]! < ax0) ax0 = binBox[o]!;
          if (binBox[o + 1]! < ay0) ay0 = binBox[o + 1]!;
          if (binBox[o + 2]! < az0) az0 = binBox[o + 2]!;
          if (binBox[o + 3]! > ax1) ax1 = binBox[o + 3]!;
          if (binBox[o + 4]! > ay1) ay1 = binBox[o + 4]!;
          if (binBox[o + 5]! > az1) az1 = binBox[o + 5]!;
        }
        leftCount[b] = ac;
        const ex = ax1 - ax0, ey = ay1 - ay0, ez = az1 - az0;
        leftArea[b] = ac > 0 ? ex * ey + ey * ez + ez * ex : 0;
      }
      // Sweep from the right and evaluate each split "bins 0..b-1 | b..B-1".
      ax0 = Infinity; ay0 = Infinity; az0 = Infinity; ax1 = -Infinity; ay1 = -Infinity; az1 = -Infinity; ac = 0;
      for (let b = B - 1; b >= 1; b--) {
        const o = 6 * b;
        if (binCount[b]! > 0) {
          ac += binCount[b]!;
          if (binBox[o]! < ax0) ax0 = binBox[o]!;
          if (binBox[o + 1]! < ay0) ay0 = binBox[o + 1]!;
          if (binBox[o + 2]! < az0) az0 = binBox[o + 2]!;
          if (binBox[o + 3]! > ax1) ax1 = binBox[o + 3]!;
          if (binBox[o + 4]! > ay1) ay1 = binBox[o + 4]!;
          if (binBox[o + 5]! > az1) az1 = binBox[o + 5]!;
        }
        const lc = leftCount[b - 1]!;
        if (ac === 0 || lc === 0) continue;
        const ex = ax1 - ax0, ey = ay1 - ay0, ez = az1 - az0;
        const cost = leftArea[b - 1]! * lc + (ex * ey + ey * ez + ez * ex) * ac;
        if (cost < bestCost) {
          bestCost = cost;
          bestAxis = axis;
          bestSplit = b;
        }
      }
    }

    let mid: number;
    if (bestAxis < 0) {
      mid = start + (cnt >> 1); // every centroid coincides: split by index
    } else {
      const cmin = bestAxis === 0 ? cx0 : bestAxis === 1 ? cy0 : cz0;
      const cmax = bestAxis === 0 ? cx1 : bestAxis === 1 ? cy1 : cz1;
      const k = (B * (1 - 1e-6)) / (cmax - cmin);
      let i = start, j = end - 1;
      while (i <= j) {
        const e = order[i]!;
        if (Math.floor((cent[3 * e + bestAxis]! - cmin) * k) < bestSplit) {
          i++;
        } else {
          order[i] = order[j]!;
          order[j] = e;
          j--;
        }
      }
      mid = i;
      if (mid === start || mid === end) mid = start + (cnt >> 1);
    }
    const left = nodeCount;
    nodeCount += 2;
    nl[2 * node] = left;
    nl[2 * node + 1] = 0;
    if (sp + 6 > stack.length) {
      const grown = new Int32Array(stack.length * 2);
      grown.set(stack);
      stack = grown;
    }
    stack[sp++] = left + 1; stack[sp++] = mid; stack[sp++] = end;
    stack[sp++] = left; stack[sp++] = start; stack[sp++] = mid;
  }

  return {
    nodeBounds: nodeCount === maxNodes ? nb : nb.slice(0, 6 * nodeCount),
    nodeLinks: nodeCount === maxNodes ? nl : nl.slice(0, 2 * nodeCount),
    nodeCount,
    order,
  };
}

/** Surface-area-heuristic cost of a built BVH (traversal 1, element 1), for tests and tuning. */
export function bvhSahCost(bvh: Bvh): number {
  if (bvh.nodeCount === 0) return 0;
  const area = (n: number) => {
    const o = 6 * n;
    const ex = bvh.nodeBounds[o + 3]! - bvh.nodeBounds[o]!;
    const ey = bvh.nodeBounds[o + 4]! - bvh.nodeBounds[o + 1]!;
    const ez = bvh.nodeBounds[o + 5]! - bvh.nodeBounds[o + 2]!;
    return ex * ey + ey * ez + ez * ex;
  };
  const root = area(0) || 1;
  let cost = 0;
  for (let n = 0; n < bvh.nodeCount; n++) {
    const c = bvh.nodeLinks[2 * n + 1]!;
    cost += (area(n) / root) * (c === 0 ? 1 : c);
  }
  return cost;
}
