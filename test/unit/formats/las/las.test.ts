import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DecodedCloud } from '../../../../src-worker/formats/decoded-cloud';
import { decodeLas, initLaz, lazHeapBytes, type LasCloud } from '../../../../src-worker/formats/las/las';
import { encodeLas, encodeLasFromChunks } from '../../../../src-worker/formats/las/las-encode';
import { parseLasHeader } from '../../../../src-worker/formats/las/las-header';
import { validateLaz } from '../../../../src-worker/formats/las/laz';
import { decodeLasSource } from '../../../../src-worker/formats/las/las-source';
import { pointsToPacket } from '../../../../src-worker/formats/packets';
import { IDENTITY_POSE, RING_UNKNOWN, type PacketChunk } from '../../../../src-common/packets';
import { transformPoint } from '../../../../src-worker/geometry/pose';
import { dataFile, HAS_SHARED_DATA } from '../../../helpers/shared-data';
import { decodeErrorOf, expectConsistent } from '../helpers';
import { mutate, seededRandom } from '../mutate';

/** A finite cloud with every channel LAS keeps. */
function cloud(n = 60, seed = 2): DecodedCloud {
  let s = seed;
  const r = (): number => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return s / 2 ** 32; };
  return {
    count: n,
    xyz: Float32Array.from({ length: 3 * n }, () => (r() - 0.5) * 200),
    intensity: Float32Array.from({ length: n }, () => Math.floor(r() * 256)),
    ring: Uint16Array.from({ length: n }, (_, i) => (i % 9 === 0 ? RING_UNKNOWN : i % 64)),
    time: Float32Array.from({ length: n }, (_, i) => i * 1e-4),
    timeBase: 1581624663.25,
    viewpoint: null,
    dropped: 0,
    cls: Uint8Array.from({ length: n }, (_, i) => (i * 37) % 256),
    ret: Uint8Array.from({ length: n }, (_, i) => i % 3),
  };
}

/** Largest |a − b| over the points' world coordinates (xyz + origin). */
function worldError(a: { xyz: Float32Array; origin?: readonly number[] }, b: { xyz: Float32Array; origin?: readonly number[] }): number {
  let worst = 0;
  for (let i = 0; i < a.xyz.length; i++) {
    const ax = a.xyz[i]! + (a.origin?.[i % 3] ?? 0), bx = b.xyz[i]! + (b.origin?.[i % 3] ?? 0);
    worst = Math.max(worst, Math.abs(ax - bx));
  }
  return worst;
}

describe('encodeLas → decodeLas round trip (LAS 1.4, format 6, ring as extra bytes)', () => {
  it('keeps coordinates within 1 mm and every other channel exactly', () => {
    const src = cloud();
    // Read as Thicket reads its own files: intensities divided by the VLR's factor, site classes from user data.
    const c = decodeLasSource(encodeLas(src), 'rt.las').cloud;
    expectConsistent(c);
    expect(c.version).toBe('1.4');
    expect(c.pointFormat).toBe(6);
    expect(c.origin).toEqual([0, 0, 0]); // within ±8192 m: no shift, the cloud keeps its frame
    // 1 mm grid: rounding moves a coordinate ≤ 0.5 mm, the float32 result adds ≤ 8 µs at 100 m.
    expect(worldError(c, src)).toBeLessThan(0.0005 + 1e-5);
    expect([...c.intensity]).toEqual([...src.intensity]);
    expect([...c.ring!]).toEqual([...src.ring!]);
    expect([...c.cls!]).toEqual([...src.cls!]);
    expect([...c.ret!]).toEqual([...src.ret!]);
    expect(c.timeBase).toBeCloseTo(src.timeBase, 6);
    for (let i = 0; i < src.count; i++) expect(Math.abs(c.time![i]! - src.time![i]!)).toBeLessThan(1e-6);
  });

  it('shifts georeferenced axes to a whole-metre origin and keeps them within 1 mm', () => {
    const src = { ...cloud(), origin: [500000.3, 4649776.7, 250] };
    const bytes = encodeLas(src);
    const c = decodeLas(bytes, 'utm.las');
    // x and y pass 8192 m and are shifted to the metre below their minimum; z (≤ 350 m) is not.
    for (const a of [0, 1]) {
      let lo = Infinity;
      for (let i = a; i < src.xyz.length; i += 3) lo = Math.min(lo, src.xyz[i]! + src.origin[a]!);
      expect(c.origin[a]).toBe(Math.floor(lo - 0.0005));
    }
    expect(c.origin[2]).toBe(0);
    expect(worldError(c, src)).toBeLessThan(0.0005 + 1e-4); // float32 step near 100 m from the origin
    // The header's scale and offset: 1 mm, whole-metre offsets.
    const h = parseLasHeader(bytes, 'utm.las');
    expect(h.scale).toEqual([0.001, 0.001, 0.001]);
    expect(h.offset.every(Number.isInteger)).toBe(true);
  });

  it('leaves out points with a non-finite coordinate and writes an empty cloud', () => {
    const src = cloud(10);
    src.xyz[3] = NaN;
    src.xyz[3 * 5 + 2] = Infinity;
    const c = decodeLas(encodeLas(src), 'nan.las');
    expect(c.count).toBe(8);
    const empty = decodeLas(encodeLas({ count: 0, xyz: new Float32Array(0), intensity: new Float32Array(0) }), 'empty.las');
    expect(empty.count).toBe(0);
  });

  it('scales float intensities into uint16 on request', () => {
    const src = { ...cloud(4), intensity: Float32Array.of(0, 0.25, 1, 2) };
    expect([...decodeLas(encodeLas(src, { intensityScale: 65535 }), 'i.las').intensity]).toEqual([0, 16384, 65535, 65535]);
  });
});

