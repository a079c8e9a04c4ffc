import { describe, expect, it } from 'vitest';
import { decodeKittiBin } from '../../../../src-worker/formats/kitti/kitti-bin';
import { decodeErrorOf, expectConsistent } from '../helpers';

function kitti(points: number[][]): Uint8Array {
  return new Uint8Array(new Float32Array(points.flat()).buffer);
}

describe('decodeKittiBin', () => {
  it('reads x, y, z, intensity records and counts non-finite points', () => {
    const c = decodeKittiBin(kitti([[1, 2, 3, 0.5], [NaN, 0, 0, 1], [-4, 5.5, -6, 0.25]]), 'a.bin');
    expectConsistent(c);
    expect(c.count).toBe(3);
    expect([...c.xyz.subarray(6)]).toEqual([-4, 5.5, -6]);
    expect([...c.intensity]).toEqual([0.5, 1, 0.25]);
    expect(c.dropped).toBe(1);
    expect(c.ring).toBeNull();
    expect(c.time).toBeNull();
    expect(c.viewpoint).toBeNull();
  });

  it('reads from an unaligned view of a larger buffer', () => {
    const src = kitti([[1, 2, 3, 4], [5, 6, 7, 8]]);
    const big = new Uint8Array(src.length + 3);
    big.set(src, 1);
    const c = decodeKittiBin(big.subarray(1, 1 + src.length), 'u.bin');
    expect([...c.xyz]).toEqual([1, 2, 3, 5, 6, 7]);
    expect([...c.intensity]).toEqual([4, 8]);
  });

  it('rejects an empty file', () => {
    const e = decodeErrorOf(() => decodeKittiBin(new Uint8Array(0), 'empty.bin'));
    expect(e.file).toBe('empty.bin');
    expect(e.message).toMatch(/^empty\.bin: empty file/);
  });

  it('keeps the whole points of a truncated file and says how many bytes were dropped', () => {
    const src = kitti([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]);
    const c = decodeKittiBin(src.subarray(0, src.length - 3), '000000.bin');
    expect(c.count).toBe(2);
    expect(Array.from(c.xyz)).toEqual([1, 2, 3, 5, 6, 7]);
    expect(c.warnings).toEqual(['000000.bin: truncated at byte 32: the last 13 byte(s), an incomplete record, were dropped; the 2 whole 16-byte point(s) before it were kept']);
    // Less than one point: nothing to keep.
    const e = decodeErrorOf(() => decodeKittiBin(src.subarray(0, 9), '000000.bin'));
    expect(e.offset).toBe(0);
    expect(e.message).toBe('000000.bin: truncated at byte 0: file size 9 is less than one 16-byte point (4 float32)');
  });
});
