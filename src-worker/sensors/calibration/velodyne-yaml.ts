/**
 * The ROS velodyne driver's calibration YAML (velodyne_pointcloud/params/*.yaml; nebula uses the
 * same keys): `lasers: [{laser_id, rot_correction, vert_correction, dist_correction,
 * vert_offset_correction, horiz_offset_correction, ...}]`, angles in radians, lengths in metres;
 * optional `num_lasers` and `distance_resolution` (m). Keys this importer does not use
 * (two-point distance corrections, focal parameters, intensity limits) are ignored.
 */
import { LineCounter, parseDocument, isMap, isSeq } from 'yaml';
import type { Node as YamlNode } from 'yaml';
import type { CalibratedLaser } from '../devices';
import { CalibrationError, describeValue, keyPath } from './calibration-error';

export interface VelodyneCalibration {
  /** In firing order (sorted by laser id). */
  lasers: CalibratedLaser[];
  /** Range quantisation (m) when the file gives one. */
  distanceResolution?: number;
  format: string;
}

export function parseVelodyneYaml(text: string, file: string): VelodyneCalibration {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length) {
    const e = doc.errors[0]!;
    const pos = lineCounter.linePos(Math.min(e.pos[0], text.length));
    const said = e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    // The parser recurses per level: a stack overflow means nesting deeper than a calibration has.
    const reason = /call stack/i.test(said) ? 'nested too deeply (a calibration is a list of lasers)' : said;
    throw new CalibrationError(file, `line ${pos.line}, column ${pos.col}`, `not valid YAML: ${reason}`);
  }

  const place = (path: (string | number)[]) => {
    const node = doc.getIn(path, true) as YamlNode | undefined;
    const at = node?.range ? lineCounter.linePos(node.range[0]) : null;
    return at ? `${keyPath(path)} (line ${at.line})` : keyPath(path);
  };
  const fail = (path: (string | number)[], reason: string): never => {
    throw new CalibrationError(file, place(path), reason);
  };

  const root = doc.contents;
  if (!isMap(root)) throw new CalibrationError(file, '', 'expected a mapping with a `lasers` list (ROS velodyne calibration YAML)');
  const lasersNode = doc.get('lasers', true);
  if (!isSeq(lasersNode)) {
    if (lasersNode === undefined) throw new CalibrationError(file, '', 'no `lasers` list: not a ROS velodyne calibration YAML');
    fail(['lasers'], 'expected a list of lasers');
  }
  const raw = doc.toJS() as Record<string, unknown>;
  const list = raw.lasers as unknown[];
  if (list.length === 0) fail(['lasers'], 'the list of lasers is empty');

  const number = (path: (string | number)[], v: unknown, opts: { required: boolean; limit?: number; unit: string }): number => {
    if (v === undefined || v === null) {
      if (opts.required) fail(path, `missing (expected a number in ${opts.unit})`);
      return 0;
    }
    if (typeof v !== 'number' || !Number.isFinite(v)) fail(path, `expected a number in ${opts.unit}, got ${describeValue(v)}`);
    if (opts.limit !== undefined && Math.abs(v as number) > opts.limit) {
      fail(path, `${v} is outside ±${opts.limit} ${opts.unit}${opts.unit === 'radians' ? ' (is this file in degrees? ROS calibration files are in radians)' : ''}`);
    }
    return v as number;
  };

  const byId = new Map<number, CalibratedLaser>();
  list.forEach((entry, i) => {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) fail(['lasers', i], `expected a mapping of corrections, got ${describeValue(entry)}`);
    const l = entry as Record<string, unknown>;
    const id = l.laser_id;
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0) fail(['lasers', i, 'laser_id'], `expected a laser number (0, 1, 2, …), got ${describeValue(id)}`);
    if (byId.has(id as number)) fail(['lasers', i, 'laser_id'], `laser ${id} appears twice`);
    byId.set(id as number, {
      elevation: number(['lasers', i, 'vert_correction'], l.vert_correction, { required: true, limit: Math.PI / 2, unit: 'radians' }),
      azimuthOffset: number(['lasers', i, 'rot_correction'], l.rot_correction, { required: false, limit: Math.PI, unit: 'radians' }),
      rangeOffset: number(['lasers', i, 'dist_correction'], l.dist_correction, { required: false, limit: 10, unit: 'metres' }),
      verticalOffset: number(['lasers', i, 'vert_offset_correction'], l.vert_offset_correction, { required: false, limit: 1, unit: 'metres' }),
      horizontalOffset: number(['lasers', i, 'horiz_offset_correction'], l.horiz_offset_correction, { required: false, limit: 1, unit: 'metres' }),
    });
  });
  const n = byId.size;
  for (let id = 0; id < n; id++) {
    if (!byId.has(id)) fail(['lasers'], `laser ids must run 0…${n - 1} without gaps; laser ${id} is missing`);
  }
  if (raw.num_lasers !== undefined && raw.num_lasers !== n) fail(['num_lasers'], `says ${describeValue(raw.num_lasers)} lasers but the list has ${n}`);

  let distanceResolution: number | undefined;
  if (raw.distance_resolution !== undefined) {
    const r = raw.distance_resolution;
    if (typeof r !== 'number' || !(r > 0 && r <= 1)) fail(['distance_resolution'], `expected a length in metres between 0 and 1, got ${describeValue(r)}`);
    distanceResolution = r as number;
  }
  return {
    lasers: [...Array(n).keys()].map((id) => byId.get(id)!),
    ...(distanceResolution !== undefined ? { distanceResolution } : {}),
    format: 'ROS velodyne calibration YAML',
  };
}