describe('encodeLasFromChunks', () => {
  // Two packets from different poses; the second has a miss, which has no point.
  const pose1 = [10, -4, 1.5, 0, 0, Math.sin(Math.PI / 6), Math.cos(Math.PI / 6)]; // yaw 60°
  function chunks(): PacketChunk[] {
    const a = pointsToPacket(Float32Array.of(5, 0, 0, 0, 3, 1), Float32Array.of(10, 20), { time: 0.5 });
    a.rayTime.set([0, 0.01]);
    a.rayRing.set([3, 4]);
    a.rayClass.set([1, 9]);
    const b = pointsToPacket(Float32Array.of(2, 2, 0, 1, 0, 0), Float32Array.of(30, 40), { time: 0.6, pose: pose1, packetStart: 1 });
    b.rayRange[1] = NaN;
    b.rayReturn[0] = 1;
    return [a, b];
  }

  it('world: true puts every hit through its packet pose', () => {
    const c = decodeLasSource(encodeLasFromChunks(chunks(), { world: true }), 'log.las').cloud;
    expect(c.count).toBe(3);
    const want = new Float64Array(3);
    transformPoint(pose1, 0, 2, 2, 0, want, 0);
    const expected = [5, 0, 0, 0, 3, 1, want[0]!, want[1]!, want[2]!];
    for (let i = 0; i < 9; i++) expect(Math.abs(c.xyz[i]! - expected[i]!)).toBeLessThan(0.0005 + 1e-6);
    expect([...c.intensity]).toEqual([10, 20, 30]);
    expect([...c.ring!]).toEqual([3, 4, RING_UNKNOWN]);
    expect([...c.cls!]).toEqual([1, 9, 0]);
    expect([...c.ret!]).toEqual([0, 0, 1]);
    // gps_time = packet time + ray time; relative to the earliest.
    expect(c.timeBase).toBeCloseTo(0.5, 9);
    expect([...c.time!].map((t) => Math.round(t * 1e6) / 1e6)).toEqual([0, 0.01, 0.1]);
  });

  it('world: false keeps each packet in its sensor frame', () => {
    const c = decodeLas(encodeLasFromChunks(chunks(), { world: false }), 'log.las');
    const expected = [5, 0, 0, 0, 3, 1, 2, 2, 0];
    for (let i = 0; i < 9; i++) expect(Math.abs(c.xyz[i]! - expected[i]!)).toBeLessThan(0.0005 + 1e-6);
    expect(IDENTITY_POSE.length).toBe(7);
  });
});

