/**
 * Growable triangle soup for the procedural builders (build time, not ray time): 9 floats per
 * triangle plus a value per triangle (reflectance or p_hit), with the shapes the site needs.
 *
 *   const w = new MeshWriter();
 *   w.cylinder(x0, y0, z0, x1, y1, z1, r0, r1, sides, value);   // tapered, open ends
 *   w.triangle(ax, ay, az, bx, by, bz, cx, cy, cz, value);
 *   const { positions, values } = w.finish();
 */
import { grown } from '../arrays/typed-arrays';

export class MeshWriter {
  private pos = new Float32Array(9 * 1024);
  private val = new Float32Array(1024);
  count = 0;

  triangle(ax: number, ay: number, az: number, bx: number, by: number, bz: number, cx: number, cy: number, cz: number, value: number): void {
    if (this.count === this.val.length) {
      this.pos = grown(this.pos, this.pos.length * 2);
      this.val = grown(this.val, this.val.length * 2);
    }
    const o = 9 * this.count;
    const p = this.pos;
    p[o] = ax; p[o + 1] = ay; p[o + 2] = az;
    p[o + 3] = bx; p[o + 4] = by; p[o + 5] = bz;
    p[o + 6] = cx; p[o + 7] = cy; p[o + 8] = cz;
    this.val[this.count] = value;
    this.count++;
  }

  /** Two triangles a-b-c, a-c-d. */
  quad(a: readonly number[], b: readonly number[], c: readonly number[], d: readonly number[], value: number): void {
    this.triangle(a[0]!, a[1]!, a[2]!, b[0]!, b[1]!, b[2]!, c[0]!, c[1]!, c[2]!, value);
    this.triangle(a[0]!, a[1]!, a[2]!, c[0]!, c[1]!, c[2]!, d[0]!, d[1]!, d[2]!, value);
  }

  /**
   * Open tapered cylinder (a frustum's side) from p0 (radius r0) to p1 (radius r1), `sides`
   * segments, 2·sides triangles. `phase` rotates the vertex ring (radians).
   */
  cylinder(x0: number, y0: number, z0: number, x1: number, y1: number, z1: number, r0: number, r1: number, sides: number, value: number, phase = 0): void {
    let ax = x1 - x0, ay = y1 - y0, az = z1 - z0;
    const len = Math.hypot(ax, ay, az);
    if (len === 0) return;
    ax /= len; ay /= len; az /= len;
    perpendicularBasis(ax, ay, az, basis);
    const ux = basis[0]!, uy = basis[1]!, uz = basis[2]!, vx = basis[3]!, vy = basis[4]!, vz = basis[5]!;
    for (let s = 0; s < sides; s++) {
      const a0 = phase + (2 * Math.PI * s) / sides, a1 = phase + (2 * Math.PI * (s + 1)) / sides;
      const c0 = Math.cos(a0), s0 = Math.sin(a0), c1 = Math.cos(a1), s1 = Math.sin(a1);
      const p00 = [x0 + r0 * (c0 * ux + s0 * vx), y0 + r0 * (c0 * uy + s0 * vy), z0 + r0 * (c0 * uz + s0 * vz)];
      const p01 = [x0 + r0 * (c1 * ux + s1 * vx), y0 + r0 * (c1 * uy + s1 * vy), z0 + r0 * (c1 * uz + s1 * vz)];
      const p10 = [x1 + r1 * (c0 * ux + s0 * vx), y1 + r1 * (c0 * uy + s0 * vy), z1 + r1 * (c0 * uz + s0 * vz)];
      const p11 = [x1 + r1 * (c1 * ux + s1 * vx), y1 + r1 * (c1 * uy + s1 * vy), z1 + r1 * (c1 * uz + s1 * vz)];
      this.quad(p00, p01, p11, p10, value);
    }
  }

  /** Axis-aligned box (12 triangles). */
  box(x0: number, y0: number, z0: number, x1: number, y1: number, z1: number, value: number): void {
    const c = (i: number) => [i & 1 ? x1 : x0, i & 2 ? y1 : y0, i & 4 ? z1 : z0];
    const faces = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
    for (const f of faces) this.quad(c(f[0]!), c(f[1]!), c(f[2]!), c(f[3]!), value);
  }

