import { DecodeError } from '../decode-error';

/**
 * The text header of a PCD file (PCL's pcd_io, v0.7; v0.5/0.6 headers without VERSION, COUNT
 * or WIDTH/HEIGHT are completed the way PCL completes them).
 */

export type PcdType = 'F' | 'I' | 'U';
export type PcdData = 'ascii' | 'binary' | 'binary_compressed';

export interface PcdField {
  name: string;
  /** Bytes per element: 1, 2, 4 or 8. */
  size: number;
  type: PcdType;
  /** Elements per point. */
  count: number;
  /** Byte offset of the field in a row-major record. */
  offset: number;
}

export interface PcdHeader {
  version: string | null;
  fields: PcdField[];
  width: number;
  height: number;
  points: number;
  /** PCD order as written: tx ty tz qw qx qy qz; null when absent. */
  viewpoint: number[] | null;
  data: PcdData;
  /** Byte offset where the point data starts (just after the DATA line). */
  dataOffset: number;
  /** 1-based line number of the DATA line. */
  dataLine: number;
  /** Bytes per point in row-major form: the sum of size × count. */
  recordSize: number;
  /** 1-based line of each keyword, for errors about it. */
  lines: Record<string, number>;
}

/** Stop looking for DATA after this many bytes: a real header is a few hundred bytes. */
const MAX_HEADER_BYTES = 1 << 20;
const MAX_U32 = 0xffffffff;
const KEYS = ['VERSION', 'FIELDS', 'SIZE', 'TYPE', 'COUNT', 'WIDTH', 'HEIGHT', 'VIEWPOINT', 'POINTS', 'DATA'] as const;
type Key = (typeof KEYS)[number];

const latin1 = (b: Uint8Array): string => {
  let s = '';
  for (let i = 0; i < b.length; i += 4096) s += String.fromCharCode(...b.subarray(i, i + 4096));
  return s;
};

export function parsePcdHeader(bytes: Uint8Array, name: string): PcdHeader {
  const values = new Map<Key, string[]>();
  const lines: Record<string, number> = {};
  const offsets: Record<string, number> = {};
  let pos = 0, lineNo = 0;
  let data: { value: string; line: number; next: number } | null = null;
  const limit = Math.min(bytes.length, MAX_HEADER_BYTES);
  while (pos < limit && !data) {
    lineNo++;
    let nl = bytes.indexOf(10, pos);
    if (nl < 0 || nl > limit) nl = -1;
    const end = nl < 0 ? limit : nl;
    const text = latin1(bytes.subarray(pos, end)).trim();
    const start = pos;
    pos = nl < 0 ? limit : nl + 1;
    if (text === '' || text.startsWith('#')) continue;
    const tokens = text.split(/\s+/);
    let key = tokens[0]!.toUpperCase();
    if (key === 'COLUMNS') key = 'FIELDS'; // PCD v0.5 spelling
    if (!(KEYS as readonly string[]).includes(key)) continue; // PCL ignores unknown lines too
    const k = key as Key;
    if (values.has(k)) {
      throw new DecodeError(name, `header repeats ${k} (first on line ${lines[k]})`, { line: lineNo, offset: start });
    }
    values.set(k, tokens.slice(1));
    lines[k] = lineNo;
    offsets[k] = start;
    if (k === 'DATA') data = { value: (tokens[1] ?? '').toLowerCase(), line: lineNo, next: pos };
  }
  if (!data) {
    const why = bytes.length > MAX_HEADER_BYTES ? `in the first ${MAX_HEADER_BYTES} bytes` : 'before the end of the file';
    throw new DecodeError(name, `not a PCD file: no DATA line ${why}`, { offset: Math.min(bytes.length, limit) });
  }
  const err = (k: Key, reason: string): never => {
    throw new DecodeError(name, reason, { line: lines[k] ?? data.line, offset: offsets[k] ?? 0 });
  };

  if (data.value !== 'ascii' && data.value !== 'binary' && data.value !== 'binary_compressed') {
    err('DATA', `DATA must be ascii, binary or binary_compressed, found "${data.value}"`);
  }
  const names = values.get('FIELDS');
  if (!names || names.length === 0) err('FIELDS', names ? 'FIELDS lists no fields' : 'header has no FIELDS line');
  const n = names!.length;
  const list = (k: Key, fallback?: string): string[] => {
    const v = values.get(k) ?? (fallback !== undefined ? Array<string>(n).fill(fallback) : undefined);
    if (!v) return err(k, `header has no ${k} line`);
    if (v.length !== n) err(k, `${k} has ${v.length} values but FIELDS has ${n} (${names!.join(' ')})`);
    return v;
  };
  const sizes = list('SIZE'), types = list('TYPE'), counts = list('COUNT', '1');

  const fields: PcdField[] = [];
  let offset = 0;
  for (let i = 0; i < n; i++) {
    const fname = names![i]!, s = sizes[i]!, t = types[i]!.toUpperCase(), c = counts[i]!;
    const size = Number(s);
    if (size !== 1 && size !== 2 && size !== 4 && size !== 8) err('SIZE', `SIZE of field ${fname} must be 1, 2, 4 or 8, found "${s}"`);
    if (t !== 'F' && t !== 'I' && t !== 'U') err('TYPE', `TYPE of field ${fname} must be F, I or U, found "${types[i]}"`);
    if (t === 'F' && size !== 4 && size !== 8) err('TYPE', `field ${fname}: TYPE F needs SIZE 4 or 8, found ${size}`);
    const count = /^\d+$/.test(c) ? Number(c) : NaN;
    if (!(count >= 1 && count <= MAX_U32)) err('COUNT', `COUNT of field ${fname} must be a positive integer, found "${c}"`);
    fields.push({ name: fname, size, type: t as PcdType, count, offset });
    offset += size * count;
  }

  const int = (k: Key): number | null => {
    const v = values.get(k);
    if (!v) return null;
    if (v.length !== 1 || !/^\d+$/.test(v[0]!) || Number(v[0]) > MAX_U32) {
      err(k, `${k} must be one non-negative integer, found "${v.join(' ')}"`);
    }
    return Number(v[0]);
  };
  let width = int('WIDTH'), height = int('HEIGHT');
  const pointsLine = int('POINTS');
  // Old headers: without WIDTH/HEIGHT the cloud is unorganized; without POINTS it is their product.
  if (width === null && height === null) {
    if (pointsLine === null) err('DATA', 'header has neither POINTS nor WIDTH/HEIGHT');
    width = pointsLine; height = 1;
  }
  width ??= pointsLine !== null && height ? pointsLine / height : 0;
  height ??= 1;
  const points = pointsLine ?? width * height;
  if (width * height !== points) {
    err(values.has('POINTS') ? 'POINTS' : 'WIDTH', `WIDTH × HEIGHT = ${width} × ${height} = ${width * height} differs from POINTS ${points}`);
  }

  let viewpoint: number[] | null = null;
  const vp = values.get('VIEWPOINT');
  if (vp) {
    viewpoint = vp.map(Number);
    if (viewpoint.length !== 7 || !viewpoint.every(Number.isFinite)) {
      err('VIEWPOINT', `VIEWPOINT needs 7 numbers (tx ty tz qw qx qy qz), found "${vp.join(' ')}"`);
    }
  }
  const version = values.get('VERSION')?.[0] ?? null;
  return {
    version, fields, width, height, points, viewpoint,
    data: data.value as PcdData, dataOffset: data.next, dataLine: data.line, recordSize: offset, lines,
  };
}
