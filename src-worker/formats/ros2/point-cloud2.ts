/**
 * sensor_msgs/msg/PointCloud2 (ROS 2, CDR): decoding of any field layout, and an encoder for the
 * layout Thicket exports.
 *
 *   std_msgs/Header header
 *   uint32 height; uint32 width
 *   sensor_msgs/PointField[] fields            # string name; uint32 offset; uint8 datatype; uint32 count
 *   bool is_bigendian; uint32 point_step; uint32 row_step
 *   uint8[] data; bool is_dense
 *
 * Fields used: x, y, z (any numeric type, usually float32 or float64); intensity (or i,
 * reflectivity); ring (or channel); per-point time (t, time, timestamp, time_stamp). Points
 * with a non-finite coordinate (organised clouds mark misses with NaN) or at the origin carry no
 * direction and are dropped, counted.
 *
 * Per-point time comes in several conventions, told apart by the field's type and magnitude:
 * integers are nanoseconds (Ouster `t`, nebula `time_stamp`); floats are seconds (velodyne
 * `time`, Hesai `timestamp`), or nanoseconds when above 1e12 (Livox); a time above 1e6 s is
 * absolute (Unix) and is made relative to the header stamp.
 */
import { CdrWriter } from '@foxglove/cdr';
import { RING_UNKNOWN } from '../../../src-common/packets';
import { decodeMessage, messageError, toRosTime, type MessagePlace, type RosHeader } from './cdr';

export const POINT_CLOUD2_TYPE = 'sensor_msgs/msg/PointCloud2';

/** sensor_msgs/PointField datatypes. */
export const PointFieldType = { INT8: 1, UINT8: 2, INT16: 3, UINT16: 4, INT32: 5, UINT32: 6, FLOAT32: 7, FLOAT64: 8 } as const;
const TYPE_BYTES = [0, 1, 1, 2, 2, 4, 4, 4, 8];

export interface PointField {
  name: string;
  offset: number;
  datatype: number;
  count: number;
}

export interface PointCloud2 {
  header: RosHeader;
  height: number;
  width: number;
  fields: PointField[];
  isBigendian: boolean;
  pointStep: number;
  rowStep: number;
  /** A view into the message. */
  data: Uint8Array;
  isDense: boolean;
}

const INTENSITY_NAMES = ['intensity', 'i', 'reflectivity'];
const RING_NAMES = ['ring', 'channel'];
const TIME_NAMES = ['t', 'time', 'timestamp', 'time_stamp'];

/** Decodes the message and checks that its layout fits its data (so later reads stay inside). */
export function decodePointCloud2(data: Uint8Array, place: MessagePlace): PointCloud2 {
  const pc = decodeMessage(data, POINT_CLOUD2_TYPE, place, (c) => {
    const header = c.header();
    const height = c.u32('height');
    const width = c.u32('width');
    // name (length word at least), offset, datatype, count.
    const nf = c.seq('fields', 13);
    const fields: PointField[] = [];
    for (let i = 0; i < nf; i++) {
      const name = c.string(`fields[${i}].name`);
      const offset = c.u32(`fields[${i}].offset`);
      const datatype = c.u8(`fields[${i}].datatype`);
      const count = c.u32(`fields[${i}].count`);
      fields.push({ name, offset, datatype, count });
    }
    const isBigendian = c.bool('is_bigendian');
    const pointStep = c.u32('point_step');
    const rowStep = c.u32('row_step');
    const n = c.seq('data', 1);
    const bytes = c.bytes(n, 'data');
    // Some writers end the message right after the data; is_dense is then taken as false.
    const isDense = c.offset < c.length ? c.bool('is_dense') : false;
    return { header, height, width, fields, isBigendian, pointStep, rowStep, data: bytes, isDense };
  });
  checkLayout(pc, place);
  return pc;
}

function checkLayout(pc: PointCloud2, place: MessagePlace): void {
  const bad = (reason: string): never => { throw messageError(place, POINT_CLOUD2_TYPE, reason); };
  if (pc.height === 0 || pc.width === 0) return;
  for (const name of ['x', 'y', 'z']) {
    if (!fieldNamed(pc, [name])) bad(`no field ${name}: fields are ${pc.fields.map((f) => f.name).join(', ') || 'none'}`);
  }
  for (const f of usedFields(pc)) {
    if (!(f.datatype >= 1 && f.datatype <= 8)) bad(`field ${f.name} has datatype ${f.datatype} (expected 1…8)`);
    if (f.count < 1) bad(`field ${f.name} has count ${f.count}`);
    if (f.offset + TYPE_BYTES[f.datatype]! > pc.pointStep) bad(`field ${f.name} at offset ${f.offset} does not fit in point_step ${pc.pointStep}`);
  }
  if (pc.width * pc.pointStep > pc.rowStep) bad(`row_step ${pc.rowStep} is less than width ${pc.width} × point_step ${pc.pointStep}`);
  const need = (pc.height - 1) * pc.rowStep + pc.width * pc.pointStep;
  if (need > pc.data.byteLength) bad(`${pc.height} rows of ${pc.width} points need ${need} bytes of data, the message has ${pc.data.byteLength}`);
}

