import { describe, expect, it } from 'vitest';
import { PointReservoir, pointCloudError, queryIndices } from '../../../src-worker/evaluate/point-cloud-error';
import { RandomStream } from '../../../src-worker/random/stream';

function reservoir(points: number[][], cap = 1_000_000, seed = 1, stream = 1): PointReservoir {
  const r = new PointReservoir(cap, seed, stream);
  for (const [x, y, z] of points) r.add(x!, y!, z!);
  return r;
}

describe('point-cloud error (004 eq. 4.9)', () => {
  it('is 0 for identical clouds and the offset for a cloud moved less than half its spacing', () => {
    const grid: number[][] = [];
    for (let i = 0; i < 20; i++) for (let j = 0; j < 20; j++) grid.push([i, j, 0]);
    expect(pointCloudError(reservoir(grid), reservoir(grid))!.error).toBe(0);
    const up = grid.map(([x, y]) => [x!, y!, 0.3]);
    const e = pointCloudError(reservoir(grid), reservoir(up))!;
    expect(Math.abs(e.error - 0.3)).toBeLessThan(1e-12);
    expect(e).toMatchObject({ realPoints: 400, simPoints: 400, realTargets: 400, realQueries: 400 });
  });

  it('is asymmetric per direction: a simulated cloud missing half the real points', () => {
    // real: x = 0..9 on a line; sim: only x = 0..4. sim→real: 0; real→sim: (1+2+3+4+5)/10 = 1.5
    const real = [...Array(10).keys()].map((x) => [x, 0, 0]);
    const sim = real.slice(0, 5);
    const e = pointCloudError(reservoir(real), reservoir(sim))!;
    expect(e.simToReal).toBe(0);
    expect(e.realToSim).toBeCloseTo(1.5, 12);
    expect(e.error).toBeCloseTo(0.75, 12);
  });

  it('is null when one side has no point', () => {
    expect(pointCloudError(reservoir([[0, 0, 0]]), new PointReservoir(10, 1, 2))).toBeNull();
  });

  it('samples uniformly and deterministically past the cap', () => {
    const a = new PointReservoir(1000, 5, 1), b = new PointReservoir(1000, 5, 1);
    for (let i = 0; i < 100_000; i++) {
      a.add(i, 0, 0);
      b.add(i, 0, 0);
    }
    expect([a.count, a.seen]).toEqual([1000, 100_000]);
    expect(Array.from(a.points)).toEqual(Array.from(b.points));
    let mean = 0;
    for (let k = 0; k < 1000; k++) mean += a.points[3 * k]! / 1000;
    // mean of a uniform sample of 0..99,999: 50,000 ± 3σ (σ = 28,868/√1000 ≈ 913)
    expect(Math.abs(mean - 50_000)).toBeLessThan(2_750);
    // queries: a seeded subset of the slots, ascending, without repeats
    const q = queryIndices(1000, 100, new RandomStream(1, 3));
    expect(q.length).toBe(100);
    expect(new Set(q).size).toBe(100);
    expect(Array.from(q)).toEqual(Array.from(q).sort((x, y) => x - y));
  });

  it('with query sampling the error stays within a few percent of the exact one', () => {
    const rng = new RandomStream(3);
    const real: number[][] = [], sim: number[][] = [];
    for (let i = 0; i < 20_000; i++) {
      real.push([rng.next() * 50, rng.next() * 50, rng.next()]);
      sim.push([rng.next() * 50, rng.next() * 50, rng.next()]);
    }
    const exact = pointCloudError(reservoir(real), reservoir(sim))!.error;
    const sampled = pointCloudError(reservoir(real), reservoir(sim), { queryCap: 2_000 })!;
    expect(sampled.simQueries).toBe(2_000);
    expect(Math.abs(sampled.error / exact - 1)).toBeLessThan(0.05);
  });
});
