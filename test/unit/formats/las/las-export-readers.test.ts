/**
 * Thicket's LAS writer read by readers it did not write (test/helpers/las-readers.ts): intensity
 * scaled to the 16-bit range LAS defines, site classes written as ASPRS codes with the site class
 * in the user data and named by a VLR, and LAS 1.2 point format 3 on request.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encodeLas, encodeLasFromChunks } from '../../../../src-worker/formats/las/las-encode';
import { decodeKittiBin } from '../../../../src-worker/formats/kitti/kitti-bin';
import { pointsToPacket } from '../../../../src-worker/formats/packets';
import { SiteClass } from '../../../../src-common/classes';
import type { DecodedCloud } from '../../../../src-worker/formats/decoded-cloud';
import { dataFile, HAS_SHARED_DATA } from '../../../helpers/shared-data';
import { readLasBySpec, readWithLoadersGl } from '../../../helpers/las-readers';
import { decodeLasSource } from '../../../../src-worker/formats/las/las-source';
import { decodeErrorOf } from '../helpers';

function cloud(intensity: number[]): DecodedCloud {
  const n = intensity.length;
  return {
    count: n,
    xyz: Float32Array.from({ length: 3 * n }, (_, i) => 1 + i * 0.37),
    intensity: Float32Array.from(intensity),
    ring: null, time: null, timeBase: 0, viewpoint: null, dropped: 0,
  };
}

const intensityVlr = (bytes: Uint8Array) => readLasBySpec(bytes).vlrs.find((v) => v.userId === 'Thicket' && v.recordId === 2);

describe('LAS intensity fills the 16-bit range (LAS 1.4 R15: value × 65,536 / dynamic range)', () => {
  it('reflectance 0–1 × 65535, 8-bit counts × 256; the factor is in a VLR', async () => {
    const refl = encodeLas(cloud([0, 0.25, 0.5, 1, 0.004]));
    expect([...(await readWithLoadersGl(refl)).intensity]).toEqual([0, 16384, 32768, 65535, 262]);
    expect(intensityVlr(refl)?.description).toBe('intensity = source x 65535');
    expect(new DataView(intensityVlr(refl)!.data.buffer).getFloat64(0, true)).toBe(65535);
    const counts = encodeLas(cloud([0, 10, 255]));
    expect([...(await readWithLoadersGl(counts)).intensity]).toEqual([0, 2560, 65280]);
    expect(intensityVlr(counts)?.description).toBe('intensity = source x 256');
  });

  it.skipIf(!HAS_SHARED_DATA)('a KITTI scan (reflectance below 1) keeps every non-zero intensity', async () => {
    const src = decodeKittiBin(new Uint8Array(readFileSync(dataFile('overlapnet_kitti/000000.bin'))), '000000.bin');
    const las = await readWithLoadersGl(encodeLas(src));
    expect(las.count).toBe(src.count);
    let nonZero = 0, srcNonZero = 0, worst = 0;
    for (let i = 0; i < src.count; i++) {
      if (las.intensity[i]! > 0) nonZero++;
      if (Math.round(src.intensity[i]! * 65535) > 0) srcNonZero++;
      worst = Math.max(worst, Math.abs(las.intensity[i]! / 65535 - src.intensity[i]!));
    }
    expect(srcNonZero).toBeGreaterThan(100_000);
    expect(nonZero).toBe(srcNonZero);
    expect(worst).toBeLessThanOrEqual(0.5 / 65535 + 1e-7);
  });
});

describe('LAS classification: ASPRS codes, the site class in user data, named by a VLR', () => {
  const site = [SiteClass.ground, SiteClass.grass, SiteClass.lowShrub, SiteClass.largeShrub, SiteClass.smallTree, SiteClass.largeTree, SiteClass.rock, SiteClass.unknown];
  function chunk() {
    const n = site.length;
    const c = pointsToPacket(Float32Array.from({ length: 3 * n }, (_, i) => 2 + i), Float32Array.from({ length: n }, () => 7));
    c.rayClass.set(site);
    return c;
  }

  it('ground 2, grass 3, shrubs 4, trees 5, the rest 1; user data the site class', async () => {
    const bytes = encodeLasFromChunks([chunk()], { world: true });
    expect([...(await readWithLoadersGl(bytes)).classification]).toEqual([2, 3, 4, 4, 5, 5, 1, 1]);
    const spec = readLasBySpec(bytes);
    expect([...spec.userData]).toEqual(site);
    const names = spec.vlrs.find((v) => v.userId === 'Thicket' && v.recordId === 1)!;
    expect(names.description).toBe('Thicket class ids in user data');
    const entries = new Map<number, string>();
    for (let o = 0; o + 16 <= names.data.length; o += 16) entries.set(names.data[o]!, String.fromCharCode(...names.data.subarray(o + 1, o + 16)).replace(/\0+$/, ''));
    expect(entries.get(SiteClass.ground)).toBe('ground');
    expect(entries.get(SiteClass.grass)).toBe('grass');
    expect(entries.get(SiteClass.largeTree)).toBe('large tree');
  });
});

describe('LAS 1.2 point format 3 on request', () => {
  it('is read by loaders.gl as format 3 with the same points, classes and times', async () => {
    const src = { ...cloud([0, 50, 100, 200]), time: Float32Array.of(0, 0.1, 0.2, 0.3), timeBase: 151000.5, cls: Uint8Array.of(1, 2, 8, 0) };
    const bytes = encodeLas(src, { version: '1.2' });
    const spec = readLasBySpec(bytes);
    expect([spec.version, spec.pointFormat, spec.count]).toEqual(['1.2', 3, 4]);
    expect(spec.globalEncoding & 0x10).toBe(0); // the WKT bit is 1.4's
    // loaders.gl's default (laz-perf) decoder refuses LAS 1.4 and reads this one.
    await expect(readWithLoadersGl(encodeLas(src), 'laz-perf')).rejects.toThrow(/versions <= 1.3/);
    const las = await readWithLoadersGl(bytes, 'laz-perf');
    expect(las.pointFormat).toBe(3);
    expect([...las.classification]).toEqual([2, 3, 5, 1]);
    for (let i = 0; i < 12; i++) expect(Math.abs(las.position[i]! - src.xyz[i]!)).toBeLessThan(0.0005 + 1e-6);
    for (let i = 0; i < 4; i++) expect(Math.abs(spec.gps![i]! - (151000.5 + src.time[i]!))).toBeLessThan(1e-6);
  });

  it('refuses a version it cannot write', () => {
    expect(() => encodeLas(cloud([1]), { version: '1.3' as '1.2' })).toThrow(/LAS version 1.3 cannot be written/);
  });
});

describe('a Thicket LAS file read back', () => {
  it('divides the intensity factor out and names a damaged factor record by its byte', () => {
    const bytes = encodeLas(cloud([0, 0.5, 1]));
    expect([...decodeLasSource(bytes, 'ok.las').cloud.intensity].map((v) => Math.round(v * 1e4) / 1e4)).toEqual([0, 0.5, 1]);
    const at = findRecord(bytes, 'Thicket', 2);
    new DataView(bytes.buffer).setFloat64(at, -1, true);
    const e = decodeErrorOf(() => decodeLasSource(bytes, 'bad.las'));
    expect(e.message).toMatch(/bad\.las/);
    expect(e.reason).toBe(`the intensity scale VLR at byte ${at} (8 bytes) does not hold a positive float64`);
  });
});

/** Byte offset of a VLR's data, found with the spec reader's layout (54-byte VLR headers). */
function findRecord(bytes: Uint8Array, userId: string, recordId: number): number {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let o = dv.getUint16(94, true);
  for (let i = 0; i < dv.getUint32(100, true); i++) {
    const user = String.fromCharCode(...bytes.subarray(o + 2, o + 18)).replace(/\0+$/, '');
    if (user === userId && dv.getUint16(o + 18, true) === recordId) return o + 54;
    o += 54 + dv.getUint16(o + 20, true);
  }
  throw new Error(`no ${userId}/${recordId} record`);
}
