import { describe, expect, it } from 'vitest';
import { decodePcd } from '../../../../src-worker/formats/pcd/pcd';
import { encodePcd, formatFloat } from '../../../../src-worker/formats/pcd/pcd-encode';
import { RING_UNKNOWN } from '../../../../src-common/packets';
import { decodeErrorOf, expectConsistent, sampleCloud } from '../helpers';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

const HEADER = (fields = 'x y z intensity', size = '4 4 4 4', type = 'F F F F', count = '1 1 1 1', n = 2, data = 'ascii') =>
  `# .PCD v0.7 - Point Cloud Data file format\nVERSION 0.7\nFIELDS ${fields}\nSIZE ${size}\nTYPE ${type}\nCOUNT ${count}\nWIDTH ${n}\nHEIGHT 1\nVIEWPOINT 0 0 0 1 0 0 0\nPOINTS ${n}\nDATA ${data}\n`;

describe('decodePcd: round trips through encodePcd', () => {
  const cloud = sampleCloud(300);
  for (const data of ['ascii', 'binary', 'binary_compressed'] as const) {
    it(`${data}: identical values, ring, time and viewpoint`, () => {
      const c = decodePcd(encodePcd(cloud, data), `rt.${data}.pcd`);
      expectConsistent(c);
      expect(c.count).toBe(cloud.count);
      expect(c.xyz).toEqual(cloud.xyz); // toEqual treats NaN as equal to NaN
      expect(c.intensity).toEqual(cloud.intensity);
      expect(c.ring).toEqual(cloud.ring);
      expect(c.time).toEqual(cloud.time);
      expect(c.timeBase).toBe(0);
      expect(c.viewpoint).toEqual(cloud.viewpoint);
      expect(c.dropped).toBe(2);
    });
  }

  it('binary_compressed is smaller than binary for a structured cloud', () => {
    const c = sampleCloud(2000);
    c.xyz.fill(1.5);
    expect(encodePcd(c, 'binary_compressed').length).toBeLessThan(encodePcd(c, 'binary').length / 2);
  });

  it('an empty cloud round-trips in every form', () => {
    const empty = { ...sampleCloud(0), viewpoint: null };
    for (const data of ['ascii', 'binary', 'binary_compressed'] as const) {
      const c = decodePcd(encodePcd(empty, data), 'e.pcd');
      expect(c.count).toBe(0);
      expect(c.viewpoint).toEqual([0, 0, 0, 0, 0, 0, 1]);
    }
  });

  it('formatFloat writes the shortest exact float32', () => {
    for (const x of [0.1, 1 / 3, -1e-30, 3.4e38, 123456.789, 0, -0.5]) {
      const f = Math.fround(x);
      expect(Math.fround(Number(formatFloat(f)))).toBe(f);
    }
    expect(formatFloat(Math.fround(0.1))).toBe('0.1');
  });
});

describe('decodePcd: header variants', () => {
  it('reads ascii with nan, extra fields, COUNT > 1, other types and intensity named i', () => {
    const text =
      HEADER('x y z i rgb normal ring t', '4 4 8 2 4 4 2 4', 'F F F U U F U U', '1 1 1 1 1 3 1 1', 3) +
      '1 2 3 7 0 0 0 1 5 1000\nnan 2 3 8 0 0 0 1 99999 2000\n\n1e3 -2.5 .5 9 0 0 0 1 6 500\n';
    const c = decodePcd(enc(text), 'v.pcd');
    expectConsistent(c);
    expect(c.count).toBe(3);
    expect([...c.intensity]).toEqual([7, 8, 9]);
    expect([...c.xyz.subarray(6)]).toEqual([1000, -2.5, 0.5]);
    expect(c.dropped).toBe(1);
    expect([...c.ring!]).toEqual([5, RING_UNKNOWN, 6]); // 99999 is no laser index
    // Integer time fields are nanoseconds; times are relative to the earliest.
    const expected = [500e-9, 1500e-9, 0];
    c.time!.forEach((t, i) => expect(t).toBeCloseTo(expected[i]!, 12));
    expect(c.timeBase).toBeCloseTo(500e-9, 15);
  });

  it('tolerates a v0.6 header without VERSION and COUNT, CRLF line ends and no intensity', () => {
    const text = 'FIELDS x y z\r\nSIZE 4 4 4\r\nTYPE F F F\r\nWIDTH 2\r\nHEIGHT 1\r\nPOINTS 2\r\nDATA ascii\r\n1 2 3\r\n4 5 6\r\n';
    const c = decodePcd(enc(text), 'old.pcd');
    expect([...c.xyz]).toEqual([1, 2, 3, 4, 5, 6]);
    expect([...c.intensity]).toEqual([0, 0]);
    expect(c.viewpoint).toBeNull();
    expect(c.ring).toBeNull();
  });

  it('converts VIEWPOINT from PCD order (qw first) to [tx ty tz qx qy qz qw]', () => {
    const text = HEADER('x y z', '4 4 4', 'F F F', '1 1 1', 1).replace('VIEWPOINT 0 0 0 1 0 0 0', 'VIEWPOINT 1 2 3 0.5 0.1 0.2 0.3') + '0 0 0\n';
    expect(decodePcd(enc(text), 'vp.pcd').viewpoint).toEqual([1, 2, 3, 0.1, 0.2, 0.3, 0.5]);
  });

  it('reads float time in seconds and organized clouds (HEIGHT > 1)', () => {
    const text = HEADER('x y z time', '4 4 4 8', 'F F F F', '1 1 1 1', 4).replace('WIDTH 4\nHEIGHT 1', 'WIDTH 2\nHEIGHT 2') +
      '0 0 1 1700000000.25\n0 1 0 1700000000.5\n1 0 0 1700000000\n1 1 1 nan\n';
    const c = decodePcd(enc(text), 'org.pcd');
    expect(c.count).toBe(4);
    expect(c.timeBase).toBe(1700000000);
    expect([...c.time!]).toEqual([0.25, 0.5, 0, NaN]);
  });
});

