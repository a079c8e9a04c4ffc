import { describe, expect, it } from 'vitest';
import type { DecodedPacket, LogSourceInfo } from '../../../../src-worker/formats/log-source';
import {
  ODOMETRY_TYPE,
  POINT_CLOUD2_TYPE,
  TF_MESSAGE_TYPE,
  VELODYNE_SCAN_TYPE,
  encodeOdometry,
  encodePointCloud2,
  encodeTfMessage,
  encodeVelodyneScan,
  ros2Packets,
  type BagMessage,
  type Ros2PacketOptions,
} from '../../../../src-worker/formats/ros2/index';
import { composePoses } from '../../../../src-worker/geometry/trajectory';
import { builtinProfile } from '../../../../src-common/builtin-profiles';
import { decodeErrorOf } from '../helpers';

const T0 = 1_700_000_000;
const ns = (t: number): bigint => BigInt(Math.round((t - T0) * 1e9)) + BigInt(T0) * 1_000_000_000n;

/** The vehicle: 2 m/s along x, turning at 0.5 rad/s (odom ← base_link at time t). */
function vehicle(t: number): number[] {
  const s = t - T0;
  return [2 * s, 0, 0, 0, 0, Math.sin(0.25 * s), Math.cos(0.25 * s)];
}
const MOUNT = [0.5, 0, 1.8, 0, 0, Math.sin(0.05), Math.cos(0.05)]; // base_link ← lidar
function sensorPose(t: number): number[] {
  const out = new Array<number>(7);
  composePoses(vehicle(t), 0, MOUNT, 0, out, 0);
  return out;
}

/** A 10-point cloud whose per-point time (uint32 ns field 't' is not in the export layout; float 'time') spans 0…9 ms. */
function cloud(stamp: number, frameId = 'lidar'): Uint8Array {
  const n = 10;
  const xyz = Float32Array.from({ length: 3 * n }, (_, i) => (i % 3 === 0 ? 5 + i : i % 3 === 1 ? -2 : 0.5));
  return encodePointCloud2({ stamp, frameId }, { count: n, xyz, time: Float32Array.from({ length: n }, (_, i) => 0.002 + i * 0.001) });
}

/** Sorted by bag time, as a bag stores them: clouds at 10 Hz, tf at 50 Hz, a static mount. */
function bag(opts: { poses?: 'tf' | 'odometry' | 'none'; cloudFrame?: string; shuffleTf?: boolean; seconds?: number } = {}): BagMessage[] {
  const msgs: BagMessage[] = [];
  const seconds = opts.seconds ?? 1;
  const poses = opts.poses ?? 'tf';
  if (poses !== 'none') {
    msgs.push({ topic: '/tf_static', type: TF_MESSAGE_TYPE, timestamp: ns(T0), data: encodeTfMessage([{ stamp: T0, parent: 'base_link', child: 'lidar', pose: MOUNT }]) });
    for (let k = 0; k <= seconds * 50; k++) {
      const t = T0 + k * 0.02;
      const data = poses === 'tf'
        ? encodeTfMessage([{ stamp: t, parent: 'odom', child: 'base_link', pose: vehicle(t) }])
        : encodeOdometry({ stamp: t, parent: 'odom', child: 'base_link', pose: vehicle(t) });
      // Published 15 ms after its stamp: each cloud reaches the bag before the poses after it.
      msgs.push({ topic: poses === 'tf' ? '/tf' : '/odom', type: poses === 'tf' ? TF_MESSAGE_TYPE : ODOMETRY_TYPE, timestamp: ns(t + 0.015), data });
    }
  }
  for (let k = 0; k < seconds * 10; k++) {
    const t = T0 + 0.013 + k * 0.1;
    msgs.push({ topic: '/points', type: POINT_CLOUD2_TYPE, timestamp: ns(t + 0.001), data: cloud(t, opts.cloudFrame) });
  }
  msgs.sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0));
  if (opts.shuffleTf) {
    // Swap neighbouring tf messages: samples arrive out of order.
    for (let i = 0; i + 3 < msgs.length; i++) {
      if (msgs[i]!.topic === '/tf' && msgs[i + 1]!.topic === '/tf') { [msgs[i], msgs[i + 1]] = [msgs[i + 1]!, msgs[i]!]; i++; }
    }
  }
  return msgs;
}

