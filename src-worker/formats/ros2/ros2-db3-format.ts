/**
 * ROS 2 bags in SQLite storage (rosbag2 'sqlite3', *.db3): VelodyneScan packets or PointCloud2
 * clouds, poses from tf and odometry. SQLite reads files, so the bag is opened from its path by
 * the task layer (BagDatabase) and an upload goes to a temporary file first.
 */
import { DecodeError } from '../decode-error';
import type { LogFormatDescriptor } from '../log-format';
import type { BagDatabase } from './bag-database';
import { FUZZ_TARGETS, ROS2_DECODED_TYPES } from './index';
import { normalizeRosType, ros2Packets, type Ros2PacketOptions } from './ros2-packets';
import type { DecodedPacket, DecodeContext, LogSourceInfo } from '../log-source';

const SQLITE_MAGIC = [...'SQLite format 3\0'].map((c) => c.charCodeAt(0));

/**
 * A bag's packets. Only the topics ros2Packets reads (points, tf, odometry) are fetched, so a
 * bag's camera images are never loaded.
 */
export function bagPackets(
  bag: BagDatabase,
  opts: Omit<Ros2PacketOptions, 'name' | 'format'> & { name?: string; ctx?: DecodeContext },
): Generator<DecodedPacket, LogSourceInfo, void> {
  const all = bag.topics();
  const topics = all.filter((t) => ROS2_DECODED_TYPES.has(normalizeRosType(t.type))).map((t) => t.name);
  if (topics.length === 0) {
    const seen = all.map((t) => `${t.name} (${t.type})`).join(', ') || 'none';
    throw new DecodeError(bag.name, `no point cloud, tf or odometry topics; topics in the bag: ${seen}`);
  }
  return ros2Packets(bag.messages({ topics }), { ...opts, name: opts.name ?? bag.name, format: 'ros2-db3' });
}

export const ros2Db3Format: LogFormatDescriptor<'ros2-db3'> = {
  info: {
    id: 'ros2-db3',
    label: 'ROS 2 bag (.db3)',
    extensions: ['.db3'],
    kind: 'stream',
    hitOnly: true,
    needs: { calibration: 'optional', profile: 'decodes-or-rebuilds', ownPoses: 'tf, odometry' },
  },
  detect: { magic: (head) => SQLITE_MAGIC.every((b, i) => head[i] === b) },
  readsFilePath: true,
  open({ name, path, profile, ctx, openBag }) {
    if (!path) throw new Error(`${name}: a .db3 bag is read from a file`);
    return bagPackets(openBag(path), { name, profile, ctx });
  },
  fuzz: FUZZ_TARGETS,
};
