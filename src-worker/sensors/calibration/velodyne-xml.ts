/**
 * Velodyne's db.xml (boost serialization, as shipped with the sensor and read by VeloView and the
 * ROS driver's tests): `DB.points_.item[].px` with `id_`, `rotCorrection_`, `vertCorrection_`
 * (degrees), `distCorrection_`, `vertOffsetCorrection_`, `horizOffsetCorrection_` (cm), an
 * `enabled_` list (files are padded to 64 lasers; only enabled ones count) and `distLSB_` (cm).
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { CalibratedLaser } from '../devices';
import { CalibrationError, describeValue } from './calibration-error';
import type { VelodyneCalibration } from './velodyne-yaml';

type Obj = Record<string, unknown>;

const asList = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** The validator's message, except its list of every unclosed tag (which can be the whole file): the first few, counted. */
function xmlReason(msg: string): string {
  const open = /^Invalid '(\[.*\])' found\.?$/s.exec(msg);
  if (!open) return msg.length > 200 ? `${msg.slice(0, 200)}…` : msg;
  let names: string[];
  try {
    names = (JSON.parse(open[1]!) as unknown[]).map(String);
  } catch {
    return 'the file ends with elements still open';
  }
  const shown = names.slice(0, 3).map((n) => `<${n}>`).join(', ');
  return `the file ends with ${names.length} element${names.length === 1 ? '' : 's'} never closed (${shown}${names.length > 3 ? ', …' : ''})`;
}

export function parseVelodyneXml(text: string, file: string): VelodyneCalibration {
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    const e = valid.err;
    if (text.trim() === '') throw new CalibrationError(file, '', 'empty file: not a Velodyne db.xml calibration');
    throw new CalibrationError(file, e.col !== undefined ? `line ${e.line}, column ${e.col}` : `line ${e.line}`, `not valid XML: ${xmlReason(e.msg)}`);
  }
  const parser = new XMLParser({ ignoreAttributes: true, parseTagValue: false, trimValues: true, isArray: (name) => name === 'item' });
  const doc = parser.parse(text) as Obj;
  const db = ((doc.boost_serialization as Obj | undefined)?.DB ?? doc.DB) as Obj | undefined;
  if (!db || typeof db !== 'object') throw new CalibrationError(file, '', 'no <DB> element: not a Velodyne db.xml calibration');
  const points = asList((db.points_ as Obj | undefined)?.item);
  if (points.length === 0) throw new CalibrationError(file, 'DB.points_', 'no lasers (<points_> has no <item>)');

  // Line of the i-th <px …> element, to point at a laser in the file.
  const pxLines: number[] = [];
  const re = /<px[\s>]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) pxLines.push(text.slice(0, m.index).split('\n').length);
  const place = (i: number, key: string) => `DB.points_.item[${i}].px.${key}${pxLines[i] ? ` (line ${pxLines[i]})` : ''}`;

  const enabledItems = asList((db.enabled_ as Obj | undefined)?.item);
  const enabled = (id: number) => (enabledItems.length ? String(enabledItems[id] ?? '0').trim() !== '0' : true);

  const num = (i: number, px: Obj, key: string, opts: { required: boolean; limit: number; unit: string }): number => {
    const v = px[key];
    if (v === undefined || v === '') {
      if (opts.required) throw new CalibrationError(file, place(i, key), `missing (expected a number in ${opts.unit})`);
      return 0;
    }
    const x = Number(v);
    if (typeof v !== 'string' || !Number.isFinite(x)) throw new CalibrationError(file, place(i, key), `expected a number in ${opts.unit}, got ${describeValue(v)}`);
    if (Math.abs(x) > opts.limit) throw new CalibrationError(file, place(i, key), `${x} is outside ±${opts.limit} ${opts.unit}`);
    return x;
  };

  const byId = new Map<number, CalibratedLaser>();
  points.forEach((item, i) => {
    const px = (item as Obj | undefined)?.px as Obj | undefined;
    if (!px || typeof px !== 'object') throw new CalibrationError(file, `DB.points_.item[${i}]`, 'expected a <px> element with the laser corrections');
    const id = Number(px.id_);
    if (!Number.isInteger(id) || id < 0) throw new CalibrationError(file, place(i, 'id_'), `expected a laser number, got ${describeValue(px.id_)}`);
    if (byId.has(id)) throw new CalibrationError(file, place(i, 'id_'), `laser ${id} appears twice`);
    byId.set(id, {
      elevation: num(i, px, 'vertCorrection_', { required: true, limit: 90, unit: 'degrees' }) * (Math.PI / 180),
      azimuthOffset: num(i, px, 'rotCorrection_', { required: false, limit: 180, unit: 'degrees' }) * (Math.PI / 180),
      rangeOffset: num(i, px, 'distCorrection_', { required: false, limit: 1000, unit: 'cm' }) / 100,
      verticalOffset: num(i, px, 'vertOffsetCorrection_', { required: false, limit: 100, unit: 'cm' }) / 100,
      horizontalOffset: num(i, px, 'horizOffsetCorrection_', { required: false, limit: 100, unit: 'cm' }) / 100,
    });
  });
  const ids = [...byId.keys()].filter(enabled).sort((a, b) => a - b);
  if (ids.length === 0) throw new CalibrationError(file, 'DB.enabled_', 'no laser is enabled');
  ids.forEach((id, k) => {
    if (id !== k) throw new CalibrationError(file, 'DB.enabled_', `enabled lasers must be 0…${ids.length - 1} without gaps; laser ${k} is missing or disabled`);
  });

  let distanceResolution: number | undefined;
  if (db.distLSB_ !== undefined) {
    const lsb = Number(db.distLSB_);
    if (!(lsb > 0 && lsb <= 100)) throw new CalibrationError(file, 'DB.distLSB_', `expected a length in cm between 0 and 100, got ${describeValue(db.distLSB_)}`);
    distanceResolution = lsb / 100;
  }
  return {
    lasers: ids.map((id) => byId.get(id)!),
    ...(distanceResolution !== undefined ? { distanceResolution } : {}),
    format: 'Velodyne db.xml',
  };
}
