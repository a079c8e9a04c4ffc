/**
 * The importer's metadata of a drive log (DriveLogInfo.info) as labelled rows: known keys first
 * with their names and units, then any other key as it is (formats add their own facts).
 */
const KNOWN: [key: string, label: string, fmt?: (v: unknown) => string][] = [
  ['sensor', 'Sensor'],
  ['decodedWith', 'Decoded with'],
  ['calibration', 'Calibration'],
  ['returnMode', 'Return mode'],
  ['poses', 'Poses file'],
  ['rebuiltMisses', 'Rebuilt misses', (v) => (Number(v) > 0 ? Number(v).toLocaleString('en-US') : '')],
  ['gpsFixes', 'GPS fixes'],
  ['firstFix', 'First fix (lat, lon)'],
  ['origin', 'Origin (m)'],
  ['startTime', 'Start time', (v) => (Number(v) > 1e8 ? new Date(Number(v) * 1000).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC') : '')],
];
/** Bookkeeping not worth a row. */
const HIDDEN = new Set(['points', 'dataPackets', 'emptyReturns']);

/** Units a key may end in ("speedMps"): the label drops it, the value carries it. */
const UNIT_SUFFIXES: [suffix: string, unit: string][] = [
  ['Mps', 'm/s'],
  ['Deg', '°'],
  ['Hz', 'Hz'],
  ['S', 's'],
  ['M', 'm'],
];

/** A key the list does not know: words for its name, its unit once (on the value), booleans as Yes / No. */
function otherRow(key: string, v: unknown): [string, string] {
  let name = key;
  let unit = '';
  for (const [suffix, u] of UNIT_SUFFIXES) {
    if (typeof v === 'number' && name.length > suffix.length && name.endsWith(suffix) && /[a-z0-9]/.test(name[name.length - suffix.length - 1]!)) {
      name = name.slice(0, -suffix.length);
      unit = u;
      break;
    }
  }
  const label = name.replace(/([A-Z])/g, ' $1').toLowerCase().replace(/^./, (c) => c.toUpperCase());
  const value = typeof v === 'boolean' ? (v ? 'Yes' : 'No') : typeof v === 'number' ? v.toLocaleString('en-US') : String(v);
  return [label, unit ? `${value}${unit === '°' ? '' : ' '}${unit}` : value];
}

export function logInfoRows(info: Record<string, unknown>): [string, string][] {
  const rows: [string, string][] = [];
  const seen = new Set<string>();
  for (const [key, label, fmt] of KNOWN) {
    seen.add(key);
    const v = info[key];
    if (v === undefined || v === null || v === '') continue;
    const text = fmt ? fmt(v) : String(v);
    if (text) rows.push([label, text]);
  }
  for (const [key, v] of Object.entries(info)) {
    if (seen.has(key) || HIDDEN.has(key) || v === null || typeof v === 'object') continue;
    if (v === 0 || v === false) continue; // counters of things that did not happen
    rows.push(otherRow(key, v));
  }
  return rows;
}

/**
 * The "Sensor profile" fact: the profile the log was imported with, or "none" and why — a
 * capture decoded with the calibration it carries, a profile-less decoder, or a file of points.
 */
export function sensorProfileText(profileId: string | null, info: Record<string, unknown>): string {
  if (profileId) return profileId;
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
  const decodedWith = str(info.decodedWith);
  if (decodedWith) return `none (decoded as ${decodedWith})`;
  const calibration = str(info.calibration);
  if (calibration) return `none (decoded with the calibration ${calibration})`;
  if (str(info.sensor)) return "none (decoded with the capture's own calibration)";
  return 'none (the file holds points, not sensor packets)';
}
