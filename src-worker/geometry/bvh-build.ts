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
 * Node 0 is the root; children are always stored after their parent. Leaves hold at most
 * `maxLeaf` elements (default 4); elements that share one centroid are split by index.
 *
 * Build: the elements' boxes and centroids are kept in one record array that is permuted with
 * `order` during partitioning, so every pass over a node's elements reads memory sequentially;
 * one pass bins all three axes at once (32 bins; fewer for small nodes), the SAH sweep picks the split, a second pass
 * partitions and accumulates the children's centroid bounds; children's boxes come from the
 * bins. O(n log n), about 2 passes over the elements per tree level.
 */
import { grown } from '../arrays/typed-arrays';

export interface Bvh {
  nodeBounds: Float32Array;
  nodeLinks: Int32Array;
  nodeCount: number;
  order: Int32Array;
}

export interface BvhBuildOptions {
  /** Largest leaf (elements); default 4. */
  maxLeaf?: number;
  /** SAH bins per axis; default 32 (fewer for small nodes). */
  bins?: number;
}

const EMPTY: Bvh = { nodeBounds: new Float32Array(0), nodeLinks: new Int32Array(0), nodeCount: 0, order: new Int32Array(0) };
const REC = 6; // minx, miny, minz, maxx, maxy, maxz (centroids are recomputed: less memory traffic)

/**
 * Builds a BVH over `count` boxes: boxes[6i .. 6i+5] = (minx, miny, minz, maxx, maxy, maxz).
 * Boxes are used as given (float32): callers round them outwards where they come from doubles.
 */
