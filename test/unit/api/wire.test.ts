import { describe, expect, it } from 'vitest';
import { decodeFrame, encodeFrame, FrameError } from '../../../src-main/api/wire';
import { mutate, seededRandom } from '../formats/mutate';

describe('wire frames', () => {
  it('round-trips nested typed arrays byte-exact, including subarray views and NaN payloads', () => {
    const f32 = new Float32Array([1.5, -0, Infinity, NaN]);
    new Uint32Array(f32.buffer)[3] = 0x7fc00123; // a NaN with a payload
    const base = new Float64Array([1, 2, 3, 4, 5]);
    const msg = {
      kind: 'response',
      id: 7,
      result: { positions: f32, nested: [{ a: new Uint8Array([1, 2, 3]) }, base.subarray(1, 4)], text: 'ok', n: null },
    };
    const frame = encodeFrame(msg);
    expect(frame.byteLength % 8).toBe(0);
    const back = decodeFrame(frame) as typeof msg;
    expect(new Uint32Array((back.result.positions as Float32Array).buffer)).toEqual(new Uint32Array(f32.buffer));
    expect(back.result.nested[0]).toEqual({ a: new Uint8Array([1, 2, 3]) });
    expect(back.result.nested[1]).toEqual(new Float64Array([2, 3, 4]));
    expect(back.result.text).toBe('ok');
    expect(back.result.n).toBeNull();
    // Each decoded array owns an exact buffer (transferable without dragging the frame along).
    expect((back.result.nested[1] as Float64Array).buffer.byteLength).toBe(24);
  });

  it('carries a 4-million-float array as raw bytes (frame ≈ payload size)', () => {
    const big = new Float32Array(4_000_000).map((_, i) => i);
    const frame = encodeFrame({ big });
    expect(frame.byteLength).toBeLessThan(16_000_000 + 200);
    expect((decodeFrame(frame) as { big: Float32Array }).big[3_999_999]).toBe(3_999_999);
  });

  it('rejects short, inconsistent and truncated frames with FrameError', () => {
    expect(() => decodeFrame(new Uint8Array(2))).toThrow(FrameError);
    const f = encodeFrame({ a: new Float64Array(10) });
    new DataView(f.buffer).setUint32(0, 1e9, true);
    expect(() => decodeFrame(f)).toThrow(/exceeds frame size/);
    const g = encodeFrame({ a: new Float64Array(10) });
    expect(() => decodeFrame(g.subarray(0, g.byteLength - 16))).toThrow(/runs past the end/);
  });

  it('fuzz: 5,000 mutated frames decode or throw FrameError/SyntaxError, never anything else', () => {
    const valid = encodeFrame({ kind: 'request', id: 1, method: 'logs.cloud', params: { id: 3, arr: new Float32Array([1, 2, 3]) } });
    const rnd = seededRandom(2026);
    for (let i = 0; i < 5_000; i++) {
      const { bytes } = mutate(valid, rnd);
      try {
        decodeFrame(bytes);
      } catch (e) {
        if (!(e instanceof FrameError) && !(e instanceof SyntaxError)) throw new Error(`mutation ${i}: unexpected ${String(e)}`, { cause: e });
      }
    }
  });
});
