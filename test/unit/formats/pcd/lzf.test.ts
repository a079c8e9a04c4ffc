import { describe, expect, it } from 'vitest';
import { lzfCompress, lzfDecompress } from '../../../../src-worker/formats/pcd/lzf';
import { decodeErrorOf } from '../helpers';
import { seededRandom } from '../mutate';

function sample(n: number, seed: number): Uint8Array {
  const rnd = seededRandom(seed);
  const b = new Uint8Array(n);
  // Mixed content: runs, repeats at various distances, noise.
  for (let i = 0; i < n; i++) {
    const r = rnd();
    b[i] = r < 0.3 && i > 0 ? b[i - 1]! : r < 0.6 && i >= 300 ? b[i - 1 - Math.floor(rnd() * 300)]! : Math.floor(rnd() * 256);
  }
  return b;
}

describe('lzf', () => {
  it('round-trips empty, tiny, repetitive, random and long inputs', () => {
    const inputs = [
      new Uint8Array(0), Uint8Array.of(7), Uint8Array.of(1, 2), new Uint8Array(10_000),
      sample(100, 1), sample(70_000, 2), Uint8Array.from({ length: 5000 }, (_, i) => (i * 7919) & 255),
    ];
    for (const input of inputs) {
      const packed = lzfCompress(input);
      expect(lzfDecompress(packed, input.length)).toEqual(input);
    }
    expect(lzfCompress(new Uint8Array(10_000)).length).toBeLessThan(200);
  });

  it('decodes a hand-made stream with an overlapping back-reference', () => {
    // literal "ab", then copy 6 bytes from 2 back: "abababab"
    const stream = Uint8Array.of(1, 97, 98, (4 << 5) | 0, 1);
    expect(new TextDecoder().decode(lzfDecompress(stream, 8))).toBe('abababab');
  });

  it('rejects references before the start, overruns and short output', () => {
    expect(decodeErrorOf(() => lzfDecompress(Uint8Array.of(0x20, 0), 3, 'f.pcd', 100)).message).toMatch(
      /^f\.pcd: corrupt LZF data at byte 100: back-reference to 1 bytes before the start/,
    );
    expect(decodeErrorOf(() => lzfDecompress(Uint8Array.of(5, 1, 2), 6)).reason).toMatch(/passes the end/);
    expect(decodeErrorOf(() => lzfDecompress(Uint8Array.of(2, 1, 2, 3), 2)).reason).toMatch(/exceed/);
    expect(decodeErrorOf(() => lzfDecompress(Uint8Array.of(0, 1), 2)).reason).toMatch(/decompressed to 1 bytes, expected 2/);
    expect(decodeErrorOf(() => lzfDecompress(Uint8Array.of(0, 1, 0xe0), 20)).reason).toMatch(/length byte missing/);
  });

  it('never crashes or hangs on 2,000 corrupted streams', () => {
    const input = sample(4000, 3);
    const packed = lzfCompress(input);
    const rnd = seededRandom(42);
    let failures = 0;
    for (let k = 0; k < 2000; k++) {
      const b = packed.slice();
      const flips = 1 + Math.floor(rnd() * 6);
      for (let f = 0; f < flips; f++) b[Math.floor(rnd() * b.length)] = Math.floor(rnd() * 256);
      const end = rnd() < 0.2 ? Math.floor(rnd() * b.length) : b.length;
      try {
        lzfDecompress(b.subarray(0, end), input.length);
      } catch (e) {
        failures++;
        expect(e).toBeInstanceOf(Error);
        expect((e as Error).name).toBe('DecodeError');
      }
    }
    expect(failures).toBeGreaterThan(500); // overwritten literal bytes are undetectable
  });
});
