/**
 * An Ouster metadata JSON (parsed by ouster-json.ts) → a SensorProfile in Ouster's *sensor* frame,
 * the frame the packet decoder writes its rays in (docs/drive-logs.md, *Ouster frames*), with the
 * beam-origin offset modelled exactly.
 *
 * The Ouster SDK's XYZ formula (make_xyz_lut; Ouster "Sensor Data" firmware user manual) for beam
 * i at encoder angle θe: u = (cos(θe+θa) cos φ, sin(θe+θa) cos φ, sin φ), θa = −beam_azimuth_angles[i],
 * φ = beam_altitude_angles[i]; lidar-frame point p = (r − d)·u + (n cos θe, n sin θe, n_z), with n,
 * n_z the beam-to-lidar translation and d = |(n, n_z)|; sensor-frame point R·p + t.
 *
 * A rotation of the lidar frame about z (180° by default) is a constant added to every beam's
 * azimuth. The beam origin B = R·(n cos θe, n sin θe, n_z) + t turns with the head, so in each
 * beam's own frame — along u, "up" (−sin φ cos az, −sin φ sin az, cos φ) and "left" (−sin az,
 * cos az, 0) — its components are constants per beam:
 *   along = n cos θa cos φ + (n_z + t_z) sin φ,  up = −n cos θa sin φ + (n_z + t_z) cos φ,  left = −n sin θa.
 * So the point is up·ûp + left·l̂eft + (r − d + along)·u: a Velodyne-style calibration with
 * verticalOffset = up, horizontalOffset = left and rangeOffset = along − d (the scan pattern fires
 * each ray from that origin; src-worker/sensors/scan-pattern.ts). Nothing in the chunk format
 * changes: a simulated return is stored, like a decoded one, as the exact point seen from the
 * sensor origin.
 */
import type { SensorProfile } from '../../../src-common/sensor-profile';
import { DEFAULT_MOUNT } from '../devices';
import type { OusterLine } from '../models';
import { CalibrationError } from './calibration-error';
import type { OusterCalibration } from './ouster-json';

/** Range limits (m) of each line (Ouster OS0 / OS1 / OS2 data sheets, 100 % reflectivity targets). */
export const OUSTER_RANGE: Record<OusterLine, { min: number; max: number }> = {
  os0: { min: 0.3, max: 50 },
  os1: { min: 0.3, max: 120 },
  os2: { min: 0.8, max: 240 },
};

export interface OusterProfileMeta {
  id: string;
  name: string;
  description: string;
  source: string;
  line: OusterLine;
  /** Columns per turn; default: the file's lidar_mode. */
  columns?: number;
  builtin?: boolean;
}

const wrap = (a: number): number => Math.atan2(Math.sin(a), Math.cos(a));

/** The lidar → sensor rotation's yaw, or a CalibrationError when it is not a rotation about z. */
function yawOf(c: OusterCalibration, file: string): number {
  const m = c.lidarToSensor;
  if (Math.abs(m[2]!) > 1e-6 || Math.abs(m[6]!) > 1e-6 || Math.abs(m[8]!) > 1e-6 || Math.abs(m[9]!) > 1e-6 || Math.abs(m[10]! - 1) > 1e-6) {
    throw new CalibrationError(file, 'lidar_to_sensor_transform', 'only a rotation about z can be carried by a profile (its beams would tilt otherwise)');
  }
  return Math.atan2(m[4]!, m[0]!);
}

