/**
 * ASPRS LAS 1.0–1.4 point clouds, point formats 0–10, and LAZ (formats 0–3, 6–8) through
 * laz-perf — LAZ needs `await initLaz()` once per thread first (see laz.ts); decoding is sync.
 *
 * Coordinates: LAS stores integers; x = X · scale + offset in float64. Georeferenced data
 * (UTM eastings of 500 000 m) would lose centimetres in a float32, so an axis whose coordinates
 * reach 8192 m (where float32 steps pass 0.5 mm) is shifted: xyz = world − origin, with
 * origin the whole metre at or below that axis' minimum. `origin` is returned; world = xyz +
 * origin. Axes within ±8192 m keep origin 0, so sensor-frame clouds stay in the sensor frame.
 *
 * Channels: intensity (raw uint16), gps_time (float64 s → relative float32 time, `timeBase`
 * the earliest), classification (raw ASPRS code → `cls`), user data (raw → `userData`), return
 * number (1-based → `ret`, 0-based), and `ring` from an extra-bytes dimension named
 * ring/laser_id/channel when there is one (this app's writer adds it). LAS has no sensor pose:
 * viewpoint is null. The header comes back too (`header`), for what an import keeps of it.
 */
import { DecodeError } from '../decode-error';
import { wholeRecords } from '../truncation';
import { countNonFinite, relativeTimes, ringsFrom, type DecodedCloud } from '../decoded-cloud';
import { encodeLas } from './las-encode';
import { LAS_FORMAT_SIZE, LAS_GPS_OFFSET, parseLasHeader, type LasExtraBytes, type LasHeader } from './las-header';
import { decodeLazRecords, validateLaz } from './laz';
import type { FuzzTarget } from '../fuzz-target';

export { initLaz, lazHeapBytes, lazReady } from './laz';

export interface LasCloud extends DecodedCloud {
  /** World position of the cloud's (0, 0, 0): world = xyz + origin (float64). */
  origin: [number, number, number];
  version: string;
  /** Point data record format 0–10. */
  pointFormat: number;
  compressed: boolean;
  /** The user data byte of every point (Thicket's files hold the site class there: las-classes.ts). */
  userData: Uint8Array<ArrayBuffer>;
  header: LasHeader;
}

/** Float32 keeps steps ≤ 0.49 mm below 8192 m; beyond it an axis is shifted to its own origin. */
const FLOAT32_SAFE = 8192;
const RING_NAMES = ['ring', 'laser_id', 'channel'];

export function decodeLas(bytes: Uint8Array, name: string): LasCloud {
  let h = parseLasHeader(bytes, name);
  // Uncompressed points cut mid-record keep their whole points (truncation.ts); a LAZ file's
  // chunk table, which says where its chunks are, is what a cut loses first.
  const cut = h.compressed ? null : wholeRecords(name, bytes.length, h.pointOffset, h.count, h.recordLength, 'points');
  if (cut) h = { ...h, count: cut.kept };
  const n = h.count;
  const layout = h.compressed ? validateLaz(bytes, h, name) : null;
  if (!layout) {
    const need = h.pointOffset + n * h.recordLength;
    if (need > bytes.length) {
      const whole = Math.floor((bytes.length - h.pointOffset) / h.recordLength);
      const at = h.pointOffset + whole * h.recordLength;
      throw new DecodeError(name, `truncated at byte ${at}: ${n} points × ${h.recordLength} bytes from byte ${h.pointOffset} need ${need} bytes, the file has ${bytes.length}`, { offset: at });
    }
  }
  let acc: Accumulator;
  try {
    acc = new Accumulator(h);
  } catch (e) {
    // Only a LAZ header can claim more points than the file's bytes hold (see laz.ts's cap).
    if (e instanceof RangeError) throw new DecodeError(name, `${n} points do not fit in memory`, { offset: h.versionMinor === 4 ? 247 : 107 });
    throw e;
  }
  if (layout) decodeLazRecords(bytes, h, layout, name, (dv, o, i) => acc.take(dv, o, i));
  else {
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0, o = h.pointOffset; i < n; i++, o += h.recordLength) acc.take(dv, o, i);
  }
  const cloud = acc.finish();
  return cut ? { ...cloud, warnings: [cut.warning] } : cloud;
}

/** Collects the channels of each record; coordinates stay integers until the origin is known. */
class Accumulator {
  private readonly h: LasHeader;
  private readonly ints: Int32Array<ArrayBuffer>;
  private readonly intensity: Float32Array<ArrayBuffer>;
  private readonly gps: Float64Array | null;
  private readonly cls: Uint8Array<ArrayBuffer>;
  private readonly userData: Uint8Array<ArrayBuffer>;
  private readonly ret: Uint8Array<ArrayBuffer>;
  private readonly ringDim: LasExtraBytes | null;
  private readonly ringRaw: Float64Array | null;
  private readonly lo = [Infinity, Infinity, Infinity];
  private readonly hi = [-Infinity, -Infinity, -Infinity];
  private readonly legacy: boolean;