  /** Appends another soup, transformed by x' = R x + t (R row-major 3×3). */
  append(positions: Float32Array, values: Float32Array, r: ArrayLike<number>, t: ArrayLike<number>): void {
    for (let i = 0; i < values.length; i++) {
      const v: number[] = [];
      for (let k = 0; k < 3; k++) {
        const x = positions[9 * i + 3 * k]!, y = positions[9 * i + 3 * k + 1]!, z = positions[9 * i + 3 * k + 2]!;
        v.push(r[0]! * x + r[1]! * y + r[2]! * z + t[0]!, r[3]! * x + r[4]! * y + r[5]! * z + t[1]!, r[6]! * x + r[7]! * y + r[8]! * z + t[2]!);
      }
      this.triangle(v[0]!, v[1]!, v[2]!, v[3]!, v[4]!, v[5]!, v[6]!, v[7]!, v[8]!, values[i]!);
    }
  }

  finish(): { positions: Float32Array; values: Float32Array } {
    return { positions: this.pos.slice(0, 9 * this.count), values: this.val.slice(0, this.count) };
  }
}

/** Growable list of Gaussians (μ, Σ as xx, xy, xz, yy, yz, zz, and a value: p_hit or ρ). */
export class GaussianWriter {
  means: number[] = [];
  covs: number[] = [];
  values: number[] = [];

  get count(): number {
    return this.values.length;
  }

  /**
   * An ellipsoid with standard deviations (sa, sb, sc) along the orthonormal axes: a (unit
   * vector), b = any unit vector ⟂ a rotated by `roll`, c = a × b.
   */
  add(mx: number, my: number, mz: number, ax: number, ay: number, az: number, sa: number, sb: number, sc: number, roll: number, value: number): void {
    const al = Math.hypot(ax, ay, az) || 1;
    ax /= al; ay /= al; az /= al;
    perpendicularBasis(ax, ay, az, basis);
    const ux = basis[0]!, uy = basis[1]!, uz = basis[2]!, wx = basis[3]!, wy = basis[4]!, wz = basis[5]!;
    const c = Math.cos(roll), s = Math.sin(roll);
    const bx = c * ux + s * wx, by = c * uy + s * wy, bz = c * uz + s * wz;
    const cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
    const A = sa * sa, B = sb * sb, C = sc * sc;
    this.means.push(mx, my, mz);
    this.covs.push(
      A * ax * ax + B * bx * bx + C * cx * cx,
      A * ax * ay + B * bx * by + C * cx * cy,
      A * ax * az + B * bx * bz + C * cx * cz,
      A * ay * ay + B * by * by + C * cy * cy,
      A * ay * az + B * by * bz + C * cy * cz,
      A * az * az + B * bz * bz + C * cz * cz,
    );
    this.values.push(value);
  }

  finish(): { means: Float64Array; covariances: Float64Array; values: Float32Array } {
    return { means: Float64Array.from(this.means), covariances: Float64Array.from(this.covs), values: Float32Array.from(this.values) };
  }
}

/** Scratch for perpendicularBasis (the writers run on one thread, one call at a time). */
const basis = new Float64Array(6);

/**
 * Two unit vectors that complete the unit axis (ax, ay, az) to a right-handed orthonormal frame,
 * to out[0..2] (u) and out[3..5] (v = axis × u): u is the axis crossed with z, or with x when the
 * axis is within about 26° of z, so the cross product never comes near zero.
 */
function perpendicularBasis(ax: number, ay: number, az: number, out: Float64Array): void {
  let ux: number, uy: number, uz: number;
  if (Math.abs(az) < 0.9) {
    ux = -ay; uy = ax; uz = 0;
  } else {
    ux = 0; uy = -az; uz = ay;
  }
  const ul = Math.hypot(ux, uy, uz);
  ux /= ul; uy /= ul; uz /= ul;
  out[0] = ux; out[1] = uy; out[2] = uz;
  out[3] = ay * uz - az * uy; out[4] = az * ux - ax * uz; out[5] = ax * uy - ay * ux;
}
