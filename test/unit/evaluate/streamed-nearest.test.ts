import { describe, expect, it } from 'vitest';
import { StreamedNearest } from '../../../src-worker/evaluate/streamed-nearest';
import { evaluatePacketChunks } from '../../../src-worker/evaluate/observation-metrics';
import { RandomStream } from '../../../src-worker/random/stream';
import { syntheticLog } from './synthetic-packets';

function cloud(rng: RandomStream, n: number, spread: number): Float64Array {
  const p = new Float64Array(3 * n);
  for (let i = 0; i < 3 * n; i++) p[i] = (rng.next() - 0.5) * spread;
  return p;
}

function bruteNearest2(q: Float64Array, t: Float64Array): Float64Array {
  const out = new Float64Array(q.length / 3).fill(Infinity);
  for (let i = 0; i < q.length / 3; i++) {
    for (let j = 0; j < t.length / 3; j++) {
      const d = (q[3 * i]! - t[3 * j]!) ** 2 + (q[3 * i + 1]! - t[3 * j + 1]!) ** 2 + (q[3 * i + 2]! - t[3 * j + 2]!) ** 2;
      if (d < out[i]!) out[i] = d;
    }
  }
  return out;
}

describe('streamed nearest distances', () => {
  it('equal brute force, from no bound or from a subset\'s bound', () => {
    const rng = new RandomStream(9);
    const q = cloud(rng, 500, 20), t = cloud(rng, 4000, 20);
    const exact = bruteNearest2(q, t);
    const fromNothing = new StreamedNearest(q, new Float64Array(500).fill(Infinity));
    for (let j = 0; j < 4000; j++) fromNothing.add(t[3 * j]!, t[3 * j + 1]!, t[3 * j + 2]!);
    expect(Array.from(fromNothing.best2)).toEqual(Array.from(exact));
    // bound from every 10th target (never below the truth), then the whole stream
    const subset = t.filter((_, i) => Math.floor(i / 3) % 10 === 0);
    const bounded = new StreamedNearest(q, bruteNearest2(q, subset));
    for (let j = 0; j < 4000; j++) bounded.add(t[3 * j]!, t[3 * j + 1]!, t[3 * j + 2]!);
    expect(Array.from(bounded.best2)).toEqual(Array.from(exact));
    const mean = Array.from(exact).reduce((s, d) => s + Math.sqrt(d), 0) / 500;
    expect(bounded.meanDistance()).toBeCloseTo(mean, 12);
  });

  it('make the point-cloud error exact when a cloud outgrows its sample (a second pass)', () => {
    // 60 packets × 12 rays, moving 2 cm a packet: 720 hits a side; the run 3 cm off and a bit shorter-ranged
    const real = syntheticLog({ packets: 60 });
    const sim = syntheticLog({ packets: 60, shift: [0, 0.03, 0.01], range: (k, i) => 10 - 0.01 * ((k + i) % 4) });
    const whole = evaluatePacketChunks(real, sim); // 720 < 10⁶: exact in one pass
    expect(whole.pointCloud!.exact).toBe(true);
    const twoPass = evaluatePacketChunks(real, sim, { targetCap: 50 });
    expect(twoPass.pointCloud!.exact).toBe(true);
    expect(twoPass.pointCloud).toMatchObject({ realTargets: 720, simTargets: 720, realQueries: 50, simQueries: 50 });
    // the same query sample, exact targets: the one-pass figure on those 50 queries
    const queriesOnly = evaluatePacketChunks(real, sim, { targetCap: 50, exactPointCloud: false });
    expect(queriesOnly.pointCloud!.exact).toBe(false);
    // thinning the targets to 50 of 720 points overstates the error …
    expect(queriesOnly.pointCloudError!).toBeGreaterThan(1.5 * twoPass.pointCloudError!);
    // … the second pass is within sampling noise of the all-points figure
    expect(Math.abs(twoPass.pointCloudError! / whole.pointCloudError! - 1)).toBeLessThan(0.25);
    const allQueries = evaluatePacketChunks(real, sim, { targetCap: 50, queryCap: 50 });
    expect(allQueries.pointCloudError).toBe(twoPass.pointCloudError);
  });

  it('a one-shot stream cannot be read twice: the estimate, marked not exact', () => {
    const real = syntheticLog({ packets: 30 });
    function* once() {
      yield* syntheticLog({ packets: 30, shift: [0, 0.05, 0] });
    }
    const m = evaluatePacketChunks(real, once(), { targetCap: 50 });
    expect(m.pointCloud!.exact).toBe(false);
    expect(m.packets).toBe(30);
    expect(m.pointCloudError).toBeGreaterThan(0);
  });
});
