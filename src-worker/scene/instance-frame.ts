/**
 * Moving between an instance's frame and the world (SceneData's instXform: x_w = R x_l + t,
 * rigid), once for every query: the ray into the frame, and what a hit reports back out of it
 * (a triangle's normal and the SurfaceHit, a Gaussian's mean and Cholesky factor). The
 * WebAssembly kernel does the same operations in the same order (kernel.h instance_ray,
 * ray-closest.c fill_hit), so both give the same bits.
 */
import { cholesky3 } from '../geometry/ray-primitives';
import { GAUSS_STRIDE, INST_FLOATS, INST_IDENTITY_ROTATION, INST_INTS, PRIM_FLOATS, PRIM_INTS, PrimFloat } from './scene-data';
import { type SceneData } from '../../src-common/scene-data';
import { ElementKind, type SurfaceHit } from './scene-query';

/** Scratch for a normal (one thread runs one walk at a time). */
const NORMAL = new Float64Array(3);

/** out[o..o+2] = Rᵀ v for instance rotation R = x[xo..xo+8] (row-major): world → local. */
function toLocal(x: Float64Array, xo: number, vx: number, vy: number, vz: number, out: Float64Array, o: number): void {
  out[o] = x[xo]! * vx + x[xo + 3]! * vy + x[xo + 6]! * vz;
  out[o + 1] = x[xo + 1]! * vx + x[xo + 4]! * vy + x[xo + 7]! * vz;
  out[o + 2] = x[xo + 2]! * vx + x[xo + 5]! * vy + x[xo + 8]! * vz;
}

/** out[0..2] = R v: local → world. */
function toWorld(x: Float64Array, xo: number, vx: number, vy: number, vz: number, out: Float64Array): void {
  out[0] = x[xo]! * vx + x[xo + 1]! * vy + x[xo + 2]! * vz;
  out[1] = x[xo + 3]! * vx + x[xo + 4]! * vy + x[xo + 5]! * vz;
  out[2] = x[xo + 6]! * vx + x[xo + 7]! * vy + x[xo + 8]! * vz;
}

/**
 * The ray in instance inst's frame, out = [o_l, d_l] with o_l = Rᵀ(o − t), d_l = Rᵀ d (only
 * translated where the rotation is the identity). t along the ray is the same in both frames.
 */
export function instanceRay(data: SceneData, inst: number, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, out: Float64Array): void {
  const x = data.instXform, xo = inst * INST_FLOATS;
  const px = ox - x[xo + 9]!, py = oy - x[xo + 10]!, pz = oz - x[xo + 11]!;
  if ((data.instInts[inst * INST_INTS + 3]! & INST_IDENTITY_ROTATION) !== 0) {
    out[0] = px; out[1] = py; out[2] = pz;
    out[3] = dx; out[4] = dy; out[5] = dz;
    return;
  }
  toLocal(x, xo, px, py, pz, out, 0);
  toLocal(x, xo, dx, dy, dz, out, 3);
}

/**
 * The SurfaceHit of triangle `tri` of instance `inst` met at t by world direction d: the unit
 * world normal R(e1 × e2) turned to face the ray, the reflectance (the mesh triangle's, or the
 * ground primitive's) and the instance's ids.
 */