/** A hand-built LAS file of any version and format, for the reader's field layouts. */
function rawLas(minor: number, format: number, pts: { X: number; Y: number; Z: number; I: number; rn: number; cls: number; gps: number }[], extra = 0): Uint8Array {
  const sizes = [20, 28, 26, 34, 57, 63, 30, 36, 38, 59, 67];
  const headerSize = [227, 227, 227, 235, 375][minor]!;
  const rec = sizes[format]! + extra;
  const out = new Uint8Array(headerSize + pts.length * rec);
  const dv = new DataView(out.buffer);
  out.set([76, 65, 83, 70]);
  out[24] = 1; out[25] = minor;
  dv.setUint16(94, headerSize, true);
  dv.setUint32(96, headerSize, true);
  out[104] = format;
  dv.setUint16(105, rec, true);
  if (minor === 4) dv.setBigUint64(247, BigInt(pts.length), true);
  if (format <= 5 || minor < 4) dv.setUint32(107, pts.length, true);
  [0.01, 0.01, 0.001].forEach((s, a) => dv.setFloat64(131 + 8 * a, s, true));
  [100, 200, 0].forEach((o, a) => dv.setFloat64(155 + 8 * a, o, true));
  pts.forEach((p, i) => {
    const o = headerSize + i * rec;
    dv.setInt32(o, p.X, true); dv.setInt32(o + 4, p.Y, true); dv.setInt32(o + 8, p.Z, true);
    dv.setUint16(o + 12, p.I, true);
    if (format <= 5) {
      out[o + 14] = p.rn | (p.rn << 3);
      out[o + 15] = p.cls | 0xe0; // synthetic/key-point/withheld flags above the 5 class bits
      if ([1, 3, 4, 5].includes(format)) dv.setFloat64(o + 20, p.gps, true);
    } else {
      out[o + 14] = p.rn | (p.rn << 4);
      out[o + 15] = 0xff; // classification flags, scanner channel, scan direction, edge
      out[o + 16] = p.cls;
      dv.setFloat64(o + 22, p.gps, true);
    }
  });
  return out;
}

