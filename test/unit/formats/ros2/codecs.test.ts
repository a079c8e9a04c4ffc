import { describe, expect, it } from 'vitest';
import { CdrWriter } from '@foxglove/cdr';
import {
  EXPORT_FIELDS,
  PointFieldType,
  decodeOdometry,
  decodePointCloud2,
  decodeTfMessage,
  decodeVelodyneScan,
  encodeOdometry,
  encodePointCloud2,
  encodePointCloud2Raw,
  encodeTfMessage,
  encodeVelodyneScan,
  pointCloud2Rays,
  toRosTime,
  type PointField,
} from '../../../../src-worker/formats/ros2/index';
import { RING_UNKNOWN } from '../../../../src-common/packets';
import { decodeErrorOf } from '../helpers';

const place = { file: 'bag.db3', topic: '/lidar', index: 7 };

describe('VelodyneScan', () => {
  it('round-trips stamps, frame and packet bytes; packet data are views at 4-aligned offsets', () => {
    const packets = [0, 1, 2].map((k) => ({ stamp: 1700000000 + k * 0.00133, data: Uint8Array.from({ length: 1206 }, (_, i) => (i * 7 + k) & 0xff) }));
    const bytes = encodeVelodyneScan({ header: { stamp: 1700000000.25, frameId: 'velodyne' }, packets });
    // Header: 4 + 8 + (4 + 9 'velodyne\0', padded to 24); sequence length 4; each packet 8 + 1206 + 2 padding.
    expect(bytes.byteLength).toBe(4 + 8 + 4 + 9 + 3 + 4 + 3 * 1216 - 2);
    const scan = decodeVelodyneScan(bytes, place);
    expect(scan.header.frameId).toBe('velodyne');
    expect(scan.header.stamp).toBeCloseTo(1700000000.25, 6);
    expect(scan.packets).toHaveLength(3);
    scan.packets.forEach((p, k) => {
      expect(p.stamp).toBeCloseTo(packets[k]!.stamp, 6);
      expect(Array.from(p.data)).toEqual(Array.from(packets[k]!.data));
      expect(bytes.subarray(p.offset, p.offset + 1206)).toEqual(packets[k]!.data);
    });
  });

  it('a truncated scan is a DecodeError naming the topic, message index and byte', () => {
    const bytes = encodeVelodyneScan({ header: { stamp: 1, frameId: 'v' }, packets: [{ stamp: 1, data: new Uint8Array(1206) }] });
    const e = decodeErrorOf(() => decodeVelodyneScan(bytes.subarray(0, 600), place));
    expect(e.message).toMatch(/\/lidar message 7 \(velodyne_msgs\/msg\/VelodyneScan\), byte \d+ of 600/);
    expect(e.file).toBe('bag.db3');
  });

  it('a packet count beyond the message fails before any loop', () => {
    const w = new CdrWriter();
    w.int32(1).uint32(0).string('v').sequenceLength(4_000_000_000);
    const e = decodeErrorOf(() => decodeVelodyneScan(w.data, place));
    expect(e.reason).toMatch(/packets: 4000000000 elements/);
  });

  it('an encapsulation header that is not plain CDR is refused at byte 0', () => {
    const bytes = encodeVelodyneScan({ header: { stamp: 1, frameId: 'v' }, packets: [] });
    bytes[1] = 0x02; // PL_CDR_BE
    expect(decodeErrorOf(() => decodeVelodyneScan(bytes, { ...place, offset: 1000 })).offset).toBe(1000);
  });

  it('reads big-endian CDR too', () => {
    const w = new CdrWriter({ kind: 0 /* CDR_BE */ });
    const data = Uint8Array.from({ length: 1206 }, (_, i) => i & 0xff);
    w.int32(5).uint32(500_000_000).string('be').sequenceLength(1).int32(6).uint32(0).uint8Array(data, false);
    const scan = decodeVelodyneScan(w.data, place);
    expect(scan.header.stamp).toBe(5.5);
    expect(scan.packets[0]!.stamp).toBe(6);
    expect(scan.packets[0]!.data[1205]).toBe(1205 & 0xff);
  });
});

