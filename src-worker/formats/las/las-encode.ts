/**
 * Writes LAS 1.4, point data record format 6, uncompressed.
 *
 * Why 1.4 / format 6 rather than 1.2 / format 1: 64-bit point counts (drive logs pass 2^32
 * rays), an 8-bit classification (format 1 keeps 5 bits), 4-bit return numbers, and the
 * standard extra-bytes record, which carries the laser ring as a `ring` uint16 dimension
 * (no-data 65535 = RING_UNKNOWN) — LAS has no ring field of its own. Every current reader
 * (PDAL, LAStools, laspy, lidR, CloudCompare, QGIS) reads it.
 *
 * Coordinates are integers at `scale` (default 1 mm) from an offset at the whole metre below
 * the data's minimum, so any extent up to ±2147 km at 1 mm fits and georeferenced positions
 * keep full precision. gps_time is float64 seconds: the cloud's timeBase + time, or the log's
 * seconds (packet time + ray time) for chunks. Intensity is uint16: value × intensityScale,
 * rounded and clamped (scale 1 keeps 0–255 sensor intensities; use 65535 for 0–1 reflectance).
 * Points with a non-finite coordinate cannot be stored and are left out. Classes are written as
 * the cloud/log holds them (no mapping to ASPRS codes).
 */
import type { DecodedCloud } from '../decoded-cloud';
import { POSE_STRIDE, RING_UNKNOWN, type PacketChunk } from '../../../src-common/packets';
import { transformPoint } from '../../geometry/pose';

export interface LasEncodeOptions {
  /** Coordinate resolution in metres (default 0.001). */
  scale?: number;
  /** Intensity multiplier before rounding to uint16 (default 1). */
  intensityScale?: number;
}

/** A cloud to write; `origin` (as decodeLas returns it) is added back: world = xyz + origin. */
export type LasInput = Pick<DecodedCloud, 'count' | 'xyz' | 'intensity'> &
  Partial<Pick<DecodedCloud, 'ring' | 'time' | 'timeBase' | 'cls' | 'ret'>> & { origin?: readonly number[] };

/** Per point: world x, y, z, intensity, gps time (s), ring, class, return (0-based). */
type Emit = (x: number, y: number, z: number, intensity: number, t: number, ring: number, cls: number, ret: number) => void;
/** Calls emit for every point, in the same order on every call (it is called twice). */
type PointSource = (emit: Emit) => void;

const HEADER = 375;
const VLR_HEADER = 54;
const EB_DESCRIPTOR = 192;
const RECORD = 30 + 2; // format 6 + ring
const POINT_OFFSET = HEADER + VLR_HEADER + EB_DESCRIPTOR;

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
 * world frame through its packet's pose (world ← sensor); false keeps each packet's sensor frame.
 */
export function encodeLasFromChunks(chunks: readonly PacketChunk[], opts: LasEncodeOptions & { world: boolean }): Uint8Array<ArrayBuffer> {
  const p3 = new Float64Array(3);
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
          emit(p3[0]!, p3[1]!, p3[2]!, c.rayIntensity[r]!, t0 + c.rayTime[r]!, c.rayRing[r]!, c.rayClass[r]!, c.rayReturn[r]!);
        }
      }
    }
  }, opts);
}

