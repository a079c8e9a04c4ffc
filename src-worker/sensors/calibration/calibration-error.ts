/** A calibration file that cannot be read: names the file, the place (line and/or key path) and the reason. */
export class CalibrationError extends Error {
  constructor(
    readonly file: string,
    /** "line 12, column 3", "lasers[3].vert_correction (line 14)", or '' for the whole file. */
    readonly place: string,
    readonly reason: string,
  ) {
    super(`${file}: ${place ? `${place}: ` : ''}${reason}`);
    this.name = 'CalibrationError';
  }
}

/** `lasers[3].vert_correction` from ['lasers', 3, 'vert_correction']. */
export function keyPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${p}` : p;
  return out;
}

export function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (Array.isArray(v)) return 'a list';
  if (v !== null && typeof v === 'object') return 'a mapping';
  return String(v);
}