describe('decodePcd: errors name the file and the place', () => {
  it('empty file', () => {
    expect(decodeErrorOf(() => decodePcd(new Uint8Array(0), 'e.pcd')).message).toBe('e.pcd: empty file');
  });

  it('truncated binary data keeps its whole points, with a warning; less than one point is an error', () => {
    const bytes = encodePcd(sampleCloud(10), 'binary');
    const record = 4 * 4 + 2 + 4;
    const dataStart = bytes.length - 10 * record;
    const c = decodePcd(bytes.subarray(0, bytes.length - 5), 'cut.pcd');
    expect(c.count).toBe(9);
    expect(c.warnings).toEqual([`cut.pcd: truncated at byte ${dataStart + 9 * record}: the last ${record - 5} byte(s), an incomplete record, were dropped; 9 of the 10 points declared were kept`]);
    const e = decodeErrorOf(() => decodePcd(bytes.subarray(0, dataStart + 3), 'cut.pcd'));
    expect(e.offset).toBe(dataStart);
    expect(e.message).toMatch(new RegExp(`^cut\\.pcd: truncated at byte ${dataStart}: DATA binary needs 10 points`));
  });

  it('truncated binary_compressed data and inconsistent sizes', () => {
    const bytes = encodePcd(sampleCloud(100), 'binary_compressed');
    expect(decodeErrorOf(() => decodePcd(bytes.subarray(0, bytes.length - 1), 'c.pcd')).reason).toMatch(/^truncated at byte/);
    const at = new TextDecoder('latin1').decode(bytes).indexOf('DATA binary_compressed\n') + 'DATA binary_compressed\n'.length;
    const bad = bytes.slice();
    new DataView(bad.buffer).setUint32(at + 4, 12345, true);
    expect(decodeErrorOf(() => decodePcd(bad, 'c.pcd')).reason).toMatch(/uncompressed size 12345 differs from POINTS × record size = 100 × 22 = 2200/);
  });

  it('corrupt LZF data', () => {
    const bytes = encodePcd(sampleCloud(100), 'binary_compressed');
    const bad = bytes.slice();
    for (let i = bad.length - 200; i < bad.length; i += 7) bad[i] = 0xff ^ bad[i]!;
    const e = decodeErrorOf(() => decodePcd(bad, 'lzf.pcd'));
    expect(e.file).toBe('lzf.pcd');
    expect(e.reason).toMatch(/corrupt LZF data at byte \d+|decompressed to/);
  });

  it('FIELDS / SIZE mismatch, with the line number', () => {
    const e = decodeErrorOf(() => decodePcd(enc(HEADER('x y z intensity', '4 4 4') + '1 2 3 4\n'), 'm.pcd'));
    expect(e.line).toBe(4);
    expect(e.message).toBe('m.pcd, line 4: SIZE has 3 values but FIELDS has 4 (x y z intensity)');
  });

  it('missing x', () => {
    const e = decodeErrorOf(() => decodePcd(enc(HEADER('y z intensity', '4 4 4', 'F F F', '1 1 1', 1) + '1 2 3\n'), 'nox.pcd'));
    expect(e.message).toBe('nox.pcd, line 3: missing field x: FIELDS are y z intensity; x y z are required');
  });

  it('ascii line with the wrong number of values', () => {
    const text = HEADER('x y z intensity', '4 4 4 4', 'F F F F', '1 1 1 1', 3) + '1 2 3 4\n1 2 3 4\n1 2 3\n';
    const e = decodeErrorOf(() => decodePcd(enc(text), 'scan.pcd'));
    expect(e.line).toBe(14);
    expect(e.message).toBe('scan.pcd, line 14: DATA ascii expects 4 values per point, found 3');
  });

  it('ascii value that is not a number, and too few lines', () => {
    const head = HEADER('x y z', '4 4 4', 'F F F', '1 1 1', 3);
    expect(decodeErrorOf(() => decodePcd(enc(head + '1 2 3\n1 2x 3\n1 2 3\n'), 'n.pcd')).message).toBe(
      'n.pcd, line 13: DATA ascii value 2 is not a number: "2x"',
    );
    const short = decodeErrorOf(() => decodePcd(enc(head + '1 2 3\n1 2 3\n'), 's.pcd'));
    expect(short.message).toBe('s.pcd, line 14: truncated: DATA ascii ends after 2 of 3 points');
  });

  it('WIDTH × HEIGHT ≠ POINTS, bad TYPE, bad DATA, repeated keys, no DATA', () => {
    const cases: [string, RegExp][] = [
      [HEADER().replace('POINTS 2', 'POINTS 3'), /line 10: WIDTH × HEIGHT = 2 × 1 = 2 differs from POINTS 3/],
      [HEADER().replace('TYPE F F F F', 'TYPE F F Q F'), /line 5: TYPE of field z must be F, I or U, found "Q"/],
      [HEADER().replace('TYPE F F F F', 'TYPE F F F F').replace('SIZE 4 4 4 4', 'SIZE 4 4 2 4'), /TYPE F needs SIZE 4 or 8/],
      [HEADER().replace('DATA ascii', 'DATA binary_lz4'), /line 11: DATA must be ascii, binary or binary_compressed/],
      [HEADER().replace('HEIGHT 1\n', 'HEIGHT 1\nHEIGHT 1\n'), /line 9: header repeats HEIGHT \(first on line 8\)/],
      [HEADER().replace('DATA ascii\n', ''), /not a PCD file: no DATA line/],
      [HEADER().replace('VIEWPOINT 0 0 0 1 0 0 0', 'VIEWPOINT 0 0 0 1'), /VIEWPOINT needs 7 numbers/],
      [HEADER().replace('COUNT 1 1 1 1', 'COUNT 1 0 1 1'), /COUNT of field y must be a positive integer/],
    ];
    for (const [text, re] of cases) expect(decodeErrorOf(() => decodePcd(enc(text + '1 2 3 4\n1 2 3 4\n'), 'h.pcd')).message).toMatch(re);
  });

  it('a header claiming a billion binary points, or huge COUNTs, fails fast without allocating', () => {
    // The one whole point is kept; the warning says how many the header declared.
    const text = HEADER('x y z', '4 4 4', 'F F F', '1 1 1', 1e9, 'binary') + 'abcdefghijkl';
    const one = decodePcd(enc(text), 'big.pcd');
    expect(one.count).toBe(1);
    expect(one.warnings![0]).toMatch(/1 of the 1000000000 points declared were kept$/);
    expect(decodeErrorOf(() => decodePcd(enc(text.slice(0, -3)), 'big.pcd')).reason).toMatch(/^truncated at byte \d+: DATA binary needs 1000000000 points/);
    const zero = HEADER('x y z', '4 4 4', 'F F F', '1 4294967295 1', 0);
    expect(decodePcd(enc(zero), 'zero.pcd').count).toBe(0);
    expect(decodeErrorOf(() => decodePcd(enc(zero.replace(/ 0\n/g, ' 1\n') + '1 2 3\n'), 'c.pcd')).reason).toMatch(/^truncated/);
  });

  it('a header claiming a billion ascii points over a tiny file fails fast without allocating', () => {
    const text = HEADER('x y z', '4 4 4', 'F F F', '1 1 1', 1e9) + '1 2 3\n';
    expect(decodeErrorOf(() => decodePcd(enc(text), 'big.pcd')).message).toBe('big.pcd, line 13: truncated: DATA ascii ends after 1 of 1000000000 points');
  });
});
