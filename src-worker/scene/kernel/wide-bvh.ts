/**
 * Collapses SceneData's binary BVHs into 4-wide trees for the ray kernel (ray-kernel.c), written
 * straight into the kernel's memory.
 *
 *   collapseTree(nb, nl, root, out, next): number      wide index of the new root
 *
 * A wide node is WIDE_NODE_WORDS 32-bit words: the four child boxes as structure of arrays
 * (minx[4], miny[4], minz[4], maxx[4], maxy[4], maxz[4], float32) and child[4] (int32): ≥ 0 a
 * wide node, < 0 a leaf −(1 + (first << 4 | count)) over the binary leaf's elements. Empty lanes
 * get inverted boxes (min +3.4e38, max −3.4e38: the largest floats, not ±∞, so that a zero
 * inverse direction times a plane is 0, not NaN), which no ray meets.
 *
 * Why collapse rather than build wide trees directly: the binary SAH trees already exist (the JS
 * query and the Gaussian traversal use them), and opening the largest child first until four
 * children remain keeps their SAH quality (the usual BVH2 → BVH4 collapse). Each wide node holds
 * the boxes of its children, so the binary node's own box is not needed: the test of four boxes
 * replaces the tests of the two binary levels above them.
 */

export const WIDE_NODE_WORDS = 28;
/** The planes of an empty lane: the largest float. */
const EMPTY = 3.4028234663852886e38;
/** Leaves the encoding can hold (count in 4 bits, first in the remaining 27). */
export const WIDE_MAX_LEAF = 15;
const WIDE_MAX_FIRST = (1 << 27) - 1;

/** Where collapsed nodes go: float and int views of the same words, and the next free node. */
export interface WideOut {
  f32: Float32Array;
  i32: Int32Array;
  /** Word offset of wide node 0 in the views. */
  base: number;
  /** Next free wide node index (advanced by collapseTree). */
  next: number;
}

/** Inner binary nodes of a tree (an upper bound on its wide nodes, plus one for a leaf root). */
export function innerNodeCount(nl: Int32Array, nodeCount: number): number {
  let n = 0;
  for (let i = 0; i < nodeCount; i++) if (nl[2 * i + 1] === 0) n++;
  return n;
}

function halfArea(nb: Float32Array, n: number): number {
  const o = 6 * n;
  const x = nb[o + 3]! - nb[o]!, y = nb[o + 4]! - nb[o + 1]!, z = nb[o + 5]! - nb[o + 2]!;
  return x * y + y * z + z * x;
}

/**
 * Collapses the binary tree at `root` (nodeBounds / nodeLinks layout of scene-data.ts) into
 * `out`; returns the wide root. Throws if a leaf is too large for the encoding (the caller then
 * keeps the reference walk).
 */
export function collapseTree(nb: Float32Array, nl: Int32Array, root: number, out: WideOut): number {
  const f32 = out.f32, i32 = out.i32;
  const wideRoot = out.next++;
  // Pending (binary node, wide node) pairs; depth first so children sit near their parent.
  const work: number[] = [root, wideRoot];
  const kids: number[] = [];
  while (work.length > 0) {
    const w = work.pop()!, b = work.pop()!;
    kids.length = 0;
    if (nl[2 * b + 1] !== 0) kids.push(b);
    else kids.push(nl[2 * b]!, nl[2 * b]! + 1);
    // Open the largest inner child until there are four.
    while (kids.length < 4) {
      let pick = -1, best = -1;
      for (let i = 0; i < kids.length; i++) {
        const k = kids[i]!;
        if (nl[2 * k + 1] !== 0) continue;
        const a = halfArea(nb, k);
        if (a > best) { best = a; pick = i; }
      }
      if (pick < 0) break;
      const first = nl[2 * kids[pick]!]!;
      kids[pick] = first;
      kids.push(first + 1);
    }
    const o = out.base + w * WIDE_NODE_WORDS;
    for (let lane = 0; lane < 4; lane++) {
      if (lane >= kids.length) {
        for (let a = 0; a < 3; a++) {
          f32[o + 4 * a + lane] = EMPTY;
          f32[o + 4 * (a + 3) + lane] = -EMPTY;
        }
        i32[o + 24 + lane] = 0;
        continue;
      }
      const k = kids[lane]!, bo = 6 * k;
      for (let a = 0; a < 6; a++) f32[o + 4 * a + lane] = nb[bo + a]!;
      const count = nl[2 * k + 1]!, first = nl[2 * k]!;
      if (count === 0) {
        const child = out.next++;
        i32[o + 24 + lane] = child;
        work.push(k, child);
      } else {
        if (count > WIDE_MAX_LEAF || first > WIDE_MAX_FIRST) throw new Error(`wide BVH: leaf of ${count} elements at ${first} does not fit the kernel's encoding`);
        i32[o + 24 + lane] = -(1 + ((first << 4) | count));
      }
    }
  }
  return wideRoot;
}
