/**
 * KITTI velodyne .bin: a bare array of little-endian float32 (x, y, z, intensity) records, the
 * layout decodeKittiBin reads. Every point is written, non-finite ones included, so indices
 * match the cloud; KITTI has no other channel, so ring, time and class are not kept.
 */
import type { DecodedCloud } from '../decoded-cloud';

export function encodeKittiBin(cloud: Pick<DecodedCloud, 'count' | 'xyz' | 'intensity'>): Uint8Array<ArrayBuffer> {
  const n = cloud.count;
  const out = new Uint8Array(16 * n);
  const dv = new DataView(out.buffer);
  for (let i = 0, o = 0; i < n; i++, o += 16) {
    dv.setFloat32(o, cloud.xyz[3 * i]!, true);
    dv.setFloat32(o + 4, cloud.xyz[3 * i + 1]!, true);
    dv.setFloat32(o + 8, cloud.xyz[3 * i + 2]!, true);
    dv.setFloat32(o + 12, cloud.intensity[i]!, true);
  }
  return out;
}
