import { describe, expect, it } from 'vitest';
import { buildLut, classColor, classColors, cssGradient, percentileRange, scalarColors, turbo, viridis } from '../../../src-common/colormaps';

const lightness = ([r, g, b]: [number, number, number]) => 0.2126 * r + 0.7152 * g + 0.0722 * b;

describe('scalar colour maps', () => {
  it('viridis runs from dark purple to yellow with rising lightness', () => {
    const [r0, g0, b0] = viridis(0);
    expect(b0).toBeGreaterThan(r0);
    expect(g0).toBeLessThan(0.05);
    const [r1, g1, b1] = viridis(1);
    expect(r1).toBeGreaterThan(0.9);
    expect(g1).toBeGreaterThan(0.85);
    expect(b1).toBeLessThan(0.2);
    let prev = -1;
    for (let t = 0; t <= 1.0001; t += 0.05) {
      const l = lightness(viridis(t));
      expect(l).toBeGreaterThan(prev);
      prev = l;
    }
  });

  it('turbo goes dark blue → green → dark red, and clamps its input', () => {
    const low = turbo(0.1);
    expect(low[2]).toBeGreaterThan(low[0]);
    expect(low[2]).toBeGreaterThan(low[1]);
    const mid = turbo(0.5);
    expect(mid[1]).toBeGreaterThan(mid[0]);
    expect(mid[1]).toBeGreaterThan(mid[2]);
    expect(turbo(1)[0]).toBeGreaterThan(turbo(1)[2]);
    expect(turbo(-3)).toEqual(turbo(0));
    expect(turbo(7)).toEqual(turbo(1));
    for (let t = 0; t <= 1; t += 0.01) for (const c of turbo(t)) expect(c >= 0 && c <= 1).toBe(true);
  });

  it('builds a LUT whose ends match the map', () => {
    const lut = buildLut('viridis', 256);
    expect(lut.length).toBe(768);
    expect([...lut.subarray(0, 3)].map((v) => +v.toFixed(5))).toEqual(viridis(0).map((v) => +v.toFixed(5)));
    expect([...lut.subarray(765)].map((v) => +v.toFixed(5))).toEqual(viridis(1).map((v) => +v.toFixed(5)));
  });

  it('makes a CSS gradient with rgb stops', () => {
    expect(cssGradient('turbo', 4)).toMatch(/^linear-gradient\(to right, rgb\(\d+, \d+, \d+\) 0\.0%, .* 100\.0%\)$/);
  });
});

describe('percentileRange', () => {
  it('ignores a few extreme outliers (2nd–98th percentile)', () => {
    const v = new Float32Array(1000);
    for (let i = 0; i < 1000; i++) v[i] = i / 999; // 0..1
    v[0] = -1e6;
    v[999] = 1e6;
    const r = percentileRange(v);
    expect(r.min).toBeGreaterThan(0.01);
    expect(r.min).toBeLessThan(0.03);
    expect(r.max).toBeGreaterThan(0.97);
    expect(r.max).toBeLessThan(0.99);
  });

  it('skips NaN and Infinity', () => {
    const r = percentileRange([NaN, 1, 2, 3, Infinity, -Infinity], 0, 1);
    expect(r).toEqual({ min: 1, max: 3 });
  });

  it('widens a constant input and falls back to [0,1] for none', () => {
    expect(percentileRange(new Float32Array(10).fill(4))).toEqual({ min: 3.5, max: 4.5 });
    expect(percentileRange([])).toEqual({ min: 0, max: 1 });
    expect(percentileRange([NaN])).toEqual({ min: 0, max: 1 });
  });

  it('samples large inputs instead of sorting them all', () => {
    const n = 2_000_000;
    const v = new Float32Array(n);
    for (let i = 0; i < n; i++) v[i] = (i * 7919) % 1000; // spread over 0..999
    const t = performance.now();
    const r = percentileRange(v);
    expect(performance.now() - t).toBeLessThan(500);
    expect(r.min).toBeLessThan(40);
    expect(r.max).toBeGreaterThan(960);
  });
});

describe('scalarColors', () => {
  it('clamps values outside the range to the end colours and greys non-finite values', () => {
    const lut = buildLut('turbo');
    const out = scalarColors([-5, 0, 10, 20, NaN], { min: 0, max: 10 }, lut, new Float32Array(20));
    expect([...out.subarray(0, 4)]).toEqual([...out.subarray(4, 8)]);
    expect([...out.subarray(8, 12)]).toEqual([...out.subarray(12, 16)]);
    expect(out[8]).toBeCloseTo(lut[765]!, 6);
    expect([...out.subarray(16, 20)]).toEqual([0.5, 0.5, 0.5, 1]);
    for (let i = 3; i < 20; i += 4) expect(out[i]).toBe(1);
  });
});

describe('class colours', () => {
  it('shows unlabeled as grey and cycles ten colours for class ids', () => {
    const [r, g, b] = classColor(0);
    expect(Math.abs(r - g)).toBeLessThan(0.05);
    expect(Math.abs(g - b)).toBeLessThan(0.05);
    expect(classColor(1)).not.toEqual(classColor(2));
    expect(classColor(11)).toEqual(classColor(1));
    const out = classColors(new Uint8Array([0, 3]), new Float32Array(8));
    expect([...out.subarray(4, 7)].map((v) => +v.toFixed(4))).toEqual(classColor(3).map((v) => +v.toFixed(4)));
    expect(out[7]).toBe(1);
  });
});
