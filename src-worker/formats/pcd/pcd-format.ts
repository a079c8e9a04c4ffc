/**
 * PCD (v0.6/0.7; ascii, binary, binary_compressed; VIEWPOINT = the sensor pose), read as a log
 * and written as an export (every hit in the world frame, binary).
 */
import type { ExportFormatDescriptor, LogFormatDescriptor } from '../log-format';
import { sampleCloud } from '../sample-cloud';
import { scanPackets } from '../scan-packets';
import { worldCloud } from '../world-cloud';
import { decodePcd } from './pcd';
import { encodePcd } from './pcd-encode';

/**
 * A PCD header: '#' comment lines, then a VERSION or FIELDS line. The first bytes of a KITTI
 * float can be '#', so comments alone only count when they are PCL's "# .PCD" banner.
 */
export function looksLikePcd(head: Uint8Array): boolean {
  let pos = 0;
  while (pos < head.length) {
    let nl = head.indexOf(10, pos);
    if (nl < 0) nl = head.length;
    let line = '';
    for (let i = pos; i < nl; i++) {
      const c = head[i]!;
      if (c !== 9 && c !== 13 && (c < 32 || c > 126)) return false; // not a text header
      line += String.fromCharCode(c);
    }
    line = line.trim();
    if (/^\.?PCD\b/i.test(line.replace(/^#\s*/, ''))) return true;
    if (/^(VERSION|FIELDS|COLUMNS)\s/i.test(line)) return true;
    if (line !== '' && !line.startsWith('#')) return false;
    pos = nl + 1;
  }
  return false;
}

export const pcdFormat: LogFormatDescriptor<'pcd'> = {
  info: {
    id: 'pcd',
    label: 'PCD point cloud',
    extensions: ['.pcd'],
    kind: 'scan',
    hitOnly: true,
    needs: { calibration: 'optional', profile: 'rebuilds-misses', ownPoses: 'VIEWPOINT' },
  },
  // A text header, whatever the extension; a broken one named .pcd still goes to the PCD decoder,
  // which says what is wrong with it.
  detect: { byName: (lower, head) => looksLikePcd(head) || lower.endsWith('.pcd') },
  open: ({ src, name }) => scanPackets(src, name, 'pcd', decodePcd),
  fuzz: (['ascii', 'binary', 'binary_compressed'] as const).map((data) => ({
    name: `pcd ${data}`,
    sample: () => encodePcd(sampleCloud(40, 7), data),
    decode: (b: Uint8Array) => decodePcd(b, 'f.pcd'),
  })),
};

export const pcdExport: ExportFormatDescriptor<'pcd'> = {
  info: { id: 'pcd', label: 'PCD — every hit in the world frame', folder: false, extension: '.pcd' },
  write(chunks, out, ctx) {
    const cloud = worldCloud(chunks);
    ctx.checkCancelled();
    const bytes = encodePcd(cloud, 'binary');
    out.writeFile('', bytes);
    return { files: 1, points: cloud.count, bytes: bytes.byteLength, scans: 1 };
  },
};
