/**
 * MCAP bags: read as a log (ROS 2 VelodyneScan or PointCloud2, poses from tf and odometry) and
 * written as an export (a PointCloud2 per revolution — the scans the KITTI export writes,
 * docs/drive-logs.md "Scans" — or per packet, in the frame of its first packet, and its /tf),
 * stamped on the capture's clock, readable by Foxglove and ROS 2.
 */
import type { ExportFormatDescriptor, LogFormatDescriptor } from '../log-format';
import { buildTimeline } from '../timeline';
import { FUZZ_TARGETS, McapLogWriter, mcapPackets } from './index';

/** `\x89MCAP`: the magic's first five bytes (its version byte and line end are not required). */
const MCAP_SIGNATURE = [0x89, 0x4d, 0x43, 0x41, 0x50];

export const mcapFormat: LogFormatDescriptor<'mcap'> = {
  info: {
    id: 'mcap',
    label: 'MCAP bag',
    extensions: ['.mcap'],
    kind: 'stream',
    hitOnly: true,
    needs: { calibration: 'optional', profile: 'decodes-or-rebuilds', ownPoses: 'tf, odometry' },
  },
  detect: { magic: (head) => MCAP_SIGNATURE.every((b, i) => head[i] === b) },
  open: ({ src, name, profile, ctx }) => mcapPackets(src, { name, profile, ctx }),
  fuzz: FUZZ_TARGETS,
};

export const mcapExport: ExportFormatDescriptor<'mcap'> = {
  info: { id: 'mcap', label: 'MCAP — PointCloud2 + tf (Foxglove, ROS 2)', folder: false, extension: '.mcap' },
  async write(chunks, out, ctx, opts) {
    const perPacket = opts?.mcapMessages === 'packet';
    // Revolutions as the timeline cuts them (the KITTI export's scans); a log without a clock of
    // its own (a run) starts at 0.
    const messageStarts = perPacket ? null : buildTimeline(chunks, 2).sweepStart;
    const file = out.openStream();
    try {
      const writer = new McapLogWriter({
        write: (bytes) => file.write(bytes),
        timeOrigin: opts?.startTime ?? 0,
        ...(perPacket ? { messagePeriodS: 0 } : { messageStarts }),
      });
      for (let i = 0; i < chunks.length; i++) {
        ctx.checkCancelled();
        ctx.progress(i / chunks.length, 'writing messages');
        await writer.addChunk(chunks[i]!);
      }
      const s = await writer.finish();
      return { files: 1, points: s.points, bytes: s.bytes, scans: s.cloudMessages };
    } finally {
      file.close();
    }
  },
};