  constructor(h: LasHeader) {
    const n = h.count;
    this.h = h;
    this.legacy = h.format <= 5;
    this.ints = new Int32Array(3 * n);
    this.intensity = new Float32Array(n);
    this.gps = LAS_GPS_OFFSET[h.format]! >= 0 ? new Float64Array(n) : null;
    this.cls = new Uint8Array(n);
    this.userData = new Uint8Array(n);
    this.ret = new Uint8Array(n);
    this.ringDim = h.extraBytes.find((e) => RING_NAMES.includes(e.name.toLowerCase())) ?? null;
    this.ringRaw = this.ringDim ? new Float64Array(n) : null;
  }

  take(dv: DataView, o: number, i: number): void {
    for (let a = 0; a < 3; a++) {
      const v = dv.getInt32(o + 4 * a, true);
      this.ints[3 * i + a] = v;
      if (v < this.lo[a]!) this.lo[a] = v;
      if (v > this.hi[a]!) this.hi[a] = v;
    }
    this.intensity[i] = dv.getUint16(o + 12, true);
    const flags = dv.getUint8(o + 14);
    // Return number: 3 bits in formats 0–5, 4 bits in 6–10; 1-based, 0 is invalid.
    const rn = this.legacy ? flags & 7 : flags & 15;
    this.ret[i] = rn > 0 ? rn - 1 : 0;
    this.cls[i] = this.legacy ? dv.getUint8(o + 15) & 31 : dv.getUint8(o + 16);
    this.userData[i] = dv.getUint8(o + 17); // byte 17 in every format 0–10
    if (this.gps) this.gps[i] = dv.getFloat64(o + LAS_GPS_OFFSET[this.h.format]!, true);
    if (this.ringRaw) this.ringRaw[i] = readExtra(dv, o + this.ringDim!.offset, this.ringDim!.type);
  }

  finish(): LasCloud {
    const { h } = this;
    const n = h.count;
    const origin: [number, number, number] = [0, 0, 0];
    for (let a = 0; a < 3 && n > 0; a++) {
      const w0 = this.lo[a]! * h.scale[a]! + h.offset[a]!, w1 = this.hi[a]! * h.scale[a]! + h.offset[a]!;
      if (Math.max(Math.abs(w0), Math.abs(w1)) >= FLOAT32_SAFE) origin[a] = Math.floor(Math.min(w0, w1));
    }
    // Convert in place: the float32 view shares the integers' buffer, element i for element i.
    const xyz = new Float32Array(this.ints.buffer);
    for (let i = 0; i < 3 * n; i++) {
      const a = i % 3;
      xyz[i] = this.ints[i]! * h.scale[a]! + (h.offset[a]! - origin[a]!);
    }
    const { time, timeBase } = this.gps ? relativeTimes(this.gps, 1) : { time: null, timeBase: 0 };
    return {
      count: n, xyz, intensity: this.intensity,
      ring: this.ringRaw ? ringsFrom(this.ringRaw) : null,
      time, timeBase, viewpoint: null,
      dropped: countNonFinite(xyz, n),
      cls: this.cls, ret: this.ret,
      origin, version: `1.${h.versionMinor}`, pointFormat: h.format, compressed: h.compressed,
      userData: this.userData, header: h,
    };
  }
}

function readExtra(dv: DataView, o: number, type: number): number {
  switch (type) {
    case 1: return dv.getUint8(o);
    case 2: return dv.getInt8(o);
    case 3: return dv.getUint16(o, true);
    case 4: return dv.getInt16(o, true);
    case 5: return dv.getUint32(o, true);
    case 6: return dv.getInt32(o, true);
    case 7: return Number(dv.getBigUint64(o, true));
    case 8: return Number(dv.getBigInt64(o, true));
    case 9: return dv.getFloat32(o, true);
    default: return dv.getFloat64(o, true);
  }
}

/** Format sizes, for callers that size buffers (re-exported so las.ts is the one entry point). */
export { LAS_FORMAT_SIZE };

/**
 * Small valid LAS inputs for the fuzz harness (both writer layouts). LAZ is not among them:
 * there is no LAZ encoder to build a sample in code, and real files may not be copied into the
 * repo; test/unit/formats/las/las.test.ts fuzzes a LAZ built from a shared real file instead.
 */
export const FUZZ_TARGETS: FuzzTarget[] = [
  {
    name: 'las 1.4 format 6',
    sample: () => encodeLas(fuzzCloud(), {}),
    decode: (bytes: Uint8Array) => decodeLas(bytes, 'fuzz.las'),
  },
  {
    name: 'las 1.4 format 6, georeferenced',
    sample: () => encodeLas({ ...fuzzCloud(), origin: [500000, 4649776, 0] }, {}),
    decode: (bytes: Uint8Array) => decodeLas(bytes, 'fuzz.las'),
  },
];

function fuzzCloud(): DecodedCloud {
  const n = 24;
  return {
    count: n,
    xyz: Float32Array.from({ length: 3 * n }, (_, i) => Math.sin(i * 1.3) * 30),
    intensity: Float32Array.from({ length: n }, (_, i) => i * 7),
    ring: Uint16Array.from({ length: n }, (_, i) => i % 32),
    time: Float32Array.from({ length: n }, (_, i) => i * 1e-4),
    timeBase: 1000,
    viewpoint: null,
    dropped: 0,
    cls: Uint8Array.from({ length: n }, (_, i) => i % 6),
    ret: Uint8Array.from({ length: n }, (_, i) => i % 2),
  };
}
