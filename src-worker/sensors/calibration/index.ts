/**
 * Calibration files → a custom SensorProfile. Pure (text in, profile out); the caller reads the file.
 *
 * Formats: ROS velodyne YAML (.yaml/.yml), Velodyne db.xml (.xml), Ouster metadata JSON (.json);
 * an unknown extension is sniffed from the first character. A Velodyne file carries geometry only,
 * so the timing, range, beam and return parameters come from the model its laser count suggests
 * (16 → VLP-16, 32 → HDL-32E, 64 → HDL-64E, else generic); an Ouster file carries its own timing
 * (lidar_mode). The profile's description says which model was assumed and what was not in the file.
 */
import type { SensorProfile } from '../../../src-common/sensor-profile';
import { PROFILE_ID_PATTERN, validateProfile } from '../../../src-common/sensor-profile-schema';
import { DEFAULT_MOUNT, VELODYNE_MODEL_NAMES, guessVelodyneModel, ousterRange, velodyneProfile } from '../devices';
import { CalibrationError } from './calibration-error';
import { parseVelodyneYaml } from './velodyne-yaml';
import { parseVelodyneXml } from './velodyne-xml';
import { parseOusterJson } from './ouster-json';

export { CalibrationError } from './calibration-error';
export { parseVelodyneYaml, type VelodyneCalibration } from './velodyne-yaml';
export { parseVelodyneXml } from './velodyne-xml';
export { parseOusterJson, type OusterCalibration } from './ouster-json';

export type CalibrationFormat = 'velodyne-yaml' | 'velodyne-xml' | 'ouster-json';

export interface ImportOptions {
  /** Profile id; default: from the file name. */
  id?: string;
  name?: string;
}

export function detectCalibrationFormat(text: string, file: string): CalibrationFormat {
  const ext = /\.([a-z0-9]+)$/i.exec(file)?.[1]?.toLowerCase();
  if (ext === 'yaml' || ext === 'yml') return 'velodyne-yaml';
  if (ext === 'xml') return 'velodyne-xml';
  if (ext === 'json') return 'ouster-json';
  const first = text.replace(/^\uFEFF/, '').trimStart()[0];
  if (first === '<') return 'velodyne-xml';
  if (first === '{') return 'ouster-json';
  if (/^\s*(?:#.*\n\s*)*(?:lasers|num_lasers|distance_resolution)\s*:/m.test(text)) return 'velodyne-yaml';
  throw new CalibrationError(file, '', 'unknown calibration format: expected a ROS velodyne YAML (.yaml), a Velodyne db.xml (.xml) or Ouster metadata (.json)');
}

/** A profile id from a file name: "64e_s2.1-sztaki.yaml" → "64e-s2-1-sztaki". */
export function idFromFileName(file: string): string {
  const base = file.split(/[\\/]/).pop()!.replace(/\.[^.]*$/, '');
  const id = base
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return PROFILE_ID_PATTERN.test(id) ? id : 'imported';
}

export interface ImportedCalibration {
  profile: SensorProfile;
  format: string;
  /** The model whose timing was assumed ('ouster' when the file gave its own). */
  model: string;
}

export function importCalibration(text: string, file: string, opts: ImportOptions = {}): ImportedCalibration {
  const base = file.split(/[\\/]/).pop()!;
  const format = detectCalibrationFormat(text, base);
  const id = opts.id ?? idFromFileName(base);
  if (!PROFILE_ID_PATTERN.test(id)) throw new CalibrationError(file, '', `cannot use "${id}" as a profile id: expected lowercase letters, digits and dashes`);
  let profile: SensorProfile;
  let model: string;
  let formatName: string;

  if (format === 'ouster-json') {
    const c = parseOusterJson(text, base);
    formatName = c.format;
    model = 'ouster';
    const n = c.lasers.length;
    const range = ousterRange(c.prodLine);
    const sensor = c.prodLine ? `Ouster ${c.prodLine}` : `Ouster (${n} channels)`;
    profile = {
      id,
      name: opts.name ?? `${sensor} (${base})`,
      description:
        `Imported from ${base} (${c.format}, ${n} channels, mode ${c.columnsPerTurn}x${c.turnsPerSecond}). ` +
        `Per-beam elevations and azimuth offsets from the file; all channels of a column fire together, ${c.columnsPerPacket} columns per packet. ` +
        `Not in the file, assumed: ${range.min}–${range.max} m (${c.prodLine ?? 'OS-1'} data sheet), 1 mm resolution, 3 cm range noise, circular 2.3 mrad spot, strongest return, 1 m cutoff. ` +
        `Lidar frame: the ${c.beamOriginMm !== undefined ? `${c.beamOriginMm} mm ` : ''}beam-origin offset and the lidar-to-sensor transform are not applied.`,
      builtin: false,
      kind: 'spinning',
      groups: [{ name: 'channels', firingPeriod: 1 / (c.columnsPerTurn * c.turnsPerSecond), lasers: c.lasers.map((l) => ({ ...l, timeOffset: 0 })) }],
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
      source: base,
    };
  } else {
    const c = format === 'velodyne-yaml' ? parseVelodyneYaml(text, base) : parseVelodyneXml(text, base);
    formatName = c.format;
    const n = c.lasers.length;
    const m = guessVelodyneModel(n);
    model = m;
    const assumed =
      m === 'generic'
        ? `${n} lasers match no known Velodyne model: generic timing (all lasers spread over a 50 µs sequence), 10 Hz, 0.5–100 m, circular 3 mrad spot`
        : `timing, range, beam and returns of the ${VELODYNE_MODEL_NAMES[m]}, guessed from the laser count (${n})`;
    profile = velodyneProfile(
      m,
      c.lasers,
      {
        id,
        name: opts.name ?? `${m === 'generic' ? `Velodyne-format ${n}-laser lidar` : VELODYNE_MODEL_NAMES[m]} (${base})`,
        description: `Imported from ${base} (${c.format}, ${n} lasers): per-laser elevation, azimuth, distance and offset corrections from the file; ${assumed}.`,
        source: base,
      },
      c.distanceResolution !== undefined ? { rangeResolution: c.distanceResolution } : {},
    );
  }
  // The importers check each number; the schema checks the assembled whole (e.g. rays per turn).
  return { profile: validateProfile(profile, base), format: formatName, model };
}
