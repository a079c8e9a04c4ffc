/**
 * PLY point clouds: ascii, binary_little_endian and binary_big_endian, any property types.
 * The points are the `vertex` element (x, y, z required); intensity, ring, per-point time,
 * class and return are taken when present. Elements before the vertices are skipped record by
 * record (list properties included), elements after them are not read.
 */
import { DecodeError } from '../decode-error';
import { wholeRecords } from '../truncation';
import { countNonFinite, relativeTimes, ringsFrom, type DecodedCloud } from '../decoded-cloud';
import { encodePly } from './ply-encode';
import { parsePlyHeader, PLY_TYPE_SIZE, type PlyElement, type PlyHeader, type PlyProperty, type PlyType } from './ply-header';
import type { FuzzTarget } from '../fuzz-target';

/** Property names the decoder picks up, lower-cased, in order of preference. */
const NAMES = {
  intensity: ['intensity', 'i', 'scalar_intensity', 'reflectance'],
  ring: ['ring', 'channel', 'laser_id', 'scalar_ring'],
  // Ouster/RELLIS `t` is integer nanoseconds; `time` (this app's writer) is float seconds.
  time: ['t', 'time', 'timestamp', 'time_stamp', 'gps_time', 'scalar_time'],
  cls: ['class', 'label', 'classification', 'scalar_classification'],
  ret: ['return'],
} as const;

type Channel = 'x' | 'y' | 'z' | keyof typeof NAMES;

/** One property to read: where its value goes. */
interface Target { prop: PlyProperty; channel: Channel; out: Float64Array }

/**
 * Decodes a PLY file's vertices. Values are read as float64 first and then narrowed, so every
 * property type works for every channel; points with a non-finite coordinate are kept and counted.
 */
export function decodePly(bytes: Uint8Array, name: string): DecodedCloud {
  if (bytes.length === 0) throw new DecodeError(name, 'empty file', { offset: 0 });
  const h = parsePlyHeader(bytes, name);
  const vi = h.elements.findIndex((e) => e.name === 'vertex');
  if (vi < 0) throw new DecodeError(name, `no vertex element: elements are ${h.elements.map((e) => e.name).join(', ') || 'none'}`, { line: h.endLine });
  let vertex = h.elements[vi]!;
  const find = (names: readonly string[]): PlyProperty | null => {
    for (const n of names) {
      const p = vertex.properties.find((q) => q.name.toLowerCase() === n && !q.countType);
      if (p) return p;
    }
    return null;
  };
  const [px, py, pz] = [find(['x']), find(['y']), find(['z'])];
  if (!px || !py || !pz) {
    const missing = ['x', 'y', 'z'].filter((_, i) => ![px, py, pz][i]).join(', ');
    throw new DecodeError(name, `vertex element has no scalar ${missing}: properties are ${vertex.properties.map((p) => p.name).join(' ')}`, { line: vertex.line });
  }

  const start = h.format === 'ascii' ? 0 : skipBinary(bytes, h, vi, name);
  // Fixed-size binary vertices cut mid-record keep their whole vertices (truncation.ts); a cut
  // ascii number still parses, and variable-size records are not checked record by record.
  const cut = h.format !== 'ascii' ? wholeRecords(name, bytes.length, start, vertex.count, vertex.recordSize, 'vertices') : null;
  if (cut) vertex = { ...vertex, count: cut.kept };
  const n = h.format === 'ascii' ? asciiCapacity(bytes, h, vertex, name) : binaryCapacity(bytes, start, vertex, name);
  const targets: Target[] = [];
  const add = (prop: PlyProperty | null, channel: Channel): void => {
    if (prop) targets.push({ prop, channel, out: new Float64Array(n) });
  };
  add(px, 'x'); add(py, 'y'); add(pz, 'z');
  for (const c of Object.keys(NAMES) as (keyof typeof NAMES)[]) add(find(NAMES[c]), c);

  if (h.format === 'ascii') readAscii(bytes, h, vi, targets, name);
  else readBinary(bytes, start, vertex, h.format === 'binary_little_endian', targets, name);
  const cloud = toCloud(vertex.count, targets, viewpointOf(h));
  return cut ? { ...cloud, warnings: [cut.warning] } : cloud;
}

