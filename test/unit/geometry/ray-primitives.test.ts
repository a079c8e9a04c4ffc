import { describe, expect, it } from 'vitest';
import {
  cholesky3, inverseDirection, precisionFromCholesky, rayGaussian, RaySlabs, rayTriangle, slabEntry,
} from '../../../src-worker/geometry/ray-primitives';
import { buildBvh, bvhSahCost } from '../../../src-worker/geometry/bvh-build';
import { float32Down, float32Up } from '../../../src-worker/geometry/bounds';
import { poseRotationMatrix, yawQuaternion } from '../../../src-worker/geometry/pose';
import { RandomStream } from '../../../src-worker/random/stream';

const tri = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);

describe('rayTriangle (two-sided Möller–Trumbore)', () => {
  const out = new Float64Array(3);
  it('hits from above with t and barycentrics', () => {
    expect(rayTriangle(0.25, 0.5, 2, 0, 0, -1, tri, 0, 0, 10, out)).toBe(true);
    expect([...out]).toEqual([2, 0.25, 0.5]);
  });
  it('hits from below (no back-face culling)', () => {
    expect(rayTriangle(0.1, 0.1, -3, 0, 0, 1, tri, 0, 0, 10, out)).toBe(true);
    expect(out[0]).toBeCloseTo(3, 12);
  });
  it('hits obliquely: from (0,0,1) towards (0.5, 0.25, 0)', () => {
    const d = [0.5, 0.25, -1], l = Math.hypot(0.5, 0.25, 1);
    expect(rayTriangle(0, 0, 1, d[0]! / l, d[1]! / l, d[2]! / l, tri, 0, 0, 10, out)).toBe(true);
    expect(out[0]).toBeCloseTo(l, 12);
    expect(out[1]).toBeCloseTo(0.5, 12);
    expect(out[2]).toBeCloseTo(0.25, 12);
  });
  it('misses outside, parallel, behind, and outside (tmin, tmax]', () => {
    expect(rayTriangle(0.8, 0.8, 1, 0, 0, -1, tri, 0, 0, 10, out)).toBe(false);
    expect(rayTriangle(-0.1, 0.5, 1, 0, 0, -1, tri, 0, 0, 10, out)).toBe(false);
    expect(rayTriangle(0.2, 0.2, 1, 1, 0, 0, tri, 0, 0, 10, out)).toBe(false);
    expect(rayTriangle(0.2, 0.2, 1, 0, 0, 1, tri, 0, 0, 10, out)).toBe(false);
    expect(rayTriangle(0.2, 0.2, 1, 0, 0, -1, tri, 0, 0, 0.5, out)).toBe(false);
    expect(rayTriangle(0.2, 0.2, 1, 0, 0, -1, tri, 0, 1, 10, out)).toBe(false); // t = 1 is not > tmin
    expect(rayTriangle(0.2, 0.2, 1, 0, 0, -1, tri, 0, 0, 1, out)).toBe(true); // t = tmax counts
  });
  it('reads the triangle at an offset', () => {
    const two = new Float32Array([9, 9, 9, 9, 9, 9, 9, 9, 9, ...tri]);
    expect(rayTriangle(0.2, 0.2, 1, 0, 0, -1, two, 9, 0, 10, out)).toBe(true);
  });
});

describe('slabEntry (slab test of a prepared ray)', () => {
  const box = [0, 0, 0, 1, 1, 1];
  const entry = (o: number[], d: number[], tmin: number, tmax: number) => slabEntry(box, 0, new RaySlabs().set(o[0]!, o[1]!, o[2]!, d[0]!, d[1]!, d[2]!), tmin, tmax);
  it('returns the entry distance, from either side', () => {
    expect(entry([-1, 0.5, 0.5], [1, 0, 0], 0, 10)).toBe(1);
    expect(entry([2, 0.5, 0.5], [-1, 0, 0], 0, 10)).toBe(1);
    const s = Math.SQRT1_2;
    expect(entry([-1, -1, 0.5], [s, s, 0], 0, 10)).toBeCloseTo(Math.SQRT2, 12);
  });
  it('clamps to tmin from inside and misses beside, behind and beyond tmax', () => {
    expect(entry([0.5, 0.5, 0.5], [1, 0, 0], 0, 10)).toBe(0);
    expect(entry([-1, 2, 0.5], [1, 0, 0], 0, 10)).toBeNaN();
    expect(entry([2, 0.5, 0.5], [1, 0, 0], 0, 10)).toBeNaN();
    expect(entry([-1, 0.5, 0.5], [1, 0, 0], 0, 0.5)).toBeNaN();
  });
  it('a ray on a face plane with zero direction components gives no NaN', () => {
    expect(entry([-1, 0, 0.5], [1, 0, -0], 0, 10)).toBe(1);
    expect(inverseDirection(0)).toBe(1e300);
    expect(inverseDirection(-0)).toBe(1e300);
    expect(inverseDirection(2)).toBe(0.5);
  });
});