function run(messages: BagMessage[], opts: Partial<Ros2PacketOptions> = {}): { packets: DecodedPacket[]; info: LogSourceInfo } {
  const gen = ros2Packets(messages, { name: 'test.db3', profile: null, ...opts });
  const packets: DecodedPacket[] = [];
  for (let r = gen.next(); ; r = gen.next()) {
    if (r.done) return { packets, info: r.value };
    packets.push({ ...r.value, pose: r.value.pose ? Array.from(r.value.pose) : null });
  }
}

/** Unix times in doubles resolve 0.24 µs: at 2 m/s, poses agree to a few 1e-7 m. */
function expectPose(actual: ArrayLike<number> | null | undefined, expected: number[], tol = 2e-6): void {
  expect(actual).toBeTruthy();
  for (let k = 0; k < 3; k++) expect(Math.abs(actual![k]! - expected[k]!)).toBeLessThan(tol);
  // q and −q are the same rotation.
  const dot = Math.abs(actual![3]! * expected[3]! + actual![4]! * expected[4]! + actual![5]! * expected[5]! + actual![6]! * expected[6]!);
  expect(1 - dot).toBeLessThan(tol);
}

describe('ros2Packets: PointCloud2 with tf', () => {
  it('poses each cloud at its first point from the tf chain odom ← base_link ← lidar (interpolated, exact for this motion)', () => {
    const { packets, info } = run(bag());
    expect(packets).toHaveLength(10);
    packets.forEach((p, k) => {
      // The header stamp; per-point times after it (2…11 ms).
      expect(p.time).toBeCloseTo(T0 + 0.013 + k * 0.1, 6);
      expect(p.rayTime![0]).toBeCloseTo(0.002, 7);
      expect(p.rayTime![9]).toBeCloseTo(0.011, 7);
      expectPose(p.pose, sensorPose(p.time));
    });
    expect(info).toMatchObject({ format: 'ros2-bag', recordsMisses: false });
    expect(info.notes).toMatchObject({ topic: '/points', messageType: POINT_CLOUD2_TYPE, pointMessages: 10, packets: 10, poseSource: 'tf odom ← lidar', packetsWithoutPose: 0, tfMessages: 52 });
  });

  it('the same from nav_msgs/Odometry, and from tf samples that arrive out of order', () => {
    for (const b of [bag({ poses: 'odometry' }), bag({ shuffleTf: true })]) {
      const { packets, info } = run(b);
      expect(info.notes.packetsWithoutPose).toBe(0);
      packets.forEach((p) => expectPose(p.pose, sensorPose(p.time)));
    }
  });

  it('a cloud frame missing from the tree stands on the first moving frame (base_link)', () => {
    const { packets, info } = run(bag({ cloudFrame: 'velodyne' }));
    packets.forEach((p) => expectPose(p.pose, vehicle(p.time)));
    expect(info.notes.poseSource).toBe('tf odom ← base_link (standing in for velodyne)');
  });

  it('worldFrame cuts the chain at a named frame; a frame never reached leaves packets unposed', () => {
    const withMap = [
      { topic: '/tf_static', type: TF_MESSAGE_TYPE, timestamp: ns(T0), data: encodeTfMessage([{ stamp: T0, parent: 'map', child: 'odom', pose: [100, 0, 0, 0, 0, 0, 1] }]) },
      ...bag(),
    ];
    const inMap = run(withMap);
    inMap.packets.forEach((p) => { const e = sensorPose(p.time); e[0] = e[0]! + 100; expectPose(p.pose, e); });
    const inOdom = run(withMap, { worldFrame: 'odom' });
    inOdom.packets.forEach((p) => expectPose(p.pose, sensorPose(p.time)));
    const nowhere = run(withMap, { worldFrame: 'earth' });
    expect(nowhere.packets.every((p) => p.pose === null)).toBe(true);
  });

  it('a cloud stamped at the end of its sweep (negative point times) starts at its earliest point', () => {
    const xyz = [1, 0, 0, 0, 1, 0, 0, 0, 1];
    const data = encodePointCloud2({ stamp: T0 + 5, frameId: 'lidar' }, { count: 3, xyz, time: [-0.1, -0.05, 0] });
    const { packets } = run([{ topic: '/points', type: POINT_CLOUD2_TYPE, timestamp: ns(T0 + 5), data }]);
    expect(packets[0]!.time).toBeCloseTo(T0 + 4.9, 6);
    expect(Array.from(packets[0]!.rayTime!).map((t) => +t.toFixed(6))).toEqual([0, 0.05, 0.1]);
  });

  it('without tf every packet comes through unposed (after the lookahead)', () => {
    const { packets, info } = run(bag({ poses: 'none' }));
    expect(packets).toHaveLength(10);
    expect(packets.every((p) => p.pose === null)).toBe(true);
    expect(info.notes).toMatchObject({ poseSource: 'none', packetsWithoutPose: 10 });
  });

  it('poses past the last tf sample are held at it (clamped), not extrapolated', () => {
    const early = bag({ seconds: 1 }).filter((m) => m.topic !== '/tf' || Number(BigInt(m.timestamp) - ns(T0)) < 0.5e9);
    const { packets } = run(early);
    const lastTf = T0 + 0.48; // the last sample published before 0.5 s
    for (const p of packets) expectPose(p.pose, sensorPose(Math.min(p.time, lastTf)));
  });
});

