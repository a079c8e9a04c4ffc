/**
 * A range of scans as the user writes it (`--scans A:B`): scan numbers from 1 in capture order,
 * inclusive (docs/drive-logs.md, "Scans").
 */
export interface ScanRange {
  from: number;
  /** null: to the capture's last scan. */
  to: number | null;
}

/** Parses `A:B` (or `A` for one scan, `A:` to the end) into numbers; null end = the last scan. */
export function parseScanRange(text: string): ScanRange {
  const m = /^\s*(\d+)\s*(?::\s*(\d*)\s*)?$/.exec(text);
  if (!m) throw new RangeError(`scans "${text}": expected A:B, scan numbers from 1 (A:B inclusive; A: to the last scan)`);
  const from = Number(m[1]);
  const to = m[2] === undefined ? from : m[2] === '' ? null : Number(m[2]);
  if (from < 1 || (to !== null && to < from)) throw new RangeError(`scans "${text}": need 1 ≤ A ≤ B`);
  return { from, to };
}