function writeLas(source: PointSource, opts: LasEncodeOptions): Uint8Array<ArrayBuffer> {
  const scale = opts.scale ?? 0.001;
  const iScale = opts.intensityScale ?? 1;
  if (!(scale > 0 && Number.isFinite(scale))) throw new Error(`LAS scale must be a positive number, got ${scale}`);

  // Pass 1: count, bounds and returns, to size the file and choose the offsets.
  let n = 0;
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  const byReturn = new Array<number>(15).fill(0);
  source((x, y, z, _i, _t, _ring, _cls, ret) => {
    if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z))) return;
    n++;
    const v = [x, y, z];
    for (let a = 0; a < 3; a++) { lo[a] = Math.min(lo[a]!, v[a]!); hi[a] = Math.max(hi[a]!, v[a]!); }
    byReturn[Math.min(ret, 14)]!++;
  });
  const offset = lo.map((v) => (n > 0 ? Math.floor(v) : 0));
  for (let a = 0; a < 3 && n > 0; a++) {
    if ((hi[a]! - offset[a]!) / scale >= 2 ** 31) throw new Error(`LAS: the ${'xyz'[a]} extent ${hi[a]! - lo[a]!} m does not fit 32-bit integers at scale ${scale}`);
  }

  const out = new Uint8Array(POINT_OFFSET + n * RECORD);
  const dv = new DataView(out.buffer);
  writeHeader(out, dv, n, scale, offset, n > 0 ? lo : [0, 0, 0], n > 0 ? hi : [0, 0, 0], byReturn);
  writeRingDescriptor(out, dv, HEADER);

  // Pass 2: the records.
  let o = POINT_OFFSET;
  source((x, y, z, intensity, t, ring, cls, ret) => {
    if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z))) return;
    dv.setInt32(o, Math.round((x - offset[0]!) / scale), true);
    dv.setInt32(o + 4, Math.round((y - offset[1]!) / scale), true);
    dv.setInt32(o + 8, Math.round((z - offset[2]!) / scale), true);
    const iv = Math.round(intensity * iScale);
    dv.setUint16(o + 12, iv > 65535 ? 65535 : iv > 0 ? iv : 0, true); // NaN → 0
    const rn = Math.min(ret, 14) + 1;
    dv.setUint8(o + 14, rn | (rn << 4)); // return number, number of returns (at least this one)
    dv.setUint8(o + 16, cls);
    dv.setFloat64(o + 22, t, true);
    dv.setUint16(o + 30, ring, true);
    o += RECORD;
  });
  return out;
}

function ascii(out: Uint8Array, at: number, s: string, len: number): void {
  for (let i = 0; i < Math.min(s.length, len); i++) out[at + i] = s.charCodeAt(i) & 0x7f;
}

function writeHeader(
  out: Uint8Array, dv: DataView, n: number, scale: number, offset: number[],
  lo: number[], hi: number[], byReturn: number[],
): void {
  ascii(out, 0, 'LASF', 4);
  dv.setUint16(6, 0x10, true); // global encoding: bit 4 (WKT) is required with formats 6–10
  out[24] = 1; out[25] = 4;
  ascii(out, 26, 'Thicket', 32);
  ascii(out, 58, 'Thicket', 32);
  dv.setUint16(94, HEADER, true);
  dv.setUint32(96, POINT_OFFSET, true);
  dv.setUint32(100, 1, true); // one VLR: the extra-bytes description of `ring`
  out[104] = 6;
  dv.setUint16(105, RECORD, true);
  // Legacy counts (107, 111) stay 0: formats 6–10 are not legacy-compatible.
  for (let a = 0; a < 3; a++) {
    dv.setFloat64(131 + 8 * a, scale, true);
    dv.setFloat64(155 + 8 * a, offset[a]!, true);
    dv.setFloat64(179 + 16 * a, hi[a]!, true);
    dv.setFloat64(187 + 16 * a, lo[a]!, true);
  }
  dv.setBigUint64(247, BigInt(n), true);
  for (let r = 0; r < 15; r++) dv.setBigUint64(255 + 8 * r, BigInt(byReturn[r]!), true);
}

/** VLR "LASF_Spec"/4 with one descriptor: uint16 `ring` right after format 6's 30 bytes. */
function writeRingDescriptor(out: Uint8Array, dv: DataView, at: number): void {
  ascii(out, at + 2, 'LASF_Spec', 16);
  dv.setUint16(at + 18, 4, true);
  dv.setUint16(at + 20, EB_DESCRIPTOR, true);
  ascii(out, at + 22, 'Extra Bytes', 32);
  const d = at + VLR_HEADER;
  out[d + 2] = 3; // unsigned short
  out[d + 3] = 1; // options: no_data is set
  ascii(out, d + 4, 'ring', 32);
  dv.setBigUint64(d + 40, BigInt(RING_UNKNOWN), true); // no_data[0]
  ascii(out, d + 160, 'laser ring index', 32);
}