describe('ros2Packets: topics and errors', () => {
  it('takes the first point topic, or the one asked for; names what is missing', () => {
    const two = [
      { topic: '/front', type: POINT_CLOUD2_TYPE, timestamp: 1n, data: cloud(T0) },
      { topic: '/rear', type: 'sensor_msgs/PointCloud2', timestamp: 2n, data: cloud(T0 + 0.1) },
      { topic: '/front', type: POINT_CLOUD2_TYPE, timestamp: 3n, data: cloud(T0 + 0.2) },
    ];
    expect(run(two).info.notes).toMatchObject({ topic: '/front', pointMessages: 2, otherMessages: 1 });
    expect(run(two, { topic: '/rear' }).info.notes).toMatchObject({ topic: '/rear', pointMessages: 1 });
    expect(decodeErrorOf(() => run(two, { topic: '/top' })).reason).toBe(
      'no messages on topic /top; topics in the bag: /front (sensor_msgs/msg/PointCloud2), /rear (sensor_msgs/msg/PointCloud2)',
    );
    const tfOnly = bag().filter((m) => m.topic !== '/points');
    expect(decodeErrorOf(() => run(tfOnly)).reason).toMatch(/no velodyne_msgs\/msg\/VelodyneScan or sensor_msgs\/msg\/PointCloud2 messages; topics in the bag: \/tf_static/);
    expect(decodeErrorOf(() => run(bag(), { topic: '/tf' })).reason).toMatch(/topic \/tf is tf2_msgs\/msg\/TFMessage, not/);
  });

  it('a corrupt message names its topic and index', () => {
    const msgs = bag({ poses: 'none' });
    msgs[4] = { ...msgs[4]!, data: msgs[4]!.data.subarray(0, 30) };
    expect(decodeErrorOf(() => run(msgs)).message).toMatch(/^test\.db3: \/points message 4 \(sensor_msgs\/msg\/PointCloud2\), byte \d+ of 30: /);
  });
});

