import { describe, expect, it } from 'vitest';
import { MIN_HALF_AXIS, applyInstance, ellipsoidMatrices, symmetricEigen3 } from '../../../src-renderer/viewport/ellipsoid-math';

/** A seeded LCG in [0, 1). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** A random SPD covariance R diag(σ²) Rᵀ (σ in 0.01–2 m), upper triangle. */
function randomCov(r: () => number): number[] {
  const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
  const n = Math.hypot(...q);
  const [x, y, z, w] = q.map((v) => v / n) as [number, number, number, number];
  const R = [
    [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
  ];
  const s2 = [0, 1, 2].map(() => (0.01 + 2 * r()) ** 2);
  const S = (i: number, j: number) => R[i]![0]! * s2[0]! * R[j]![0]! + R[i]![1]! * s2[1]! * R[j]![1]! + R[i]![2]! * s2[2]! * R[j]![2]!;
  return [S(0, 0), S(0, 1), S(0, 2), S(1, 1), S(1, 2), S(2, 2)];
}

const full = (c: number[]) => [
  [c[0]!, c[1]!, c[2]!],
  [c[1]!, c[3]!, c[4]!],
  [c[2]!, c[4]!, c[5]!],
];

function inverse3(m: number[][]): number[][] {
  const [a, b, c] = m[0]!, [d, e, f] = m[1]!, [g, h, i] = m[2]!;
  const det = a! * (e! * i! - f! * h!) - b! * (d! * i! - f! * g!) + c! * (d! * h! - e! * g!);
  return [
    [(e! * i! - f! * h!) / det, (c! * h! - b! * i!) / det, (b! * f! - c! * e!) / det],
    [(f! * g! - d! * i!) / det, (a! * i! - c! * g!) / det, (c! * d! - a! * f!) / det],
    [(d! * h! - e! * g!) / det, (b! * g! - a! * h!) / det, (a! * e! - b! * d!) / det],
  ];
}

describe('symmetricEigen3', () => {
  it('decomposes random SPD matrices: V Λ Vᵀ = Σ to 1e-12 relative, V a rotation', () => {
    const r = rng(7);
    for (let t = 0; t < 500; t++) {
      const c = randomCov(r);
      const { values, vectors: v } = symmetricEigen3(c);
      const scale = Math.max(...c.map(Math.abs));
      const S = full(c);
      for (let i = 0; i < 3; i++) {
        for (let j = 0; j < 3; j++) {
          let sum = 0;
          for (let k = 0; k < 3; k++) sum += v[3 * k + i]! * values[k]! * v[3 * k + j]!;
          expect(Math.abs(sum - S[i]![j]!)).toBeLessThan(1e-12 * scale + 1e-15);
          // Orthonormal columns.
          const dot = v[3 * i]! * v[3 * j]! + v[3 * i + 1]! * v[3 * j + 1]! + v[3 * i + 2]! * v[3 * j + 2]!;
          expect(Math.abs(dot - (i === j ? 1 : 0))).toBeLessThan(1e-12);
        }
      }
      const det = v[0]! * (v[4]! * v[8]! - v[5]! * v[7]!) - v[3]! * (v[1]! * v[8]! - v[2]! * v[7]!) + v[6]! * (v[1]! * v[5]! - v[2]! * v[4]!);
      expect(det).toBeCloseTo(1, 12);
    }
  });

  it('handles diagonal, repeated and singular matrices', () => {
    const d = symmetricEigen3([4, 0, 0, 1, 0, 9]);
    expect([...d.values]).toEqual([4, 1, 9]);
    const iso = symmetricEigen3([2, 0, 0, 2, 0, 2]);
    expect([...iso.values]).toEqual([2, 2, 2]);
    // A flat disc (rank 2): one eigenvalue 0 (to 1e-15).
    const flat = symmetricEigen3([1, 1, 0, 1, 0, 0.5]);
    const sorted = [...flat.values].sort((a, b) => a - b);
    expect(Math.abs(sorted[0]!)).toBeLessThan(1e-15);
    expect(sorted[1]).toBeCloseTo(0.5, 14);
    expect(sorted[2]).toBeCloseTo(2, 14);
  });
});

describe('ellipsoidMatrices', () => {
  it('puts the unit sphere on the k-σ surface, in the view frame (x, z, y) around the centre', () => {
    const r = rng(3);
    const n = 50;
    const means = Array.from({ length: 3 * n }, () => 100 * (r() - 0.5));
    const covs = Array.from({ length: n }, () => randomCov(r)).flat();
    const centre: [number, number, number] = [10, -20, 5];
    const k = 2;
    const m = ellipsoidMatrices(means, covs, k, centre);
    expect(m.length).toBe(16 * n);
    for (let g = 0; g < n; g++) {
      const inv = inverse3(full(covs.slice(6 * g, 6 * g + 6)));
      const o = 16 * g;
      // Babylon-local translation: μ − c with y and z swapped.
      expect(m[o + 12]).toBeCloseTo(means[3 * g]! - centre[0], 4);
      expect(m[o + 13]).toBeCloseTo(means[3 * g + 2]! - centre[2], 4);
      expect(m[o + 14]).toBeCloseTo(means[3 * g + 1]! - centre[1], 4);
      expect(m[o + 15]).toBe(1);
      // Positive determinant: instances are not turned inside out.
      const a = [0, 1, 2].map((i) => [0, 1, 2].map((j) => m[o + 4 * i + j]!));
      const det = a[0]![0]! * (a[1]![1]! * a[2]![2]! - a[1]![2]! * a[2]![1]!) - a[0]![1]! * (a[1]![0]! * a[2]![2]! - a[1]![2]! * a[2]![0]!) + a[0]![2]! * (a[1]![0]! * a[2]![1]! - a[1]![1]! * a[2]![0]!);
      expect(det).toBeGreaterThan(0);
      // Rows (Babylon's axes of the instance) orthogonal: what the thin-instance normal transform assumes.
      for (let i = 0; i < 3; i++) {
        for (let j = i + 1; j < 3; j++) {
          const dot = a[i]![0]! * a[j]![0]! + a[i]![1]! * a[j]![1]! + a[i]![2]! * a[j]![2]!;
          const norms = Math.hypot(...a[i]!) * Math.hypot(...a[j]!);
          expect(Math.abs(dot) / norms).toBeLessThan(1e-5); // float32 matrices
        }
      }
      // Points of the unit sphere land at Mahalanobis distance k (float32: 1e-4 relative).
      for (let s = 0; s < 8; s++) {
        const u = [r() - 0.5, r() - 0.5, r() - 0.5];
        const un = Math.hypot(...u);
        const b = applyInstance(m, o, [u[0]! / un, u[1]! / un, u[2]! / un]);
        const x = [b[0] + centre[0] - means[3 * g]!, b[2] + centre[1] - means[3 * g + 1]!, b[1] + centre[2] - means[3 * g + 2]!];
        let d2 = 0;
        for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) d2 += x[i]! * inv[i]![j]! * x[j]!;
        expect(Math.abs(Math.sqrt(d2) - k) / k).toBeLessThan(1e-4);
      }
    }
  });

  it('keeps a flat Gaussian a visible disc and reuses the output array', () => {
    const out = new Float32Array(32);
    const m = ellipsoidMatrices([0, 0, 0, 1, 1, 1], [1, 0, 0, 1, 0, 0, 0.04, 0, 0, 0.04, 0, 0.04], 1, [0, 0, 0], out);
    expect(m).toBe(out);
    // The z half-axis of the flat one (Babylon y row) is the floor, not zero.
    expect(Math.hypot(m[4]!, m[5]!, m[6]!)).toBeCloseTo(MIN_HALF_AXIS, 6);
    // The isotropic one: a sphere of radius 0.2.
    for (const row of [0, 1, 2]) expect(Math.hypot(m[16 + 4 * row]!, m[17 + 4 * row]!, m[18 + 4 * row]!)).toBeCloseTo(0.2, 6);
  });
});
