/**
 * Benchmark input files of `thicket bench --triangles FILE --rays FILE` (a triangle mesh, a ray set).
 *
 * Layout, little-endian:
 *   uint32        H, the header's length in bytes (a multiple of 4 when we write it)
 *   H bytes       a JSON object, padded with spaces (so the data starts 4-byte aligned)
 *   float32[...]  the data
 * Triangles file: 9 floats per triangle (v0, v1, v2; metres, z up).
 *   header: { "format": "thicket-bench", "kind": "triangles", "count": N }   (kind/count optional)
 * Rays file: 6 floats per ray (origin, unit direction).
 *   header: { "format": "thicket-bench", "kind": "rays", "count": N, "maxRange": R }  (maxRange required)
 *
 * Reading is strict about structure (every failure is a DecodeError naming the file, the byte
 * offset and the reason) and lenient about values: rays or triangles with a non-finite value
 * (NaN, ±∞) — and rays with a zero direction — are skipped and counted; directions are
 * renormalised to unit length.
 */
import { DecodeError } from './decode-error';

export interface BenchHeader {
  format?: string;
  kind?: 'triangles' | 'rays';
  count?: number;
  maxRange?: number;
  [key: string]: unknown;
}

export interface TrianglesFile {
  header: BenchHeader;
  /** Finite triangles, 9 floats each. */
  positions: Float32Array;
  count: number;
  /** Triangles dropped for a non-finite coordinate. */
  skipped: number;
}

export interface RaysFile {
  header: BenchHeader;
  /** Finite rays, 6 floats each, unit directions. */
  rays: Float32Array;
  count: number;
  /** Rays dropped for NaN / infinite values or a zero direction. */
  skipped: number;
  maxRange: number;
}

const HOST_LE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function parse(bytes: Uint8Array, name: string, kind: 'triangles' | 'rays', floatsPer: number): { header: BenchHeader; data: Float32Array } {
  if (bytes.byteLength < 4) throw new DecodeError(name, `file of ${bytes.byteLength} bytes is too short for the 4-byte header length`, { offset: 0 });
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const h = view.getUint32(0, true);
  if (4 + h > bytes.byteLength) throw new DecodeError(name, `header length ${h} runs past the end of the file (${bytes.byteLength} bytes)`, { offset: 0 });
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(4, 4 + h)));
  } catch (e) {
    throw new DecodeError(name, `the header is not valid UTF-8 JSON: ${(e as Error).message}`, { offset: 4 });
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) throw new DecodeError(name, 'the header must be a JSON object', { offset: 4 });
  const hd = header as BenchHeader;
  if (hd.kind !== undefined && hd.kind !== kind) throw new DecodeError(name, `header says kind "${String(hd.kind)}" but a ${kind} file was expected`, { offset: 4 });
  const start = 4 + h;
  const record = 4 * floatsPer;
  const size = bytes.byteLength - start;
  if (size % record !== 0) {
    const at = start + size - (size % record);
    throw new DecodeError(name, `truncated at byte ${at}: ${size} data bytes are not a multiple of ${record} (${floatsPer} float32 per ${kind === 'rays' ? 'ray' : 'triangle'})`, { offset: at });
  }
  const n = size / record;
  if (hd.count !== undefined && hd.count !== n) throw new DecodeError(name, `header count ${String(hd.count)} but the data holds ${n} ${kind}`, { offset: start });
  let data: Float32Array;
  if (HOST_LE && (bytes.byteOffset + start) % 4 === 0) {
    data = new Float32Array(bytes.buffer, bytes.byteOffset + start, n * floatsPer);
  } else {
    data = new Float32Array(n * floatsPer);
    for (let i = 0; i < data.length; i++) data[i] = view.getFloat32(start + 4 * i, true);
  }
  return { header: hd, data };
}

export function decodeTrianglesFile(bytes: Uint8Array, name: string): TrianglesFile {
  const { header, data } = parse(bytes, name, 'triangles', 9);
  const n = data.length / 9;
  const out = new Float32Array(data.length);
  let w = 0, skipped = 0;
  for (let i = 0; i < n; i++) {
    let ok = true;
    for (let k = 0; k < 9; k++) if (!Number.isFinite(data[9 * i + k]!)) ok = false;
    if (!ok) {
      skipped++;
      continue;
    }
    for (let k = 0; k < 9; k++) out[9 * w + k] = data[9 * i + k]!;
    w++;
  }
  return { header, positions: w === n ? out : out.slice(0, 9 * w), count: w, skipped };
}

export function decodeRaysFile(bytes: Uint8Array, name: string): RaysFile {
  const { header, data } = parse(bytes, name, 'rays', 6);
  const maxRange = header.maxRange;
  if (typeof maxRange !== 'number' || !(maxRange > 0) || !Number.isFinite(maxRange)) {
    throw new DecodeError(name, `header field "maxRange" must be a positive finite number (metres), got ${JSON.stringify(maxRange)}`, { offset: 4 });
  }
  const n = data.length / 6;
  const out = new Float32Array(data.length);
  let w = 0, skipped = 0;
  for (let i = 0; i < n; i++) {
    const o = 6 * i;
    const ox = data[o]!, oy = data[o + 1]!, oz = data[o + 2]!, dx = data[o + 3]!, dy = data[o + 4]!, dz = data[o + 5]!;
    const len = Math.hypot(dx, dy, dz);
    if (!(Number.isFinite(ox) && Number.isFinite(oy) && Number.isFinite(oz) && Number.isFinite(len) && len > 0)) {
      skipped++;
      continue;
    }
    out[6 * w] = ox; out[6 * w + 1] = oy; out[6 * w + 2] = oz;
    out[6 * w + 3] = dx / len; out[6 * w + 4] = dy / len; out[6 * w + 5] = dz / len;
    w++;
  }
  return { header, rays: w === n ? out : out.slice(0, 6 * w), count: w, skipped, maxRange };
}

function encode(header: BenchHeader, data: Float32Array): Uint8Array<ArrayBuffer> {
  let json = JSON.stringify(header);
  const raw = new TextEncoder().encode(json);
  const pad = (4 - (raw.byteLength % 4)) % 4;
  json += ' '.repeat(pad);
  const head = new TextEncoder().encode(json);
  const out = new Uint8Array(4 + head.byteLength + 4 * data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, head.byteLength, true);
  out.set(head, 4);
  const start = 4 + head.byteLength;
  if (HOST_LE) out.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), start);
  else for (let i = 0; i < data.length; i++) view.setFloat32(start + 4 * i, data[i]!, true);
  return out;
}

export function encodeTrianglesFile(positions: Float32Array, extra: Record<string, unknown> = {}): Uint8Array<ArrayBuffer> {
  if (positions.length % 9 !== 0) throw new Error(`encodeTrianglesFile: ${positions.length} floats is not a multiple of 9`);
  return encode({ format: 'thicket-bench', kind: 'triangles', count: positions.length / 9, ...extra }, positions);
}

export function encodeRaysFile(rays: Float32Array, maxRange: number, extra: Record<string, unknown> = {}): Uint8Array<ArrayBuffer> {
  if (rays.length % 6 !== 0) throw new Error(`encodeRaysFile: ${rays.length} floats is not a multiple of 6`);
  return encode({ format: 'thicket-bench', kind: 'rays', count: rays.length / 6, maxRange, ...extra }, rays);
}
