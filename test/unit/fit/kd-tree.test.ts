import { describe, expect, it } from 'vitest';
import { KdTree } from '../../../src-worker/fit/kd-tree';
import { RandomStream } from '../../../src-worker/random/stream';

/** n random points (dim each) in a box of side `extent`, with some exact duplicates and a dense clump. */
function randomPoints(seed: number, n: number, dim: 2 | 3, extent: number): Float64Array {
  const r = new RandomStream(seed, dim);
  const p = new Float64Array(n * dim);
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < dim; a++) p[i * dim + a] = i % 10 === 3 ? p[(i - 1) * dim + a]! : i % 7 === 0 ? 0.01 * r.next() : (r.next() - 0.5) * extent;
  }
  return p;
}

function brute(p: Float64Array, dim: number, q: number[], r: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < p.length / dim; i++) {
    let d2 = 0;
    for (let a = 0; a < dim; a++) d2 += (p[i * dim + a]! - q[a]!) ** 2;
    if (d2 <= r * r) out.push(i);
  }
  return out;
}

function bruteNearest(p: Float64Array, dim: number, q: number[], exclude: number): { id: number; d2: number } {
  let id = -1, best = Infinity;
  for (let i = 0; i < p.length / dim; i++) {
    if (i === exclude) continue;
    let d2 = 0;
    for (let a = 0; a < dim; a++) d2 += (p[i * dim + a]! - q[a]!) ** 2;
    if (d2 < best) {
      best = d2;
      id = i;
    }
  }
  return { id, d2: best };
}

describe('KdTree', () => {
  for (const dim of [3, 2] as const) {
    it(`finds exactly the brute-force radius neighbours and nearest points (${dim}-D, 5,000 points, seed 1)`, () => {
      const n = 5000, extent = 20;
      const pts = randomPoints(1, n, dim, extent);
      for (const leaf of [1, 4, 12, 64]) {
        const tree = new KdTree(pts, dim, leaf);
        const r = new RandomStream(2, leaf);
        for (let k = 0; k < 300; k++) {
          // Queries at data points (self included) and anywhere in and around the box.
          const q = k % 3 === 0 ? Array.from(pts.subarray((k % n) * dim, (k % n) * dim + dim)) : Array.from({ length: dim }, () => (r.next() - 0.5) * extent * 1.2);
          const radius = [0, 0.3, 1, 3, 50][k % 5]!;
          const count = tree.radius(q[0]!, q[1]!, q[2] ?? 0, radius);
          const got = Array.from(tree.found.subarray(0, count)).sort((a, b) => a - b);
          // Compared as strings: a 5,000-element toEqual per query would dominate the test's time.
          expect(got.join(','), `leaf ${leaf} query ${k} radius ${radius}`).toBe(brute(pts, dim, q, radius).join(','));
          let wrongD2 = 0;
          for (let j = 0; j < count; j++) {
            const i = tree.found[j]!;
            let d2 = 0;
            for (let a = 0; a < dim; a++) d2 += (pts[i * dim + a]! - q[a]!) ** 2;
            if (tree.foundD2[j] !== d2) wrongD2++;
          }
          expect(wrongD2).toBe(0);
          const self = k % 3 === 0 ? k % n : -1;
          const near = tree.nearest(q[0]!, q[1]!, q[2] ?? 0, self);
          const want = bruteNearest(pts, dim, q, self);
          // Equal distances may pick a different point of the same distance: compare distances,
          // and the lowest index among the ties (the tree's tie rule).
          expect(tree.nearestD2, `nearest ${k}`).toBe(want.d2);
          expect(near).toBe(want.id);
        }
      }
    });
  }

  it('handles empty trees, one point and all-equal points', () => {
    const empty = new KdTree(new Float64Array(0), 3);
    expect(empty.radius(0, 0, 0, 10)).toBe(0);
    expect(empty.nearest(0, 0, 0)).toBe(-1);
    const one = new KdTree([1, 2, 3], 3);
    expect(one.radius(1, 2, 3.5, 0.5)).toBe(1);
    expect(one.nearest(0, 0, 0, 0)).toBe(-1);
    const same = new KdTree(new Float64Array(3 * 1000).fill(2), 3, 4);
    expect(same.radius(2, 2, 2, 0)).toBe(1000);
    expect(same.nearest(2, 2, 2, 5)).toBe(0);
    expect(() => new KdTree([0, NaN, 0], 3)).toThrow(/not finite/);
  });

  it('keeps everything in one ArrayBuffer', () => {
    const tree = new KdTree(randomPoints(3, 100, 3, 5), 3);
    expect(tree.points.buffer).toBe(tree.buffer);
    expect(tree.ids.buffer).toBe(tree.buffer);
  });
});
