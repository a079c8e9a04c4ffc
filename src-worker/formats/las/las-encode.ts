/**
 * Writes uncompressed LAS: 1.4 with point data record format 6 (the default), or 1.2 with
 * format 3 for readers that refuse 1.4.
 *
 * Why 1.4 / format 6 by default: 64-bit point counts (drive logs pass 2^32 rays), an 8-bit
 * classification (formats 0–5 keep 5 bits), 4-bit return numbers. Both versions carry the laser
 * ring in the standard extra-bytes record as a `ring` uint16 dimension (no-data 65535 =
 * RING_UNKNOWN) — LAS has no ring field of its own.
 *
 * Coordinates are integers at `scale` (default 1 mm) from `offset` (default the whole metre below
 * the data's minimum); an export of a LAS log passes the source's scale and offsets, so its points
 * land on the source's grid. gps_time is float64 seconds: `timeBase` + the log's seconds (the
 * source's GPS clock for a LAS log, global encoding bit 0 saying which GPS time). Intensity is
 * scaled to 16 bits (las-intensity.ts) and the factor written in a VLR. Classification is the
 * ASPRS code of the site class, or the source's code where `codes` gives one, and the user data
 * byte the site class itself (las-classes.ts). `records` (a source's coordinate-system VLRs) are
 * copied as they are. Points with a non-finite coordinate cannot be stored and are left out.
 */
import type { DecodedCloud } from '../decoded-cloud';
import { POSE_STRIDE, RING_UNKNOWN, type PacketChunk } from '../../../src-common/packets';
import { transformPoint } from '../../geometry/pose';
import { asprsCode, THICKET_CLASSES_RECORD, THICKET_VLR_USER, thicketClassesRecord } from './las-classes';
import { intensityScaleFor, THICKET_INTENSITY_RECORD } from './las-intensity';

export type LasVersion = '1.2' | '1.4';

/** A variable-length record to write as it is. */
export interface LasRecord {
  userId: string;
  recordId: number;
  description: string;
  data: Uint8Array;
}

export interface LasEncodeOptions {
  /** '1.4' (point format 6, default) or '1.2' (point format 3). */
  version?: LasVersion;
  /** Coordinate resolution in metres per axis (default 0.001). */
  scale?: number | readonly number[];
  /** Coordinate offsets (default the whole metre below each axis' minimum). */
  offset?: readonly number[] | null;
  /** Intensity multiplier before rounding to uint16 (default chosen from the data: las-intensity.ts). */
  intensityScale?: number;
  /** Added to every time (s): the source's GPS time of the log's time 0. */
  timeBase?: number;
  /** Global encoding bit 0: 1 = adjusted standard GPS time, 0 = GPS week seconds. */
  gpsTimeType?: number;
  /** Records to copy (a source's coordinate system). */
  records?: readonly LasRecord[];
  /** Classification code per point in write order (a source's), overriding the site class's. */
  codes?: Uint8Array | null;
  /** The ASPRS code of each site class id (a project's class list); default las-classes.ts's. */
  asprsOf?: readonly number[] | null;
}

/** A cloud to write; `origin` (as decodeLas returns it) is added back: world = xyz + origin. */
export type LasInput = Pick<DecodedCloud, 'count' | 'xyz' | 'intensity'> &
  Partial<Pick<DecodedCloud, 'ring' | 'time' | 'timeBase' | 'cls' | 'ret'>> & { origin?: readonly number[] };

/** Per point: world x, y, z, intensity, time (s), ring, site class, return (0-based). */
type Emit = (x: number, y: number, z: number, intensity: number, t: number, ring: number, cls: number, ret: number) => void;
/** Calls emit for every point, in the same order on every call (it is called twice). */
type PointSource = (emit: Emit) => void;

const VLR_HEADER = 54;
const EB_DESCRIPTOR = 192;
const LAYOUT = {
  '1.4': { header: 375, format: 6, record: 30 + 2, cls: 16, gps: 22, ring: 30, returnBits: 4, maxReturns: 15 },
  '1.2': { header: 227, format: 3, record: 34 + 2, cls: 15, gps: 20, ring: 34, returnBits: 3, maxReturns: 5 },
} as const;
const USER_DATA = 17;

export function encodeLas(cloud: LasInput, opts: LasEncodeOptions = {}): Uint8Array<ArrayBuffer> {
  const { count: n, xyz, intensity, ring, time, cls, ret } = cloud;
  const o = cloud.origin ?? [0, 0, 0];
  const tb = cloud.timeBase ?? 0;
  return writeLas((emit) => {
    for (let i = 0; i < n; i++) {
      const t = time ? tb + time[i]! : 0;
      emit(xyz[3 * i]! + o[0]!, xyz[3 * i + 1]! + o[1]!, xyz[3 * i + 2]! + o[2]!, intensity[i]!,
        Number.isFinite(t) ? t : 0, ring ? ring[i]! : RING_UNKNOWN, cls ? cls[i]! : 0, ret ? ret[i]! : 0);
    }
  }, opts);
}

