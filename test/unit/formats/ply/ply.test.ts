import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cloudToPacket, type DecodedCloud } from '../../../../src-worker/formats/decoded-cloud';
import { decodeKittiBin } from '../../../../src-worker/formats/kitti/kitti-bin';
import { RING_UNKNOWN } from '../../../../src-common/packets';
import { decodePly } from '../../../../src-worker/formats/ply/ply';
import { encodePly } from '../../../../src-worker/formats/ply/ply-encode';
import { dataFile, HAS_SHARED_DATA } from '../../../helpers/shared-data';
import { concatenated } from '../../../../src-worker/arrays/typed-arrays';
import { decodeErrorOf, expectConsistent, mismatches, sampleCloud } from '../helpers';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const cat = (...parts: Uint8Array[]): Uint8Array => concatenated(Uint8Array, parts);

/** sampleCloud with class/return codes and an absolute time base. */
function fullCloud(): DecodedCloud {
  const c = sampleCloud(50, 3);
  return { ...c, timeBase: 1581624663.17, cls: Uint8Array.from({ length: 50 }, (_, i) => i % 7), ret: Uint8Array.from({ length: 50 }, (_, i) => i % 2) };
}

describe('encodePly → decodePly round trip', () => {
  for (const format of ['binary_little_endian', 'binary_big_endian', 'ascii'] as const) {
    it(format, () => {
      const src = fullCloud();
      const c = decodePly(encodePly(src, { format }), 'rt.ply');
      expectConsistent(c);
      expect(c.count).toBe(50);
      // float32 channels and integer codes come back bit-exact (NaN and ±Infinity included).
      expect(mismatches(c.xyz, src.xyz)).toBe(0);
      expect(mismatches(c.intensity, src.intensity)).toBe(0);
      expect(mismatches(c.ring!, src.ring!)).toBe(0);
      expect(mismatches(c.cls!, src.cls!)).toBe(0);
      expect(mismatches(c.ret!, src.ret!)).toBe(0);
      expect(c.dropped).toBe(2);
      expect(c.viewpoint).toEqual(src.viewpoint);
      // Time goes through absolute float64 seconds: 1.6e9 s has 2.4e-7 s steps.
      expect(c.timeBase).toBeCloseTo(src.timeBase, 6);
      for (let i = 0; i < 50; i++) expect(Math.abs(c.time![i]! - src.time![i]!)).toBeLessThan(1e-6);
    });
  }

  it('leaves out the channels a cloud does not have', () => {
    const src = sampleCloud(5);
    const bytes = encodePly({ ...src, ring: null, time: null, viewpoint: null });
    const head = new TextDecoder().decode(bytes.subarray(0, 200));
    expect(head).not.toMatch(/ring|time|class|viewpoint/);
    const c = decodePly(bytes, 'min.ply');
    expect(c.ring).toBeNull();
    expect(c.time).toBeNull();
    expect(c.cls).toBeNull();
    expect(c.viewpoint).toBeNull();
    expect(mismatches(c.xyz, src.xyz)).toBe(0);
  });
});

describe('cloudToPacket with class and return codes', () => {
  it('carries them over the points it keeps (non-finite and origin points dropped)', () => {
    const xyz = Float32Array.of(1, 0, 0, NaN, 0, 0, 0, 0, 0, 0, 2, 0);
    const c: DecodedCloud = {
      count: 4, xyz, intensity: new Float32Array(4), ring: null, time: null, timeBase: 0, viewpoint: null, dropped: 1,
      cls: Uint8Array.of(5, 6, 7, 8), ret: Uint8Array.of(0, 1, 1, 1),
    };
    const p = cloudToPacket(c);
    expect(p.rayCount).toBe(2);
    expect([...p.rayClass]).toEqual([5, 8]);
    expect([...p.rayReturn]).toEqual([0, 1]);
  });
});