function toCloud(count: number, targets: Target[], viewpoint: number[] | null): DecodedCloud {
  const get = (c: Channel): Target | undefined => targets.find((t) => t.channel === c);
  const xyz = new Float32Array(3 * count);
  (['x', 'y', 'z'] as const).forEach((c, a) => {
    const src = get(c)!.out;
    for (let i = 0; i < count; i++) xyz[3 * i + a] = src[i]!;
  });
  const it = get('intensity');
  const intensity = it ? Float32Array.from(it.out) : new Float32Array(count);
  const rt = get('ring');
  const tt = get('time');
  let time = null, timeBase = 0;
  if (tt) {
    let lo = Infinity, hi = -Infinity;
    for (const t of tt.out) if (Number.isFinite(t)) { lo = Math.min(lo, t); hi = Math.max(hi, t); }
    // Integer stamps are nanoseconds (Ouster `t`); float ones seconds unless they span more
    // than 1000 s, which only nanoseconds explain. The same rule as the PCD reader.
    const integer = tt.prop.type !== 'float32' && tt.prop.type !== 'float64';
    ({ time, timeBase } = relativeTimes(tt.out, integer || hi - lo > 1e3 ? 1e-9 : 1));
  }
  const byte = (t: Target | undefined): Uint8Array<ArrayBuffer> | null => {
    if (!t) return null;
    const out = new Uint8Array(count);
    for (let i = 0; i < count; i++) {
      const v = t.out[i]!;
      out[i] = Number.isInteger(v) && v >= 0 && v <= 255 ? v : 0;
    }
    return out;
  };
  return {
    count, xyz, intensity,
    ring: rt ? ringsFrom(rt.out) : null,
    time, timeBase, viewpoint,
    dropped: countNonFinite(xyz, count),
    cls: byte(get('cls')),
    ret: byte(get('ret')),
  };
}

/** This app's writer puts the sensor pose in a `comment viewpoint tx ty tz qx qy qz qw` line. */
function viewpointOf(h: PlyHeader): number[] | null {
  for (const c of h.comments) {
    const w = c.split(/\s+/);
    if (w[0] !== 'viewpoint' || w.length !== 8) continue;
    const v = w.slice(1).map(Number);
    if (v.every(Number.isFinite) && Math.hypot(v[3]!, v[4]!, v[5]!, v[6]!) > 0) return v;
  }
  return null;
}

// ---- binary ----

type Reader = (dv: DataView, o: number) => number;

function reader(type: PlyType, le: boolean): Reader {
  switch (type) {
    case 'int8': return (dv, o) => dv.getInt8(o);
    case 'uint8': return (dv, o) => dv.getUint8(o);
    case 'int16': return (dv, o) => dv.getInt16(o, le);
    case 'uint16': return (dv, o) => dv.getUint16(o, le);
    case 'int32': return (dv, o) => dv.getInt32(o, le);
    case 'uint32': return (dv, o) => dv.getUint32(o, le);
    case 'float32': return (dv, o) => dv.getFloat32(o, le);
    case 'float64': return (dv, o) => dv.getFloat64(o, le);
  }
}

const view = (b: Uint8Array): DataView => new DataView(b.buffer, b.byteOffset, b.byteLength);

/** Byte offset of the vertex data: every element before it skipped, bounds checked. */
function skipBinary(bytes: Uint8Array, h: PlyHeader, vi: number, name: string): number {
  const dv = view(bytes);
  const le = h.format === 'binary_little_endian';
  let o = h.dataOffset;
  for (let e = 0; e < vi; e++) {
    const el = h.elements[e]!;
    if (el.recordSize >= 0) {
      const need = el.count * el.recordSize;
      if (bytes.length - o < need) {
        const whole = Math.floor((bytes.length - o) / Math.max(1, el.recordSize));
        throw truncated(name, el, whole, o + whole * el.recordSize);
      }
      o += need;
    } else {
      for (let r = 0; r < el.count; r++) o = skipRecord(dv, o, el, le, name, r);
    }
  }
  return o;
}

/** Offset after one variable-size record at o; DecodeError at the byte where the data runs out. */
function skipRecord(dv: DataView, o: number, el: PlyElement, le: boolean, name: string, r: number): number {
  for (const p of el.properties) {
    if (!p.countType) { o += PLY_TYPE_SIZE[p.type]; continue; }
    const cs = PLY_TYPE_SIZE[p.countType];
    if (o + cs > dv.byteLength) break;
    const len = reader(p.countType, le)(dv, o);
    if (len < 0) throw new DecodeError(name, `${el.name} ${r}: list ${p.name} has a negative length ${len} at byte ${o}`, { offset: o });
    o += cs + len * PLY_TYPE_SIZE[p.type];
  }
  if (o > dv.byteLength) throw truncated(name, el, r, dv.byteLength);
  return o;
}

