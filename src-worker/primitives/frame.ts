/**
 * Yaw-only frames: an object's pose in this pipeline is a translation and a rotation about the
 * world z axis (thesis 004 §4.3.1.4: "we assume rotation along the global z-axis only").
 *
 *   frameOfBox(box)                       the primitive frame of an oriented box (base centre, yaw)
 *   framePose(f)                          [tx, ty, tz, qx, qy, qz, qw], world ← frame
 *   toFrame(f, x, y, z, out, o)           a world point in the frame: Rz(−yaw)(p − t)
 *   rotateCovariance(m, cov, o, out, oo)  Σ' = M Σ Mᵀ for a rotation M (row-major 3 × 3)
 */
import { yawQuaternion } from '../geometry/pose';
import type { AnnotationBox, Pose7 } from '../site/reference-annotations';

/** World ← frame: x' = Rz(yaw) x + (x, y, z). */
export interface YawFrame {
  x: number;
  y: number;
  z: number;
  yaw: number;
}

/** The primitive frame of a box (primitive.ts): origin at the centre of its base, x along its length. */
export function frameOfBox(box: AnnotationBox): YawFrame {
  return { x: box.center[0], y: box.center[1], z: box.center[2] - box.size[2] / 2, yaw: box.yaw };
}

export function framePose(f: YawFrame): Pose7 {
  const q = yawQuaternion(f.yaw);
  return [f.x, f.y, f.z, q[0], q[1], q[2], q[3]];
}

/** Row-major 3 × 3 rotation about z by `angle`. */
export function yawMatrix(angle: number): Float64Array {
  const c = Math.cos(angle), s = Math.sin(angle);
  return Float64Array.of(c, -s, 0, s, c, 0, 0, 0, 1);
}

/** World point → frame coordinates, written to out[o..o+2]. */
export function toFrame(f: YawFrame, x: number, y: number, z: number, out: Float32Array | Float64Array | number[], o: number): void {
  const c = Math.cos(f.yaw), s = Math.sin(f.yaw);
  const dx = x - f.x, dy = y - f.y;
  out[o] = c * dx + s * dy;
  out[o + 1] = -s * dx + c * dy;
  out[o + 2] = z - f.z;
}

/**
 * Σ' = M Σ Mᵀ: the covariance of M·x for x ~ N(·, Σ). Σ and Σ' are 6 numbers (xx, xy, xz, yy,
 * yz, zz) at cov[o..o+5] and out[oo..oo+5]; `out` may be `cov` at the same offset.
 */
export function rotateCovariance(m: ArrayLike<number>, cov: ArrayLike<number>, o: number, out: Float64Array, oo: number): void {
  const a00 = cov[o]!, a01 = cov[o + 1]!, a02 = cov[o + 2]!, a11 = cov[o + 3]!, a12 = cov[o + 4]!, a22 = cov[o + 5]!;
  // T = M Σ (rows of M times the symmetric Σ), then Σ' = T Mᵀ (upper triangle only).
  const t = new Array<number>(9);
  for (let r = 0; r < 3; r++) {
    const m0 = m[3 * r]!, m1 = m[3 * r + 1]!, m2 = m[3 * r + 2]!;
    t[3 * r] = m0 * a00 + m1 * a01 + m2 * a02;
    t[3 * r + 1] = m0 * a01 + m1 * a11 + m2 * a12;
    t[3 * r + 2] = m0 * a02 + m1 * a12 + m2 * a22;
  }
  const e = (r: number, c: number) => t[3 * r]! * m[3 * c]! + t[3 * r + 1]! * m[3 * c + 1]! + t[3 * r + 2]! * m[3 * c + 2]!;
  const s00 = e(0, 0), s01 = e(0, 1), s02 = e(0, 2), s11 = e(1, 1), s12 = e(1, 2), s22 = e(2, 2);
  out[oo] = s00; out[oo + 1] = s01; out[oo + 2] = s02; out[oo + 3] = s11; out[oo + 4] = s12; out[oo + 5] = s22;
}