export function buildBvh(boxes: Float32Array, count: number, opts: BvhBuildOptions = {}): Bvh {
  const n = count;
  if (n === 0) return EMPTY;
  const maxLeaf = Math.max(1, opts.maxLeaf ?? 4);
  const B = Math.max(2, Math.min(255, opts.bins ?? 32));

  const order = new Int32Array(n);
  const rec = new Float32Array(REC * n);
  let rx0 = Infinity, ry0 = Infinity, rz0 = Infinity, rx1 = -Infinity, ry1 = -Infinity, rz1 = -Infinity;
  let cx0 = Infinity, cy0 = Infinity, cz0 = Infinity, cx1 = -Infinity, cy1 = -Infinity, cz1 = -Infinity;
  for (let i = 0; i < n; i++) {
    order[i] = i;
    const o = 6 * i, r = REC * i;
    const a0 = boxes[o]!, a1 = boxes[o + 1]!, a2 = boxes[o + 2]!, b0 = boxes[o + 3]!, b1 = boxes[o + 4]!, b2 = boxes[o + 5]!;
    rec[r] = a0; rec[r + 1] = a1; rec[r + 2] = a2; rec[r + 3] = b0; rec[r + 4] = b1; rec[r + 5] = b2;
    if (a0 < rx0) rx0 = a0; if (a1 < ry0) ry0 = a1; if (a2 < rz0) rz0 = a2;
    if (b0 > rx1) rx1 = b0; if (b1 > ry1) ry1 = b1; if (b2 > rz1) rz1 = b2;
    const f0 = 0.5 * (a0 + b0), f1 = 0.5 * (a1 + b1), f2 = 0.5 * (a2 + b2);
    if (f0 < cx0) cx0 = f0; if (f0 > cx1) cx1 = f0;
    if (f1 < cy0) cy0 = f1; if (f1 > cy1) cy1 = f1;
    if (f2 < cz0) cz0 = f2; if (f2 > cz1) cz1 = f2;
  }

  const maxNodes = 2 * n - 1;
  const nb = new Float32Array(6 * maxNodes);
  const nl = new Int32Array(2 * maxNodes);
  nb[0] = rx0; nb[1] = ry0; nb[2] = rz0; nb[3] = rx1; nb[4] = ry1; nb[5] = rz1;
  const binCount = new Int32Array(3 * B);
  const binBox = new Float64Array(18 * B); // axis-major: (axis * B + bin) * 6
  const leftArea = new Float64Array(B);
  const leftCount = new Int32Array(B);
  const scale = new Float64Array(3);
  const cmin = new Float64Array(3);
  const cb = new Float64Array(24);
  const sweep = new Float64Array(6);

  // Work stack of (node, start, end) + the node's centroid bounds (6 floats).
  let stack = new Int32Array(3 * 64);
  let cstack = new Float64Array(6 * 64);
  stack[0] = 0; stack[1] = 0; stack[2] = n;
  cstack[0] = cx0; cstack[1] = cy0; cstack[2] = cz0; cstack[3] = cx1; cstack[4] = cy1; cstack[5] = cz1;
  let sp = 1;
  let nodeCount = 1;

  while (sp > 0) {
    sp--;
    const node = stack[3 * sp]!, start = stack[3 * sp + 1]!, end = stack[3 * sp + 2]!;
    const cnt = end - start;
    if (cnt <= maxLeaf) {
      nl[2 * node] = start;
      nl[2 * node + 1] = cnt;
      continue;
    }
    const c = 6 * sp;
    // Fewer bins for small nodes: their per-node set-up would cost more than the binning.
    const NB = cnt < 2 * B ? Math.max(4, cnt >> 1) : B;
    let usable = 0;
    for (let a = 0; a < 3; a++) {
      const lo = cstack[c + a]!, ext = cstack[c + 3 + a]! - lo;
      cmin[a] = lo;
      // An axis with no extent bins everything into bin 0 (scale 0) and offers no split.
      scale[a] = ext > 0 ? (NB * (1 - 1e-6)) / ext : 0;
      if (ext > 0) usable++;
    }

    let bestCost = Infinity, bestAxis = -1, bestSplit = -1;
    if (usable > 0) {
      // One pass: bin every element on all three axes.
      for (let a = 0; a < 3; a++) {
        for (let b = a * B; b < a * B + NB; b++) {
          binCount[b] = 0;
          emptyBox(binBox, 6 * b);
        }
      }
      binElements(rec, start, end, cmin[0]!, cmin[1]!, cmin[2]!, scale[0]!, scale[1]!, scale[2]!, B, binCount, binBox);
      for (let a = 0; a < 3; a++) {
        if (scale[a] === 0) continue;
        const base = a * B;
        // Left-to-right sweep: the area and count of bins [0, b]; then right-to-left, costing
        // each split against them.
        emptyBox(sweep, 0);
        let ac = 0;
        for (let b = 0; b < NB - 1; b++) {
          ac = sweepBin(binBox, binCount, base + b, sweep, ac);
          leftCount[b] = ac;
          leftArea[b] = ac > 0 ? halfArea(sweep) : 0;
        }
        emptyBox(sweep, 0);
        ac = 0;
        for (let b = NB - 1; b >= 1; b--) {
          ac = sweepBin(binBox, binCount, base + b, sweep, ac);
          const lc = leftCount[b - 1]!;
          if (ac === 0 || lc === 0) continue;
          const cost = leftArea[b - 1]! * lc + halfArea(sweep) * ac;
          if (cost < bestCost) {
            bestCost = cost;
            bestAxis = a;
            bestSplit = b;
          }
        }
      }
    }

    // Partition [start, end) into left (bin < bestSplit) and right; children's bounds on the way.
    let mid = partition(rec, order, start, end, Math.max(0, bestAxis), cmin[Math.max(0, bestAxis)]!, scale[Math.max(0, bestAxis)]!, bestAxis >= 0 ? bestSplit : -1, cb);
    if (mid === start || mid === end) mid = partition(rec, order, start, end, 0, 0, 0, -1, cb); // cannot happen with a valid split
    const lb0 = cb[0]!, lb1 = cb[1]!, lb2 = cb[2]!, lb3 = cb[3]!, lb4 = cb[4]!, lb5 = cb[5]!;
    const rb0 = cb[6]!, rb1 = cb[7]!, rb2 = cb[8]!, rb3 = cb[9]!, rb4 = cb[10]!, rb5 = cb[11]!;
    const lx0 = cb[12]!, ly0 = cb[13]!, lz0 = cb[14]!, lx1 = cb[15]!, ly1 = cb[16]!, lz1 = cb[17]!;
    const ux0 = cb[18]!, uy0 = cb[19]!, uz0 = cb[20]!, ux1 = cb[21]!, uy1 = cb[22]!, uz1 = cb[23]!;

    const left = nodeCount;
    nodeCount += 2;
    nl[2 * node] = left;
    nl[2 * node + 1] = 0;
    let o = 6 * left;
    nb[o] = lb0; nb[o + 1] = lb1; nb[o + 2] = lb2; nb[o + 3] = lb3; nb[o + 4] = lb4; nb[o + 5] = lb5;
    o += 6;
    nb[o] = rb0; nb[o + 1] = rb1; nb[o + 2] = rb2; nb[o + 3] = rb3; nb[o + 4] = rb4; nb[o + 5] = rb5;

    if (3 * (sp + 2) > stack.length) {
      stack = grown(stack, stack.length * 2);
      cstack = grown(cstack, cstack.length * 2);
    }
    // right first, so the left subtree is built (and numbered) next
    stack[3 * sp] = left + 1; stack[3 * sp + 1] = mid; stack[3 * sp + 2] = end;
    let cs = 6 * sp;
    cstack[cs] = ux0; cstack[cs + 1] = uy0; cstack[cs + 2] = uz0; cstack[cs + 3] = ux1; cstack[cs + 4] = uy1; cstack[cs + 5] = uz1;
    sp++;
    stack[3 * sp] = left; stack[3 * sp + 1] = start; stack[3 * sp + 2] = mid;
    cs = 6 * sp;
    cstack[cs] = lx0; cstack[cs + 1] = ly0; cstack[cs + 2] = lz0; cstack[cs + 3] = lx1; cstack[cs + 4] = ly1; cstack[cs + 5] = lz1;
    sp++;
  }

  return {
    nodeBounds: nodeCount === maxNodes ? nb : nb.slice(0, 6 * nodeCount),
    nodeLinks: nodeCount === maxNodes ? nl : nl.slice(0, 2 * nodeCount),
    nodeCount,
    order,
  };
}