/** A VelodyneScan of `n` packets from a sensor with `product` id, receive stamps in bursts. */
function velodyneScan(n: number, product: number, mode = 0x37): Uint8Array {
  const packets = Array.from({ length: n }, (_, k) => {
    const d = new Uint8Array(1206);
    const dv = new DataView(d.buffer);
    for (let b = 0; b < 12; b++) {
      dv.setUint16(b * 100, 0xeeff, true);
      dv.setUint16(b * 100 + 2, (k * 480 + b * 40) % 36000, true);
      for (let c = 0; c < 32; c++) dv.setUint16(b * 100 + 4 + 3 * c, c === 5 ? 0 : 2500 + c, true);
    }
    // µs past the hour: 1327 µs apart, wrapping past the hour after the second packet.
    dv.setUint32(1200, (3600e6 - 2000 + k * 1327) % 3600e6, true);
    d[1204] = mode;
    d[1205] = product;
    // Receive stamps: the packets arrive in pairs, the second 3 ms late.
    return { stamp: T0 + 10 + Math.floor(k / 2) * 0.002654 + (k % 2) * 0.003, data: d };
  });
  return encodeVelodyneScan({ header: { stamp: T0 + 10, frameId: 'velodyne' }, packets });
}

describe('ros2Packets: VelodyneScan', () => {
  const scanMsg = (data: Uint8Array): BagMessage[] => [{ topic: '/velodyne_packets', type: VELODYNE_SCAN_TYPE, timestamp: ns(T0 + 10.1), data }];

  it('every UDP packet is a packet, timed by its own clock put on the stamps by the least-delayed packet', () => {
    const { packets, info } = run(scanMsg(velodyneScan(4, 0x22)), { profile: builtinProfile('vlp16') });
    expect(packets).toHaveLength(4);
    // Across the hour wrap the packets stay 1327 µs apart.
    for (let k = 1; k < 4; k++) expect(packets[k]!.time - packets[k - 1]!.time).toBeCloseTo(1327e-6, 6);
    // The first packet had the smallest delay: its receive stamp anchors the clock.
    expect(packets[0]!.time).toBeCloseTo(T0 + 10, 6);
    expect(packets[0]!.count).toBe(384);
    // Channel 5 has distance 0: kept as a miss.
    expect(Number.isNaN(packets[0]!.range[5]!)).toBe(true);
    expect(packets[0]!.range[0]).toBeCloseTo(2500 * 0.002, 6);
    expect(info).toMatchObject({ sensor: 'VLP-16', profileId: 'vlp16', recordsMisses: true });
    expect(info.notes).toMatchObject({ returnMode: 'strongest', emptyReturns: 4 * 12, packets: 4 });
  });

  it('without a profile, or with one of the wrong laser count, the error says what is needed', () => {
    expect(decodeErrorOf(() => run(scanMsg(velodyneScan(2, 0x22)))).reason).toMatch(/Velodyne VLP-16 packets need the sensor's profile to decode: give its calibration/);
    expect(decodeErrorOf(() => run(scanMsg(velodyneScan(2, 0x28)), { profile: builtinProfile('vlp16') })).reason).toMatch(
      /packets are from a Velodyne VLP-32C \(32 lasers per block\) but profile 'vlp16' has 16 lasers/,
    );
  });

  it('VLP-32C packets with a 32-laser profile are re-timed and read in 4 mm units', () => {
    const { packets, info } = run(scanMsg(velodyneScan(1, 0x28)), { profile: builtinProfile('hdl32e') });
    expect(packets[0]!.range[0]).toBeCloseTo(2500 * 0.004, 6);
    // Float32 ray times: 1e-11 s.
    expect(packets[0]!.rayTime![3]).toBeCloseTo(1 * 2.304e-6, 11);
    expect(packets[0]!.rayTime![32]).toBeCloseTo(55.296e-6, 11);
    expect(info.notes.profileTiming).toMatch(/VLP-32C/);
  });

  it('a bad packet inside a scan names the message and packet', () => {
    const data = velodyneScan(3, 0x22);
    data[40 + 1216 * 1 + 1] = 0x00; // packet 1's first block flag
    expect(decodeErrorOf(() => run(scanMsg(data), { profile: builtinProfile('vlp16') })).reason).toMatch(/^\/velodyne_packets message 0 \(velodyne_msgs\/msg\/VelodyneScan\): packet 1: Velodyne block 0/);
  });
});