/** Per-beam lasers in the sensor frame with the beam-origin offset (see the header). */
export function ousterLasers(c: OusterCalibration, file: string): SensorProfile['groups'][number]['lasers'] {
  const yaw = yawOf(c, file);
  const n = c.beamToLidar[3]! / 1000;
  const nz = c.beamToLidar[11]! / 1000;
  const tz = c.lidarToSensor[11]! / 1000;
  // As the SDK: d is the radial offset alone unless the beam origin is also raised.
  const d = nz !== 0 ? Math.hypot(n, nz) : n;
  return c.lasers.map((l) => {
    const ta = l.azimuthOffset; // lidar frame: −beam_azimuth_angles
    const cp = Math.cos(l.elevation), sp = Math.sin(l.elevation);
    const along = n * Math.cos(ta) * cp + (nz + tz) * sp;
    return {
      elevation: l.elevation,
      azimuthOffset: wrap(ta + yaw),
      timeOffset: 0,
      rangeOffset: along - d,
      verticalOffset: -n * Math.cos(ta) * sp + (nz + tz) * cp,
      horizontalOffset: -n * Math.sin(ta),
    };
  });
}

/** The profile of an Ouster unit (or of a nominal one, for the built-ins). */
export function ousterProfileFrom(c: OusterCalibration, file: string, meta: OusterProfileMeta): SensorProfile {
  const columns = meta.columns ?? c.columnsPerTurn;
  const range = OUSTER_RANGE[meta.line];
  return {
    id: meta.id,
    name: meta.name,
    description: meta.description,
    builtin: meta.builtin ?? false,
    kind: 'spinning',
    // All channels of a column fire together, one column every 1 / (columns · Hz).
    groups: [{ name: 'channels', firingPeriod: 1 / (columns * c.turnsPerSecond), lasers: ousterLasers(c, file) }],
    rotationHz: c.turnsPerSecond,
    spin: 'cw',
    azimuthStart: c.azimuthWindowDeg ? (c.azimuthWindowDeg[0] * Math.PI) / 180 : 0,
    azimuthEnd: c.azimuthWindowDeg ? (c.azimuthWindowDeg[1] * Math.PI) / 180 : 2 * Math.PI,
    range: { min: range.min, max: range.max, resolution: 0.001, noiseSigma: 0.03 },
    beam: { shape: 'circular', divergenceH: 2.3e-3, divergenceV: 2.3e-3 },
    returns: { mode: 'strongest', signalCutoff: 1 },
    intensity: { model: 'lambertian', scale: 1, rangeFalloff: false },
    mount: [...DEFAULT_MOUNT],
    sequencesPerPacket: c.columnsPerPacket,
    source: meta.source,
  };
}

/** Vertical field of view (degrees) of each line, beams spread uniformly (Ouster OS0 / OS1 / OS2 Rev 7 data sheets). */
export const OUSTER_FOV_DEG: Record<OusterLine, number> = { os0: 90, os1: 45, os2: 22.5 };

/** The SDK's default beam-origin offset (mm) of each line (ouster-sdk sensor_info.cpp). */
const NOMINAL_BEAM_ORIGIN_MM: Record<OusterLine, number> = { os0: 27.67, os1: 15.806, os2: 13.762 };

/**
 * A nominal unit of `line` with `beams` beams, as its data sheet describes it: uniform elevations
 * over the field of view from the top beam (Ouster numbers beams from the top), no azimuth
 * stagger (a unit's own metadata JSON has its measured beam angles), the SDK's default transforms,
 * 16 columns per packet, `columns` × 10 Hz.
 */
export function nominalOusterCalibration(line: OusterLine, beams: number, columns: number): OusterCalibration {
  const fov = (OUSTER_FOV_DEG[line] * Math.PI) / 180;
  const n = NOMINAL_BEAM_ORIGIN_MM[line];
  return {
    lasers: Array.from({ length: beams }, (_, i) => ({
      elevation: fov / 2 - (fov * i) / (beams - 1),
      azimuthOffset: 0,
      rangeOffset: 0,
      verticalOffset: 0,
      horizontalOffset: 0,
    })),
    columnsPerTurn: columns,
    turnsPerSecond: 10,
    columnsPerPacket: 16,
    prodLine: `OS-${line[2]}-${beams}`,
    beamOriginMm: n,
    beamToLidar: [1, 0, 0, n, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
    lidarToSensor: [-1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1, 36.18, 0, 0, 0, 1],
    format: 'nominal (data sheet)',
  };
}
