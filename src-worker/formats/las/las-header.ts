/**
 * The public header block of an ASPRS LAS 1.0–1.4 file and its variable-length records (VLRs and
 * 1.4 EVLRs): what the point reader needs, each field checked against the file's size before
 * anything is allocated from it. Errors give the byte offset of the field at fault.
 */
import { DecodeError } from '../decode-error';

/** Bytes of the standard part of each point data record format 0–10. */
export const LAS_FORMAT_SIZE = [20, 28, 26, 34, 57, 63, 30, 36, 38, 59, 67] as const;
/** Byte offset of gps_time in a record, or -1 for formats without it. */
export const LAS_GPS_OFFSET = [-1, 20, -1, 20, 20, 20, 22, 22, 22, 22, 22] as const;

export interface LasVlr {
  userId: string;
  recordId: number;
  /** Offset of the record's data (after its 54- or 60-byte header) and its length. */
  dataOffset: number;
  length: number;
}

/** The LASzip VLR (user "laszip encoded", record 22204). */
export interface LaszipVlr {
  compressor: number;
  coder: number;
  /** Points per chunk, or 0xffffffff for variable-size chunks (the chunk table holds counts). */
  chunkSize: number;
  /** Offset of the VLR's data, for error messages. */
  at: number;
}

/** One extra-bytes dimension (LAS 1.4 "LASF_Spec" record 4) that the reader can use. */
export interface LasExtraBytes {
  name: string;
  /** LAS data type 1..10 (uchar, char, ushort, short, ulong, long, ulonglong, longlong, float, double). */
  type: number;
  /** Byte offset within the point record. */
  offset: number;
}

export interface LasHeader {
  versionMinor: number;
  headerSize: number;
  pointOffset: number;
  /** Point data record format 0–10 (compression bits removed). */
  format: number;
  /** LASzip-compressed (format byte bit 7). */
  compressed: boolean;
  recordLength: number;
  count: number;
  scale: [number, number, number];
  offset: [number, number, number];
  min: [number, number, number];
  max: [number, number, number];
  vlrs: LasVlr[];
  laszip: LaszipVlr | null;
  extraBytes: LasExtraBytes[];
}

const MIN_HEADER = [227, 227, 227, 235, 375];
const EB_SIZE = [0, 1, 1, 2, 2, 4, 4, 8, 8, 4, 8];

export function parseLasHeader(bytes: Uint8Array, name: string): LasHeader {
  const fail = (reason: string, offset: number): DecodeError => new DecodeError(name, reason, { offset });
  if (bytes.length < 4 || String.fromCharCode(bytes[0]!, bytes[1]!, bytes[2]!, bytes[3]!) !== 'LASF') {
    throw fail('not a LAS file: the first 4 bytes are not "LASF"', 0);
  }
  if (bytes.length < 227) throw fail(`truncated at byte ${bytes.length}: a LAS header has at least 227 bytes`, bytes.length);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const major = bytes[24]!, minor = bytes[25]!;
  if (major !== 1 || minor > 4) throw fail(`unsupported LAS version ${major}.${minor} (1.0–1.4)`, 24);
  const headerSize = dv.getUint16(94, true);
  if (headerSize < MIN_HEADER[minor]! || headerSize > bytes.length) {
    throw fail(`header size ${headerSize} at byte 94 is out of range: LAS 1.${minor} needs ${MIN_HEADER[minor]}, the file has ${bytes.length} bytes`, 94);
  }
  const pointOffset = dv.getUint32(96, true);
  if (pointOffset < headerSize || pointOffset > bytes.length) {
    throw fail(`offset to point data ${pointOffset} at byte 96 is outside [header size ${headerSize}, file size ${bytes.length}]`, 96);
  }
  const formatByte = bytes[104]!;
  // LASzip sets bit 7 of the format; bit 6 set marks an old, unsupported compression.
  if (formatByte & 0x40) throw fail(`point format byte ${formatByte} at byte 104 has bit 6 set (an old compression this reader does not support)`, 104);
  const compressed = (formatByte & 0x80) !== 0;
  const format = formatByte & 0x3f;
  if (format > 10) throw fail(`unknown point data format ${format} at byte 104 (0–10)`, 104);
  const recordLength = dv.getUint16(105, true);
  if (recordLength < LAS_FORMAT_SIZE[format]!) {
    throw fail(`point record length ${recordLength} at byte 105 is shorter than format ${format}'s ${LAS_FORMAT_SIZE[format]} bytes`, 105);
  }
  const count = pointCount(dv, minor, fail);
  const f64 = (o: number): number => dv.getFloat64(o, true);
  const scale: [number, number, number] = [f64(131), f64(139), f64(147)];
  const offset: [number, number, number] = [f64(155), f64(163), f64(171)];
  for (let a = 0; a < 3; a++) {
    if (!Number.isFinite(scale[a]!) || scale[a] === 0) throw fail(`${'xyz'[a]} scale ${scale[a]} at byte ${131 + 8 * a} is not a finite non-zero number`, 131 + 8 * a);
    if (!Number.isFinite(offset[a]!)) throw fail(`${'xyz'[a]} offset ${offset[a]} at byte ${155 + 8 * a} is not finite`, 155 + 8 * a);
  }
  const max: [number, number, number] = [f64(179), f64(195), f64(211)];
  const min: [number, number, number] = [f64(187), f64(203), f64(219)];

  const vlrs = readVlrs(bytes, dv, headerSize, pointOffset, dv.getUint32(100, true), fail);
  if (minor === 4) vlrs.push(...readEvlrs(bytes, dv, fail));
  const h: LasHeader = {
    versionMinor: minor, headerSize, pointOffset, format, compressed, recordLength, count,
    scale, offset, min, max, vlrs, laszip: null, extraBytes: [],
  };
  h.laszip = laszipVlr(h, dv, fail);
  h.extraBytes = extraBytes(h, bytes);
  if (compressed && !h.laszip) throw fail('compressed point format (bit 7) but no LASzip VLR ("laszip encoded", 22204)', 104);
  return h;
}

