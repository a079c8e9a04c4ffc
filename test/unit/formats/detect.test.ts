import { describe, expect, it } from 'vitest';
import { decodeCloud, detectFormat } from '../../../src-worker/formats/detect';
import { encodePcd } from '../../../src-worker/formats/pcd/pcd-encode';
import { decodeErrorOf, sampleCloud } from './helpers';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('detectFormat / decodeCloud', () => {
  it('recognises PCD by its header whatever the name', () => {
    expect(detectFormat('scan.pcd', enc('# .PCD v0.7\nVERSION 0.7\n'))).toBe('pcd');
    expect(detectFormat('scan.dat', enc('# .PCD v0.7 - Point Cloud Data file format\n'))).toBe('pcd');
    expect(detectFormat('noext', enc('# my comment\n\nVERSION .7\nFIELDS x y z\n'))).toBe('pcd');
    expect(detectFormat('noext', enc('FIELDS x y z\nSIZE 4 4 4\n'))).toBe('pcd');
  });

  it('uses the extension otherwise; .pcd.bin (nuScenes, 5 floats) is not KITTI', () => {
    const floats = new Uint8Array(new Float32Array([1.5, 2, 3, 4]).buffer);
    expect(detectFormat('000000.bin', floats)).toBe('kitti-bin');
    expect(detectFormat('000000.BIN', floats)).toBe('kitti-bin');
    expect(detectFormat('x__LIDAR_TOP__1.pcd.bin', floats)).toBe(null);
    expect(detectFormat('broken.pcd', floats)).toBe('pcd');
    expect(detectFormat('scan.ply', enc('ply\nformat ascii 1.0\n'))).toBe(null);
    // A KITTI file whose first byte happens to be '#' is still KITTI.
    expect(detectFormat('a.bin', Uint8Array.of(0x23, 0x00, 0x80, 0x3f))).toBe('kitti-bin');
  });

  it('dispatches, honours an explicit format, and names the file when unknown', () => {
    const pcd = encodePcd(sampleCloud(5), 'binary');
    expect(decodeCloud(pcd, 'a.pcd').count).toBe(5);
    expect(decodeCloud(pcd, 'weird-name', 'pcd').count).toBe(5);
    expect(decodeCloud(new Uint8Array(32), 'z.bin').count).toBe(2);
    const e = decodeErrorOf(() => decodeCloud(enc('hello'), 'notes.txt'));
    expect(e.message).toBe('notes.txt: unknown point-cloud format: expected a KITTI .bin or a PCD file');
  });
});
