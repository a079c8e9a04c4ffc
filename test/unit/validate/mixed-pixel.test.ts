import { describe, expect, it } from 'vitest';
import { AnalyticScene } from '../../../src-worker/validate/analytic-scene';
import { rodBench, validateMixedPixel } from '../../../src-worker/validate/mixed-pixel';
import { lms291Profile } from '../../../src-worker/sensors/devices';
import { newSurfaceHit } from '../../../src-worker/scene/scene-query';

describe('mixed-pixel validation (003 §3.4.2)', () => {
  it('the LMS-291 shows mixed pixels with the background 0.6 m behind the rods and none at 2 m', () => {
    const report = validateMixedPixel({ seed: 1 });
    expect(report.cases.map((c) => c.offset)).toEqual([0.6, 2]);
    const [near, far] = report.cases as [typeof report.cases[0], typeof report.cases[0]];
    expect(near.totalReturns).toBe(10 * 101); // 10 scans of 101 beams (±50° at 1°), all returning
    expect(far.totalReturns).toBe(10 * 101);
    expect(near.mixedPixels).toBeGreaterThan(0);
    expect(far.mixedPixels).toBe(0);
    expect(report.settings).toMatchObject({ returnMode: 'first', signalCutoff: 1.6, divergence: 12.9e-3 });
  });

  it('holds at 0.5° and for other seeds', () => {
    for (const seed of [2, 3]) {
      const r = validateMixedPixel({ seed, scans: 3, profile: lms291Profile(100, 0.5) });
      expect(r.cases[0]!.mixedPixels).toBeGreaterThan(0);
      expect(r.cases[1]!.mixedPixels).toBe(0);
    }
  });

  it('a cutoff larger than the 2 m gap brings mixed pixels back (the cutoff is the mechanism)', () => {
    const p = lms291Profile(100, 1);
    const r = validateMixedPixel({ seed: 1, scans: 2, profile: { ...p, returns: { mode: 'first', signalCutoff: 2.5 } } });
    expect(r.cases[1]!.mixedPixels).toBeGreaterThan(0);
  });

  it('the bench is the paper\'s: 9 rods 12.7 cm apart, one of 75 mm, 80 cm away, board behind', () => {
    const b = rodBench({ backgroundOffset: 0.6 });
    expect(b.rods).toHaveLength(9);
    expect(b.rods.filter((r) => r.radius === 0.0375)).toHaveLength(1);
    expect(b.rods[1]!.y - b.rods[0]!.y).toBeCloseTo(0.127, 12);
    expect(b.board.x).toBeCloseTo(1.4, 12);
    const scene = new AnalyticScene(b.rods, [b.board]);
    const h = newSurfaceHit();
    expect(scene.closestSurface(0, 0, 0, 1, 0, 0, 0, 10, h)).toBe(true);
    expect(h.t).toBeCloseTo(0.8 - 0.0375, 12); // the large rod's front
    expect(h.nx).toBeCloseTo(-1, 12);
    expect(scene.closestSurface(0, 0, 0, Math.cos(0.5), Math.sin(0.5), 0, 0, 10, h)).toBe(true);
    expect(h.t * Math.cos(0.5)).toBeCloseTo(1.4, 9); // between rods: the board
  });
});
