/**
 * PLY (ascii and both binaries; ring, time and class properties), read as a log and written as
 * an export (every hit in the world frame).
 */
import type { ExportFormatDescriptor, LogFormatDescriptor } from '../log-format';
import { scanPackets } from '../scan-packets';
import { worldCloud } from '../world-cloud';
import { decodePly, FUZZ_TARGETS } from './ply';
import { encodePly } from './ply-encode';

export const plyFormat: LogFormatDescriptor<'ply'> = {
  info: {
    id: 'ply',
    label: 'PLY point cloud',
    extensions: ['.ply'],
    kind: 'scan',
    hitOnly: true,
    needs: { calibration: 'optional', profile: 'rebuilds-misses', ownPoses: null },
  },
  // "ply" and a line end.
  detect: { magic: (head) => head[0] === 0x70 && head[1] === 0x6c && head[2] === 0x79 && (head[3] === 0x0a || head[3] === 0x0d) },
  open: ({ src, name }) => scanPackets(src, name, 'ply', decodePly),
  fuzz: FUZZ_TARGETS,
};

export const plyExport: ExportFormatDescriptor<'ply'> = {
  info: { id: 'ply', label: 'PLY — every hit in the world frame', folder: false, extension: '.ply' },
  write(chunks, out, ctx) {
    const cloud = worldCloud(chunks);
    ctx.checkCancelled();
    const bytes = encodePly(cloud);
    out.writeFile('', bytes);
    return { files: 1, points: cloud.count, bytes: bytes.byteLength, scans: 1 };
  },
};