// Boxes in Float64Array slots of 6 (min xyz, max xyz). The helpers below are small and
// monomorphic so that V8 inlines them into the binning, sweep and partition loops: they cost
// no call per element (checked with a 1M-box build, same time as the hand-unrolled code).

/** Sets box[o .. o+5] to the empty box (min +∞, max −∞), which any growBox replaces. */
function emptyBox(box: Float64Array, o: number): void {
  box[o] = Infinity; box[o + 1] = Infinity; box[o + 2] = Infinity;
  box[o + 3] = -Infinity; box[o + 4] = -Infinity; box[o + 5] = -Infinity;
}

/** Grows box[o .. o+5] to contain the box (a0, a1, a2)–(b0, b1, b2). */
function growBox(box: Float64Array, o: number, a0: number, a1: number, a2: number, b0: number, b1: number, b2: number): void {
  if (a0 < box[o]!) box[o] = a0;
  if (a1 < box[o + 1]!) box[o + 1] = a1;
  if (a2 < box[o + 2]!) box[o + 2] = a2;
  if (b0 > box[o + 3]!) box[o + 3] = b0;
  if (b1 > box[o + 4]!) box[o + 4] = b1;
  if (b2 > box[o + 5]!) box[o + 5] = b2;
}

/** Half the surface area of box[0 .. 5] (the SAH's area term; the factor 2 cancels). */
function halfArea(box: Float64Array): number {
  const ex = box[3]! - box[0]!, ey = box[4]! - box[1]!, ez = box[5]! - box[2]!;
  return ex * ey + ey * ez + ez * ex;
}

