/**
 * Binary framing for the WebSocket binding: a JSON header plus the raw bytes of every
 * typed array in the message, so a 2-million-point cloud crosses as ~30 MB of floats
 * instead of ~100 MB of JSON text.
 *
 * Frame layout (little-endian):
 *   uint32  header byte length H
 *   H bytes UTF-8 JSON, padded with spaces so the first buffer starts at a multiple of 8
 *   for each buffer: its bytes, padded with zeros to a multiple of 8
 * In the JSON, every typed array is replaced by {"$ta": i, "t": "Float32Array", "n": length}.
 *
 * Environment-neutral (runs in Node and the browser).
 */

const TYPED = {
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
} as const;
type TypedName = keyof typeof TYPED;
type AnyTyped = InstanceType<(typeof TYPED)[TypedName]>;

interface Placeholder {
  $ta: number;
  t: TypedName;
  n: number;
}

function typedName(v: unknown): TypedName | null {
  if (!ArrayBuffer.isView(v) || v instanceof DataView) return null;
  const name = v.constructor.name as TypedName;
  return name in TYPED ? name : null;
}

const pad8 = (n: number) => (n + 7) & ~7;

export function encodeFrame(message: unknown): Uint8Array<ArrayBuffer> {
  const buffers: AnyTyped[] = [];
  const json = JSON.stringify(message, function (this: unknown, _key, value: unknown) {
    const name = typedName(value);
    if (name) {
      buffers.push(value as AnyTyped);
      const p: Placeholder = { $ta: buffers.length - 1, t: name, n: (value as AnyTyped).length };
      return p;
    }
    return value;
  });
  const header = new TextEncoder().encode(json);
  const headerPadded = pad8(4 + header.byteLength) - 4;
  let total = 4 + headerPadded;
  for (const b of buffers) total += pad8(b.byteLength);
  const out = new Uint8Array(total);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, headerPadded, true);
  out.set(header, 4);
  out.fill(0x20, 4 + header.byteLength, 4 + headerPadded);
  let off = 4 + headerPadded;
  for (const b of buffers) {
    out.set(new Uint8Array(b.buffer, b.byteOffset, b.byteLength), off);
    off += pad8(b.byteLength);
  }
  return out;
}

export class FrameError extends Error {}

export function decodeFrame(frame: Uint8Array): unknown {
  if (frame.byteLength < 4) throw new FrameError('frame shorter than its 4-byte header length');
  const dv = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const h = dv.getUint32(0, true);
  if (4 + h > frame.byteLength) throw new FrameError(`frame header length ${h} exceeds frame size ${frame.byteLength}`);
  const text = new TextDecoder().decode(frame.subarray(4, 4 + h));
  // Copy out of the frame so each array owns an aligned buffer and can be transferred later.
  const placeholders: Placeholder[] = [];
  const parsed: unknown = JSON.parse(text, (_key, value: unknown) => {
    if (value && typeof value === 'object' && '$ta' in value && 't' in value && 'n' in value) {
      placeholders.push(value as Placeholder);
    }
    return value;
  });
  placeholders.sort((a, b) => a.$ta - b.$ta);
  const arrays = new Map<number, AnyTyped>();
  let off = 4 + h;
  for (const p of placeholders) {
    const Ctor = TYPED[p.t];
    if (!Ctor || !Number.isInteger(p.n) || p.n < 0) throw new FrameError(`bad typed-array placeholder ${JSON.stringify(p)}`);
    const bytes = p.n * Ctor.BYTES_PER_ELEMENT;
    if (off + bytes > frame.byteLength) throw new FrameError(`typed array ${p.$ta} runs past the end of the frame`);
    const copy = new Ctor(p.n);
    new Uint8Array(copy.buffer).set(frame.subarray(off, off + bytes));
    arrays.set(p.$ta, copy);
    off += pad8(bytes);
  }
  return revive(parsed, arrays);
}

function revive(value: unknown, arrays: Map<number, AnyTyped>): unknown {
  if (Array.isArray(value)) return value.map((v) => revive(v, arrays));
  if (value && typeof value === 'object') {
    if ('$ta' in value && 't' in value && 'n' in value) return arrays.get((value as Placeholder).$ta);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = revive(v, arrays);
    return out;
  }
  return value;
}

// ---------- message shapes on the socket ----------

export interface WireRequest {
  kind: 'request';
  id: number;
  method: string;
  params: unknown;
}
export interface WireResponse {
  kind: 'response';
  id: number;
  ok: boolean;
  result?: unknown;
  error?: { code: string; message: string };
}
export interface WireEvent {
  kind: 'event';
  event: unknown;
}
export type WireMessage = WireRequest | WireResponse | WireEvent;
