import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cloudToPacket } from '../../../src-worker/formats/decoded-cloud';
import { decodeKittiBin } from '../../../src-worker/formats/kitti/kitti-bin';
import { decodePcd } from '../../../src-worker/formats/pcd/pcd';
import { encodePcd } from '../../../src-worker/formats/pcd/pcd-encode';
import { DATA_DIR, HAVE_DATA, elevationRange, expectConsistent, mismatches } from './helpers';

const read = (rel: string): Uint8Array => new Uint8Array(readFileSync(path.join(DATA_DIR, rel)));

/** Best of a few runs, in ms (the first run pays for JIT warm-up). */
function timeIt(fn: () => void, runs = 5): number {
  let best = Infinity;
  for (let k = 0; k < runs; k++) {
    const t0 = performance.now();
    fn();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

describe.skipIf(!HAVE_DATA)('real data (the shared data folder)', () => {
  it('KITTI 000000.bin: 124668 points, HDL-64E elevations -25.2..4.1 deg', () => {
    const bytes = read('overlapnet_kitti/000000.bin');
    const c = decodeKittiBin(bytes, '000000.bin');
    expectConsistent(c);
    expect(c.count).toBe(124668);
    expect(c.dropped).toBe(0);
    const { min, max } = elevationRange(c.xyz);
    expect(Math.abs(min - -25.2)).toBeLessThan(0.5);
    expect(Math.abs(max - 4.1)).toBeLessThan(0.5);
    let imax = 0;
    for (const v of c.intensity) imax = Math.max(imax, v);
    expect(imax).toBeGreaterThan(0.5); // KITTI reflectance is in [0, 1]
    expect(imax).toBeLessThanOrEqual(1);
    const ms = timeIt(() => decodeKittiBin(bytes, '000000.bin'));
    console.info(`decodeKittiBin 000000.bin (${bytes.length} B): ${ms.toFixed(2)} ms`);
    expect(ms).toBeLessThan(50); // a few ms in practice; loose for slow CI machines
    expect(cloudToPacket(c).rayCount).toBeGreaterThan(124000);
  });

  it('KITTI .bin truncated by 3 bytes keeps its 124,667 whole points and names the cut', () => {
    const bytes = read('overlapnet_kitti/000000.bin');
    const c = decodeKittiBin(bytes.subarray(0, bytes.length - 3), '000000.bin');
    expect(c.count).toBe(124_667);
    expect(c.warnings).toEqual(['000000.bin: truncated at byte 1994672: the last 13 byte(s), an incomplete record, were dropped; the 124667 whole 16-byte point(s) before it were kept']);
  });

  for (const [file, points] of [['251370668.pcd', 69088], ['251371071.pcd', 69792]] as const) {
    it(`fast_gicp ${file}: ${points} points with intensity, HDL-32E elevations -30.7..10.7 deg`, () => {
      const bytes = read(`fast_gicp/${file}`);
      const c = decodePcd(bytes, file);
      expectConsistent(c);
      expect(c.count).toBe(points);
      expect(c.intensity.some((v) => v > 0)).toBe(true);
      expect(c.viewpoint).toEqual([0, 0, 0, 0, 0, 0, 1]);
      const { min, max } = elevationRange(c.xyz);
      expect(Math.abs(min - -30.67)).toBeLessThan(0.5);
      expect(Math.abs(max - 10.67)).toBeLessThan(0.5);
      const ms = timeIt(() => decodePcd(bytes, file));
      console.info(`decodePcd ${file} (${bytes.length} B binary): ${ms.toFixed(2)} ms`);
      // The same cloud through the other two encodings decodes to the same numbers.
      for (const data of ['ascii', 'binary_compressed'] as const) {
        const again = decodePcd(encodePcd(c, data), `${file}.${data}`);
        expect(mismatches(again.xyz, c.xyz)).toBe(0);
        expect(mismatches(again.intensity, c.intensity)).toBe(0);
      }
    });
  }

  it('nebula VLP-16 ground truth: 14831 points, channel as ring, time_stamp as time', () => {
    const c = decodePcd(read('nebula_velodyne/vlp16/1673400472138016708.pcd'), '1673400472138016708.pcd');
    expectConsistent(c);
    expect(c.count).toBe(14831);
    // Channel k of a VLP-16 is at -15 + 2k degrees; this scan has no return on channel 0.
    const ring = c.ring!;
    expect(new Set(ring)).toEqual(new Set(Array.from({ length: 15 }, (_, k) => k + 1)));
    let worst = 0;
    for (let i = 0; i < c.count; i++) {
      const x = c.xyz[3 * i]!, y = c.xyz[3 * i + 1]!, z = c.xyz[3 * i + 2]!;
      const e = (Math.atan2(z, Math.hypot(x, y)) * 180) / Math.PI;
      worst = Math.max(worst, Math.abs(e - (-15 + 2 * ring[i]!)));
    }
    expect(worst).toBeLessThan(0.05);
    const { min, max } = elevationRange(c.xyz, 0); // channel 1 (-13 deg) only hits within 1 m
    expect(Math.abs(min - -13)).toBeLessThan(0.5);
    expect(Math.abs(max - 15)).toBeLessThan(0.5);
    // time_stamp is uint32 nanoseconds after each packet's stamp: at most one packet, 1.33 ms.
    let tmax = 0;
    for (const t of c.time!) tmax = Math.max(tmax, t);
    expect(tmax).toBeGreaterThan(1.2e-3);
    expect(tmax).toBeLessThan(1.4e-3);
  });
});
