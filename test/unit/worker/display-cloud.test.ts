import { describe, expect, it } from 'vitest';
import { buildDisplayCloud } from '../../../src-worker/tasks/display-cloud';
import { pointsToPacket } from '../../../src-worker/formats/packets';

function line(n: number, pose?: number[]) {
  const xyz = new Float32Array(3 * n);
  for (let i = 0; i < n; i++) xyz.set([i + 1, 0, 0], 3 * i);
  return pointsToPacket(xyz, new Float32Array(n).fill(0.5), pose ? { pose } : {});
}

describe('display cloud decimation', () => {
  it('keeps exactly the budget, the first point included, evenly spread', () => {
    const c = buildDisplayCloud({ chunks: [line(1000)], budget: 300 });
    expect(c.totalPoints).toBe(1000);
    expect(c.positions.length).toBe(900);
    expect(c.positions[0]).toBe(1);
    const xs = Array.from({ length: 300 }, (_, k) => c.positions[3 * k]!);
    const gaps = xs.slice(1).map((x, i) => x - xs[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(3);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(4); // 1000/300 = 3.33
    expect(c.bounds).toEqual({ min: [1, 0, 0], max: [1000, 0, 0] }); // bounds over all hits, not just the shown ones
  });

  it('keeps everything under budget and applies each packet pose (world = pose · ray)', () => {
    // A quarter turn about z and a 10 m lift: sensor x becomes world y.
    const s = Math.SQRT1_2;
    const c = buildDisplayCloud({ chunks: [line(5, [0, 0, 10, 0, 0, s, s])], budget: 100 });
    expect(c.positions.length).toBe(15);
    expect(c.positions[3 * 4]).toBeCloseTo(0, 5);
    expect(c.positions[3 * 4 + 1]).toBeCloseTo(5, 5);
    expect(c.positions[3 * 4 + 2]).toBeCloseTo(10, 5);
    expect([...c.intensity]).toEqual([0.5, 0.5, 0.5, 0.5, 0.5]);
  });
});
