/**
 * Calibration files → a custom SensorProfile. Pure (text in, profile out); the caller reads the file.
 *
 * Formats: ROS velodyne YAML (.yaml/.yml), Velodyne db.xml (.xml), Ouster metadata JSON (.json);
 * an unknown extension is sniffed from the first character. The sensor model is detected from the
 * file (models.ts: laser count and elevation table for Velodyne, product line or field of view
 * and lidar_mode for Ouster) or stated (`model`, the CLI's --model), which overrides detection;
 * a stated model that contradicts the file's laser count, or a file that fits more than one
 * model, is a CalibrationError that says which models fit. A Velodyne file carries geometry only,
 * so the timing, range, beam and return parameters come from the model; an Ouster file carries
 * its own timing (lidar_mode). The profile's description says which model it is and why.
 */
import type { SensorProfile } from '../../../src-common/sensor-profile';
import { PROFILE_ID_PATTERN, validateProfile } from '../../../src-common/sensor-profile-schema';
import { VELODYNE_MODEL_NAMES, velodyneProfile, type VelodyneModel } from '../devices';
import { SENSOR_MODEL_IDS, VELODYNE_MODELS, detectVelodyneModel, ousterLineFromFov, ousterLineOf, parseSensorModel, type OusterLine } from '../models';
import { OUSTER_RANGE, ousterProfileFrom } from './ouster-profile';
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
  /** The sensor model, overriding detection: 'vlp32c', 'os1-64', 'os1-64-2048', … (models.ts). */
  model?: string;
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
  /** The sensor model: 'vlp16', 'vlp32c', 'hdl32e', 'hdl64e', 'vls128', 'generic', or an Ouster id such as 'os1-128'. */
  model: string;
  /** True when the model came from --model rather than from the file. */
  stated: boolean;
}

export function importCalibration(text: string, file: string, opts: ImportOptions = {}): ImportedCalibration {
  const base = file.split(/[\\/]/).pop()!;
  const format = detectCalibrationFormat(text, base);
  const id = opts.id ?? idFromFileName(base);
  if (!PROFILE_ID_PATTERN.test(id)) throw new CalibrationError(file, '', `cannot use "${id}" as a profile id: expected lowercase letters, digits and dashes`);
  const stated = opts.model !== undefined ? parseSensorModel(opts.model) : null;
  if (opts.model !== undefined && !stated) {
    throw new CalibrationError(file, '', `unknown sensor model "${opts.model}" (--model): expected one of ${SENSOR_MODEL_IDS.join(', ')} (Ouster ids may end in -512, -1024 or -2048)`);
  }
  let profile: SensorProfile;
  let model: string;
  let formatName: string;

  if (format === 'ouster-json') {
    const c = parseOusterJson(text, base);
    formatName = c.format;
    const n = c.lasers.length;
    if (stated && stated.vendor !== 'ouster') throw new CalibrationError(file, '', `--model ${opts.model} is a Velodyne model, but this is Ouster metadata (${n} beams)`);
    const el = c.lasers.map((l) => (l.elevation * 180) / Math.PI);
    const fov = Math.max(...el) - Math.min(...el);
    const named = ousterLineOf(c.prodLine);
    let line: OusterLine = named ?? ousterLineFromFov(fov);
    let why = named ? `prod_line ${c.prodLine}` : `no prod_line; a ${fov.toFixed(1)}° vertical field of view`;
    let columns = c.columnsPerTurn;
    if (stated?.vendor === 'ouster') {
      if (stated.beams !== n) throw new CalibrationError(file, 'beam_altitude_angles', `--model ${opts.model} has ${stated.beams} beams, but the file has ${n}`);
      if (named && named !== stated.line) throw new CalibrationError(file, 'prod_line', `--model ${opts.model} is an ${stated.line.toUpperCase()}, but the file says ${c.prodLine}`);
      line = stated.line;
      why = `stated (--model ${opts.model})`;
      if (stated.columns) columns = stated.columns;
    }
    model = `${line}-${n}`;
    const sensor = `Ouster ${line.toUpperCase()}-${n}`;
    const mode = `${columns}x${c.turnsPerSecond}`;
    const range = `${ousterRangeText(line)}`;
    profile = ousterProfileFrom(c, base, {
      id,
      line,
      columns,
      name: opts.name ?? `${sensor} ${mode} (${base})`,
      source: base,
      description:
        `Imported from ${base} (${c.format}, ${n} channels, mode ${mode}${columns !== c.columnsPerTurn ? `, stated; the file's lidar_mode is ${c.columnsPerTurn}x${c.turnsPerSecond}` : ''}); model ${model} (${why}). ` +
        `Per-beam elevations and azimuth offsets from the file; all channels of a column fire together, ${c.columnsPerPacket} columns per packet. ` +
        `Sensor frame (x away from the connector): the lidar-to-sensor rotation is in the azimuth offsets, and the ${c.beamToLidar[3]!} mm beam-origin offset and the ${c.lidarToSensor[11]!} mm lidar-origin height are in the per-beam origin offsets. ` +
        `Not in the file, assumed: ${range} (${line.toUpperCase()} data sheet), 1 mm resolution, 3 cm range noise, circular 2.3 mrad spot, strongest return, 1 m cutoff.`,
    });
  } else {
    const c = format === 'velodyne-yaml' ? parseVelodyneYaml(text, base) : parseVelodyneXml(text, base);
    formatName = c.format;
    const n = c.lasers.length;
    let m: VelodyneModel;
    let why: string;
    if (stated) {
      if (stated.vendor !== 'velodyne') throw new CalibrationError(file, '', `--model ${opts.model} is an Ouster model, but this is a Velodyne calibration (${n} lasers)`);
      const want = VELODYNE_MODELS[stated.model].lasers;
      if (want !== n) {
        const detected = detectVelodyneModel(c.lasers);
        const fits = 'model' in detected ? (detected.model === 'generic' ? 'no known model' : detected.model) : 'see the models with that count';
        throw new CalibrationError(file, 'lasers', `--model ${opts.model} has ${want} lasers, but the file has ${n} (fits: ${fits})`);
      }
      m = stated.model;
      why = `stated (--model ${opts.model})`;
    } else {
      const detected = detectVelodyneModel(c.lasers);
      if ('ambiguous' in detected) throw new CalibrationError(file, 'lasers', detected.ambiguous);
      m = detected.model;
      why = `detected from ${detected.reason}`;
    }
    model = m;
    const assumed =
      m === 'generic'
        ? `${n} lasers match no known Velodyne model: generic timing (all lasers spread over a 50 µs sequence), 10 Hz, 0.5–100 m, circular 3 mrad spot`
        : `timing, range, beam and returns of the ${VELODYNE_MODEL_NAMES[m]} (${why})`;
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
  return { profile: validateProfile(profile, base), format: formatName, model, stated: stated !== null };
}

function ousterRangeText(line: OusterLine): string {
  const r = OUSTER_RANGE[line];
  return `${r.min}–${r.max} m`;
}