/** A cloud with an arbitrary field layout built by hand. */
function rawCloud(fields: PointField[], step: number, points: number[][], opts: { bigEndian?: boolean; height?: number; rowPad?: number; stamp?: number } = {}): Uint8Array {
  const height = opts.height ?? 1;
  const width = points.length / height;
  const rowStep = width * step + (opts.rowPad ?? 0);
  const data = new Uint8Array(height * rowStep);
  const dv = new DataView(data.buffer);
  const le = !opts.bigEndian;
  points.forEach((vals, i) => {
    const row = Math.floor(i / width), col = i % width;
    const base = row * rowStep + col * step;
    fields.forEach((f, k) => {
      const v = vals[k]!, o = base + f.offset;
      switch (f.datatype) {
        case PointFieldType.INT8: dv.setInt8(o, v); break;
        case PointFieldType.UINT8: dv.setUint8(o, v); break;
        case PointFieldType.INT16: dv.setInt16(o, v, le); break;
        case PointFieldType.UINT16: dv.setUint16(o, v, le); break;
        case PointFieldType.INT32: dv.setInt32(o, v, le); break;
        case PointFieldType.UINT32: dv.setUint32(o, v, le); break;
        case PointFieldType.FLOAT32: dv.setFloat32(o, v, le); break;
        default: dv.setFloat64(o, v, le);
      }
    });
  });
  return encodePointCloud2Raw({
    header: { stamp: opts.stamp ?? 1700000000, frameId: 'os_lidar' }, height, width, fields, isBigendian: !!opts.bigEndian,
    pointStep: step, rowStep, data, isDense: false,
  });
}

const F = (name: string, offset: number, datatype: number): PointField => ({ name, offset, datatype, count: 1 });

describe('PointCloud2', () => {
  it('the export layout round-trips points, intensity, ring and time', () => {
    const xyz = Float32Array.from([1, 2, 3, -4, 5, -6]);
    const bytes = encodePointCloud2({ stamp: 1700000001.5, frameId: 'lidar' }, { count: 2, xyz, intensity: [10, 20], ring: [3, RING_UNKNOWN], time: [0, 0.05] });
    const pc = decodePointCloud2(bytes, place);
    expect(pc.fields.map((f) => f.name)).toEqual(EXPORT_FIELDS.map((f) => f.name));
    expect(pc.pointStep).toBe(24);
    const r = pointCloud2Rays(pc);
    expect(r.count).toBe(2);
    expect(r.range[0]).toBeCloseTo(Math.hypot(1, 2, 3), 5);
    expect(r.dir[5]! * r.range[1]!).toBeCloseTo(-6, 5);
    expect(Array.from(r.intensity)).toEqual([10, 20]);
    expect(Array.from(r.ring!)).toEqual([3, RING_UNKNOWN]);
    expect(r.time![1]).toBeCloseTo(0.05, 7);
    expect(r.fields).toEqual({ intensity: 'intensity', ring: 'ring', time: 'time' });
  });

  it('Ouster layout: float32 xyz with padding, uint32 t in ns, uint16 ring, organised with NaN misses and row padding', () => {
    const fields = [F('x', 0, 7), F('y', 4, 7), F('z', 8, 7), F('intensity', 16, 7), F('t', 20, 6), F('reflectivity', 24, 4), F('ring', 26, 4)];
    const pts = [
      [1, 0, 0, 5, 0, 9, 0], [NaN, NaN, NaN, 0, 1000, 0, 1],
      [0, 2, 0, 6, 50_000_000, 9, 0], [0, 0, 3, 7, 99_000_000, 9, 1],
    ];
    const r = pointCloud2Rays(decodePointCloud2(rawCloud(fields, 32, pts, { height: 2, rowPad: 8 }), place));
    expect(r.count).toBe(3);
    expect(r.dropped).toBe(1);
    expect(Array.from(r.range)).toEqual([1, 2, 3]);
    expect(Array.from(r.ring!)).toEqual([0, 0, 1]);
    expect(r.time![1]).toBeCloseTo(0.05, 9);
    expect(r.time![2]).toBeCloseTo(0.099, 9);
  });

  it('float64 xyz, big-endian, channel as ring, absolute float64 timestamps made relative to the stamp', () => {
    const fields = [F('x', 0, 8), F('y', 8, 8), F('z', 16, 8), F('channel', 24, 2), F('timestamp', 28, 8)];
    const stamp = 1700000000;
    const pts = [[10, 0, 0, 4, stamp + 0.01], [0, -10, 0, 5, stamp + 0.02]];
    const r = pointCloud2Rays(decodePointCloud2(rawCloud(fields, 36, pts, { bigEndian: true, stamp }), place));
    expect(Array.from(r.range)).toEqual([10, 10]);
    expect(r.dir[4]).toBe(-1);
    expect(Array.from(r.ring!)).toEqual([4, 5]);
    expect(r.time![0]).toBeCloseTo(0.01, 6);
    expect(r.time![1]).toBeCloseTo(0.02, 6);
  });

  it('velodyne layout: float32 time in seconds relative; a cloud without intensity reads 0', () => {
    const fields = [F('x', 0, 7), F('y', 4, 7), F('z', 8, 7), F('time', 12, 7)];
    const r = pointCloud2Rays(decodePointCloud2(rawCloud(fields, 16, [[1, 1, 0, -0.05], [2, 2, 0, 0.04]]), place));
    expect(r.time![0]).toBeCloseTo(-0.05, 7);
    expect(Array.from(r.intensity)).toEqual([0, 0]);
    expect(r.ring).toBeNull();
  });

  it('layouts that do not fit their data are DecodeErrors naming the message', () => {
    const fields = [F('x', 0, 7), F('y', 4, 7), F('z', 8, 7)];
    const good = rawCloud(fields, 12, [[1, 2, 3], [4, 5, 6]]);
    const pc = decodePointCloud2(good, place);
    const bad = (patch: Partial<typeof pc>): Uint8Array => encodePointCloud2Raw({ ...pc, ...patch });
    expect(decodeErrorOf(() => decodePointCloud2(bad({ width: 3, rowStep: 36 }), place)).reason).toMatch(/need 36 bytes of data, the message has 24/);
    expect(decodeErrorOf(() => decodePointCloud2(bad({ pointStep: 8, rowStep: 16 }), place)).reason).toMatch(/field z at offset 8 does not fit in point_step 8/);
    expect(decodeErrorOf(() => decodePointCloud2(bad({ fields: [F('x', 0, 7), F('y', 4, 7), F('z', 8, 9)] }), place)).reason).toMatch(/datatype 9/);
    expect(decodeErrorOf(() => decodePointCloud2(bad({ fields: [F('x', 0, 7), F('y', 4, 7)] }), place)).reason).toMatch(/no field z/);
    expect(decodeErrorOf(() => decodePointCloud2(bad({ rowStep: 10 }), place)).reason).toMatch(/row_step 10/);
    const e = decodeErrorOf(() => decodePointCloud2(good.subarray(0, 50), place));
    expect(e.message).toMatch(/\/lidar message 7 \(sensor_msgs\/msg\/PointCloud2\), byte \d+ of 50/);
  });

  it('an empty cloud decodes to no rays', () => {
    const r = pointCloud2Rays(decodePointCloud2(encodePointCloud2({ stamp: 1, frameId: 'l' }, { count: 0, xyz: [] }), place));
    expect(r.count).toBe(0);
  });
});

