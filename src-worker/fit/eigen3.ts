/**
 * Eigenvalues of a symmetric 3×3 matrix (xx, xy, xz, yy, yz, zz) in closed form (the
 * trigonometric solution of the characteristic cubic), ascending, and the unit eigenvector of
 * the smallest — the local normal of a neighbourhood. Closed form because it runs once per
 * point of the subsampled cloud.
 */

/** Writes λ₁ ≤ λ₂ ≤ λ₃ to out[0..2]. */
export function symmetricEigenvalues3(a: ArrayLike<number>, o: number, out: Float64Array): void {
  const a00 = a[o]!, a01 = a[o + 1]!, a02 = a[o + 2]!, a11 = a[o + 3]!, a12 = a[o + 4]!, a22 = a[o + 5]!;
  const p1 = a01 * a01 + a02 * a02 + a12 * a12;
  const q = (a00 + a11 + a22) / 3;
  if (p1 <= 1e-30 * (q * q + 1e-300)) {
    // Diagonal: sort the diagonal.
    let x = a00, y = a11, z = a22, t: number;
    if (x > y) { t = x; x = y; y = t; }
    if (y > z) { t = y; y = z; z = t; }
    if (x > y) { t = x; x = y; y = t; }
    out[0] = x; out[1] = y; out[2] = z;
    return;
  }
  const b00 = a00 - q, b11 = a11 - q, b22 = a22 - q;
  const p2 = b00 * b00 + b11 * b11 + b22 * b22 + 2 * p1;
  const p = Math.sqrt(p2 / 6);
  // det(B) / 2 with B = (A − qI) / p
  const det = b00 * (b11 * b22 - a12 * a12) - a01 * (a01 * b22 - a12 * a02) + a02 * (a01 * a12 - b11 * a02);
  let r = det / (2 * p * p * p);
  if (r < -1) r = -1;
  else if (r > 1) r = 1;
  const phi = Math.acos(r) / 3;
  const l3 = q + 2 * p * Math.cos(phi);
  const l1 = q + 2 * p * Math.cos(phi + (2 * Math.PI) / 3);
  out[0] = l1;
  out[1] = 3 * q - l1 - l3;
  out[2] = l3;
}

/**
 * Unit eigenvector for eigenvalue `lambda` of the symmetric matrix at a[o..o+5] into out[0..2]:
 * the largest cross product of two rows of A − λI (robust when two rows are nearly parallel).
 * Returns false (out = z axis) when the eigenvalue is not simple enough to define it.
 */
export function symmetricEigenvector3(a: ArrayLike<number>, o: number, lambda: number, out: Float64Array): boolean {
  const r0x = a[o]! - lambda, r0y = a[o + 1]!, r0z = a[o + 2]!;
  const r1x = a[o + 1]!, r1y = a[o + 3]! - lambda, r1z = a[o + 4]!;
  const r2x = a[o + 2]!, r2y = a[o + 4]!, r2z = a[o + 5]! - lambda;
  const c0x = r0y * r1z - r0z * r1y, c0y = r0z * r1x - r0x * r1z, c0z = r0x * r1y - r0y * r1x;
  const c1x = r0y * r2z - r0z * r2y, c1y = r0z * r2x - r0x * r2z, c1z = r0x * r2y - r0y * r2x;
  const c2x = r1y * r2z - r1z * r2y, c2y = r1z * r2x - r1x * r2z, c2z = r1x * r2y - r1y * r2x;
  const n0 = c0x * c0x + c0y * c0y + c0z * c0z, n1 = c1x * c1x + c1y * c1y + c1z * c1z, n2 = c2x * c2x + c2y * c2y + c2z * c2z;
  let x = c0x, y = c0y, z = c0z, n = n0;
  if (n1 > n) { x = c1x; y = c1y; z = c1z; n = n1; }
  if (n2 > n) { x = c2x; y = c2y; z = c2z; n = n2; }
  if (!(n > 0)) {
    out[0] = 0; out[1] = 0; out[2] = 1;
    return false;
  }
  const inv = 1 / Math.sqrt(n);
  out[0] = x * inv; out[1] = y * inv; out[2] = z * inv;
  return true;
}
