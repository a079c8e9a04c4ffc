/**
 * Rigid poses as [tx, ty, tz, qx, qy, qz, qw] (world <- sensor), unit quaternion.
 * Plain functions over numbers and typed arrays: these run in the hottest loops.
 */

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
  const qx = pose[o + 3]!, qy = pose[o + 4]!, qz = pose[o + 5]!, qw = pose[o + 6]!;
  // v' = v + 2w(q×v) + 2q×(q×v)
  const tx = 2 * (qy * z - qz * y);
  const ty = 2 * (qz * x - qx * z);
  const tz = 2 * (qx * y - qy * x);
  out[oi] = x + qw * tx + (qy * tz - qz * ty) + pose[o]!;
  out[oi + 1] = y + qw * ty + (qz * tx - qx * tz) + pose[o + 1]!;
  out[oi + 2] = z + qw * tz + (qx * ty - qy * tx) + pose[o + 2]!;
}
