import { pointsToPacket } from './packets';
import { RING_UNKNOWN, type PacketChunk } from '../../src-common/packets';

/**
 * One decoded point cloud, struct-of-arrays, in the file's own frame. Points whose x, y or z
 * is not finite are kept in place (so indices match the file) and counted in `dropped`;
 * they are removed when the cloud becomes a packet.
 */
export interface DecodedCloud {
  count: number;
  /** x, y, z per point. */
  xyz: Float32Array<ArrayBuffer>;
  /** Zeros where the format has no intensity. */
  intensity: Float32Array<ArrayBuffer>;
  /** Laser index per point, RING_UNKNOWN (0xffff) for values that are not a valid index. */
  ring: Uint16Array<ArrayBuffer> | null;
  /** Seconds since `timeBase` (the earliest finite point time), NaN where the file has none. */
  time: Float32Array<ArrayBuffer> | null;
  /** Absolute time of the earliest point in seconds (in the file's own clock); 0 without time. */
  timeBase: number;
  /** Sensor pose in the cloud frame, [tx, ty, tz, qx, qy, qz, qw]; null when the file has none. */
  viewpoint: number[] | null;
  /** Number of points with a non-finite coordinate. */
  dropped: number;
  /**
   * Class code per point as the file writes it (LAS: the ASPRS classification; PLY: a
   * `class`/`label` property), 0 = unknown; absent or null when the file has none. Codes are
   * not remapped: the importer decides what a foreign scheme means.
   */
  cls?: Uint8Array<ArrayBuffer> | null;
  /** Return number within its pulse, 0 = first/only (PacketChunk.rayReturn); absent or null = all 0. */
  ret?: Uint8Array<ArrayBuffer> | null;
  /** What the user should know (a truncated file's dropped bytes, truncation.ts); absent = none. */
  warnings?: string[];
}

/** Counts points whose x, y or z is not finite. */
export function countNonFinite(xyz: Float32Array, count: number): number {
  let bad = 0;
  for (let i = 0; i < count; i++) {
    const x = xyz[3 * i]!, y = xyz[3 * i + 1]!, z = xyz[3 * i + 2]!;
    // x - x is NaN exactly for NaN and ±Infinity: one test instead of three calls.
    if ((x - x) + (y - y) + (z - z) !== 0) bad++;
  }
  return bad;
}

const isIdentityPose = (p: readonly number[]): boolean =>
  p[0] === 0 && p[1] === 0 && p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0 && p[6] === 1;

/**
 * The cloud as one packet (pointsToPacket). A PCD's points are in the cloud frame with the
 * sensor at VIEWPOINT, while a packet's rays are in the sensor frame with the pose beside them,
 * so a non-identity viewpoint moves the points into the sensor frame first: p_s = R⁻¹ (p − t).
 */
export function cloudToPacket(
  cloud: DecodedCloud,
  opts: { packetStart?: number; time?: number } = {},
): PacketChunk {
  let xyz: Float32Array = cloud.xyz;
  const vp = cloud.viewpoint;
  if (vp && !isIdentityPose(vp)) xyz = toSensorFrame(cloud.xyz, vp);
  const packet = pointsToPacket(xyz, cloud.intensity, {
    ...opts,
    pose: vp ?? undefined,
    ring: cloud.ring,
  });
  // pointsToPacket leaves ray times at zero; fill them over the same kept points it chose.
  if (cloud.time) {
    let k = 0;
    for (let i = 0; i < cloud.count; i++) {
      const x = xyz[3 * i]!, y = xyz[3 * i + 1]!, z = xyz[3 * i + 2]!;
      if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z))) continue;
      if (!(x * x + y * y + z * z > 0)) continue;
      const t = cloud.time[i]!;
      packet.rayTime[k++] = Number.isFinite(t) ? t : 0;
    }
  }
  if (cloud.cls || cloud.ret) copyKept(cloud, xyz, packet);
  return packet;
}

/** Copies class and return codes over the points pointsToPacket kept (finite, not at the origin). */
function copyKept(cloud: DecodedCloud, xyz: Float32Array, packet: PacketChunk): void {
  const { cls, ret } = cloud;
  let k = 0;
  for (let i = 0; i < cloud.count; i++) {
    const x = xyz[3 * i]!, y = xyz[3 * i + 1]!, z = xyz[3 * i + 2]!;
    if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z))) continue;
    if (!(x * x + y * y + z * z > 0)) continue;
    if (cls) packet.rayClass[k] = cls[i]!;
    if (ret) packet.rayReturn[k] = ret[i]!;
    k++;
  }
}

/**
 * Raw per-point times as float32 seconds after the earliest finite one (absolute stamps do not
 * fit a float32), with that earliest time as `timeBase`. `unit` is seconds per raw unit (1e-9
 * for nanoseconds). All NaN, timeBase 0, when no time is finite.
 */
export function relativeTimes(raw: Float64Array, unit: number): { time: Float32Array<ArrayBuffer>; timeBase: number } {
  let lo = Infinity;
  for (const t of raw) if (t < lo && t > -Infinity) lo = t; // NaN and -Infinity are skipped
  const time = new Float32Array(raw.length);
  if (!Number.isFinite(lo)) {
    time.fill(NaN);
    return { time, timeBase: 0 };
  }
  for (let i = 0; i < raw.length; i++) time[i] = Number.isFinite(raw[i]!) ? (raw[i]! - lo) * unit : NaN;
  return { time, timeBase: lo * unit };
}

/** Ring indices from raw numbers: RING_UNKNOWN for anything that is not an integer in [0, 0xffff). */
export function ringsFrom(raw: ArrayLike<number>): Uint16Array<ArrayBuffer> {
  const ring = new Uint16Array(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const r = raw[i]!;
    ring[i] = Number.isInteger(r) && r >= 0 && r < RING_UNKNOWN ? r : RING_UNKNOWN;
  }
  return ring;
}

function toSensorFrame(xyz: Float32Array, vp: readonly number[]): Float32Array<ArrayBuffer> {
  const [tx, ty, tz] = [vp[0]!, vp[1]!, vp[2]!];
  let [qx, qy, qz, qw] = [vp[3]!, vp[4]!, vp[5]!, vp[6]!];
  const norm = Math.hypot(qx, qy, qz, qw) || 1;
  // Inverse rotation = conjugate quaternion.
  qx = -qx / norm; qy = -qy / norm; qz = -qz / norm; qw = qw / norm;
  const out = new Float32Array(xyz.length);
  for (let i = 0; i < xyz.length; i += 3) {
    const px = xyz[i]! - tx, py = xyz[i + 1]! - ty, pz = xyz[i + 2]! - tz;
    // v' = v + 2w(q×v) + 2 q×(q×v)
    const cx = qy * pz - qz * py, cy = qz * px - qx * pz, cz = qx * py - qy * px;
    out[i] = px + 2 * (qw * cx + qy * cz - qz * cy);
    out[i + 1] = py + 2 * (qw * cy + qz * cx - qx * cz);
    out[i + 2] = pz + 2 * (qw * cz + qx * cy - qy * cx);
  }
  return out;
}
