/**
 * Where a laser's beam starts and which beam a point came from (docs/drive-logs.md, *Ouster
 * frames*). A laser fires along u(az) = (cos el cos az, cos el sin az, sin el) from the origin
 * O(az) = verticalOffset · up(az) + horizontalOffset · left(az), with up = (−sin el cos az,
 * −sin el sin az, cos el) and left = (−sin az, cos az, 0) — the convention of the scan pattern
 * (src-worker/sensors/scan-pattern.ts) and of the Velodyne decoders; an Ouster profile carries its
 * beam-origin offset this way (src-worker/sensors/calibration/ouster-profile.ts).
 *
 * Logs store a return as the exact point seen from the sensor origin (direction and range), so
 * near the sensor a hit's stored direction is not its beam's: the 36 mm lidar-origin height of
 * an OS1 alone tilts it 0.2° at 10 m. `beamOfPoint` inverts the firing geometry in closed form:
 * for a point P fired by a known laser, P's components along left(az) and in the horizontal
 * plane fix az — |P_xy|² = h² + horizontalOffset², az = atan2(P_y, P_x) − atan2(horizontalOffset, h) —
 * and the laser's elevation fixes the rest. So a hit's beam direction, and the distance along it,
 * are recovered exactly at any range, from the point and the ring alone.
 */
import type { LaserSpec } from './sensor-profile';

type Laser = Pick<LaserSpec, 'elevation' | 'verticalOffset' | 'horizontalOffset'>;

/** The beam origin of `laser` at beam azimuth `az` (rad), sensor frame, into out[0..2]. */
export function beamOrigin(laser: Laser, az: number, out: Float64Array | number[]): void {
  const ce = Math.cos(laser.elevation), se = Math.sin(laser.elevation);
  const ca = Math.cos(az), sa = Math.sin(az);
  const vo = laser.verticalOffset, ho = laser.horizontalOffset;
  out[0] = -vo * se * ca - ho * sa;
  out[1] = -vo * se * sa + ho * ca;
  out[2] = vo * ce;
}

export interface BeamOfPoint {
  /** Beam azimuth (rad): the encoder azimuth plus the laser's azimuth offset. */
  az: number;
  /** Unit beam direction, sensor frame. */
  dx: number;
  dy: number;
  dz: number;
  /** Distance from the beam origin along the beam to the point (m). */
  along: number;
}

/**
 * The beam of `laser` that passes through point (px, py, pz) (sensor frame, m), or null when no
 * beam of that laser can reach it (a point inside the beam origin's circle, or behind it).
 */
export function beamOfPoint(laser: Laser, px: number, py: number, pz: number): BeamOfPoint | null {
  const ce = Math.cos(laser.elevation), se = Math.sin(laser.elevation);
  const vo = laser.verticalOffset, ho = laser.horizontalOffset;
  const rxy2 = px * px + py * py;
  const h2 = rxy2 - ho * ho;
  if (!(h2 > 0)) return null;
  // h: the point's horizontal distance along the beam's azimuth = along · cos el − vo · sin el.
  const h = Math.sqrt(h2);
  const az = Math.atan2(py, px) - Math.atan2(ho, h);
  const along = ce > 1e-9 ? (h + vo * se) / ce : (pz - vo * ce) / se;
  if (!(along > 0)) return null;
  return { az, dx: ce * Math.cos(az), dy: ce * Math.sin(az), dz: se, along };
}