/**
 * Every hit of the chunks (misses have no point) as LAS. world: true puts each point in the
 * world frame through its packet's pose (world ← sensor), plus `origin` (a LAS log's points are
 * stored relative to it); false keeps each packet's sensor frame.
 */
export function encodeLasFromChunks(
  chunks: readonly PacketChunk[],
  opts: LasEncodeOptions & { world: boolean; origin?: readonly number[] },
): Uint8Array<ArrayBuffer> {
  const p3 = new Float64Array(3);
  const o = opts.world && opts.origin ? opts.origin : [0, 0, 0];
  return writeLas((emit) => {
    for (const c of chunks) {
      for (let p = 0; p < c.packetCount; p++) {
        const t0 = c.packetTime[p]!;
        for (let r = c.rayStart[p]!; r < c.rayStart[p + 1]!; r++) {
          const range = c.rayRange[r]!;
          if (Number.isNaN(range)) continue;
          const x = c.rayDir[3 * r]! * range, y = c.rayDir[3 * r + 1]! * range, z = c.rayDir[3 * r + 2]! * range;
          if (opts.world) transformPoint(c.packetPose, p * POSE_STRIDE, x, y, z, p3, 0);
          else { p3[0] = x; p3[1] = y; p3[2] = z; }
          emit(p3[0]! + o[0]!, p3[1]! + o[1]!, p3[2]! + o[2]!, c.rayIntensity[r]!, t0 + c.rayTime[r]!, c.rayRing[r]!, c.rayClass[r]!, c.rayReturn[r]!);
        }
      }
    }
  }, opts);
}

function writeLas(source: PointSource, opts: LasEncodeOptions): Uint8Array<ArrayBuffer> {
  const version = opts.version ?? '1.4';
  const L = LAYOUT[version];
  if (!L) throw new Error(`LAS version ${String(version)} cannot be written (1.2 or 1.4)`);
  const scale = typeof opts.scale === 'number' || opts.scale === undefined ? [0, 1, 2].map(() => (opts.scale as number | undefined) ?? 0.001) : [...opts.scale];
  for (const s of scale) if (!(s! > 0 && Number.isFinite(s))) throw new Error(`LAS scale must be a positive number, got ${s}`);
  const timeBase = opts.timeBase ?? 0;
  const codes = opts.codes ?? null;
  const table = opts.asprsOf ?? null;
  const classCode = (cls: number): number => (table && table[cls] !== undefined ? table[cls]! : asprsCode(cls));

  // Pass 1: count, bounds, returns and intensities, to size the file and choose offsets and factor.
  let n = 0, iMax = 0, whole = true;
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  const byReturn = new Array<number>(15).fill(0);
  source((x, y, z, intensity, _t, _ring, _cls, ret) => {
    if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z))) return;
    n++;
    const v = [x, y, z];
    for (let a = 0; a < 3; a++) { lo[a] = Math.min(lo[a]!, v[a]!); hi[a] = Math.max(hi[a]!, v[a]!); }
    byReturn[Math.min(ret, L.maxReturns - 1)]!++;
    if (intensity > iMax) iMax = intensity;
    if (whole && !Number.isInteger(intensity) && Number.isFinite(intensity)) whole = false;
  });
  if (version === '1.2' && n >= 2 ** 32) throw new Error(`LAS 1.2 holds at most 2^32 − 1 points, the export has ${n}: write LAS 1.4`);
  const iScale = opts.intensityScale ?? intensityScaleFor(iMax, whole);
  const offset = [0, 1, 2].map((a) => {
    const given = opts.offset?.[a];
    // The source's offset where every point fits 32-bit integers from it at this scale.
    if (given !== undefined && Number.isFinite(given) && fits(lo[a]!, hi[a]!, given, scale[a]!)) return given;
    return n > 0 ? Math.floor(lo[a]!) : 0;
  });
  for (let a = 0; a < 3 && n > 0; a++) {
    if (!fits(lo[a]!, hi[a]!, offset[a]!, scale[a]!)) throw new Error(`LAS: the ${'xyz'[a]} extent ${hi[a]! - lo[a]!} m does not fit 32-bit integers at scale ${scale[a]}`);
  }

  const records: LasRecord[] = [
    ringDescriptor(),
    { userId: THICKET_VLR_USER, recordId: THICKET_CLASSES_RECORD, description: 'Thicket class ids in user data', data: thicketClassesRecord() },
    { userId: THICKET_VLR_USER, recordId: THICKET_INTENSITY_RECORD, description: `intensity = source x ${iScale}`, data: new Uint8Array(new Float64Array([iScale]).buffer) },
    ...(opts.records ?? []),
  ];
  const pointOffset = L.header + records.reduce((s, r) => s + VLR_HEADER + r.data.length, 0);
  const out = new Uint8Array(pointOffset + n * L.record);
  const dv = new DataView(out.buffer);
  // Formats 6–10 require the WKT bit; a source's GeoTIFF keys are copied as they are (converting
  // them to WKT needs PROJ), so the bit is left clear when there are any.
  const geoTiff = records.some((r) => r.userId === 'LASF_Projection' && r.recordId >= 34735 && r.recordId <= 34737);
  const encoding = ((opts.gpsTimeType ?? 0) & 1) | (version === '1.4' && !geoTiff ? 0x10 : 0);
  writeHeader(out, dv, version, n, { scale, offset, encoding, pointOffset, records: records.length },
    n > 0 ? lo : [0, 0, 0], n > 0 ? hi : [0, 0, 0], byReturn);
  let at: number = L.header;
  for (const r of records) at = writeRecord(out, dv, at, r);

  // Pass 2: the records.
  let o = pointOffset, k = -1;
  source((x, y, z, intensity, t, ring, cls, ret) => {
    k++;
    if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z))) return;
    dv.setInt32(o, Math.round((x - offset[0]!) / scale[0]!), true);
    dv.setInt32(o + 4, Math.round((y - offset[1]!) / scale[1]!), true);
    dv.setInt32(o + 8, Math.round((z - offset[2]!) / scale[2]!), true);
    const iv = Math.round(intensity * iScale);
    dv.setUint16(o + 12, iv > 65535 ? 65535 : iv > 0 ? iv : 0, true); // NaN → 0
    const rn = Math.min(ret, L.maxReturns - 1) + 1;
    dv.setUint8(o + 14, rn | (rn << L.returnBits)); // return number, number of returns (at least this one)
    const code = codes && k < codes.length ? codes[k]! : classCode(cls);
    // Formats 0–5 keep 5 bits of class: a code above 31 becomes the site class's default code.
    dv.setUint8(o + L.cls, version === '1.2' && code > 31 ? asprsCode(cls) : code);
    dv.setUint8(o + USER_DATA, cls);
    dv.setFloat64(o + L.gps, timeBase + t, true);
    dv.setUint16(o + L.ring, ring, true);
    o += L.record;
  });
  return out;
}

