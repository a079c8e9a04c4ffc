/**
 * Gaussians drawn as ellipsoids (pure; unit-tested): a symmetric 3×3 eigen solver and the
 * per-instance matrix that turns one unit sphere into the k-σ surface of (μ, Σ) in a view's
 * Babylon frame.
 *
 * Why eigenvectors and not the Cholesky factor: any A with A Aᵀ = Σ maps the unit sphere onto
 * the ellipsoid, but Babylon's thin-instance vertex shader turns normals with the instance
 * matrix divided by its squared column lengths — the inverse transpose only when the columns
 * are orthogonal. A = V·diag(k√λ) (V the eigenvectors) has orthogonal columns, so the shading is
 * right; a Cholesky factor's columns are not.
 *
 * Frames: a view maps Thicket (x, y, z) → Babylon (x, z, y) around a centre (local-frame.ts).
 * With P that swap, the instance matrix is P·A·P (the unit sphere is unchanged by P), whose
 * determinant is det A > 0 once V is made a proper rotation — so no instance turns inside out.
 * Babylon matrices are row-vector (v' = v·M): element [4i + j] is column-vector M[j][i], the
 * translation in [12], [13], [14].
 */

export interface Eigen3 {
  /** Eigenvalues, in the order of the columns of `vectors` (not sorted). */
  values: [number, number, number];
  /** Eigenvectors as columns: vectors[3k + i] is component i of the k-th; a rotation (det +1). */
  vectors: Float64Array;
}

/**
 * Eigen-decomposition of a symmetric 3×3 given as its upper triangle [xx, xy, xz, yy, yz, zz]
 * (cyclic Jacobi: unconditionally stable for symmetric matrices, ≤ 10 sweeps to double precision).
 */
export function symmetricEigen3(c: ArrayLike<number>, offset = 0): Eigen3 {
  const a = [
    [c[offset]!, c[offset + 1]!, c[offset + 2]!],
    [c[offset + 1]!, c[offset + 3]!, c[offset + 4]!],
    [c[offset + 2]!, c[offset + 4]!, c[offset + 5]!],
  ] as [number[], number[], number[]];
  const v = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ] as [number[], number[], number[]];
  const scale = Math.abs(a[0][0]!) + Math.abs(a[1][1]!) + Math.abs(a[2][2]!) + Math.abs(a[0][1]!) + Math.abs(a[0][2]!) + Math.abs(a[1][2]!);
  for (let sweep = 0; sweep < 32; sweep++) {
    const off = Math.abs(a[0][1]!) + Math.abs(a[0][2]!) + Math.abs(a[1][2]!);
    if (off <= 1e-15 * scale || off === 0) break;
    for (const [p, q] of [
      [0, 1],
      [0, 2],
      [1, 2],
    ] as const) {
      const apq = a[p][q]!;
      if (apq === 0) continue;
      // Rotation by φ in the (p, q) plane with cot 2φ = θ zeroes a[p][q]; t = tan φ, the smaller root.
      const theta = (a[q][q]! - a[p][p]!) / (2 * apq);
      const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const cs = 1 / Math.sqrt(t * t + 1);
      const sn = t * cs;
      for (let k = 0; k < 3; k++) {
        const akp = a[k]![p]!, akq = a[k]![q]!;
        a[k]![p] = cs * akp - sn * akq;
        a[k]![q] = sn * akp + cs * akq;
      }
      for (let k = 0; k < 3; k++) {
        const apk = a[p][k]!, aqk = a[q][k]!;
        a[p][k] = cs * apk - sn * aqk;
        a[q][k] = sn * apk + cs * aqk;
      }
      for (let k = 0; k < 3; k++) {
        const vkp = v[k]![p]!, vkq = v[k]![q]!;
        v[k]![p] = cs * vkp - sn * vkq;
        v[k]![q] = sn * vkp + cs * vkq;
      }
    }
  }
  const vectors = new Float64Array(9);
  for (let k = 0; k < 3; k++) for (let i = 0; i < 3; i++) vectors[3 * k + i] = v[i]![k]!;
  // Rotations compose (products of Jacobi rotations have det +1), but keep it explicit.
  const det =
    vectors[0]! * (vectors[4]! * vectors[8]! - vectors[5]! * vectors[7]!) -
    vectors[3]! * (vectors[1]! * vectors[8]! - vectors[2]! * vectors[7]!) +
    vectors[6]! * (vectors[1]! * vectors[5]! - vectors[2]! * vectors[4]!);
  if (det < 0) for (let i = 0; i < 3; i++) vectors[6 + i] = -vectors[6 + i]!;
  return { values: [a[0][0]!, a[1][1]!, a[2][2]!], vectors };
}

/** Smallest half-axis drawn (m): a flat Gaussian (λ ≈ 0) still shows as a thin disc. */
export const MIN_HALF_AXIS = 1e-3;

/** Babylon index of a Thicket axis: x → 0, y → 2, z → 1 (the view's axis swap). */
const SWAP = [0, 2, 1] as const;

/**
 * Instance matrices (16 floats each, Babylon layout) of the `scale`-σ ellipsoids of Gaussians
 * (means 3 each, covariances 6 each), re-centred on `centre`, into `out` (allocated if absent).
 * `scale` is the Mahalanobis radius of the surface: 2 draws the 2-σ ellipsoid.
 */
export function ellipsoidMatrices(
  means: ArrayLike<number>,
  covariances: ArrayLike<number>,
  scale: number,
  centre: readonly [number, number, number] = [0, 0, 0],
  out?: Float32Array,
): Float32Array {
  const n = Math.floor(means.length / 3);
  const m = out && out.length >= 16 * n ? out : new Float32Array(16 * n);
  const col = new Float64Array(9); // A = V·diag(k√λ), columns
  for (let g = 0; g < n; g++) {
    const { values, vectors } = symmetricEigen3(covariances, 6 * g);
    for (let k = 0; k < 3; k++) {
      const half = Math.max(MIN_HALF_AXIS, scale * Math.sqrt(Math.max(0, values[k]!)));
      for (let i = 0; i < 3; i++) col[3 * k + i] = vectors[3 * k + i]! * half;
    }
    const o = 16 * g;
    // Babylon M_b = P A P: M_b[r][c] = A[π r][π c]; row-vector layout stores M_b[c][r] at 4r + c.
    for (let r = 0; r < 3; r++) {
      for (let c = 0; c < 3; c++) m[o + 4 * r + c] = col[3 * SWAP[r]! + SWAP[c]!]!; // A[πc][πr] = column πr, row πc
      m[o + 4 * r + 3] = 0;
    }
    m[o + 12] = means[3 * g]! - centre[0];
    m[o + 13] = means[3 * g + 2]! - centre[2];
    m[o + 14] = means[3 * g + 1]! - centre[1];
    m[o + 15] = 1;
  }
  return m;
}

/** Apply a Babylon-layout instance matrix to a Babylon-local point (row vector): for tests and picking. */
export function applyInstance(m: ArrayLike<number>, o: number, p: readonly [number, number, number]): [number, number, number] {
  return [0, 1, 2].map((c) => p[0] * m[o + c]! + p[1] * m[o + 4 + c]! + p[2] * m[o + 8 + c]! + m[o + 12 + c]!) as [number, number, number];
}
