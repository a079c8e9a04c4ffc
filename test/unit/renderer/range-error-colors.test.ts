/**
 * The Evaluation page's difference colouring: the diverging scale (grey at 0, blue below, red
 * above, clamped at ±scale), the robust symmetric scale, and which pair goes where with which
 * colour in the overlay and in the side-by-side views.
 */
import { describe, expect, it } from 'vitest';
import type { EvaluationRayErrors } from '../../../src-main/api/contract';
import { FALSE_HIT_COLOR, FALSE_MISS_COLOR, divergingColor, errorOverlay, errorScale, errorSides } from '../../../src-renderer/components/evaluation/range-error';

describe('diverging colour of a range error', () => {
  it('grey at 0, blue where the simulated ray stops short, red where it goes further; clamped', () => {
    const [r0, g0, b0] = divergingColor(0, 0.5);
    expect(r0).toBeCloseTo(g0, 9);
    expect(g0).toBeCloseTo(b0, 9);
    const short = divergingColor(-0.5, 0.5), long = divergingColor(0.5, 0.5);
    expect(short[2]).toBeGreaterThan(short[0] + 0.4); // blue
    expect(long[0]).toBeGreaterThan(long[2] + 0.4); // red
    expect(divergingColor(-3, 0.5)).toEqual(short);
    expect(divergingColor(3, 0.5)).toEqual(long);
    // Halfway is halfway between grey and the end.
    const half = divergingColor(0.25, 0.5);
    expect(half[0]).toBeCloseTo((r0 + long[0]) / 2, 9);
  });

  it('the scale is the 98th percentile of |e| rounded up to 1, 2 or 5 × 10^k, at least 1 cm', () => {
    const e = Float32Array.from({ length: 1000 }, (_, i) => (i % 2 ? 1 : -1) * (i / 1000) * 0.3);
    expect(errorScale(e)).toBe(0.5); // 98 % of |e| ≤ 0.294 → 0.5
    const gross = Float32Array.from([...e, 40, -40, NaN]);
    expect(errorScale(gross)).toBe(0.5); // two gross errors do not stretch it
    expect(errorScale(Float32Array.from([0.001, NaN]))).toBe(0.01);
    expect(errorScale(new Float32Array(0))).toBe(0.01);
  });
});

describe('difference clouds', () => {
  // Pair 0: true hit, e = +0.2; pair 1: false miss; pair 2: false hit; pair 3: true hit, e = −0.2.
  const r: EvaluationRayErrors = {
    id: 7,
    totalPairs: 4,
    real: Float32Array.from([10, 0, 0, 0, 5, 0, NaN, NaN, NaN, 0, 0, 3]),
    sim: Float32Array.from([10.2, 0, 0, NaN, NaN, NaN, 20, 1, 0, 0, 0, 2.8]),
    error: Float32Array.from([0.2, NaN, NaN, -0.2]),
  };
  const rgb = (c: Float32Array, j: number) => [c[4 * j]!, c[4 * j + 1]!, c[4 * j + 2]!];

  it('overlay: one point per pair, at the real hit or the false hit, coloured by error or kind', () => {
    const o = errorOverlay(r, 0.2);
    expect(Array.from(o.cloud.positions)).toEqual([10, 0, 0, 0, 5, 0, 20, 1, 0, 0, 0, 3]);
    expect(rgb(o.colors, 0)).toEqual(divergingColor(0.2, 0.2).map((v) => Math.fround(v)));
    expect(rgb(o.colors, 1)).toEqual(FALSE_MISS_COLOR.map((v) => Math.fround(v)));
    expect(rgb(o.colors, 2)).toEqual(FALSE_HIT_COLOR.map((v) => Math.fround(v)));
    expect(o.counts).toEqual({ 'true-hit': 2, 'false-hit': 1, 'false-miss': 1 });
    expect(o.legend).toMatchObject({ kind: 'scalar', unit: 'm', range: { min: -0.2, max: 0.2 } });
    expect((o.legend as { entries: { name: string; count: number }[] }).entries.map((e) => [e.name, e.count])).toEqual([
      ['real hit, simulated miss', 1],
      ['simulated hit, real miss', 1],
    ]);
    expect(o.cloud.bounds).toEqual({ min: [0, 0, 0], max: [20, 5, 3] });
  });

  it('side by side: real hits left, simulated hits right, a true hit the same colour on both, one frame', () => {
    const { real, sim } = errorSides(r, 0.2);
    expect(Array.from(real.cloud.positions)).toEqual([10, 0, 0, 0, 5, 0, 0, 0, 3]);
    expect(Array.from(sim.cloud.positions).map((v) => Math.round(v * 10) / 10)).toEqual([10.2, 0, 0, 20, 1, 0, 0, 0, 2.8]);
    expect(rgb(real.colors, 0)).toEqual(rgb(sim.colors, 0));
    expect(rgb(real.colors, 2)).toEqual(rgb(sim.colors, 2));
    expect(rgb(sim.colors, 1)).toEqual(FALSE_HIT_COLOR.map((v) => Math.fround(v)));
    expect(real.cloud.bounds).toEqual(sim.cloud.bounds);
    expect(real.cloud.bounds!.max[0]).toBe(20);
  });
});
