import { describe, expect, it } from 'vitest';
import { GrowableArray, concatenated, grown, trimmed } from '../../../src-worker/arrays/typed-arrays';

describe('typed-array helpers', () => {
  it('grown keeps the type and the contents, zero after them', () => {
    const a = Uint16Array.from([1, 2, 3]);
    const b = grown(a, 6);
    expect(b).toBeInstanceOf(Uint16Array);
    expect(Array.from(b)).toEqual([1, 2, 3, 0, 0, 0]);
    expect(b.buffer).not.toBe(a.buffer);
  });

  it('trimmed hands over an exactly filled array and copies a partly filled one', () => {
    const a = Float32Array.from([1, 2, 3]);
    expect(trimmed(a, 3)).toBe(a);
    const t = trimmed(a, 2);
    expect(Array.from(t)).toEqual([1, 2]);
    expect(t.buffer).not.toBe(a.buffer);
  });

  it('concatenated joins the parts in order', () => {
    const c = concatenated(Uint32Array, [Uint32Array.from([1]), Uint32Array.from([]), Uint32Array.from([2, 3])]);
    expect(c).toBeInstanceOf(Uint32Array);
    expect(Array.from(c)).toEqual([1, 2, 3]);
  });

  it('GrowableArray doubles past its capacity and finishes to a trimmed copy', () => {
    const g = new GrowableArray(Float64Array, 2);
    for (let i = 0; i < 5; i++) g.push(i + 0.5);
    g.pushAll([10, 11, 12, 13, 14, 15]);
    expect(g.length).toBe(11);
    expect(g.last()).toBe(15);
    expect(Array.from(g.view())).toEqual([0.5, 1.5, 2.5, 3.5, 4.5, 10, 11, 12, 13, 14, 15]);
    const f = g.finish();
    expect(f).toBeInstanceOf(Float64Array);
    expect(f.length).toBe(11);
    expect(f.buffer.byteLength).toBe(11 * 8);
  });
});
