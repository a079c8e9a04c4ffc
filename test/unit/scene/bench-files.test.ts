import { describe, expect, it } from 'vitest';
import { decodeRaysFile, decodeTrianglesFile, encodeRaysFile, encodeTrianglesFile } from '../../../src-worker/formats/bench-files';
import { DecodeError } from '../../../src-worker/formats/decode-error';
import { thrownBy } from '../../helpers/errors';

function rawFile(header: string, floats: number[], pad = true): Uint8Array {
  let h = header;
  if (pad) while (h.length % 4) h += ' ';
  const head = new TextEncoder().encode(h);
  const out = new Uint8Array(4 + head.length + 4 * floats.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, head.length, true);
  out.set(head, 4);
  floats.forEach((f, i) => v.setFloat32(4 + head.length + 4 * i, f, true));
  return out;
}

const decodeError = (fn: () => unknown): DecodeError => thrownBy(DecodeError, fn);

describe('bench files', () => {
  it('round-trips triangles and rays; the header is padded to 4 bytes', () => {
    const tri = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 5, 5, 5, 6, 5, 5, 5, 6, 5]);
    const bytes = encodeTrianglesFile(tri, { note: 'x' });
    const h = new DataView(bytes.buffer).getUint32(0, true);
    expect(h % 4).toBe(0);
    const t = decodeTrianglesFile(bytes, 'tri.bin');
    expect([...t.positions]).toEqual([...tri]);
    expect(t.count).toBe(2);
    expect(t.header.note).toBe('x');
    const rays = new Float32Array([0, 0, 1, 0, 0, -1, 1, 2, 3, 1, 0, 0]);
    const r = decodeRaysFile(encodeRaysFile(rays, 80), 'rays.bin');
    expect([...r.rays]).toEqual([...rays]);
    expect(r.maxRange).toBe(80);
    expect(r.count).toBe(2);
    expect(r.skipped).toBe(0);
  });

  it('skips and counts rays with NaN or a zero direction, and normalises directions', () => {
    const r = decodeRaysFile(rawFile('{"maxRange": 50}', [0, 0, 0, 2, 0, 0, NaN, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, Infinity, 0]), 'r.bin');
    expect(r.count).toBe(1);
    expect(r.skipped).toBe(3);
    expect([...r.rays]).toEqual([0, 0, 0, 1, 0, 0]);
    const t = decodeTrianglesFile(rawFile('{}', [0, 0, 0, 1, 0, 0, 0, 1, 0, NaN, 0, 0, 1, 0, 0, 0, 1, 0]), 't.bin');
    expect(t.count).toBe(1);
    expect(t.skipped).toBe(1);
  });

  it('reads an unpadded header (data not 4-aligned)', () => {
    const r = decodeRaysFile(rawFile('{"maxRange":5}', [1, 2, 3, 0, 0, 1], false), 'r.bin');
    expect([...r.rays]).toEqual([1, 2, 3, 0, 0, 1]);
  });

  it('names the file, the offset and the reason for bad input', () => {
    let e = decodeError(() => decodeRaysFile(new Uint8Array(2), 'short.bin'));
    expect(e.message).toContain('short.bin');
    expect(e.offset).toBe(0);
    const big = rawFile('{}', []);
    new DataView(big.buffer).setUint32(0, 1000, true);
    e = decodeError(() => decodeTrianglesFile(big, 'long.bin'));
    expect(e.reason).toMatch(/header length 1000 runs past the end/);
    e = decodeError(() => decodeTrianglesFile(rawFile('{nope', []), 'json.bin'));
    expect(e.offset).toBe(4);
    expect(e.reason).toMatch(/not valid UTF-8 JSON/);
    e = decodeError(() => decodeTrianglesFile(rawFile('[1]', []), 'arr.bin'));
    expect(e.reason).toMatch(/JSON object/);
    e = decodeError(() => decodeRaysFile(rawFile('{}', [0, 0, 0, 1, 0, 0]), 'nomax.bin'));
    expect(e.reason).toMatch(/maxRange/);
    e = decodeError(() => decodeRaysFile(rawFile('{"maxRange": -1}', []), 'neg.bin'));
    expect(e.reason).toMatch(/maxRange/);
    const trunc = rawFile('{"maxRange": 10}', [0, 0, 0, 1, 0, 0, 1, 1]);
    e = decodeError(() => decodeRaysFile(trunc, 'trunc.bin'));
    expect(e.offset).toBe(trunc.length - 8);
    expect(e.message).toMatch(/^trunc\.bin: truncated at byte \d+/);
    e = decodeError(() => decodeRaysFile(rawFile('{"maxRange": 10, "count": 3}', [0, 0, 0, 1, 0, 0]), 'count.bin'));
    expect(e.reason).toMatch(/header count 3 but the data holds 1/);
    e = decodeError(() => decodeRaysFile(encodeTrianglesFile(new Float32Array(9)), 'kind.bin'));
    expect(e.reason).toMatch(/kind "triangles"/);
  });
});
