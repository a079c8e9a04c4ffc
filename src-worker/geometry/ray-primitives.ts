/**
 * Ray–primitive tests on plain numbers and typed arrays (no allocation): the named predicates the
 * scene's reference walk (scene/reference-walk.ts) and its brute-force oracle are built from. The
 * WebAssembly kernel (scene/kernel/kernel.h) mirrors each, operation for operation, so both give
 * the same answers bit for bit.
 *
 * Rays: origin o, direction d (unit for distances in metres; the formulas hold for any d ≠ 0,
 * with t then in units of |d|).
 */

/**
 * Two-sided Möller–Trumbore ray–triangle test (kernel.h ray_triangle: the same operations). The triangle is v[o..o+8] (v0, v1, v2).
 * On a hit with t in (tmin, tmax] writes out[0] = t, out[1] = u, out[2] = v (barycentrics of
 * v1 and v2; the point is (1−u−v)·v0 + u·v1 + v·v2) and returns true.
 */
export function rayTriangle(
  ox: number, oy: number, oz: number, dx: number, dy: number, dz: number,
  v: ArrayLike<number>, o: number, tmin: number, tmax: number, out: Float64Array,
): boolean {
  const ax = v[o]!, ay = v[o + 1]!, az = v[o + 2]!;
  const e1x = v[o + 3]! - ax, e1y = v[o + 4]! - ay, e1z = v[o + 5]! - az;
  const e2x = v[o + 6]! - ax, e2y = v[o + 7]! - ay, e2z = v[o + 8]! - az;
  const px = dy * e2z - dz * e2y, py = dz * e2x - dx * e2z, pz = dx * e2y - dy * e2x;
  const det = e1x * px + e1y * py + e1z * pz;
  if (det === 0) return false;
  const inv = 1 / det;
  const sx = ox - ax, sy = oy - ay, sz = oz - az;
  const u = (sx * px + sy * py + sz * pz) * inv;
  if (u < 0 || u > 1) return false;
  const qx = sy * e1z - sz * e1y, qy = sz * e1x - sx * e1z, qz = sx * e1y - sy * e1x;
  const w = (dx * qx + dy * qy + dz * qz) * inv;
  if (w < 0 || u + w > 1) return false;
  const t = (e2x * qx + e2y * qy + e2z * qz) * inv;
  if (!(t > tmin && t <= tmax)) return false;
  out[0] = t;
  out[1] = u;
  out[2] = w;
  return true;
}

/** Inverse direction that is finite for a zero component (no NaN from 0·∞ in the slab test). */
export function inverseDirection(d: number): number {
  return d !== 0 ? 1 / d : 1e300;
}

/**
 * A ray prepared for slab tests against many boxes: per axis the inverse direction i, the origin
 * term o·i, and which bound is the near plane (0: min, 3: max, offset into a box record).
 */
export class RaySlabs {
  ix = 0.0; iy = 0.0; iz = 0.0;
  oxi = 0.0; oyi = 0.0; ozi = 0.0;
  nx = 0; ny = 1; nz = 2;

  set(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number): this {
    const ix = inverseDirection(dx), iy = inverseDirection(dy), iz = inverseDirection(dz);
    this.ix = ix; this.iy = iy; this.iz = iz;
    this.oxi = ox * ix; this.oyi = oy * iy; this.ozi = oz * iz;
    this.nx = ix >= 0 ? 0 : 3; this.ny = iy >= 0 ? 1 : 4; this.nz = iz >= 0 ? 2 : 5;
    return this;
  }
}

/**
 * Slab test of a prepared ray against the box b[o..o+5] = (minx, miny, minz, maxx, maxy, maxz):
 * the entry distance clamped to tmin, or NaN when the ray misses the box within [tmin, tmax].
 * Each plane's distance is B·i − o·i (the kernel's float test, kernel.h test4, is a conservative
 * bound of exactly this).
 */
export function slabEntry(b: ArrayLike<number>, o: number, s: RaySlabs, tmin: number, tmax: number): number {
  let near = b[o + s.nx]! * s.ix - s.oxi, far = b[o + 3 - s.nx]! * s.ix - s.oxi;
  const ny = b[o + s.ny]! * s.iy - s.oyi, fy = b[o + 5 - s.ny]! * s.iy - s.oyi;
  const nz = b[o + s.nz]! * s.iz - s.ozi, fz = b[o + 7 - s.nz]! * s.iz - s.ozi;
  if (ny > near) near = ny;
  if (fy < far) far = fy;
  if (nz > near) near = nz;
  if (fz < far) far = fz;
  if (near < tmin) near = tmin;
  if (far > tmax) far = tmax;
  return near <= far ? near : NaN;
}

