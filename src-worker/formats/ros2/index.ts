/**
 * ROS 2 message codecs and the bag → packets stream (see ros2-packets.ts). Containers: the
 * SQLite .db3 in tasks/ros2-db3-file.ts (it needs better-sqlite3), MCAP in formats/mcap/.
 */
import { ODOMETRY_TYPE, TF_MESSAGE_TYPE, decodeOdometry, decodeTfMessage, encodeOdometry, encodeTfMessage } from './tf-messages';
import { POINT_CLOUD2_TYPE, decodePointCloud2, encodePointCloud2, pointCloud2Rays } from './point-cloud2';
import { VELODYNE_SCAN_TYPE, decodeVelodyneScan, encodeVelodyneScan } from './velodyne-scan';
import type { MessagePlace } from './cdr';
import { ros2Packets } from './ros2-packets';
import { builtinProfile } from '../../../src-common/builtin-profiles';

export { ros2Packets, normalizeRosType, scanPacketTimes, type BagMessage, type Ros2PacketOptions } from './ros2-packets';
export { decodeVelodyneScan, encodeVelodyneScan, VELODYNE_SCAN_TYPE, type VelodyneScan, type VelodyneScanPacket } from './velodyne-scan';
export {
  decodePointCloud2, encodePointCloud2, encodePointCloud2Raw, pointCloud2Rays, POINT_CLOUD2_TYPE, EXPORT_FIELDS, PointFieldType,
  type PointCloud2, type PointField, type CloudRays, type CloudToEncode,
} from './point-cloud2';
import type { FuzzTarget } from '../fuzz-target';
export { decodeTfMessage, encodeTfMessage, decodeOdometry, encodeOdometry, TF_MESSAGE_TYPE, ODOMETRY_TYPE, type StampedTransform } from './tf-messages';
export { toRosTime, type MessagePlace, type RosHeader } from './cdr';
export { PoseSeries } from './pose-interpolation';
export { TfTree } from './tf-tree';
export { velodyneProfileForModel, vlp32cLaserTime, hasVlp32cTiming, velodyneTimingModel, type VelodyneTimingModel } from './velodyne-profile';

/** The message types ros2Packets reads; containers may skip every other topic. */
export const ROS2_DECODED_TYPES: ReadonlySet<string> = new Set([VELODYNE_SCAN_TYPE, POINT_CLOUD2_TYPE, TF_MESSAGE_TYPE, ODOMETRY_TYPE]);

const FUZZ_PLACE: MessagePlace = { file: 'fuzz.db3', topic: '/fuzz', index: 0 };

/** A small VelodyneScan: two VLP-16 dual-return packets with varied distances. */
function sampleVelodyneScan(): Uint8Array {
  const packet = (k: number): Uint8Array => {
    const d = new Uint8Array(1206);
    const dv = new DataView(d.buffer);
    for (let b = 0; b < 12; b++) {
      dv.setUint16(b * 100, 0xeeff, true);
      dv.setUint16(b * 100 + 2, (k * 2400 + (b >> 1) * 40) % 36000, true);
      for (let c = 0; c < 32; c++) {
        dv.setUint16(b * 100 + 4 + 3 * c, (b * 37 + c * 101 + k) % 5000, true);
        d[b * 100 + 6 + 3 * c] = (b + c) & 0xff;
      }
    }
    dv.setUint32(1200, 1_000_000 + k * 1327, true);
    d[1204] = 0x39;
    d[1205] = 0x22;
    return d;
  };
  return encodeVelodyneScan({ header: { stamp: 1700000000.5, frameId: 'velodyne' }, packets: [0, 1].map((k) => ({ stamp: 1700000000.5 + k * 0.001327, data: packet(k) })) });
}

/** A small PointCloud2 in the export layout, with a NaN point. */
function samplePointCloud2(): Uint8Array {
  const n = 12;
  const xyz = Float32Array.from({ length: 3 * n }, (_, i) => Math.sin(i) * 20);
  xyz[3] = NaN;
  return encodePointCloud2(
    { stamp: 1700000000.25, frameId: 'lidar' },
    { count: n, xyz, intensity: Float32Array.from({ length: n }, (_, i) => i), ring: Uint16Array.from({ length: n }, (_, i) => i % 4), time: Float32Array.from({ length: n }, (_, i) => i * 1e-4) },
  );
}

function sampleTf(): Uint8Array {
  return encodeTfMessage([
    { stamp: 1700000000.1, parent: 'odom', child: 'base_link', pose: [1, 2, 0, 0, 0, Math.sin(0.2), Math.cos(0.2)] },
    { stamp: 1700000000.1, parent: 'base_link', child: 'lidar', pose: [0.5, 0, 1.8, 0, 0, 0, 1] },
  ]);
}

/** Decoders for the fuzz script: each must return or throw DecodeError on any bytes. */
export const FUZZ_TARGETS: FuzzTarget[] = [
  { name: 'ros2 VelodyneScan', sample: sampleVelodyneScan, decode: (b) => decodeVelodyneScan(b, FUZZ_PLACE) },
  { name: 'ros2 PointCloud2', sample: samplePointCloud2, decode: (b) => pointCloud2Rays(decodePointCloud2(b, FUZZ_PLACE)) },
  { name: 'ros2 TFMessage', sample: sampleTf, decode: (b) => decodeTfMessage(b, FUZZ_PLACE) },
  {
    // The whole path: container, packet decoding and rays, with the built-in VLP-16.
    name: 'ros2 VelodyneScan → packets',
    sample: sampleVelodyneScan,
    decode: (b) => [...ros2Packets([{ topic: '/fuzz', type: VELODYNE_SCAN_TYPE, timestamp: 0n, data: b }], { name: 'fuzz.db3', profile: builtinProfile('vlp16') })].length,
  },
  {
    name: 'ros2 Odometry',
    sample: () => encodeOdometry({ stamp: 1700000000.2, parent: 'odom', child: 'base_link', pose: [1, 2, 3, 0, 0, 0, 1] }),
    decode: (b) => decodeOdometry(b, FUZZ_PLACE),
  },
];