describe('cholesky3 and the precision', () => {
  it('factors a hand-computed SPD matrix', () => {
    // Σ = [[4, 2, 0], [2, 5, 1], [0, 1, 3]] → L = [[2], [1, 2], [0, 0.5, √2.75]]
    const L = new Float64Array(6);
    expect(cholesky3([4, 2, 0, 5, 1, 3], 0, L, 0)).toBe(true);
    expect(L[0]).toBe(2);
    expect(L[1]).toBe(1);
    expect(L[2]).toBe(2);
    expect(L[3]).toBe(0);
    expect(L[4]).toBe(0.5);
    expect(L[5]).toBeCloseTo(Math.sqrt(2.75), 15);
    const P = new Float64Array(6);
    precisionFromCholesky(L, 0, P, 0);
    // P Σ = I
    const Pm = [[P[0]!, P[1]!, P[2]!], [P[1]!, P[3]!, P[4]!], [P[2]!, P[4]!, P[5]!]];
    const S = [[4, 2, 0], [2, 5, 1], [0, 1, 3]];
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
      let s = 0;
      for (let k = 0; k < 3; k++) s += Pm[i]![k]! * S[k]![j]!;
      expect(s).toBeCloseTo(i === j ? 1 : 0, 12);
    }
  });
  it('rejects matrices that are not positive definite', () => {
    const L = new Float64Array(6);
    expect(cholesky3([1, 2, 0, 1, 0, 1], 0, L, 0)).toBe(false); // indefinite
    expect(cholesky3([1, 0, 0, 1, 0, 0], 0, L, 0)).toBe(false); // singular
    expect(cholesky3([0, 0, 0, 1, 0, 1], 0, L, 0)).toBe(false);
    expect(cholesky3([NaN, 0, 0, 1, 0, 1], 0, L, 0)).toBe(false);
  });
});

describe('rayGaussian (Deschaud et al. 2012, eq. 1–3)', () => {
  const out = new Float64Array(3);
  // μ = (5, 0, 0), Σ = diag(1, 4, 9) → P = diag(1, 1/4, 1/9)
  const g = [5, 0, 0, 1, 0, 0, 0.25, 0, 1 / 9];
  it('along x, 2 m off in y: t* = 5, distance 1 (2 m / σ_y = 2)', () => {
    rayGaussian(0, 2, 0, 1, 0, 0, g, 0, out);
    expect(out[0]).toBeCloseTo(5, 14);
    // (μ−o) = (5, −2, 0): ePe = 25 + 1 = 26; (dᵀPe)² / dᵀPd = 25 → m² = 1
    expect(out[1]).toBeCloseTo(1, 14);
    expect(out[2]).toBeCloseTo(1, 14);
  });
  it('along y through μ: t* = 10, distance 0, σ_t² = Σ_yy = 4', () => {
    rayGaussian(5, -10, 0, 0, 1, 0, g, 0, out);
    expect(out[0]).toBeCloseTo(10, 14);
    expect(out[1]).toBeCloseTo(0, 14);
    expect(out[2]).toBeCloseTo(4, 14);
  });
  it('matches a brute-force minimisation for a correlated Gaussian', () => {
    const L = new Float64Array(6), P = new Float64Array(6);
    cholesky3([2, 0.6, -0.3, 1, 0.2, 0.5], 0, L, 0);
    precisionFromCholesky(L, 0, P, 0);
    const mu = [1, 2, 3];
    const rec = [...mu, ...P];
    const o = [-2, 0.5, 1], dRaw = [1, 0.4, 0.3], dl = Math.hypot(...dRaw), d = dRaw.map((x) => x / dl);
    rayGaussian(o[0]!, o[1]!, o[2]!, d[0]!, d[1]!, d[2]!, rec, 0, out);
    const m2 = (t: number) => {
      const e = [0, 1, 2].map((k) => o[k]! + t * d[k]! - mu[k]!);
      const Pm = [[P[0]!, P[1]!, P[2]!], [P[1]!, P[3]!, P[4]!], [P[2]!, P[4]!, P[5]!]];
      let s = 0;
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) s += e[i]! * Pm[i]![j]! * e[j]!;
      return s;
    };
    let best = 0, bestV = Infinity;
    for (let t = 0; t < 10; t += 1e-4) if (m2(t) < bestV) { bestV = m2(t); best = t; }
    expect(out[0]).toBeCloseTo(best, 3);
    expect(out[1]).toBeCloseTo(bestV, 6); // m², the minimum of m²(t)
    // σ_t² = 1 / dᵀPd: the curvature of m²(t) is 2 dᵀPd
    const curv = (m2(out[0]! + 1e-3) - 2 * m2(out[0]!) + m2(out[0]! - 1e-3)) / 1e-6;
    expect(out[2]).toBeCloseTo(2 / curv, 6);
  });
});

