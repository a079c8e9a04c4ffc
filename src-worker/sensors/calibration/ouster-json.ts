/**
 * Ouster sensor metadata JSON, legacy and 2.x layouts: `beam_altitude_angles` and
 * `beam_azimuth_angles` (degrees), `lidar_mode` ("1024x10": columns per turn × turns per second),
 * at the top level (legacy, fw 2.3 "flat" files) or under `beam_intrinsics` / `config_params`
 * (fw 2.1+ nested files); `columns_per_packet` under `data_format` / `lidar_data_format`;
 * `prod_line` at the top or under `sensor_info`.
 *
 * Directions follow the Ouster SDK: a beam's azimuth is the encoder angle minus its
 * `beam_azimuth_angles` entry, and the encoder angle falls as columns advance (the head turns
 * clockwise seen from above). The lasers returned here are in the *lidar* frame, as the file
 * gives them; the two transforms of the SDK's XYZ formula come along (`beam_to_lidar_transform`,
 * or a radial `lidar_origin_to_beam_origin_mm`, and `lidar_to_sensor_transform`, with the SDK's
 * defaults where the file has none: ouster-sdk sensor_info.cpp), so the profile and the packet
 * decoder can both work in the sensor frame (docs/drive-logs.md, *Ouster frames*).
 */
import type { CalibratedLaser } from '../devices';
import { parseJsonText, ProfileError } from '../../../src-common/sensor-profile-schema';
import { CalibrationError, describeValue, keyPath } from './calibration-error';

type Obj = Record<string, unknown>;

export interface OusterCalibration {
  lasers: CalibratedLaser[];
  columnsPerTurn: number;
  turnsPerSecond: number;
  columnsPerPacket: number;
  prodLine?: string;
  /** Emitted encoder window (degrees), when the file restricts it. */
  azimuthWindowDeg?: [number, number];
  beamOriginMm?: number;
  /** 4×4 row-major, translation in mm (only its translation enters the XYZ formula, as in the SDK). */
  beamToLidar: number[];
  /** 4×4 row-major, translation in mm: rigid. */
  lidarToSensor: number[];
  format: string;
}

/** The SDK's default lidar → sensor transform: 180° about z, lidar origin 36.18 mm above the sensor's. */
export const DEFAULT_LIDAR_TO_SENSOR = [-1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1, 36.18, 0, 0, 0, 1];

/** The SDK's default beam-origin offset (mm) of a product line when the file gives none. */
export function defaultBeamOriginMm(prodLine: string | undefined): number {
  const p = prodLine ?? '';
  if (p.startsWith('OS-0-')) return 27.67;
  if (p.startsWith('OS-1-')) return 15.806;
  if (p.startsWith('OS-2-')) return 13.762;
  return 12.163; // gen 1
}

