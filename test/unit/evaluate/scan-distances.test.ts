import { describe, expect, it } from 'vitest';
import { ScanHistogram, StaticCheck, scanBhattacharyya, scanHistogramMatch } from '../../../src-worker/evaluate/scan-distances';
import { bhattacharyyaDistance, histogramMatch } from '../../../src-worker/evaluate/histogram';
import { RandomStream } from '../../../src-worker/random/stream';

const BINS = { azimuthBinDeg: 1, elevationBinDeg: 1, rangeBinM: 0.5, maxRangeM: 10 };

function fill(h: ScanHistogram, rng: RandomStream, n: number, mean: number, missEvery: number): void {
  for (let i = 0; i < n; i++) {
    const az = ((i % 4) * 1.5 * Math.PI) / 180; // four bearings, 1.5° apart
    const r = i % missEvery === 0 ? NaN : mean + rng.normal() * 1.5;
    h.add(Math.cos(az), Math.sin(az), 0, r);
  }
}

/** Dense (R + 1)-bin histogram of one bearing, read back from a sparse one. */
function dense(h: ScanHistogram, bearingKeyStart: number): Float64Array {
  const out = new Float64Array(h.rangeBins + 1);
  for (const [k, c] of h.counts) if (k >= bearingKeyStart && k < bearingKeyStart + out.length) out[k - bearingKeyStart] = c;
  return out;
}

describe('static-scan histogram distances', () => {
  it('the sparse histogram match equals histogram.ts on the dense per-bearing histograms', () => {
    const rng = new RandomStream(11);
    const a = new ScanHistogram(BINS), b = new ScanHistogram(BINS);
    fill(a, rng, 4000, 5, 7);
    fill(b, rng, 3000, 6, 3);
    const width = a.rangeBins + 1;
    const bearings = [...new Set([...a.counts.keys()].map((k) => Math.floor(k / width)))];
    expect(bearings.length).toBe(4);
    const dense1 = bearings.map((bearing) => histogramMatch(dense(a, bearing * width), dense(b, bearing * width)));
    const m = scanHistogramMatch(a, b);
    expect(m.bearings).toBe(4);
    expect(m.oneSided).toBe(0);
    expect(Math.abs(m.mean - dense1.reduce((s, v) => s + v, 0) / 4)).toBeLessThan(1e-12);
    // and Bhattacharyya over the joint histogram equals histogram.ts's on the dense joint arrays
    const keys = [...new Set([...a.counts.keys(), ...b.counts.keys()])];
    const p = keys.map((k) => a.counts.get(k) ?? 0), q = keys.map((k) => b.counts.get(k) ?? 0);
    expect(Math.abs(scanBhattacharyya(a, b) - bhattacharyyaDistance(p, q))).toBeLessThan(1e-12);
    expect(scanBhattacharyya(a, b)).toBeGreaterThan(0.01);
  });

  it('a no-return bin per bearing: misses against hits are far apart', () => {
    const a = new ScanHistogram(BINS), b = new ScanHistogram(BINS);
    for (let i = 0; i < 100; i++) {
      a.add(1, 0, 0, 9.9); // last range bin (19)
      b.add(1, 0, 0, NaN); // no-return bin (20)
    }
    expect(scanBhattacharyya(a, b)).toBe(Infinity);
    // cumulative: real 1 from bin 19, sim 0 until bin 20 → |1 − 0| for one bin
    expect(scanHistogramMatch(a, b).mean).toBeCloseTo(1, 12);
    // a return beyond maxRange lands in the last range bin, not in the no-return bin
    a.add(1, 0, 0, 500);
    expect(a.counts.size).toBe(1);
  });

  it('bearings seen on one side only are counted, not scored', () => {
    const a = new ScanHistogram(BINS), b = new ScanHistogram(BINS);
    a.add(1, 0, 0, 2);
    a.add(0, 1, 0, 2);
    b.add(1, 0, 0, 2);
    expect(scanHistogramMatch(a, b)).toEqual({ mean: 0, bearings: 1, oneSided: 1 });
  });

  it('a static check: within 5 cm and 0.5°, not beyond', () => {
    const s = new StaticCheck(0.05, 0.5);
    const yaw = (deg: number) => [0, 0, Math.sin((deg * Math.PI) / 360), Math.cos((deg * Math.PI) / 360)];
    s.offer([1, 2, 3, ...yaw(10)], 0);
    s.offer([1.03, 2.03, 3, ...yaw(10.4)], 0);
    expect(s.isStatic).toBe(true);
    s.offer([1, 2, 3, ...yaw(10.6)], 0);
    expect(s.isStatic).toBe(false);
    const t = new StaticCheck(0.05, 0.5);
    t.offer([0, 0, 0, 0, 0, 0, 1], 0);
    t.offer([0, 0.06, 0, 0, 0, 0, 1], 0);
    expect(t.isStatic).toBe(false);
  });
});