/** Legacy 32-bit count up to 1.3; the 64-bit count in 1.4, where a non-zero legacy count must agree. */
function pointCount(dv: DataView, minor: number, fail: (r: string, o: number) => DecodeError): number {
  const legacy = dv.getUint32(107, true);
  if (minor < 4) return legacy;
  const big = dv.getBigUint64(247, true);
  if (big > BigInt(Number.MAX_SAFE_INTEGER)) throw fail(`point count ${big} at byte 247 is too large`, 247);
  const count = Number(big);
  if (legacy !== 0 && legacy !== count) throw fail(`legacy point count ${legacy} at byte 107 disagrees with the 64-bit count ${count} at byte 247`, 107);
  return count;
}

function cString(bytes: Uint8Array, at: number, len: number): string {
  let s = '';
  for (let i = at; i < at + len && bytes[i] !== 0; i++) s += String.fromCharCode(bytes[i]!);
  return s;
}

/** VLRs lie between the header and the point data: each 54-byte header and its data must fit there. */
function readVlrs(bytes: Uint8Array, dv: DataView, headerSize: number, pointOffset: number, n: number, fail: (r: string, o: number) => DecodeError): LasVlr[] {
  if (n > (pointOffset - headerSize) / 54) {
    throw fail(`${n} VLRs at byte 100 cannot fit in the ${pointOffset - headerSize} bytes between the header and the point data`, 100);
  }
  const out: LasVlr[] = [];
  let o = headerSize;
  for (let i = 0; i < n; i++) {
    if (o + 54 > pointOffset) throw fail(`VLR ${i} at byte ${o} runs past the point data offset ${pointOffset}`, o);
    // VLR header: reserved u16, user id char[16], record id u16, data length u16, description char[32].
    const length = dv.getUint16(o + 20, true);
    if (o + 54 + length > pointOffset) throw fail(`VLR ${i} at byte ${o} (${length} bytes of data) runs past the point data offset ${pointOffset}`, o + 20);
    out.push({ userId: cString(bytes, o + 2, 16), recordId: dv.getUint16(o + 18, true), dataOffset: o + 54, length });
    o += 54 + length;
  }
  return out;
}

function readEvlrs(bytes: Uint8Array, dv: DataView, fail: (r: string, o: number) => DecodeError): LasVlr[] {
  const start = Number(dv.getBigUint64(235, true));
  const n = dv.getUint32(243, true);
  if (n === 0 || start === 0) return [];
  if (n > (bytes.length - start) / 60) throw fail(`${n} EVLRs from byte ${start} (at byte 235) cannot fit in a ${bytes.length}-byte file`, 243);
  const out: LasVlr[] = [];
  let o = start;
  for (let i = 0; i < n; i++) {
    if (o + 60 > bytes.length) throw fail(`truncated at byte ${o}: EVLR ${i} header runs past the end of the file`, o);
    const length = Number(dv.getBigUint64(o + 20, true));
    if (length > bytes.length - o - 60) throw fail(`EVLR ${i} at byte ${o} declares ${length} bytes of data past the end of the file`, o + 20);
    out.push({ userId: cString(bytes, o + 2, 16), recordId: dv.getUint16(o + 18, true), dataOffset: o + 60, length });
    o += 60 + length;
  }
  return out;
}

function laszipVlr(h: LasHeader, dv: DataView, fail: (r: string, o: number) => DecodeError): LaszipVlr | null {
  const v = h.vlrs.find((r) => r.userId === 'laszip encoded' && r.recordId === 22204);
  if (!v) return null;
  if (v.length < 34) throw fail(`LASzip VLR at byte ${v.dataOffset} has ${v.length} bytes, needs at least 34`, v.dataOffset);
  const items = dv.getUint16(v.dataOffset + 32, true);
  if (v.length < 34 + 6 * items) throw fail(`LASzip VLR at byte ${v.dataOffset} lists ${items} items but has only ${v.length} bytes`, v.dataOffset + 32);
  return { compressor: dv.getUint16(v.dataOffset, true), coder: dv.getUint16(v.dataOffset + 2, true), chunkSize: dv.getUint32(v.dataOffset + 12, true), at: v.dataOffset };
}

/**
 * Extra-bytes dimensions of plain types that fit inside the record (after the format's standard
 * fields). Undocumented (type 0) and tuple (11–30) entries take their room but are not offered.
 */
function extraBytes(h: LasHeader, bytes: Uint8Array): LasExtraBytes[] {
  const v = h.vlrs.find((r) => r.userId === 'LASF_Spec' && r.recordId === 4);
  if (!v) return [];
  const out: LasExtraBytes[] = [];
  let offset = LAS_FORMAT_SIZE[h.format]!;
  for (let o = v.dataOffset; o + 192 <= v.dataOffset + v.length; o += 192) {
    const type = bytes[o + 2]!;
    const size = type === 0 ? bytes[o + 3]! : type <= 30 ? EB_SIZE[((type - 1) % 10) + 1]! * (Math.floor((type - 1) / 10) + 1) : 0;
    if (size === 0 || offset + size > h.recordLength) break;
    if (type >= 1 && type <= 10) out.push({ name: cString(bytes, o + 4, 32), type, offset });
    offset += size;
  }
  return out;
}
