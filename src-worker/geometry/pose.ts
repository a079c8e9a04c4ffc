/**
 * Rigid poses as [tx, ty, tz, qx, qy, qz, qw] (world <- sensor), unit quaternion.
 * Plain functions over numbers and typed arrays: these run in the hottest loops.
 */

/**
 * Rotate (x, y, z) by the unit quaternion (qx, qy, qz, qw) into out[oi..oi+2]:
 * v' = v + 2w(q×v) + 2q×(q×v). Scalar arguments so V8 inlines it in ray loops.
 */
export function rotateByQuaternion(
  qx: number, qy: number, qz: number, qw: number,
  x: number, y: number, z: number,
  out: Float32Array | Float64Array | number[], oi: number,
): void {
  const tx = 2 * (qy * z - qz * y);
  const ty = 2 * (qz * x - qx * z);
  const tz = 2 * (qx * y - qy * x);
  out[oi] = x + qw * tx + (qy * tz - qz * ty);
  out[oi + 1] = y + qw * ty + (qz * tx - qx * tz);
  out[oi + 2] = z + qw * tz + (qx * ty - qy * tx);
}

/** Rotate (x, y, z) by the quaternion at pose[o+3..o+6] and translate; writes into out[oi..oi+2]. */
export function transformPoint(
  pose: ArrayLike<number>,
  o: number,
  x: number,
  y: number,
  z: number,
  out: Float32Array | Float64Array,
  oi: number,
): void {
  rotateByQuaternion(pose[o + 3]!, pose[o + 4]!, pose[o + 5]!, pose[o + 6]!, x, y, z, out, oi);
  out[oi] = out[oi]! + pose[o]!;
  out[oi + 1] = out[oi + 1]! + pose[o + 1]!;
  out[oi + 2] = out[oi + 2]! + pose[o + 2]!;
}

/**
 * Rotation matrix (row-major, world ← local) of the unit quaternion at pose[o+3..o+6], written
 * to out[oi..oi+8]. The quaternion is normalised first, so slightly denormalised input is fine.
 */
export function poseRotationMatrix(pose: ArrayLike<number>, o: number, out: Float64Array | Float32Array, oi: number): void {
  let qx = pose[o + 3]!, qy = pose[o + 4]!, qz = pose[o + 5]!, qw = pose[o + 6]!;
  const n = Math.hypot(qx, qy, qz, qw);
  if (n > 0) {
    qx /= n; qy /= n; qz /= n; qw /= n;
  } else {
    qx = 0; qy = 0; qz = 0; qw = 1;
  }
  const xx = qx * qx, yy = qy * qy, zz = qz * qz;
  const xy = qx * qy, xz = qx * qz, yz = qy * qz;
  const wx = qw * qx, wy = qw * qy, wz = qw * qz;
  out[oi] = 1 - 2 * (yy + zz);
  out[oi + 1] = 2 * (xy - wz);
  out[oi + 2] = 2 * (xz + wy);
  out[oi + 3] = 2 * (xy + wz);
  out[oi + 4] = 1 - 2 * (xx + zz);
  out[oi + 5] = 2 * (yz - wx);
  out[oi + 6] = 2 * (xz - wy);
  out[oi + 7] = 2 * (yz + wx);
  out[oi + 8] = 1 - 2 * (xx + yy);
}

/** Unit quaternion [qx, qy, qz, qw] of a rotation by `angle` radians about the z axis (yaw). */
export function yawQuaternion(angle: number): [number, number, number, number] {
  return [0, 0, Math.sin(angle / 2), Math.cos(angle / 2)];
}

/**
 * Unit quaternion [qx, qy, qz, qw] of the rotation matrix m[mo..mo+8] (row-major), written to
 * out[oo..oo+3], with qw ≥ 0. Shepperd's method: it builds from the largest of the four
 * candidates (trace, or one diagonal element), so no division is by a small number and every
 * rotation, 180° turns included, comes out accurate. The matrix is assumed orthonormal; a
 * slightly off one gives the quaternion of a nearby rotation (normalised).
 */
export function rotationMatrixToQuaternion(m: ArrayLike<number>, mo: number, out: Float64Array | number[], oo: number): void {
  const m00 = m[mo]!, m01 = m[mo + 1]!, m02 = m[mo + 2]!;
  const m10 = m[mo + 3]!, m11 = m[mo + 4]!, m12 = m[mo + 5]!;
  const m20 = m[mo + 6]!, m21 = m[mo + 7]!, m22 = m[mo + 8]!;
  const trace = m00 + m11 + m22;
  let x: number, y: number, z: number, w: number;
  if (trace >= m00 && trace >= m11 && trace >= m22) {
    const s = 2 * Math.sqrt(Math.max(0, 1 + trace)); // s = 4w
    w = s / 4; x = (m21 - m12) / s; y = (m02 - m20) / s; z = (m10 - m01) / s;
  } else if (m00 >= m11 && m00 >= m22) {
    const s = 2 * Math.sqrt(Math.max(0, 1 + m00 - m11 - m22)); // s = 4x
    x = s / 4; w = (m21 - m12) / s; y = (m01 + m10) / s; z = (m02 + m20) / s;
  } else if (m11 >= m22) {
    const s = 2 * Math.sqrt(Math.max(0, 1 + m11 - m00 - m22)); // s = 4y
    y = s / 4; w = (m02 - m20) / s; x = (m01 + m10) / s; z = (m12 + m21) / s;
  } else {
    const s = 2 * Math.sqrt(Math.max(0, 1 + m22 - m00 - m11)); // s = 4z
    z = s / 4; w = (m10 - m01) / s; x = (m02 + m20) / s; y = (m12 + m21) / s;
  }
  const n = Math.hypot(x, y, z, w) * (w < 0 ? -1 : 1);
  out[oo] = x / n; out[oo + 1] = y / n; out[oo + 2] = z / n; out[oo + 3] = w / n;
}

/**
 * Unit quaternion [qx, qy, qz, qw] of roll, pitch, yaw (radians) in the ROS/aerospace
 * convention R = Rz(yaw) · Ry(pitch) · Rx(roll): roll about x, then pitch about y, then yaw
 * about z, all about fixed axes.
 */
export function rollPitchYawToQuaternion(roll: number, pitch: number, yaw: number): [number, number, number, number] {
  const cr = Math.cos(roll / 2), sr = Math.sin(roll / 2);
  const cp = Math.cos(pitch / 2), sp = Math.sin(pitch / 2);
  const cy = Math.cos(yaw / 2), sy = Math.sin(yaw / 2);
  return [
    sr * cp * cy - cr * sp * sy,
    cr * sp * cy + sr * cp * sy,
    cr * cp * sy - sr * sp * cy,
    cr * cp * cy + sr * sp * sy,
  ];
}