function truncated(name: string, el: PlyElement, record: number, at: number): DecodeError {
  return new DecodeError(name, `truncated at byte ${at}: element ${el.name} declares ${el.count} records, the data ends in record ${record}`, { offset: at });
}

/** Vertices the binary data can hold; throws when a fixed-size vertex block is cut short. */
function binaryCapacity(bytes: Uint8Array, start: number, el: PlyElement, name: string): number {
  const room = bytes.length - start;
  if (el.recordSize >= 0) {
    if (room < el.count * el.recordSize) {
      const whole = Math.floor(room / Math.max(1, el.recordSize));
      throw new DecodeError(name, `truncated at byte ${start + whole * el.recordSize}: ${el.count} vertices × ${el.recordSize} bytes need ${el.count * el.recordSize} bytes from byte ${start}, found ${room}`, {
        offset: start + whole * el.recordSize,
      });
    }
    return el.count;
  }
  // A list-bearing record has at least minRecordSize bytes: a bigger count cannot fit.
  if (room < el.count * el.minRecordSize) {
    throw new DecodeError(name, `truncated: ${el.count} vertices need at least ${el.count * el.minRecordSize} bytes from byte ${start}, found ${room}`, { offset: bytes.length });
  }
  return el.count;
}

function readBinary(bytes: Uint8Array, start: number, el: PlyElement, le: boolean, targets: Target[], name: string): void {
  const dv = view(bytes);
  const reads = targets.map((t) => ({ read: reader(t.prop.type, le), out: t.out, prop: t.prop }));
  if (el.recordSize >= 0) {
    for (const r of reads) {
      for (let i = 0, o = start + r.prop.offset; i < el.count; i++, o += el.recordSize) r.out[i] = r.read(dv, o);
    }
    return;
  }
  // Variable-size vertices: walk each record, noting where each wanted property lies.
  const byProp = new Map(reads.map((r) => [r.prop, r]));
  let o = start;
  for (let i = 0; i < el.count; i++) {
    const recordStart = o;
    for (const p of el.properties) {
      if (p.countType) {
        const cs = PLY_TYPE_SIZE[p.countType];
        if (o + cs > bytes.length) throw truncated(name, el, i, o + cs);
        const len = reader(p.countType, le)(dv, o);
        if (len < 0) throw new DecodeError(name, `vertex ${i}: list ${p.name} has a negative length ${len} at byte ${o}`, { offset: o });
        o += cs + len * PLY_TYPE_SIZE[p.type];
        continue;
      }
      const size = PLY_TYPE_SIZE[p.type];
      if (o + size > bytes.length) throw truncated(name, el, i, o + size);
      const r = byProp.get(p);
      if (r) r.out[i] = r.read(dv, o);
      o += size;
    }
    if (o > bytes.length) throw truncated(name, el, i, recordStart);
  }
}

// ---- ascii ----

const NON_NUMBER = /^[+-]?(nan(\(\w*\))?|inf(inity)?)$/i;

/**
 * Vertices the ascii data can hold at most (a record of v values takes at least 2v − 1 bytes plus
 * a line break), so a header claiming a billion vertices over a small file allocates nothing big;
 * the parser then reports the line where the data runs out.
 */
function asciiCapacity(bytes: Uint8Array, h: PlyHeader, el: PlyElement, name: string): number {
  const v = Math.max(1, el.properties.length);
  const room = bytes.length - h.dataOffset;
  const cap = Math.floor((room + 1) / (2 * v));
  if (el.count > 0 && cap === 0) {
    throw new DecodeError(name, `truncated: ${el.count} vertices of ${v} values expected, the data ends at line ${h.endLine + 1}`, { line: h.endLine + 1, offset: bytes.length });
  }
  return Math.min(el.count, cap);
}