export function parseOusterJson(text: string, file: string): OusterCalibration {
  let doc: unknown;
  try {
    doc = parseJsonText(text, file);
  } catch (e) {
    if (e instanceof ProfileError) throw new CalibrationError(file, '', e.issues[0]!.reason);
    throw e;
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new CalibrationError(file, '', 'expected a JSON object (Ouster sensor metadata)');
  const root = doc as Obj;

  /** The first of `paths` that exists, with its key path. */
  const find = (...paths: string[][]): { value: unknown; path: string[] } | null => {
    for (const p of paths) {
      let v: unknown = root;
      for (const k of p) v = v && typeof v === 'object' ? (v as Obj)[k] : undefined;
      if (v !== undefined) return { value: v, path: p };
    }
    return null;
  };

  const alt = find(['beam_altitude_angles'], ['beam_intrinsics', 'beam_altitude_angles']);
  const az = find(['beam_azimuth_angles'], ['beam_intrinsics', 'beam_azimuth_angles']);
  if (!alt) throw new CalibrationError(file, '', 'no beam_altitude_angles (top level or under beam_intrinsics): not Ouster sensor metadata');
  if (!az) throw new CalibrationError(file, '', 'no beam_azimuth_angles (top level or under beam_intrinsics): not Ouster sensor metadata');
  const angles = (f: { value: unknown; path: string[] }, limit: number): number[] => {
    if (!Array.isArray(f.value) || f.value.length === 0) throw new CalibrationError(file, keyPath(f.path), `expected a list of angles in degrees, got ${describeValue(f.value)}`);
    return f.value.map((v, i) => {
      if (typeof v !== 'number' || !Number.isFinite(v)) throw new CalibrationError(file, keyPath([...f.path, i]), `expected a number in degrees, got ${describeValue(v)}`);
      if (Math.abs(v) > limit) throw new CalibrationError(file, keyPath([...f.path, i]), `${v} is outside ±${limit} degrees`);
      return v;
    });
  };
  const altitudes = angles(alt, 90);
  const azimuths = angles(az, 180);
  if (altitudes.length !== azimuths.length) {
    throw new CalibrationError(file, keyPath(az.path), `has ${azimuths.length} entries but ${keyPath(alt.path)} has ${altitudes.length}`);
  }

  const mode = find(['lidar_mode'], ['config_params', 'lidar_mode']);
  let columnsPerTurn = 1024;
  let turnsPerSecond = 10;
  if (mode) {
    const m = typeof mode.value === 'string' ? /^(\d+)x(\d+)$/.exec(mode.value) : null;
    if (!m || !(Number(m[1]) >= 16 && Number(m[1]) <= 8192) || !(Number(m[2]) > 0 && Number(m[2]) <= 100)) {
      throw new CalibrationError(file, keyPath(mode.path), `expected a mode like "1024x10" (columns per turn × turns per second), got ${describeValue(mode.value)}`);
    }
    columnsPerTurn = Number(m[1]);
    turnsPerSecond = Number(m[2]);
  }

  const cpp = find(['data_format', 'columns_per_packet'], ['lidar_data_format', 'columns_per_packet'], ['columns_per_packet']);
  let columnsPerPacket = 16;
  if (cpp) {
    if (typeof cpp.value !== 'number' || !Number.isInteger(cpp.value) || cpp.value < 1 || cpp.value > columnsPerTurn) {
      throw new CalibrationError(file, keyPath(cpp.path), `expected a whole number of columns from 1 to ${columnsPerTurn}, got ${describeValue(cpp.value)}`);
    }
    columnsPerPacket = cpp.value;
  }

  const prod = find(['prod_line'], ['sensor_info', 'prod_line']);
  const win = find(['config_params', 'azimuth_window'], ['azimuth_window']);
  let azimuthWindowDeg: [number, number] | undefined;
  if (win && Array.isArray(win.value) && win.value.length === 2 && win.value.every((v) => typeof v === 'number')) {
    const [a, b] = win.value as [number, number];
    if (!(a === 0 && b === 360000) && b > a) azimuthWindowDeg = [a / 1000, b / 1000];
  }
  const origin = find(['lidar_origin_to_beam_origin_mm'], ['beam_intrinsics', 'lidar_origin_to_beam_origin_mm']);

  const matrix = (f: { value: unknown; path: string[] }, rigid: boolean): number[] => {
    const v = f.value;
    if (!Array.isArray(v) || v.length !== 16 || !v.every((x) => typeof x === 'number' && Number.isFinite(x) && Math.abs(x) < 1e6)) {
      throw new CalibrationError(file, keyPath(f.path), `expected a 4×4 matrix as 16 numbers (row-major, mm), got ${Array.isArray(v) ? `${v.length} entries` : describeValue(v)}`);
    }
    const m = v as number[];
    if (m[12] !== 0 || m[13] !== 0 || m[14] !== 0 || m[15] !== 1) throw new CalibrationError(file, keyPath(f.path), 'the last row must be 0 0 0 1');
    if (rigid) {
      // A non-rigid lidar → sensor matrix would scale or shear every point: refuse it.
      for (let a = 0; a < 3; a++) {
        for (let b = 0; b < 3; b++) {
          const dot = m[a]! * m[b]! + m[4 + a]! * m[4 + b]! + m[8 + a]! * m[8 + b]!;
          if (Math.abs(dot - (a === b ? 1 : 0)) > 1e-3) throw new CalibrationError(file, keyPath(f.path), 'the rotation part is not orthonormal');
        }
      }
      const det = m[0]! * (m[5]! * m[10]! - m[6]! * m[9]!) - m[1]! * (m[4]! * m[10]! - m[6]! * m[8]!) + m[2]! * (m[4]! * m[9]! - m[5]! * m[8]!);
      if (det < 0) throw new CalibrationError(file, keyPath(f.path), 'the rotation part is a reflection (determinant −1)');
    }
    return m;
  };
  const prodLine = typeof prod?.value === 'string' ? prod.value : undefined;
  const b2l = find(['beam_intrinsics', 'beam_to_lidar_transform'], ['beam_to_lidar_transform']);
  let beamToLidar: number[];
  if (b2l && b2l.value !== null) beamToLidar = matrix(b2l, false);
  else {
    const n = typeof origin?.value === 'number' ? origin.value : defaultBeamOriginMm(prodLine);
    if (!(Math.abs(n) < 1000)) throw new CalibrationError(file, origin ? keyPath(origin.path) : 'lidar_origin_to_beam_origin_mm', `expected a few millimetres, got ${n}`);
    beamToLidar = [1, 0, 0, n, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  }
  const l2s = find(['lidar_intrinsics', 'lidar_to_sensor_transform'], ['lidar_to_sensor_transform']);
  const lidarToSensor = l2s && l2s.value !== null ? matrix(l2s, true) : [...DEFAULT_LIDAR_TO_SENSOR];

  const layout = alt.path.length > 1 ? 'nested (fw 2.1+)' : mode?.path.length === 1 && !find(['data_format']) ? 'legacy' : 'flat (fw 2.x)';
  return {
    lasers: altitudes.map((a, i) => ({
      elevation: (a * Math.PI) / 180,
      azimuthOffset: (-azimuths[i]! * Math.PI) / 180,
      rangeOffset: 0,
      verticalOffset: 0,
      horizontalOffset: 0,
    })),
    columnsPerTurn,
    turnsPerSecond,
    columnsPerPacket,
    ...(typeof prod?.value === 'string' ? { prodLine: prod.value } : {}),
    ...(azimuthWindowDeg ? { azimuthWindowDeg } : {}),
    ...(typeof origin?.value === 'number' ? { beamOriginMm: origin.value } : {}),
    beamToLidar,
    lidarToSensor,
    format: `Ouster metadata JSON, ${layout}`,
  };
}