function fits(lo: number, hi: number, offset: number, scale: number): boolean {
  return Math.abs((hi - offset) / scale) < 2 ** 31 && Math.abs((lo - offset) / scale) < 2 ** 31;
}

function ascii(out: Uint8Array, at: number, s: string, len: number): void {
  for (let i = 0; i < Math.min(s.length, len); i++) out[at + i] = s.charCodeAt(i) & 0x7f;
}

interface HeaderFields {
  scale: number[];
  offset: number[];
  encoding: number;
  pointOffset: number;
  records: number;
}

function writeHeader(out: Uint8Array, dv: DataView, version: LasVersion, n: number, f: HeaderFields, lo: number[], hi: number[], byReturn: number[]): void {
  const L = LAYOUT[version];
  ascii(out, 0, 'LASF', 4);
  dv.setUint16(6, f.encoding, true);
  out[24] = 1; out[25] = version === '1.4' ? 4 : 2;
  ascii(out, 26, 'Thicket', 32);
  ascii(out, 58, 'Thicket', 32);
  dv.setUint16(94, L.header, true);
  dv.setUint32(96, f.pointOffset, true);
  dv.setUint32(100, f.records, true);
  out[104] = L.format;
  dv.setUint16(105, L.record, true);
  for (let a = 0; a < 3; a++) {
    dv.setFloat64(131 + 8 * a, f.scale[a]!, true);
    dv.setFloat64(155 + 8 * a, f.offset[a]!, true);
    dv.setFloat64(179 + 16 * a, hi[a]!, true);
    dv.setFloat64(187 + 16 * a, lo[a]!, true);
  }
  if (version === '1.2') {
    dv.setUint32(107, n, true);
    for (let r = 0; r < 5; r++) dv.setUint32(111 + 4 * r, byReturn[r]!, true);
    return;
  }
  // Legacy counts (107, 111) stay 0: formats 6–10 are not legacy-compatible.
  dv.setBigUint64(247, BigInt(n), true);
  for (let r = 0; r < 15; r++) dv.setBigUint64(255 + 8 * r, BigInt(byReturn[r]!), true);
}

/** A VLR: reserved u16, user id char[16], record id u16, length u16, description char[32], data. */
function writeRecord(out: Uint8Array, dv: DataView, at: number, r: LasRecord): number {
  if (r.data.length > 0xffff) throw new Error(`LAS: the ${r.userId} record ${r.recordId} has ${r.data.length} bytes, a VLR holds at most 65,535`);
  ascii(out, at + 2, r.userId, 16);
  dv.setUint16(at + 18, r.recordId, true);
  dv.setUint16(at + 20, r.data.length, true);
  ascii(out, at + 22, r.description, 32);
  out.set(r.data, at + VLR_HEADER);
  return at + VLR_HEADER + r.data.length;
}

/** "LASF_Spec"/4 with one descriptor: uint16 `ring` right after the format's standard bytes. */
function ringDescriptor(): LasRecord {
  const d = new Uint8Array(EB_DESCRIPTOR);
  const dv = new DataView(d.buffer);
  d[2] = 3; // unsigned short
  d[3] = 1; // options: no_data is set
  ascii(d, 4, 'ring', 32);
  dv.setBigUint64(40, BigInt(RING_UNKNOWN), true); // no_data[0]
  ascii(d, 160, 'laser ring index', 32);
  return { userId: 'LASF_Spec', recordId: 4, description: 'Extra Bytes', data: d };
}
