/**
 * `thicket bench --only label-select` (src-main/services/bench-label-select.ts): its hand-written
 * camera matrix is Babylon's, and it selects what the shapes cover.
 */
import { describe, expect, it } from 'vitest';
import { Matrix, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { benchLabelSelect, viewProjectionLH } from '../../../src-main/services/bench-label-select';

describe('label selection benchmark', () => {
  it('builds the same view × projection as Babylon', () => {
    const b = Matrix.LookAtLH(new Vector3(-60, 80, -120), Vector3.Zero(), Vector3.Up()).multiply(Matrix.PerspectiveFovLH(0.8, 16 / 9, 0.1, 2000));
    const m = viewProjectionLH([-60, 80, -120], [0, 0, 0], [0, 1, 0], 0.8, 16 / 9, 0.1, 2000);
    // Babylon keeps its matrices in float32: agree to its precision.
    for (let i = 0; i < 16; i++) expect(Math.abs(m[i]! - b.m[i]!)).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(b.m[i]!)));
  });

  it('times every shape, each selecting part of the cloud', () => {
    const notes: string[] = [];
    const r = benchLabelSelect(20_000, (m) => notes.push(m));
    expect(r.results.map((x) => x.shape)).toEqual(['box (half the screen)', 'lasso (120 vertices)', 'brush stroke (r 30 px, 40 dabs)']);
    for (const x of r.results) {
      expect(x.selected).toBeGreaterThan(0);
      expect(x.selected).toBeLessThan(20_000);
      expect(x.ms).toBeGreaterThanOrEqual(0);
    }
    // A stroke of 30 px dabs covers less screen than half the screen.
    expect(r.results[2]!.selected).toBeLessThan(r.results[0]!.selected);
    expect(notes).toHaveLength(3);
  });
});