describe('decodePly', () => {
  it('reads every property type under both spellings, big-endian', () => {
    const header = enc('ply\nformat binary_big_endian 1.0\nelement vertex 2\nproperty char a\nproperty int16 x\n'
      + 'property uint y\nproperty double z\nproperty uint8 ring\nproperty float32 intensity\nproperty ushort b\nend_header\n');
    const rec = 1 + 2 + 4 + 8 + 1 + 4 + 2;
    const body = new Uint8Array(2 * rec);
    const dv = new DataView(body.buffer);
    [[-5, -300, 4000000000, 1.25, 7, 0.5, 9], [127, 32767, 1, -2.5, 63, 99, 65535]].forEach((v, i) => {
      let o = i * rec;
      dv.setInt8(o, v[0]!); o += 1;
      dv.setInt16(o, v[1]!); o += 2;
      dv.setUint32(o, v[2]!); o += 4;
      dv.setFloat64(o, v[3]!); o += 8;
      dv.setUint8(o, v[4]!); o += 1;
      dv.setFloat32(o, v[5]!); o += 4;
      dv.setUint16(o, v[6]!);
    });
    const c = decodePly(cat(header, body), 'types.ply');
    expect([...c.xyz]).toEqual([-300, 4000000000, 1.25, 32767, 1, -2.5]);
    expect([...c.ring!]).toEqual([7, 63]);
    expect([...c.intensity]).toEqual([0.5, 99]);
  });

  it('skips other elements before the vertices, list properties included (binary and ascii)', () => {
    // A face element of variable-size records (uchar count + int indices) before the vertices.
    const head = (format: string): Uint8Array => enc(`ply\nformat ${format} 1.0\ncomment two faces first\nelement face 2\n`
      + 'property list uchar int vertex_indices\nproperty uchar flag\nelement vertex 2\nproperty float x\nproperty float y\n'
      + 'property float z\nproperty list uchar float extra\nend_header\n');
    const faces = new Uint8Array([3, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 9, 0, 7]); // 3 indices + flag, then 0 indices + flag
    const verts = new Uint8Array(2 * 13 + 2 * 4);
    const dv = new DataView(verts.buffer);
    dv.setFloat32(0, 1, true); dv.setFloat32(4, 2, true); dv.setFloat32(8, 3, true); dv.setUint8(12, 0);
    dv.setFloat32(13, 4, true); dv.setFloat32(17, 5, true); dv.setFloat32(21, 6, true); dv.setUint8(25, 2);
    const bin = decodePly(cat(head('binary_little_endian'), faces, verts), 'faces.ply');
    expect([...bin.xyz]).toEqual([1, 2, 3, 4, 5, 6]);
    const ascii = decodePly(cat(head('ascii'), enc('3 0 1 2 9\n0 7\n\n1 2 3 0\n4 5 6 2 0.5 0.25\n')), 'faces.ply');
    expect([...ascii.xyz]).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('reads ascii with CRLF line breaks and C-style nan/inf', () => {
    const c = decodePly(enc('ply\r\nformat ascii 1.0\r\nelement vertex 2\r\nproperty float x\r\nproperty float y\r\nproperty float z\r\nend_header\r\n1 2 3\r\nnan -inf 4\r\n'), 'crlf.ply');
    expect([...c.xyz]).toEqual([1, 2, 3, NaN, -Infinity, 4]);
    expect(c.dropped).toBe(1);
  });

  it('names the header line of each header error', () => {
    const cases: [string, number, RegExp][] = [
      ['plyx\nformat ascii 1.0\nend_header\n', 1, /first line must be "ply"/],
      ['ply\nformat binary 1.0\nend_header\n', 2, /unknown format "binary"/],
      ['ply\nformat ascii 2.0\nend_header\n', 2, /unsupported PLY version/],
      ['ply\nformat ascii 1.0\nproperty float x\nend_header\n', 3, /property before any element/],
      ['ply\nformat ascii 1.0\nelement vertex 1\nproperty float128 x\nend_header\n', 4, /unknown property type "float128"/],
      ['ply\nformat ascii 1.0\nelement vertex -1\nend_header\n', 3, /whole COUNT/],
      ['ply\nformat ascii 1.0\nelement vertex 1\nproperty list float int v\nend_header\n', 4, /list count must be an integer/],
      ['ply\nformat ascii 1.0\nbogus\nend_header\n', 3, /unknown keyword "bogus"/],
      ['ply\nformat ascii 1.0\nelement vertex 1\n', 4, /ends before end_header/],
      ['ply\nformat ascii 1.0\nelement face 0\nend_header\n', 4, /no vertex element/],
      ['ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nend_header\n', 3, /no scalar z/],
    ];
    for (const [text, line, re] of cases) {
      const e = decodeErrorOf(() => decodePly(enc(text), 'h.ply'));
      expect(e.line, text).toBe(line);
      expect(e.reason, text).toMatch(re);
    }
  });

  it('names the byte offset of truncated binary data and the line of bad ascii data', () => {
    const bytes = encodePly(sampleCloud(10));
    const headerLength = new TextDecoder('latin1').decode(bytes).indexOf('end_header\n') + 11;
    // 9 whole records of 26 bytes (4 float + ushort + double) are kept, with a warning.
    const c = decodePly(bytes.subarray(0, bytes.length - 5), 't.ply');
    expect(c.count).toBe(9);
    expect(c.warnings).toEqual([`t.ply: truncated at byte ${headerLength + 9 * 26}: the last 21 byte(s), an incomplete record, were dropped; 9 of the 10 vertices declared were kept`]);
    const e = decodeErrorOf(() => decodePly(bytes.subarray(0, headerLength + 25), 't.ply'));
    expect(e.offset).toBe(headerLength);
    expect(e.reason).toMatch(/^truncated at byte/);

    const ascii = 'ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nend_header\n';
    const bad = decodeErrorOf(() => decodePly(enc(`${ascii}1 2 3\n4 five 6\n7 8 9\n`), 'a.ply'));
    expect(bad.line).toBe(9);
    expect(bad.offset).toBe(ascii.length + 6);
    expect(bad.reason).toMatch(/value 2 \(y\) is not a number: "five"/);
    expect(decodeErrorOf(() => decodePly(enc(`${ascii}1 2 3\n4 5\n7 8 9\n`), 'a.ply')).line).toBe(9);
    expect(decodeErrorOf(() => decodePly(enc(`${ascii}1 2 3\n4 5 6 7\n`), 'a.ply')).reason).toMatch(/more values/);
    const short = decodeErrorOf(() => decodePly(enc(`${ascii}1 2 3\n`), 'a.ply'));
    expect(short.reason).toMatch(/3 vertices declared, the data ends after 1/);
  });

  it('refuses a vertex count larger than the file can hold before allocating', () => {
    const e = decodeErrorOf(() => decodePly(enc('ply\nformat binary_little_endian 1.0\nelement vertex 4000000000\nproperty float x\nproperty float y\nproperty float z\nend_header\n'), 'big.ply'));
    expect(e.reason).toMatch(/truncated at byte/);
  });
});

describe.skipIf(!HAS_SHARED_DATA)('decodePly on RELLIS-3D frame000104 (binary PLY, Ouster OS1-64)', () => {
  it('reads 131072 points identical to the same scan as a KITTI .bin, with ring 0–63 and time', () => {
    const c = decodePly(readFileSync(dataFile('rellis3d/frame000104-1581624663_170.ply')), 'frame000104.ply');
    const bin = decodeKittiBin(readFileSync(dataFile('rellis3d/000104.bin')), '000104.bin');
    expectConsistent(c);
    expect(c.count).toBe(131072); // 64 rings × 2048 columns, organized
    expect(mismatches(c.xyz, bin.xyz)).toBe(0);
    let ringMax = 0, tMax = 0, unknown = 0;
    for (let i = 0; i < c.count; i++) {
      if (c.ring![i] === RING_UNKNOWN) unknown++;
      else ringMax = Math.max(ringMax, c.ring![i]!);
      tMax = Math.max(tMax, c.time![i]!);
    }
    expect(unknown).toBe(0);
    expect(ringMax).toBe(63);
    // `t` is uint nanoseconds from the scan start: one 10 Hz rotation, 0 .. 99.9 ms.
    expect(c.timeBase).toBe(0);
    expect(tMax).toBeGreaterThan(0.099);
    expect(tMax).toBeLessThan(0.1);
  });
});
