import { DecodeError } from '../decode-error';
import { wholeRecords } from '../truncation';
import { countNonFinite, type DecodedCloud } from '../decoded-cloud';
import { lzfDecompress, LZF_MAX_RATIO } from './lzf';
import { RING_UNKNOWN } from '../../../src-common/packets';
import { parsePcdHeader, type PcdField, type PcdHeader } from './pcd-header';

/** Field names the decoder picks up, lower-cased, in order of preference. */
const INTENSITY_NAMES = ['intensity', 'i'];
/** `channel` is the laser index in Autoware/nebula clouds. */
const RING_NAMES = ['ring', 'channel'];
/** `time_stamp` is nebula's per-point nanoseconds. */
const TIME_NAMES = ['t', 'time', 'timestamp', 'time_stamp'];

/** Where each decoded quantity goes: the value is written to out[i * stride + slot]. */
interface Target { field: PcdField; out: Float32Array | Float64Array; stride: number; slot: number }

/**
 * PCD (PCL's Point Cloud Data) with DATA ascii, binary (row-major records) or binary_compressed
 * (LZF of the column-major form). Takes x, y, z, and intensity, ring and time when present.
 */
export function decodePcd(bytes: Uint8Array, name: string): DecodedCloud {
  if (bytes.length === 0) throw new DecodeError(name, 'empty file', { offset: 0 });
  let h = parsePcdHeader(bytes, name);
  // DATA binary cut mid-point keeps its whole points (truncation.ts); compressed and ascii data
  // are not records: a cut LZF block does not decode, and a cut ascii number still parses.
  const cut = h.data === 'binary' ? wholeRecords(name, bytes.length, h.dataOffset, h.points, h.recordSize, 'points') : null;
  if (cut) h = { ...h, points: cut.kept };
  const find = (names: string[]): PcdField | null => {
    for (const n of names) {
      const f = h.fields.find((g) => g.name.toLowerCase() === n);
      if (f) return f;
    }
    return null;
  };
  const [fx, fy, fz] = [find(['x']), find(['y']), find(['z'])];
  if (!fx || !fy || !fz) {
    const missing = ['x', 'y', 'z'].filter((_, i) => ![fx, fy, fz][i]).join(', ');
    throw new DecodeError(name, `missing field ${missing}: FIELDS are ${h.fields.map((f) => f.name).join(' ')}; x y z are required`, {
      line: h.lines.FIELDS,
    });
  }
  const [fi, fr, ft] = [find(INTENSITY_NAMES), find(RING_NAMES), find(TIME_NAMES)];

  // Sizes are validated (and LZF data unpacked) before anything is allocated from the
  // header's numbers, so a corrupt POINTS cannot ask for gigabytes.
  const cols = h.data === 'binary' ? binaryColumns(bytes, h, name) : h.data === 'binary_compressed' ? compressedColumns(bytes, h, name) : null;
  const n = cols ? h.points : asciiCapacity(bytes, h, name);
  const xyz = new Float32Array(3 * n);
  const intensity = new Float32Array(n);
  const ringRaw = fr ? new Float64Array(n) : null;
  const timeRaw = ft ? new Float64Array(n) : null;
  const targets: Target[] = [
    { field: fx, out: xyz, stride: 3, slot: 0 },
    { field: fy, out: xyz, stride: 3, slot: 1 },
    { field: fz, out: xyz, stride: 3, slot: 2 },
  ];
  if (fi) targets.push({ field: fi, out: intensity, stride: 1, slot: 0 });
  if (fr && ringRaw) targets.push({ field: fr, out: ringRaw, stride: 1, slot: 0 });
  if (ft && timeRaw) targets.push({ field: ft, out: timeRaw, stride: 1, slot: 0 });

  if (cols) for (const t of targets) readColumn(cols.dv, cols.start(t.field), cols.stride(t.field), h.points, t);
  else readAscii(bytes, h, name, targets);

  const count = h.points;
  const { time, timeBase } = ft && timeRaw ? toRelativeSeconds(timeRaw, ft.type !== 'F') : { time: null, timeBase: 0 };
  return {
    count,
    xyz,
    intensity,
    ring: ringRaw ? toRing(ringRaw) : null,
    time,
    timeBase,
    // PCD writes the quaternion w first; the app's poses put it last.
    viewpoint: h.viewpoint ? [h.viewpoint[0]!, h.viewpoint[1]!, h.viewpoint[2]!, h.viewpoint[4]!, h.viewpoint[5]!, h.viewpoint[6]!, h.viewpoint[3]!] : null,
    dropped: countNonFinite(xyz, count),
    ...(cut ? { warnings: [cut.warning] } : {}),
  };
}

