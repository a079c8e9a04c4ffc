/**
 * KITTI velodyne .bin scans (float32 x, y, z, intensity; hits only), read as a log, and the
 * KITTI odometry folder as an export (kitti-odometry.ts). With a profile, an organised scan (the
 * whole range image, zeros in empty cells: kitti-organised.ts) gives its empty cells as misses.
 */
import type { ExportFormatDescriptor, LogFormatDescriptor, PacketStream } from '../log-format';
import { scanPackets } from '../scan-packets';
import { memorySource, readAll, type ByteSource } from '../log-source';
import type { SensorProfile } from '../../../src-common/sensor-profile';
import { decodeKittiBin } from './kitti-bin';
import { organisedLayout, organisedPacket } from './kitti-organised';
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
  open: ({ src, name, profile }) => (profile ? kittiScan(src, name, profile) : scanPackets(src, name, 'kitti-bin', decodeKittiBin)),
  fuzz: [
    {
      name: 'kitti-bin',
      sample: () => new Uint8Array(Float32Array.from({ length: 160 }, (_, i) => Math.sin(i) * 50).buffer),
      decode: (b) => decodeKittiBin(b, 'f.bin'),
    },
  ],
};

/** A scan read with the sensor's profile: organised (empty cells are misses) when its layout says so, else as hits. */
function* kittiScan(src: ByteSource, name: string, profile: SensorProfile): PacketStream {
  const bytes = readAll(src);
  const cloud = decodeKittiBin(bytes, name);
  const layout = organisedLayout(cloud, profile);
  if (!layout) return yield* scanPackets(memorySource(name, bytes), name, 'kitti-bin', decodeKittiBin);
  const o = organisedPacket(cloud, profile, layout);
  yield o.packet;
  return {
    format: 'kitti-bin',
    recordsMisses: true,
    notes: {
      points: o.hits,
      organised: `${layout.rows} rows × ${layout.columns} columns (${layout.order})`,
      emptyCells: o.misses,
      worstRowElevationDeg: Number(((layout.worstRowElevation * 180) / Math.PI).toFixed(3)),
      columnAzimuthAgreement: Number(o.azimuthAgreement.toFixed(4)),
    },
    dropped: 0,
  };
}

export const kittiExport: ExportFormatDescriptor<'kitti'> = {
  info: { id: 'kitti', label: 'KITTI — a folder: one .bin per sweep, poses.txt, times.txt', folder: true, extension: '_kitti' },
  write: writeKittiOdometry,
};
