import { describe, expect, it } from 'vitest';
import { histogram } from '../../../src-renderer/charts/histogram';

describe('histogram', () => {
  it('bins values and counts each finite value once', () => {
    const h = histogram([0, 0.5, 1.5, 2.5, 3, 3.9, 4, NaN], 0, 4, 4);
    expect(h.edges).toEqual([0, 1, 2, 3, 4]);
    expect(h.counts).toEqual([2, 1, 1, 3]); // 4 (=max) lands in the last bin
    expect(h.counts.reduce((a, b) => a + b, 0)).toBe(7);
  });

  it('clamps outliers into the end bins and reports them', () => {
    const h = histogram([-10, 0.1, 9.9, 50, 60], 0, 10, 5);
    expect(h.counts).toEqual([2, 0, 0, 0, 3]);
    expect(h.clampedLow).toBe(1);
    expect(h.clampedHigh).toBe(2);
  });
});