export function fillSurfaceHit(data: SceneData, t: number, inst: number, tri: number, dx: number, dy: number, dz: number, out: SurfaceHit): void {
  const tv = data.triVerts, o = 9 * tri, ix = data.instXform, xo = inst * INST_FLOATS, ii = data.instInts;
  const ax = tv[o]!, ay = tv[o + 1]!, az = tv[o + 2]!;
  const e1x = tv[o + 3]! - ax, e1y = tv[o + 4]! - ay, e1z = tv[o + 5]! - az;
  const e2x = tv[o + 6]! - ax, e2y = tv[o + 7]! - ay, e2z = tv[o + 8]! - az;
  const lx = e1y * e2z - e1z * e2y, ly = e1z * e2x - e1x * e2z, lz = e1x * e2y - e1y * e2x;
  const n = NORMAL;
  toWorld(ix, xo, lx, ly, lz, n);
  const nx = n[0]!, ny = n[1]!, nz = n[2]!;
  let len = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (len === 0) len = 1;
  if (nx * dx + ny * dy + nz * dz > 0) len = -len;
  const p = ii[inst * INST_INTS]!;
  out.t = t;
  out.nx = nx / len;
  out.ny = ny / len;
  out.nz = nz / len;
  out.reflectance = data.primInts[p * PRIM_INTS] === ElementKind.Surface ? data.triValues[tri]! : data.primFloats[p * PRIM_FLOATS + PrimFloat.groundReflectance]!;
  out.objectId = ii[inst * INST_INTS + 1]!;
  out.classId = ii[inst * INST_INTS + 2]!;
}

/** World-frame mean and Cholesky factor of Gaussian `e` placed by instance `inst`; `sigma` is 6 doubles of scratch. */
export function worldGaussian(data: SceneData, e: number, inst: number, mean: Float64Array, chol: Float64Array, sigma: Float64Array): void {
  const g = data.gauss, o = e * GAUSS_STRIDE, x = data.instXform, xo = inst * INST_FLOATS;
  const mx = g[o]!, my = g[o + 1]!, mz = g[o + 2]!;
  if ((data.instInts[inst * INST_INTS + 3]! & INST_IDENTITY_ROTATION) !== 0) {
    mean[0] = mx + x[xo + 9]!;
    mean[1] = my + x[xo + 10]!;
    mean[2] = mz + x[xo + 11]!;
    for (let k = 0; k < 6; k++) chol[k] = g[o + 9 + k]!;
    return;
  }
  toWorld(x, xo, mx, my, mz, mean);
  mean[0] = mean[0]! + x[xo + 9]!;
  mean[1] = mean[1]! + x[xo + 10]!;
  mean[2] = mean[2]! + x[xo + 11]!;
  const r0 = x[xo]!, r1 = x[xo + 1]!, r2 = x[xo + 2]!, r3 = x[xo + 3]!, r4 = x[xo + 4]!, r5 = x[xo + 5]!, r6 = x[xo + 6]!, r7 = x[xo + 7]!, r8 = x[xo + 8]!;
  // A = R L (a square root of RΣRᵀ); Σ_w = A Aᵀ; then its Cholesky factor.
  const l00 = g[o + 9]!, l10 = g[o + 10]!, l11 = g[o + 11]!, l20 = g[o + 12]!, l21 = g[o + 13]!, l22 = g[o + 14]!;
  const a00 = r0 * l00 + r1 * l10 + r2 * l20, a01 = r1 * l11 + r2 * l21, a02 = r2 * l22;
  const a10 = r3 * l00 + r4 * l10 + r5 * l20, a11 = r4 * l11 + r5 * l21, a12 = r5 * l22;
  const a20 = r6 * l00 + r7 * l10 + r8 * l20, a21 = r7 * l11 + r8 * l21, a22 = r8 * l22;
  const s = sigma;
  s[0] = a00 * a00 + a01 * a01 + a02 * a02;
  s[1] = a00 * a10 + a01 * a11 + a02 * a12;
  s[2] = a00 * a20 + a01 * a21 + a02 * a22;
  s[3] = a10 * a10 + a11 * a11 + a12 * a12;
  s[4] = a10 * a20 + a11 * a21 + a12 * a22;
  s[5] = a20 * a20 + a21 * a21 + a22 * a22;
  if (!cholesky3(s, 0, chol, 0)) {
    // Rounding made a near-singular Σ indefinite: fall back to the stored (local) factor.
    for (let k = 0; k < 6; k++) chol[k] = g[o + 9 + k]!;
  }
}