/** Where each field's values are: byte offset of point 0 and bytes between points. */
interface Columns { dv: DataView; start: (f: PcdField) => number; stride: (f: PcdField) => number }

function binaryColumns(bytes: Uint8Array, h: PcdHeader, name: string): Columns {
  const need = h.points * h.recordSize;
  const have = bytes.length - h.dataOffset;
  if (have < need) {
    const at = h.dataOffset + Math.floor(have / h.recordSize) * h.recordSize;
    throw new DecodeError(name, `truncated at byte ${at}: DATA binary needs ${h.points} points × ${h.recordSize} bytes = ${need} bytes from byte ${h.dataOffset}, found ${have}`, { offset: at });
  }
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { dv, start: (f) => h.dataOffset + f.offset, stride: () => h.recordSize };
}

function compressedColumns(bytes: Uint8Array, h: PcdHeader, name: string): Columns {
  const at = h.dataOffset;
  if (bytes.length - at < 8) {
    throw new DecodeError(name, `truncated at byte ${bytes.length}: DATA binary_compressed needs 8 bytes of sizes at byte ${at}`, { offset: bytes.length });
  }
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const packed = dv.getUint32(at, true), unpacked = dv.getUint32(at + 4, true);
  const expected = h.points * h.recordSize;
  if (unpacked !== expected) {
    throw new DecodeError(name, `binary_compressed at byte ${at + 4}: uncompressed size ${unpacked} differs from POINTS × record size = ${h.points} × ${h.recordSize} = ${expected}`, { offset: at + 4 });
  }
  if (bytes.length - at - 8 < packed) {
    throw new DecodeError(name, `truncated at byte ${bytes.length}: binary_compressed declares ${packed} compressed bytes from byte ${at + 8}, found ${bytes.length - at - 8}`, { offset: bytes.length });
  }
  if (unpacked > packed * LZF_MAX_RATIO) {
    throw new DecodeError(name, `binary_compressed at byte ${at}: ${packed} compressed bytes cannot hold ${unpacked} bytes`, { offset: at });
  }
  const raw = lzfDecompress(bytes.subarray(at + 8, at + 8 + packed), unpacked, name, at + 8);
  // Column-major: the whole column of field k starts after points × (bytes of fields before k).
  return { dv: new DataView(raw.buffer), start: (f) => h.points * f.offset, stride: (f) => f.size * f.count };
}

/** Reads element 0 of a field for n points, `stride` bytes apart, from `start`. */
function readColumn(dv: DataView, start: number, stride: number, n: number, t: Target): void {
  const { out, slot } = t;
  const os = t.stride;
  const le = true; // PCD binary is written in host order; PCL hosts are little-endian.
  let o = start;
  switch (`${t.field.type}${t.field.size}`) {
    case 'F4': for (let i = 0; i < n; i++, o += stride) out[i * os + slot] = dv.getFloat32(o, le); break;
    case 'F8': for (let i = 0; i < n; i++, o += stride) out[i * os + slot] = dv.getFloat64(o, le); break;
    case 'U1': for (let i = 0; i < n; i++, o += stride) out[i * os + slot] = dv.getUint8(o); break;
    case 'I1': for (let i = 0; i < n; i++, o += stride) out[i * os + slot] = dv.getInt8(o); break;
    case 'U2': for (let i = 0; i < n; i++, o += stride) out[i * os + slot] = dv.getUint16(o, le); break;
    case 'I2': for (let i = 0; i < n; i++, o += stride) out[i * os + slot] = dv.getInt16(o, le); break;
    case 'U4': for (let i = 0; i < n; i++, o += stride) out[i * os + slot] = dv.getUint32(o, le); break;
    case 'I4': for (let i = 0; i < n; i++, o += stride) out[i * os + slot] = dv.getInt32(o, le); break;
    case 'U8': for (let i = 0; i < n; i++, o += stride) out[i * os + slot] = Number(dv.getBigUint64(o, le)); break;
    case 'I8': for (let i = 0; i < n; i++, o += stride) out[i * os + slot] = Number(dv.getBigInt64(o, le)); break;
  }
}

const valuesPerPoint = (h: PcdHeader): number => h.fields.reduce((s, f) => s + f.count, 0);