describe('pose and float32 helpers', () => {
  it('builds rotation matrices from quaternions', () => {
    const R = new Float64Array(9);
    poseRotationMatrix([0, 0, 0, ...yawQuaternion(Math.PI / 2)], 0, R, 0);
    // x → y, y → −x
    expect(R[0]).toBeCloseTo(0, 15); expect(R[3]).toBeCloseTo(1, 15);
    expect(R[1]).toBeCloseTo(-1, 15); expect(R[4]).toBeCloseTo(0, 15);
    expect(R[8]).toBeCloseTo(1, 15);
    poseRotationMatrix([0, 0, 0, 0, 0, 0, 2], 0, R, 0); // normalised
    expect([...R]).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1]);
  });
  it('rounds to float32 outwards', () => {
    for (const x of [0.1, -0.1, 1 / 3, -1e-7, 12345.6789, 1, -1, 0, 2 ** -140]) {
      expect(float32Down(x)).toBeLessThanOrEqual(x);
      expect(float32Up(x)).toBeGreaterThanOrEqual(x);
      expect(Math.fround(float32Down(x))).toBe(float32Down(x));
      expect(Math.fround(float32Up(x))).toBe(float32Up(x));
      expect(float32Up(x) - float32Down(x)).toBeLessThanOrEqual(Math.abs(x) * 2.4e-7 + 1e-44);
    }
  });
});

describe('buildBvh (binned SAH)', () => {
  function boxesOf(n: number, seed: number, same = false): Float32Array {
    const r = new RandomStream(seed, 0), b = new Float32Array(6 * n);
    for (let i = 0; i < n; i++) {
      const c = same ? [1, 2, 3] : [r.next() * 100, r.next() * 100, r.next() * 10];
      for (let k = 0; k < 3; k++) {
        b[6 * i + k] = c[k]! - r.next();
        b[6 * i + 3 + k] = c[k]! + r.next();
      }
    }
    return b;
  }
  for (const [label, n, same] of [['random boxes', 5000, false], ['identical centroids', 37, true], ['one box', 1, false]] as const) {
    it(`${label}: every element in exactly one leaf, leaves ≤ 4, bounds nest`, () => {
      const boxes = boxesOf(n, 3, same);
      const bvh = buildBvh(boxes, n);
      const seen = new Int32Array(n);
      const contains = (outer: number, b: ArrayLike<number>, o: number) => {
        for (let k = 0; k < 3; k++) {
          expect(bvh.nodeBounds[6 * outer + k]!).toBeLessThanOrEqual(b[o + k]!);
          expect(bvh.nodeBounds[6 * outer + 3 + k]!).toBeGreaterThanOrEqual(b[o + 3 + k]!);
        }
      };
      for (let node = 0; node < bvh.nodeCount; node++) {
        const first = bvh.nodeLinks[2 * node]!, count = bvh.nodeLinks[2 * node + 1]!;
        if (count === 0) {
          expect(first).toBeGreaterThan(node);
          contains(node, bvh.nodeBounds, 6 * first);
          contains(node, bvh.nodeBounds, 6 * first + 6);
        } else {
          expect(count).toBeLessThanOrEqual(4);
          for (let k = first; k < first + count; k++) {
            const e = bvh.order[k]!;
            seen[e]!++;
            contains(node, boxes, 6 * e);
          }
        }
      }
      expect([...seen].every((c) => c === 1)).toBe(true);
      expect(bvh.nodeCount).toBeLessThanOrEqual(2 * n - 1);
    });
  }
  it('SAH beats a median split by index on clustered data', () => {
    const n = 4000, boxes = boxesOf(n, 9);
    const sah = bvhSahCost(buildBvh(boxes, n));
    const naive = bvhSahCost(buildBvh(boxes, n, { bins: 2 }));
    expect(sah).toBeLessThan(naive);
  });
  it('builds nothing for no elements', () => {
    expect(buildBvh(new Float32Array(0), 0).nodeCount).toBe(0);
  });
});
