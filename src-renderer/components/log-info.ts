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
    rows.push([key.replace(/([A-Z])/g, ' $1').toLowerCase().replace(/^./, (c) => c.toUpperCase()), typeof v === 'number' ? v.toLocaleString('en-US') : String(v)]);
  }
  return rows;
}
