import { CalibrationError, describeValue, keyPath } from '../../sensors/calibration/calibration-error';
import { importCalibration, type ImportOptions } from '../../sensors/calibration/index';
import { parseOusterJson, type OusterCalibration } from '../../sensors/calibration/ouster-json';
import type { SensorProfile } from '../../../src-common/sensor-profile';
import { parseJsonText } from '../../../src-common/sensor-profile-schema';
import { DecodeError } from '../decode-error';

/**
 * Ouster sensor metadata JSON → everything the UDP packet decoder needs: the packet layout
 * (udp_profile_lidar, columns_per_packet, pixels_per_column, columns_per_frame), the beam
 * intrinsics and the two transforms of the Ouster SDK's XYZ formula (beam → lidar, lidar →
 * sensor). parseOusterJson (sensors/calibration) reads the angles, the mode and the two
 * transforms — so the profile made from the same JSON uses the same ones (docs/drive-logs.md,
 * *Ouster frames*); this adds the packet layout, in any of the three layouts:
 *  - legacy (fw 1.x): angles and lidar_mode only; everything else takes the SDK's defaults;
 *  - flat (fw 2.x, e.g. the 2.3 file of ouster_sdk): `data_format`, transforms at the top;
 *  - nested (fw 2.1+ HTTP metadata, SDK ≥ 0.10): `lidar_data_format`, `beam_intrinsics`,
 *    `lidar_intrinsics`, `config_params`, `sensor_info`.
 * Defaults (ouster-sdk sensor_info.cpp): 16 columns per packet, LEGACY profile, one pixel per
 * beam, pixel shifts repeating {18,12,6,0} (scaled to the column count), beam origin 12.163 mm
 * (15.806 OS-1, 27.67 OS-0, 13.762 OS-2), lidar → sensor = 180° about z and +36.18 mm in z.
 */

export type OusterUdpProfile = 'LEGACY' | 'RNG19_RFL8_SIG16_NIR16' | 'RNG19_RFL8_SIG16_NIR16_DUAL' | 'RNG15_RFL8_NIR8';
export const OUSTER_UDP_PROFILES: readonly OusterUdpProfile[] = ['LEGACY', 'RNG19_RFL8_SIG16_NIR16', 'RNG19_RFL8_SIG16_NIR16_DUAL', 'RNG15_RFL8_NIR8'];

export interface OusterMetadata {
  /** File name (for errors and the profile's source). */
  name: string;
  /** The JSON text, kept so ousterProfile can hand it to importCalibration. */
  text: string;
  /** 'legacy', 'flat (fw 2.x)' or 'nested (fw 2.1+)'. */
  layout: string;
  calibration: OusterCalibration;
  prodLine?: string;
  /** prod_sn as written (a 12-digit number). */
  serial?: string;
  initId?: number;
  firmware?: string;
  udpProfileLidar: OusterUdpProfile;
  columnsPerPacket: number;
  columnsPerFrame: number;
  pixelsPerColumn: number;
  turnsPerSecond: number;
  /** Per row: columns to shift right to destagger (destaggered column = (measurement id + shift) mod columnsPerFrame). */
  pixelShiftByRow: number[];
  /** First and last emitted measurement id (inclusive). */
  columnWindow: [number, number];
  beamAltitudeDeg: number[];
  beamAzimuthDeg: number[];
  /** 4×4 row-major, translation in mm (only its translation enters the XYZ formula, as in the SDK). */
  beamToLidar: number[];
  /** 4×4 row-major, translation in mm: rigid. */
  lidarToSensor: number[];
}

type Obj = Record<string, unknown>;

/** 1-based line of the first `"key"` in the text, for error messages (undefined when absent). */
function lineOf(text: string, key: string | undefined): number | undefined {
  if (!key) return undefined;
  const i = text.indexOf(`"${key}"`);
  if (i < 0) return undefined;
  let line = 1;
  for (let k = 0; k < i; k++) if (text.charCodeAt(k) === 10) line++;
  return line;
}