function fieldNamed(pc: PointCloud2, names: string[]): PointField | null {
  for (const n of names) {
    const f = pc.fields.find((g) => g.name.toLowerCase() === n);
    if (f) return f;
  }
  return null;
}

function usedFields(pc: PointCloud2): PointField[] {
  return [['x'], ['y'], ['z'], INTENSITY_NAMES, RING_NAMES, TIME_NAMES].map((n) => fieldNamed(pc, n)).filter((f): f is PointField => f !== null);
}

type Getter = (byteOffset: number) => number;

function getter(dv: DataView, f: PointField, le: boolean): Getter {
  const o = f.offset;
  switch (f.datatype) {
    case 1: return (p) => dv.getInt8(p + o);
    case 2: return (p) => dv.getUint8(p + o);
    case 3: return (p) => dv.getInt16(p + o, le);
    case 4: return (p) => dv.getUint16(p + o, le);
    case 5: return (p) => dv.getInt32(p + o, le);
    case 6: return (p) => dv.getUint32(p + o, le);
    case 7: return (p) => dv.getFloat32(p + o, le);
    default: return (p) => dv.getFloat64(p + o, le);
  }
}

/** The hits of a cloud as rays in its frame. */
export interface CloudRays {
  count: number;
  dir: Float32Array<ArrayBuffer>;
  range: Float32Array<ArrayBuffer>;
  intensity: Float32Array<ArrayBuffer>;
  ring: Uint16Array<ArrayBuffer> | null;
  /** Seconds after the header stamp (may be negative), null when the cloud has no time field. */
  time: Float64Array<ArrayBuffer> | null;
  /** Points without a direction (NaN, infinite or at the origin). */
  dropped: number;
  /** Which field gave what, for the log's notes. */
  fields: { intensity: string | null; ring: string | null; time: string | null };
}

/** Rays of a decoded cloud (layout already checked by decodePointCloud2). */
export function pointCloud2Rays(pc: PointCloud2): CloudRays {
  const total = pc.height * pc.width;
  if (total === 0) {
    return { count: 0, dir: new Float32Array(0), range: new Float32Array(0), intensity: new Float32Array(0), ring: null, time: null, dropped: 0, fields: { intensity: null, ring: null, time: null } };
  }
  const dv = new DataView(pc.data.buffer, pc.data.byteOffset, pc.data.byteLength);
  const le = !pc.isBigendian;
  const fx = getter(dv, fieldNamed(pc, ['x'])!, le), fy = getter(dv, fieldNamed(pc, ['y'])!, le), fz = getter(dv, fieldNamed(pc, ['z'])!, le);
  const fiF = fieldNamed(pc, INTENSITY_NAMES), frF = fieldNamed(pc, RING_NAMES), ftF = fieldNamed(pc, TIME_NAMES);
  const fi = fiF ? getter(dv, fiF, le) : null, fr = frF ? getter(dv, frF, le) : null, ft = ftF ? getter(dv, ftF, le) : null;
  const dir = new Float32Array(3 * total);
  const range = new Float32Array(total);
  const intensity = new Float32Array(total);
  const ring = fr ? new Uint16Array(total) : null;
  const rawTime = ft ? new Float64Array(total) : null;
  let k = 0, maxAbsTime = 0;
  for (let row = 0; row < pc.height; row++) {
    for (let col = 0; col < pc.width; col++) {
      const p = row * pc.rowStep + col * pc.pointStep;
      const x = fx(p), y = fy(p), z = fz(p);
      const r = Math.sqrt(x * x + y * y + z * z);
      if (!(r > 0 && Number.isFinite(r))) continue;
      dir[3 * k] = x / r;
      dir[3 * k + 1] = y / r;
      dir[3 * k + 2] = z / r;
      range[k] = r;
      if (fi) intensity[k] = fi(p);
      if (ring && fr) {
        const v = fr(p);
        ring[k] = Number.isInteger(v) && v >= 0 && v < RING_UNKNOWN ? v : RING_UNKNOWN;
      }
      if (rawTime && ft) {
        const v = ft(p);
        rawTime[k] = v;
        if (Number.isFinite(v) && Math.abs(v) > maxAbsTime) maxAbsTime = Math.abs(v);
      }
      k++;
    }
  }
  let time: Float64Array<ArrayBuffer> | null = null;
  if (rawTime && ftF) {
    const float = ftF.datatype === PointFieldType.FLOAT32 || ftF.datatype === PointFieldType.FLOAT64;
    const scale = !float || maxAbsTime > 1e12 ? 1e-9 : 1;
    const origin = maxAbsTime * scale > 1e6 ? pc.header.stamp : 0;
    time = new Float64Array(k);
    for (let i = 0; i < k; i++) {
      const v = rawTime[i]! * scale - origin;
      time[i] = Number.isFinite(v) ? v : 0;
    }
  }
  const trim = <T extends Float32Array<ArrayBuffer> | Uint16Array<ArrayBuffer>>(a: T, n: number): T => (a.length === n ? a : (a.slice(0, n) as T));
  return {
    count: k,
    dir: trim(dir, 3 * k),
    range: trim(range, k),
    intensity: trim(intensity, k),
    ring: ring ? trim(ring, k) : null,
    time,
    dropped: total - k,
    fields: { intensity: fiF?.name ?? null, ring: frF?.name ?? null, time: ftF?.name ?? null },
  };
}