describe('decodeLas: versions, formats and header checks', () => {
  const pts = [
    { X: 150, Y: -20, Z: 1234, I: 500, rn: 1, cls: 2, gps: 1000.5 },
    { X: -7, Y: 3, Z: -5, I: 65535, rn: 3, cls: 31, gps: 1002.25 },
  ];
  for (let format = 0; format <= 10; format++) {
    const minor = format >= 6 ? 4 : format >= 4 ? 3 : [0, 1, 2, 2][format]!;
    it(`LAS 1.${minor} point format ${format}`, () => {
      const c = decodeLas(rawLas(minor, format, pts, 3), `f${format}.las`);
      expectConsistent(c);
      expect(c.count).toBe(2);
      // x = X · 0.01 + 100, y = Y · 0.01 + 200, z = Z · 0.001
      expect([...c.xyz].map((v) => Math.round(v * 1e4) / 1e4)).toEqual([101.5, 199.8, 1.234, 99.93, 200.03, -0.005]);
      expect([...c.intensity]).toEqual([500, 65535]);
      expect([...c.ret!]).toEqual([0, 2]);
      expect([...c.cls!]).toEqual([2, 31]);
      const hasGps = [1, 3, 4, 5, 6, 7, 8, 9, 10].includes(format);
      if (hasGps) {
        expect(c.timeBase).toBe(1000.5);
        expect([...c.time!]).toEqual([0, 1.75]);
      } else expect(c.time).toBeNull();
      expect(c.ring).toBeNull();
    });
  }

  it('names the field at fault', () => {
    const good = rawLas(2, 1, pts);
    const edit = (f: (dv: DataView, b: Uint8Array) => void): Uint8Array => {
      const b = good.slice();
      f(new DataView(b.buffer), b);
      return b;
    };
    const cases: [Uint8Array, number, RegExp][] = [
      [edit((_, b) => { b[0] = 0x4d; }), 0, /not a LAS file/],
      [good.subarray(0, 200), 200, /at least 227 bytes/],
      [edit((_, b) => { b[25] = 5; }), 24, /unsupported LAS version 1\.5/],
      [edit((dv) => dv.setUint16(94, 100, true)), 94, /header size 100/],
      [edit((dv) => dv.setUint32(96, 9999, true)), 96, /offset to point data 9999/],
      [edit((_, b) => { b[104] = 11; }), 104, /unknown point data format 11/],
      [edit((_, b) => { b[104] = 0x41; }), 104, /bit 6/],
      [edit((dv) => dv.setUint16(105, 20, true)), 105, /shorter than format 1's 28 bytes/],
      [edit((dv) => dv.setFloat64(139, 0, true)), 139, /y scale 0/],
      [edit((dv) => dv.setUint32(100, 3, true)), 100, /3 VLRs/],
      [edit((_, b) => { b[104] = 0x81; }), 104, /no LASzip VLR/],
      // Nothing to keep: cut inside the first point.
      [good.subarray(0, 227 + 27), 227, /^truncated at byte 227/],
    ];
    for (const [bytes, offset, re] of cases) {
      const e = decodeErrorOf(() => decodeLas(bytes, 'bad.las'));
      expect(e.reason).toMatch(re);
      expect(e.offset).toBe(offset);
    }
    // Cut inside the second point: the first is kept, with a warning.
    const cut = decodeLas(good.subarray(0, good.length - 1), 'cut.las');
    expect(cut.count).toBe(1);
    expect(cut.warnings).toEqual(['cut.las: truncated at byte 255: the last 27 byte(s), an incomplete record, were dropped; 1 of the 2 points declared were kept']);
    const v14 = rawLas(4, 6, pts);
    new DataView(v14.buffer).setUint32(107, 5, true);
    expect(decodeErrorOf(() => decodeLas(v14, 'c.las')).reason).toMatch(/legacy point count 5 at byte 107 disagrees with the 64-bit count 2/);
  });
});

describe.skipIf(!HAS_SHARED_DATA)('LAZ through laz-perf (real files)', () => {
  beforeAll(async () => { await initLaz(); });
  const files: [string, number, number, string][] = [
    // file, header point count, LAS point format, chunks of 50000
    ['treels_tls/pine_plot.laz', 114024, 0, '50000,50000,14024'],
    ['treels_tls/pine.laz', 73851, 0, '50000,23851'],
    ['treels_tls/spruce.laz', 83392, 0, '50000,33392'],
    ['lidR_als/MixedConifer.laz', 37657, 1, '37657'],
  ];
  for (const [file, count, format, chunks] of files) {
    it(`${file}: ${count} points, every one inside the header's bounds`, () => {
      const bytes = readFileSync(dataFile(file));
      const h = parseLasHeader(bytes, file);
      expect(h.count).toBe(count);
      const layout = validateLaz(bytes, h, file);
      expect(layout.table.counts.join(',')).toBe(chunks);
      expect(layout.firstChunk + layout.table.sizes.reduce((a, b) => a + b, 0)).toBe(Number(new DataView(bytes.buffer, bytes.byteOffset).getBigInt64(h.pointOffset, true)));
      const c = decodeLas(bytes, file);
      expectConsistent(c);
      expect(c.count).toBe(count);
      expect(c.pointFormat).toBe(format);
      expect(c.compressed).toBe(true);
      for (let i = 0; i < 3 * count; i++) {
        const a = i % 3, v = c.xyz[i]! + c.origin[a]!;
        // float32 of a value within 100 m of the origin: ≤ 4 µs; plus the header's own rounding.
        if (!(v >= h.min[a]! - 1e-4 && v <= h.max[a]! + 1e-4)) throw new Error(`point ${Math.floor(i / 3)} axis ${a}: ${v} outside [${h.min[a]}, ${h.max[a]}]`);
      }
    });
  }

  it('MixedConifer (UTM): origin [481260, 3812921, 0], ASPRS classes, GPS time, and a lossless LAS re-encode', () => {
    const c = decodeLas(readFileSync(dataFile('lidR_als/MixedConifer.laz')), 'MixedConifer.laz');
    expect(c.origin).toEqual([481260, 3812921, 0]);
    const classes = new Map<number, number>();
    for (const v of c.cls!) classes.set(v, (classes.get(v) ?? 0) + 1);
    expect([...classes].sort((a, b) => a[0] - b[0])).toEqual([[1, 31832], [2, 5820], [11, 5]]); // unclassified, ground, (lidR) 11
    expect(c.timeBase).toBeCloseTo(149928.387, 3);
    // The source's codes and raw intensities written back as they were.
    const again = decodeLas(encodeLas(c as LasCloud, { codes: c.cls, intensityScale: 1 }), 'again.las');
    expect(again.origin).toEqual(c.origin);
    expect(worldError(again, c)).toBeLessThan(0.0005);
    expect([...again.cls!]).toEqual([...c.cls!]);
  });

  it('refuses truncated LAZ before laz-perf opens it, and laz-perf keeps working without leaking', async () => {
    const bytes = readFileSync(dataFile('lidR_als/MixedConifer.laz'));
    const reference = decodeLas(bytes, 'ok.laz');
    const rnd = seededRandom(77);
    for (let k = 0; k < 300; k++) {
      const cut = 673 + Math.floor(rnd() * (bytes.length - 673));
      const e = decodeErrorOf(() => decodeLas(bytes.subarray(0, cut), 'cut.laz'));
      expect(e.reason).toMatch(/chunk table|truncated/);
      await initLaz();
    }
    // The guard keeps laz-perf's open from failing; its heap stays at the size one decode needs.
    expect(lazHeapBytes()).toBeLessThan(32 * 2 ** 20);
    const after = decodeLas(bytes, 'ok.laz');
    expect(worldError(after, reference)).toBe(0);
  });

  it('turns corrupt compressed data into DecodeError naming the chunk, or a consistent cloud', async () => {
    const bytes = new Uint8Array(readFileSync(dataFile('treels_tls/pine.laz'))); // a copy: Buffer.slice() would alias
    const h = parseLasHeader(bytes, 'pine.laz');
    const { firstChunk, table } = validateLaz(bytes, h, 'pine.laz');
    const reference = decodeLas(bytes, 'pine.laz');
    let rejected = 0;
    for (let k = 0; k < 20; k++) {
      const b = bytes.slice();
      // Damage the second chunk only: the error must point at it.
      const at = firstChunk + table.sizes[0]! + 64 + k * 197;
      b[at] = b[at]! ^ 0x5a;
      b[at + 1] = b[at + 1]! ^ 0xa5;
      try {
        expectConsistent(decodeLas(b, 'pine.laz'));
      } catch (e) {
        const err = decodeErrorOf(() => { throw e; });
        expect(err.reason).toMatch(/corrupt LAZ data: point \d+ of 73851 in chunk 1/);
        expect(err.offset).toBe(firstChunk + table.sizes[0]!);
        rejected++;
      }
      await initLaz();
    }
    expect(rejected).toBeGreaterThan(0);
    // The module is still sound: the undamaged file decodes to the same points as before.
    expect(worldError(decodeLas(bytes, 'pine.laz'), reference)).toBe(0);
  });

  it('fuzz: 2000 mutations of a 2000-point LAZ decode consistently or throw DecodeError', async () => {
    // MixedConifer with its header count cut to 2000: the one fixed-size chunk then holds 2000
    // points and laz-perf reads only its start, so each run takes milliseconds.
    await initLaz();
    const valid = new Uint8Array(readFileSync(dataFile('lidR_als/MixedConifer.laz')));
    new DataView(valid.buffer).setUint32(107, 2000, true);
    expect(decodeLas(valid, 'small.laz').count).toBe(2000);
    const rnd = seededRandom(2024);
    const tally = { ok: 0, rejected: 0 };
    for (let k = 0; k < 2000; k++) {
      const { bytes, kind } = mutate(valid, rnd);
      try {
        expectConsistent(decodeLas(bytes, 'm.laz'));
        tally.ok++;
      } catch (e) {
        try { decodeErrorOf(() => { throw e; }); } catch { throw new Error(`run ${k} (${kind}): ${String(e)}`, { cause: e }); }
        tally.rejected++;
      }
      await initLaz(); // lets a retired module's replacement arrive
    }
    expect(tally.ok).toBeGreaterThan(100);
    expect(tally.rejected).toBeGreaterThan(100);
    expect(lazHeapBytes()).toBeLessThan(64 * 2 ** 20);
  }, 120_000);
});
