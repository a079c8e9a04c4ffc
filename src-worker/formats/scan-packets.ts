/**
 * A registered scan (KITTI .bin, PCD, PLY, LAS) as a log: the file decoded whole into one cloud
 * and the cloud into one packet. Scans are small next to captures, so they are not streamed.
 */
import type { LogFormat } from '../../src-common/formats';
import { cloudToPacket, type DecodedCloud } from './decoded-cloud';
import type { PacketStream } from './log-format';
import { readAll, type ByteSource } from './log-source';
import { DecodeError } from './decode-error';

export function* scanPackets(src: ByteSource, name: string, format: LogFormat, decode: (bytes: Uint8Array, name: string) => DecodedCloud): PacketStream {
  const bytes = readAll(src);
  const cloud = decode(bytes, name);
  const c = cloudToPacket(cloud);
  // Points exist but none has finite coordinates: an empty log would hide a broken file.
  if (cloud.count > 0 && c.rayCount === 0) {
    const why = cloud.dropped === cloud.count ? 'NaN or infinite coordinates' : 'NaN, infinite or all-zero coordinates';
    throw new DecodeError(name, `all ${cloud.count} point(s) have ${why}: nothing to import`);
  }
  yield {
    time: cloud.timeBase,
    pose: c.packetPose,
    count: c.rayCount,
    dir: c.rayDir,
    range: c.rayRange,
    intensity: c.rayIntensity,
    rayTime: c.rayTime,
    ring: c.rayRing,
    ret: c.rayReturn,
    cls: c.rayClass,
  };
  const origin = 'origin' in cloud ? (cloud as { origin: number[] }).origin : null;
  const notes: Record<string, string | number | boolean> = { points: cloud.count };
  // LAS keeps georeferenced coordinates: the points are stored relative to this origin (metres).
  if (origin && origin.some((v) => v !== 0)) notes.origin = origin.join(', ');
  return { format, recordsMisses: false, notes, dropped: cloud.count - c.rayCount, ...(cloud.warnings?.length ? { warnings: cloud.warnings } : {}) };
}
