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