export function parseOusterMetadata(text: string, name: string): OusterMetadata {
  const fail = (path: (string | number)[], reason: string): never => {
    const last = [...path].reverse().find((p): p is string => typeof p === 'string');
    const line = lineOf(text, last);
    throw new DecodeError(name, `${path.length ? `${keyPath(path)}: ` : ''}${reason}`, line !== undefined ? { line } : {});
  };
  let calibration: OusterCalibration;
  let root: Obj;
  try {
    calibration = parseOusterJson(text, name);
    root = parseJsonText(text, name) as Obj;
  } catch (e) {
    if (e instanceof CalibrationError) {
      const key = /([A-Za-z_]+)(?:\[\d+\])*$/.exec(e.place)?.[1];
      const line = lineOf(text, key);
      throw new DecodeError(name, `${e.place ? `${e.place}: ` : ''}${e.reason}`, line !== undefined ? { line } : {});
    }
    throw e;
  }

  const find = (...paths: string[][]): { value: unknown; path: string[] } | null => {
    for (const p of paths) {
      let v: unknown = root;
      for (const k of p) v = v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj)[k] : undefined;
      if (v !== undefined && v !== null) return { value: v, path: p };
    }
    return null;
  };
  const int = (f: { value: unknown; path: (string | number)[] }, min: number, max: number): number => {
    const v = f.value;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) return fail(f.path, `expected a whole number from ${min} to ${max}, got ${describeValue(v)}`);
    return v;
  };
  const str = (...paths: string[][]): string | undefined => {
    const f = find(...paths);
    if (!f) return undefined;
    if (typeof f.value === 'string') return f.value;
    if (typeof f.value === 'number' && Number.isFinite(f.value)) return String(f.value);
    return fail(f.path, `expected a string, got ${describeValue(f.value)}`);
  };

  const beamAltitudeDeg = calibration.lasers.map((l) => (l.elevation * 180) / Math.PI);
  const beamAzimuthDeg = calibration.lasers.map((l) => (-l.azimuthOffset * 180) / Math.PI);
  const beams = beamAltitudeDeg.length;
  const fmt = (k: string): string[][] => [['data_format', k], ['lidar_data_format', k]];

  const ppc = find(...fmt('pixels_per_column'));
  const pixelsPerColumn = ppc ? int(ppc, 1, 1024) : beams;
  if (pixelsPerColumn !== beams) fail(ppc!.path, `${pixelsPerColumn} pixels per column but ${beams} beams in beam_altitude_angles`);

  const cpf = find(...fmt('columns_per_frame'));
  const columnsPerFrame = cpf ? int(cpf, 16, 8192) : calibration.columnsPerTurn;
  if (cpf && columnsPerFrame !== calibration.columnsPerTurn && find(['lidar_mode'], ['config_params', 'lidar_mode'])) {
    fail(cpf.path, `${columnsPerFrame} columns per frame, but lidar_mode says ${calibration.columnsPerTurn}`);
  }
  const columnsPerPacket = calibration.columnsPerPacket;
  if (columnsPerPacket > columnsPerFrame) fail(fmt('columns_per_packet')[0]!, `${columnsPerPacket} columns per packet exceed the ${columnsPerFrame} of a frame`);

  const prof = find(...fmt('udp_profile_lidar'), ['config_params', 'udp_profile_lidar'], ['udp_profile_lidar']);
  let udpProfileLidar: OusterUdpProfile = 'LEGACY';
  if (prof) {
    if (typeof prof.value !== 'string' || !(OUSTER_UDP_PROFILES as readonly string[]).includes(prof.value)) {
      fail(prof.path, `unsupported lidar UDP profile ${describeValue(prof.value)}: expected one of ${OUSTER_UDP_PROFILES.join(', ')}`);
    }
    udpProfileLidar = prof!.value as OusterUdpProfile;
  }

  const shift = find(...fmt('pixel_shift_by_row'));
  let pixelShiftByRow: number[];
  if (shift) {
    if (!Array.isArray(shift.value) || shift.value.length !== pixelsPerColumn) fail(shift.path, `expected a list of ${pixelsPerColumn} column shifts, got ${Array.isArray(shift.value) ? `${shift.value.length} entries` : describeValue(shift.value)}`);
    pixelShiftByRow = (shift.value as unknown[]).map((v, i) => int({ value: v, path: [...shift.path, i] }, -columnsPerFrame, columnsPerFrame));
  } else {
    const s = columnsPerFrame / 1024;
    pixelShiftByRow = Array.from({ length: pixelsPerColumn }, (_, i) => Math.round([18, 12, 6, 0][i % 4]! * s));
  }

  const win = find(...fmt('column_window'));
  let columnWindow: [number, number] = [0, columnsPerFrame - 1];
  if (win) {
    const v = win.value;
    const ok = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 0 && x < columnsPerFrame;
    if (!Array.isArray(v) || v.length !== 2 || !ok(v[0]) || !ok(v[1])) {
      return fail(win.path, `expected [first, last] measurement ids below ${columnsPerFrame}, got ${describeValue(v)}`);
    }
    columnWindow = [v[0], v[1]];
  }

  const prodLine = calibration.prodLine;
  // The transforms are read (and checked) with the angles, so the profile uses the same ones.
  const { beamToLidar, lidarToSensor } = calibration;

  const serial = str(['prod_sn'], ['sensor_info', 'prod_sn']);
  const firmware = str(['build_rev'], ['sensor_info', 'build_rev']);
  const init = find(['initialization_id'], ['sensor_info', 'initialization_id']);
  const initId = init ? int(init, 0, 0xffffff) : undefined;

  return {
    name,
    text,
    layout: calibration.format.replace(/^Ouster metadata JSON, /, ''),
    calibration,
    ...(prodLine ? { prodLine } : {}),
    ...(serial ? { serial } : {}),
    ...(initId !== undefined ? { initId } : {}),
    ...(firmware ? { firmware } : {}),
    udpProfileLidar,
    columnsPerPacket,
    columnsPerFrame,
    pixelsPerColumn,
    turnsPerSecond: calibration.turnsPerSecond,
    pixelShiftByRow,
    columnWindow,
    beamAltitudeDeg,
    beamAzimuthDeg,
    beamToLidar,
    lidarToSensor,
  };
}

/** Column of (row, measurement id) in the destaggered image (the SDK's destagger: row shifted right by its pixel shift). */
export function ousterDestaggeredColumn(meta: OusterMetadata, row: number, measurementId: number): number {
  const w = meta.columnsPerFrame;
  return (((measurementId + meta.pixelShiftByRow[row]!) % w) + w) % w;
}

/**
 * A SensorProfile for simulating this unit, in the frame of the decoded packets (Ouster's sensor
 * frame = Thicket's: x away from the connector, z up). importCalibration builds it there, with the
 * beam-origin offset in its per-laser offsets (docs/drive-logs.md, *Ouster frames*), so this is
 * the same profile `thicket profile import` makes from the JSON.
 */
export function ousterProfile(meta: OusterMetadata, opts: ImportOptions = {}): SensorProfile {
  return importCalibration(meta.text, meta.name, opts).profile;
}