/** Points to export: xyz in the message's frame, per-point time after the header stamp. */
export interface CloudToEncode {
  count: number;
  xyz: ArrayLike<number>;
  intensity?: ArrayLike<number> | null;
  ring?: ArrayLike<number> | null;
  /** Seconds after header.stamp. */
  time?: ArrayLike<number> | null;
}

/** The exported layout: x y z intensity float32, ring uint16, time float32 (s after the stamp). */
export const EXPORT_FIELDS: readonly PointField[] = [
  { name: 'x', offset: 0, datatype: PointFieldType.FLOAT32, count: 1 },
  { name: 'y', offset: 4, datatype: PointFieldType.FLOAT32, count: 1 },
  { name: 'z', offset: 8, datatype: PointFieldType.FLOAT32, count: 1 },
  { name: 'intensity', offset: 12, datatype: PointFieldType.FLOAT32, count: 1 },
  { name: 'ring', offset: 16, datatype: PointFieldType.UINT16, count: 1 },
  { name: 'time', offset: 20, datatype: PointFieldType.FLOAT32, count: 1 },
];
const EXPORT_STEP = 24;

/** CDR bytes of an unorganised (height 1) PointCloud2 in the EXPORT_FIELDS layout, little-endian. */
export function encodePointCloud2(header: RosHeader, cloud: CloudToEncode): Uint8Array {
  const n = cloud.count;
  const body = new Uint8Array(n * EXPORT_STEP);
  const dv = new DataView(body.buffer);
  for (let i = 0; i < n; i++) {
    const p = i * EXPORT_STEP;
    dv.setFloat32(p, cloud.xyz[3 * i]!, true);
    dv.setFloat32(p + 4, cloud.xyz[3 * i + 1]!, true);
    dv.setFloat32(p + 8, cloud.xyz[3 * i + 2]!, true);
    dv.setFloat32(p + 12, cloud.intensity ? cloud.intensity[i]! : 0, true);
    dv.setUint16(p + 16, cloud.ring ? cloud.ring[i]! : RING_UNKNOWN, true);
    dv.setFloat32(p + 20, cloud.time ? cloud.time[i]! : 0, true);
  }
  return encodePointCloud2Raw({
    header, height: 1, width: n, fields: [...EXPORT_FIELDS], isBigendian: false,
    pointStep: EXPORT_STEP, rowStep: n * EXPORT_STEP, data: body, isDense: true,
  });
}

/** CDR bytes of any PointCloud2 as given (tests build other layouts with it). */
export function encodePointCloud2Raw(pc: PointCloud2): Uint8Array {
  const w = new CdrWriter({ size: 128 + pc.fields.length * 32 + pc.data.byteLength });
  const t = toRosTime(pc.header.stamp);
  w.int32(t.sec).uint32(t.nanosec).string(pc.header.frameId);
  w.uint32(pc.height).uint32(pc.width);
  w.sequenceLength(pc.fields.length);
  for (const f of pc.fields) w.string(f.name).uint32(f.offset).uint8(f.datatype).uint32(f.count);
  w.uint8(pc.isBigendian ? 1 : 0).uint32(pc.pointStep).uint32(pc.rowStep);
  w.uint8Array(pc.data, true);
  w.uint8(pc.isDense ? 1 : 0);
  return w.data.slice();
}