/** One line at a time, with its 1-based number and byte offset; blank lines are skipped. */
class Lines {
  pos: number;
  line: number;
  constructor(private readonly text: string, start: number, startLine: number) {
    this.pos = start;
    this.line = startLine;
  }
  /** Tokens of the next non-blank line and its start offset, or null at the end. */
  next(): { tokens: string[]; at: number } | null {
    const t = this.text;
    while (this.pos < t.length) {
      let nl = t.indexOf('\n', this.pos);
      if (nl < 0) nl = t.length;
      const at = this.pos;
      this.line++;
      this.pos = nl + 1;
      const s = t.slice(at, nl).trim();
      if (s !== '') return { tokens: s.split(/\s+/), at };
    }
    return null;
  }
}

function readAscii(bytes: Uint8Array, h: PlyHeader, vi: number, targets: Target[], name: string): void {
  // latin1 maps each byte to one character, so string indices are byte offsets.
  const text = new TextDecoder('latin1').decode(bytes);
  const lines = new Lines(text, h.dataOffset, h.endLine);
  const fail = (reason: string, at: number): DecodeError => new DecodeError(name, reason, { line: lines.line, offset: at });
  for (let e = 0; e < vi; e++) {
    const el = h.elements[e]!;
    for (let r = 0; r < el.count; r++) {
      if (!lines.next()) throw new DecodeError(name, `truncated: element ${el.name} declares ${el.count} records, the data ends after ${r}`, { line: lines.line + 1, offset: bytes.length });
    }
  }
  const el = h.elements[vi]!;
  const slot = new Map(targets.map((t) => [t.prop, t.out]));
  const cap = targets[0]!.out.length;
  for (let i = 0; i < el.count; i++) {
    const l = lines.next();
    if (!l || i >= cap) throw new DecodeError(name, `truncated: ${el.count} vertices declared, the data ends after ${i}`, { line: lines.line + 1, offset: bytes.length });
    let k = 0;
    for (const p of el.properties) {
      if (p.countType) {
        const len = Number(l.tokens[k]);
        if (!Number.isInteger(len) || len < 0) throw fail(`vertex ${i}: list ${p.name} length "${(l.tokens[k] ?? '').slice(0, 20)}" is not a count`, l.at);
        k += 1 + len;
        continue;
      }
      const s = l.tokens[k];
      if (s === undefined) throw fail(`vertex ${i}: the line has fewer values (${l.tokens.length}) than the vertex properties need`, l.at);
      const out = slot.get(p);
      if (out) out[i] = parseNumber(s, () => fail(`vertex ${i}: value ${k + 1} (${p.name}) is not a number: "${s.slice(0, 40)}"`, l.at));
      k++;
    }
    if (k !== l.tokens.length) {
      throw fail(`vertex ${i}: the line has ${k < l.tokens.length ? 'more' : 'fewer'} values (${l.tokens.length}) than the vertex properties need`, l.at);
    }
  }
}

function parseNumber(s: string, fail: () => DecodeError): number {
  const x = Number(s);
  if (x === x) return x;
  // C/C++ writers spell non-finite values nan, -nan, inf, -inf; Number() knows only "Infinity".
  if (!NON_NUMBER.test(s)) throw fail();
  return /inf/i.test(s) ? (s.startsWith('-') ? -Infinity : Infinity) : NaN;
}

/** Small valid inputs for the fuzz harness: each format, with every optional channel. */
export const FUZZ_TARGETS: FuzzTarget[] = (
  ['binary_little_endian', 'binary_big_endian', 'ascii'] as const
).map((format) => ({
  name: `ply ${format}`,
  sample: () => encodePly(fuzzCloud(), { format }),
  decode: (bytes: Uint8Array) => decodePly(bytes, 'fuzz.ply'),
}));

function fuzzCloud(): DecodedCloud {
  const n = 24;
  const xyz = Float32Array.from({ length: 3 * n }, (_, i) => Math.sin(i * 1.7) * 40);
  return {
    count: n, xyz,
    intensity: Float32Array.from({ length: n }, (_, i) => i / 3),
    ring: Uint16Array.from({ length: n }, (_, i) => i % 16),
    time: Float32Array.from({ length: n }, (_, i) => i * 1e-4),
    timeBase: 1581624663.17,
    viewpoint: [1, 2, 3, 0, 0, 0, 1],
    dropped: 0,
    cls: Uint8Array.from({ length: n }, (_, i) => i % 5),
    ret: Uint8Array.from({ length: n }, (_, i) => i % 2),
  };
}