describe('TFMessage and Odometry', () => {
  it('TFMessage round-trips every transform', () => {
    const tfs = [
      { stamp: 1700000000.125, parent: 'map', child: 'odom', pose: [1, 2, 3, 0, 0, 0, 1] },
      { stamp: 1700000000.2, parent: 'odom', child: 'base_link', pose: [4, 5, 6, 0, 0, Math.sin(0.3), Math.cos(0.3)] },
    ];
    const out = decodeTfMessage(encodeTfMessage(tfs), place);
    expect(out.map((t) => [t.parent, t.child])).toEqual([['map', 'odom'], ['odom', 'base_link']]);
    expect(out[0]!.stamp).toBe(1700000000.125);
    out.forEach((t, i) => t.pose.forEach((v, k) => expect(v).toBeCloseTo(tfs[i]!.pose[k]!, 12)));
  });

  it('Odometry gives header.frame_id ← child_frame_id at its pose', () => {
    const o = decodeOdometry(encodeOdometry({ stamp: 12.5, parent: 'odom', child: 'base_link', pose: [7, 8, 9, 0, Math.sin(0.1), 0, Math.cos(0.1)] }), place);
    expect(o).toMatchObject({ stamp: 12.5, parent: 'odom', child: 'base_link' });
    expect(o.pose[0]).toBe(7);
    expect(o.pose[4]).toBeCloseTo(Math.sin(0.1), 15);
  });

  it('bad bytes are DecodeErrors with the message place', () => {
    const one = { stamp: 1, parent: 'a', child: 'b', pose: [0, 0, 0, 0, 0, 0, 1] };
    const tf = encodeTfMessage([one, one]);
    expect(decodeErrorOf(() => decodeTfMessage(tf.subarray(0, tf.length - 1), place)).reason).toMatch(/transforms\[1\]\.transform\[6\] needs 8 bytes/);
    // A count the bytes cannot hold fails on the count.
    expect(decodeErrorOf(() => decodeTfMessage(encodeTfMessage([one]).subarray(0, 40), place)).reason).toMatch(/transforms: 1 elements/);
    const nsec = encodeTfMessage([{ stamp: 1, parent: 'a', child: 'b', pose: [0, 0, 0, 0, 0, 0, 1] }]);
    new DataView(nsec.buffer).setUint32(12, 2e9, true);
    expect(decodeErrorOf(() => decodeTfMessage(nsec, place)).reason).toMatch(/nanosec 2000000000/);
  });

  it('toRosTime splits seconds into sec and nanosec', () => {
    expect(toRosTime(1.5)).toEqual({ sec: 1, nanosec: 500_000_000 });
    expect(toRosTime(-0.25)).toEqual({ sec: -1, nanosec: 750_000_000 });
    expect(toRosTime(2.9999999999)).toEqual({ sec: 3, nanosec: 0 });
  });
});
