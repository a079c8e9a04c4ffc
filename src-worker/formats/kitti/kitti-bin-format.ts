/**
 * KITTI velodyne .bin scans (float32 x, y, z, intensity; hits only), read as a log, and the
 * KITTI odometry folder as an export (kitti-odometry.ts).
 */
import type { ExportFormatDescriptor, LogFormatDescriptor } from '../log-format';
import { scanPackets } from '../scan-packets';
import { decodeKittiBin } from './kitti-bin';
import { writeKittiOdometry } from './kitti-odometry';

export const kittiBinFormat: LogFormatDescriptor<'kitti-bin'> = {
  info: {
    id: 'kitti-bin',
    label: 'KITTI .bin scan',
    extensions: ['.bin'],
    kind: 'scan',
    hitOnly: true,
    needs: { calibration: 'optional', profile: 'rebuilds-misses', ownPoses: null },
  },
  // No signature: any .bin, except nuScenes' .pcd.bin (5 floats a point would decode as wrong points).
  detect: { byName: (lower) => lower.endsWith('.bin') && !lower.endsWith('.pcd.bin') },
  open: ({ src, name }) => scanPackets(src, name, 'kitti-bin', decodeKittiBin),
  fuzz: [
    {
      name: 'kitti-bin',
      sample: () => new Uint8Array(Float32Array.from({ length: 160 }, (_, i) => Math.sin(i) * 50).buffer),
      decode: (b) => decodeKittiBin(b, 'f.bin'),
    },
  ],
};

export const kittiExport: ExportFormatDescriptor<'kitti'> = {
  info: { id: 'kitti', label: 'KITTI — a folder: one .bin per sweep, poses.txt, times.txt', folder: true, extension: '_kitti' },
  write: writeKittiOdometry,
};
