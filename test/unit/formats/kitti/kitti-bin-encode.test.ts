import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeKittiBin } from '../../../../src-worker/formats/kitti/kitti-bin';
import { encodeKittiBin } from '../../../../src-worker/formats/kitti/kitti-bin-encode';
import { dataFile, HAS_SHARED_DATA } from '../../../helpers/shared-data';
import { mismatches, sampleCloud } from '../helpers';

describe('encodeKittiBin', () => {
  it('round-trips x, y, z, intensity bit-exactly, non-finite points in place', () => {
    const src = sampleCloud(40, 5);
    const bytes = encodeKittiBin(src);
    expect(bytes.length).toBe(40 * 16);
    const c = decodeKittiBin(bytes, 'rt.bin');
    expect(c.count).toBe(40);
    expect(mismatches(c.xyz, src.xyz)).toBe(0);
    expect(mismatches(c.intensity, src.intensity)).toBe(0);
    expect(c.dropped).toBe(2);
  });

  it('writes an empty cloud as an empty file', () => {
    expect(encodeKittiBin({ count: 0, xyz: new Float32Array(0), intensity: new Float32Array(0) }).length).toBe(0);
  });
});

describe.skipIf(!HAS_SHARED_DATA)('encodeKittiBin on KITTI odometry 000000.bin', () => {
  it('re-encodes the decoded scan to the same 1994688 bytes', () => {
    const file = readFileSync(dataFile('overlapnet_kitti/000000.bin'));
    const c = decodeKittiBin(file, '000000.bin');
    expect(c.count).toBe(124668);
    const again = encodeKittiBin(c);
    expect(again.length).toBe(1994688);
    expect(mismatches(again, file)).toBe(0);
  });
});