/**
 * Cholesky factor of a symmetric positive-definite 3×3 matrix given as its 6 upper entries
 * a[o..o+5] = (xx, xy, xz, yy, yz, zz). Writes the lower-triangular L (Σ = L Lᵀ) row-major as
 * (l00, l10, l11, l20, l21, l22) to out[oi..oi+5]. Returns false if the matrix is not positive
 * definite (out is then unspecified).
 */
export function cholesky3(a: ArrayLike<number>, o: number, out: Float64Array, oi: number): boolean {
  const a00 = a[o]!, a01 = a[o + 1]!, a02 = a[o + 2]!, a11 = a[o + 3]!, a12 = a[o + 4]!, a22 = a[o + 5]!;
  if (!(a00 > 0)) return false;
  const l00 = Math.sqrt(a00);
  const l10 = a01 / l00, l20 = a02 / l00;
  const d1 = a11 - l10 * l10;
  if (!(d1 > 0)) return false;
  const l11 = Math.sqrt(d1);
  const l21 = (a12 - l20 * l10) / l11;
  const d2 = a22 - l20 * l20 - l21 * l21;
  if (!(d2 > 0)) return false;
  const l22 = Math.sqrt(d2);
  out[oi] = l00; out[oi + 1] = l10; out[oi + 2] = l11;
  out[oi + 3] = l20; out[oi + 4] = l21; out[oi + 5] = l22;
  return true;
}

/**
 * Inverse of Σ = L Lᵀ from its Cholesky factor (l00, l10, l11, l20, l21, l22) at l[o..o+5]:
 * the precision P = L⁻ᵀ L⁻¹ as 6 upper entries (xx, xy, xz, yy, yz, zz) at out[oi..oi+5].
 */
export function precisionFromCholesky(l: ArrayLike<number>, o: number, out: Float64Array, oi: number): void {
  const l00 = l[o]!, l10 = l[o + 1]!, l11 = l[o + 2]!, l20 = l[o + 3]!, l21 = l[o + 4]!, l22 = l[o + 5]!;
  // M = L⁻¹ (lower triangular)
  const m00 = 1 / l00, m11 = 1 / l11, m22 = 1 / l22;
  const m10 = (-l10 * m00) / l11;
  const m21 = (-l21 * m11) / l22;
  const m20 = (-(l20 * m00) - l21 * m10) / l22;
  // P = Mᵀ M
  out[oi] = m00 * m00 + m10 * m10 + m20 * m20;
  out[oi + 1] = m10 * m11 + m20 * m21;
  out[oi + 2] = m20 * m22;
  out[oi + 3] = m11 * m11 + m21 * m21;
  out[oi + 4] = m21 * m22;
  out[oi + 5] = m22 * m22;
}

/**
 * The ray against a Gaussian (μ, P = Σ⁻¹) in the Mahalanobis sense (Deschaud et al. 2012,
 * eq. 1–3), with μ at g[o..o+2] and P's upper entries (xx, xy, xz, yy, yz, zz) at g[o+3..o+8]. Writes
 *   out[0] = t* = dᵀP(μ−o) / dᵀPd        the point of minimum Mahalanobis distance along the ray,
 *   out[1] = m² = (μ−o)ᵀP(μ−o) − dᵀP(μ−o)·t*   the squared minimum distance (rounding may leave it
 *            a hair below 0: clamp before a square root; compare it with a squared limit as is),
 *   out[2] = σ_t² = 1 / dᵀPd             (eq. 2; μ_t = t*, eq. 3).
 * The kernel's ray_gaussian (kernel.h) computes the same operations in the same order.
 */
export function rayGaussian(
  ox: number, oy: number, oz: number, dx: number, dy: number, dz: number,
  g: ArrayLike<number>, o: number, out: Float64Array,
): void {
  const ex = g[o]! - ox, ey = g[o + 1]! - oy, ez = g[o + 2]! - oz;
  const p00 = g[o + 3]!, p01 = g[o + 4]!, p02 = g[o + 5]!, p11 = g[o + 6]!, p12 = g[o + 7]!, p22 = g[o + 8]!;
  // Pd and Pe
  const pdx = p00 * dx + p01 * dy + p02 * dz;
  const pdy = p01 * dx + p11 * dy + p12 * dz;
  const pdz = p02 * dx + p12 * dy + p22 * dz;
  const dPd = dx * pdx + dy * pdy + dz * pdz;
  const dPe = ex * pdx + ey * pdy + ez * pdz;
  const ePe = ex * (p00 * ex + p01 * ey + p02 * ez) + ey * (p01 * ex + p11 * ey + p12 * ez) + ez * (p02 * ex + p12 * ey + p22 * ez);
  const t = dPe / dPd;
  out[0] = t;
  out[1] = ePe - dPe * t;
  out[2] = 1 / dPd;
}