/**
 * Points the ascii data can hold at most: a line of v values takes at least 2v bytes. Arrays are
 * sized by this, so a header claiming a billion points over a small file allocates nothing big;
 * the parser then reports the line where the data runs out.
 */
function asciiCapacity(bytes: Uint8Array, h: PcdHeader, name: string): number {
  const v = valuesPerPoint(h);
  const room = bytes.length - h.dataOffset;
  if (h.points > 0 && 2 * v - 1 > room) {
    throw new DecodeError(name, `truncated: DATA ascii expects ${h.points} points of ${v} values, the file ends at line ${h.dataLine + 1}`, {
      line: h.dataLine + 1, offset: bytes.length,
    });
  }
  return Math.min(h.points, Math.floor((room + 1) / (2 * v)));
}

const NON_NUMBER = /^[+-]?(nan(\(\w*\))?|inf(inity)?)$/i;

function readAscii(bytes: Uint8Array, h: PcdHeader, name: string, targets: Target[]): void {
  if (h.points === 0) return;
  const text = new TextDecoder().decode(bytes.subarray(h.dataOffset));
  const v = valuesPerPoint(h);
  const row = new Float64Array(v);
  // Value index in a line where each target's field starts (its element 0).
  const first = new Map<PcdField, number>();
  let col = 0;
  for (const f of h.fields) { first.set(f, col); col += f.count; }
  const cols = targets.map((t) => first.get(t.field)!);

  let k = 0, line = h.dataLine, pos = 0;
  const len = text.length;
  while (k < h.points && pos < len) {
    line++;
    let nl = text.indexOf('\n', pos);
    if (nl < 0) nl = len;
    let tokens = 0;
    let i = pos;
    while (i < nl) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 13 || c === 11 || c === 12) { i++; continue; }
      let j = i + 1;
      while (j < nl) {
        const d = text.charCodeAt(j);
        if (d === 32 || d === 9 || d === 13 || d === 11 || d === 12) break;
        j++;
      }
      if (tokens < v) {
        const s = text.slice(i, j);
        let x = Number(s);
        if (x !== x) {
          // C++ streams write nan, -nan, inf, -inf; Number() knows only "Infinity".
          if (!NON_NUMBER.test(s)) {
            throw new DecodeError(name, `DATA ascii value ${tokens + 1} is not a number: "${s.slice(0, 40)}"`, { line });
          }
          if (/inf/i.test(s)) x = s.startsWith('-') ? -Infinity : Infinity;
        }
        row[tokens] = x;
      }
      tokens++;
      i = j;
    }
    pos = nl + 1;
    if (tokens === 0) continue; // PCL skips blank lines
    if (tokens !== v) throw new DecodeError(name, `DATA ascii expects ${v} values per point, found ${tokens}`, { line });
    for (let t = 0; t < targets.length; t++) {
      const tg = targets[t]!;
      tg.out[k * tg.stride + tg.slot] = row[cols[t]!]!;
    }
    k++;
  }
  // Lines past POINTS are ignored, as PCL does.
  if (k < h.points) {
    throw new DecodeError(name, `truncated: DATA ascii ends after ${k} of ${h.points} points`, { line: line + 1, offset: bytes.length });
  }
}

function toRing(raw: Float64Array): Uint16Array<ArrayBuffer> {
  const ring = new Uint16Array(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const r = raw[i]!;
    ring[i] = Number.isInteger(r) && r >= 0 && r < RING_UNKNOWN ? r : RING_UNKNOWN;
  }
  return ring;
}

/**
 * Point times as float32 seconds after the earliest point (absolute stamps do not fit a
 * float32). Units: integer fields are nanoseconds (Ouster `t`, nebula `time_stamp`); float
 * fields are seconds, unless they span more than 1000 s, which only nanoseconds explain
 * (Livox writes float64 ns).
 */
function toRelativeSeconds(raw: Float64Array, integer: boolean): { time: Float32Array<ArrayBuffer>; timeBase: number } {
  let lo = Infinity, hi = -Infinity;
  for (const t of raw) if (Number.isFinite(t)) { if (t < lo) lo = t; if (t > hi) hi = t; }
  const time = new Float32Array(raw.length);
  if (lo > hi) { time.fill(NaN); return { time, timeBase: 0 }; }
  const scale = integer || hi - lo > 1e3 ? 1e-9 : 1;
  for (let i = 0; i < raw.length; i++) time[i] = Number.isFinite(raw[i]!) ? (raw[i]! - lo) * scale : NaN;
  return { time, timeBase: lo * scale };
}