/** One step of an SAH sweep: adds bin `b` (when not empty) to the running box; returns the running count. */
function sweepBin(binBox: Float64Array, binCount: Int32Array, b: number, acc: Float64Array, count: number): number {
  const c = binCount[b]!;
  if (c === 0) return count;
  const o = 6 * b;
  growBox(acc, 0, binBox[o]!, binBox[o + 1]!, binBox[o + 2]!, binBox[o + 3]!, binBox[o + 4]!, binBox[o + 5]!);
  return count + c;
}

/** Bins every element of [start, end) on all three axes at once (hot loop: a small function V8 optimises well). */
function binElements(
  rec: Float32Array, start: number, end: number, m0: number, m1: number, m2: number, k0: number, k1: number, k2: number,
  B: number, binCount: Int32Array, binBox: Float64Array,
): void {
  for (let i = start; i < end; i++) {
    const r = REC * i;
    const a0 = rec[r]!, a1 = rec[r + 1]!, a2 = rec[r + 2]!, b0 = rec[r + 3]!, b1 = rec[r + 4]!, b2 = rec[r + 5]!;
    // Axis x, y, z: bin of the centroid, then grow that bin's box.
    let bin = Math.floor((0.5 * (a0 + b0) - m0) * k0);
    binCount[bin]!++;
    growBox(binBox, 6 * bin, a0, a1, a2, b0, b1, b2);
    bin = B + Math.floor((0.5 * (a1 + b1) - m1) * k1);
    binCount[bin]!++;
    growBox(binBox, 6 * bin, a0, a1, a2, b0, b1, b2);
    bin = 2 * B + Math.floor((0.5 * (a2 + b2) - m2) * k2);
    binCount[bin]!++;
    growBox(binBox, 6 * bin, a0, a1, a2, b0, b1, b2);
  }
}
/**
 * Partitions [start, end) so elements whose centroid bin on `axis` is below `split` come first
 * (split −1: the first half by index); returns the first index of the rest. Also writes the
 * children's boxes and centroid bounds to out: [0..5] left box, [6..11] right box, [12..17]
 * left centroid bounds (min xyz, max xyz), [18..23] right centroid bounds. Every element is
 * read once, sequentially.
 */
function partition(rec: Float32Array, order: Int32Array, start: number, end: number, axis: number, m: number, k: number, split: number, out: Float64Array): number {
  for (let q = 0; q < 24; q += 6) emptyBox(out, q);
  const half = start + ((end - start) >> 1);
  let i = start, j = end - 1;
  while (i <= j) {
    const r = REC * i;
    const a0 = rec[r]!, a1 = rec[r + 1]!, a2 = rec[r + 2]!, b0 = rec[r + 3]!, b1 = rec[r + 4]!, b2 = rec[r + 5]!;
    const c0 = 0.5 * (a0 + b0), c1 = 0.5 * (a1 + b1), c2 = 0.5 * (a2 + b2);
    const goesLeft = split < 0 ? i < half : Math.floor(((axis === 0 ? c0 : axis === 1 ? c1 : c2) - m) * k) < split;
    const o = goesLeft ? 0 : 6, p = goesLeft ? 12 : 18;
    growBox(out, o, a0, a1, a2, b0, b1, b2);
    growBox(out, p, c0, c1, c2, c0, c1, c2);
    if (goesLeft) {
      i++;
    } else {
      const s = REC * j;
      rec[r] = rec[s]!; rec[r + 1] = rec[s + 1]!; rec[r + 2] = rec[s + 2]!;
      rec[r + 3] = rec[s + 3]!; rec[r + 4] = rec[s + 4]!; rec[r + 5] = rec[s + 5]!;
      rec[s] = a0; rec[s + 1] = a1; rec[s + 2] = a2; rec[s + 3] = b0; rec[s + 4] = b1; rec[s + 5] = b2;
      const t = order[i]!;
      order[i] = order[j]!;
      order[j] = t;
      j--;
    }
  }
  return i;
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
