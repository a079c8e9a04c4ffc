/**
 * Readers of LAS that Thicket did not write, for checking its LAS export: loaders.gl's LAS
 * loaders (positions, intensity, classification, scale, offset, point format) — the laz-rs one
 * reads LAS 1.0–1.4, the laz-perf one (loaders.gl's default) refuses 1.4 — and for the fields
 * they leave out (gps_time, user data, VLRs, global encoding) a minimal reader written from the
 * LAS 1.2 and 1.4 specifications here, sharing no code with src-worker/formats/las/.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LASLoader, LAZRsLoader } from '@loaders.gl/las';

export interface LoadersGlLas {
  count: number;
  /** x, y, z per point (float64: scale and offset applied). */
  position: Float64Array;
  intensity: Uint16Array;
  classification: Uint8Array;
  scale: number[];
  offset: number[];
  pointFormat: number;
}

/**
 * laz-rs fetches its WebAssembly from a file: URL beside its script, which Node's fetch refuses:
 * serve file: URLs from disk while it loads.
 */
async function withFileFetch<T>(fn: () => Promise<T>): Promise<T> {
  const fetch0 = globalThis.fetch;
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!url.startsWith('file:')) return fetch0(input, init);
    return new Response(readFileSync(fileURLToPath(url)), { headers: { 'Content-Type': 'application/wasm' } });
  }) as typeof fetch;
  try {
    return await fn();
  } finally {
    globalThis.fetch = fetch0;
  }
}

export async function readWithLoadersGl(bytes: Uint8Array, decoder: 'laz-rs' | 'laz-perf' = 'laz-rs'): Promise<LoadersGlLas> {
  const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  // colorDepth given: loaders.gl otherwise guesses from the colours and warns on every file.
  const options = { las: { fp64: true, colorDepth: 16 } };
  const parsed = decoder === 'laz-rs' ? withFileFetch(() => LAZRsLoader.parse(ab, options)) : LASLoader.parse(ab, options);
  const m = (await parsed) as unknown as {
    header: { vertexCount: number };
    loaderData: { scale: number[]; offset: number[]; pointsFormatId: number };
    attributes: { POSITION: { value: Float64Array }; intensity: { value: Uint16Array }; classification: { value: Uint8Array } };
  };
  return {
    count: m.header.vertexCount,
    position: m.attributes.POSITION.value,
    intensity: m.attributes.intensity.value,
    classification: m.attributes.classification.value,
    scale: [...m.loaderData.scale],
    offset: [...m.loaderData.offset],
    pointFormat: m.loaderData.pointsFormatId,
  };
}

export interface SpecVlr {
  userId: string;
  recordId: number;
  description: string;
  data: Uint8Array;
}

export interface SpecLas {
  version: string;
  pointFormat: number;
  globalEncoding: number;
  systemId: string;
  count: number;
  vlrs: SpecVlr[];
  /** Per point (uncompressed files only). */
  gps: Float64Array | null;
  userData: Uint8Array;
}

const text = (b: Uint8Array): string => String.fromCharCode(...b).replace(/\0.*$/s, '');

/** The header, the VLRs and per-point gps_time and user data of an uncompressed LAS file. */
export function readLasBySpec(bytes: Uint8Array): SpecLas {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const minor = bytes[25]!;
  const pointFormat = bytes[104]! & 0x3f;
  const recordLength = dv.getUint16(105, true);
  const pointOffset = dv.getUint32(96, true);
  const count = minor >= 4 ? Number(dv.getBigUint64(247, true)) : dv.getUint32(107, true);
  const vlrs: SpecVlr[] = [];
  let o = dv.getUint16(94, true);
  for (let i = 0; i < dv.getUint32(100, true); i++) {
    const length = dv.getUint16(o + 20, true);
    vlrs.push({ userId: text(bytes.subarray(o + 2, o + 18)), recordId: dv.getUint16(o + 18, true), description: text(bytes.subarray(o + 22, o + 54)), data: bytes.slice(o + 54, o + 54 + length) });
    o += 54 + length;
  }
  // gps_time: byte 20 of formats 1, 3, 4, 5; byte 22 of formats 6–10; none in 0 and 2.
  const gpsAt = pointFormat >= 6 ? 22 : [1, 3, 4, 5].includes(pointFormat) ? 20 : -1;
  const gps = gpsAt >= 0 ? new Float64Array(count) : null;
  const userData = new Uint8Array(count);
  const compressed = (bytes[104]! & 0x80) !== 0;
  for (let i = 0; i < count && !compressed; i++) {
    const p = pointOffset + i * recordLength;
    if (gps) gps[i] = dv.getFloat64(p + gpsAt, true);
    userData[i] = bytes[p + 17]!;
  }
  return {
    version: `${bytes[24]}.${minor}`, pointFormat, globalEncoding: dv.getUint16(6, true), systemId: text(bytes.subarray(26, 58)),
    count, vlrs, gps: compressed ? null : gps, userData,
  };
}
