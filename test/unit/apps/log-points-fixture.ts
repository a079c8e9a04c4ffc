/** LogPoints built by hand: a static world seen from one pose per scan (one packet a scan). */
import type { LogPoints } from '../../../src-worker/apps/log-points';

export function staticLog(world: Float64Array, cls: Uint8Array, poses: number[][]): LogPoints {
  const n = cls.length, scans = poses.length;
  const xyz = new Float64Array(3 * n * scans), c = new Uint8Array(n * scans), packet = new Uint32Array(n * scans);
  for (let s = 0; s < scans; s++) {
    xyz.set(world, 3 * n * s);
    c.set(cls, n * s);
    packet.fill(s, n * s, n * (s + 1));
  }
  return {
    xyz, cls: c, packet, count: n * scans,
    poses: Float64Array.from(poses.flat()), packets: scans, origin: [0, 0, 0],
    scanStarts: Uint32Array.from({ length: scans }, (_, i) => i),
  };
}
