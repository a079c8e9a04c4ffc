/** The Evaluation page's pure parts: the overlaid cloud, its colours, the chart series, the labels. */
import { describe, expect, it } from 'vitest';
import type { CloudData, EvaluationSeries } from '../../../src-main/api/contract';
import type { EvaluationMetrics } from '../../../src-common/metrics';
import { REAL_COLOR, SIM_COLOR, colorizeOverlay, overlayClouds, splitOverlay } from '../../../src-renderer/components/evaluation/overlay';
import { chartSeries } from '../../../src-renderer/components/evaluation/chart-series';
import { detailRows, headlineTiles, sourceLogOf } from '../../../src-renderer/components/evaluation/evaluation-format';

function cloud(kind: 'log' | 'run', n: number, x0: number): CloudData {
  const positions = new Float32Array(3 * n);
  for (let i = 0; i < n; i++) positions.set([x0 + i, 0, i * 0.1], 3 * i);
  return {
    source: { kind, id: 1 },
    totalPoints: 10 * n,
    positions,
    intensity: new Float32Array(n),
    time: new Float32Array(n),
    classId: new Uint8Array(n),
    ring: new Uint16Array(n),
    bounds: { min: [x0, 0, 0], max: [x0 + n - 1, 0, (n - 1) * 0.1] },
    packets: null,
    misses: null,
  };
}

describe('evaluation page', () => {
  it('overlays the real and the simulated cloud, real first, coloured by source', () => {
    const o = overlayClouds(cloud('log', 3, 0), cloud('run', 2, 10));
    expect(o.realCount).toBe(3);
    expect(o.cloud.positions.length).toBe(15);
    expect(o.cloud.totalPoints).toBe(50);
    expect(o.cloud.bounds).toEqual({ min: [0, 0, 0], max: [11, 0, 0.2] });
    const c = colorizeOverlay(o, 'class');
    expect(Array.from(c.colors.slice(0, 3))).toEqual(REAL_COLOR.map(Math.fround));
    expect(Array.from(c.colors.slice(12, 15))).toEqual(SIM_COLOR.map(Math.fround));
    expect(c.legend.kind === 'classes' && c.legend.entries.map((e) => [e.name, e.count])).toEqual([['real log', 3], ['simulated run', 2]]);
    // other modes: the merged cloud on one scale
    const h = colorizeOverlay(o, 'height');
    expect(h.legend.kind).toBe('scalar');
    expect(h.values!.length).toBe(5);
  });

  it('side by side: the overlay split back into two clouds, same colours and scale, one frame', () => {
    const o = overlayClouds(cloud('log', 3, 0), cloud('run', 2, 10));
    const h = colorizeOverlay(o, 'height');
    const { real, sim } = splitOverlay(o, h);
    expect(real.cloud.positions).toBe(o.real.positions);
    expect(Array.from(real.colors)).toEqual(Array.from(h.colors.slice(0, 12)));
    expect(Array.from(sim.colors)).toEqual(Array.from(h.colors.slice(12)));
    expect(real.legend).toBe(h.legend);
    // Both views centre and frame on the union of the bounds, so linked cameras look at one place.
    expect(real.cloud.bounds).toEqual({ min: [0, 0, 0], max: [11, 0, 0.2] });
    expect(sim.cloud.bounds).toEqual(real.cloud.bounds);
    // Class mode: each side's legend names its own source.
    const c = splitOverlay(o, colorizeOverlay(o, 'class'));
    expect(c.real.legend.kind === 'classes' && c.real.legend.entries.map((e) => e.name)).toEqual(['real log']);
    expect(c.sim.legend.kind === 'classes' && c.sim.legend.entries.map((e) => e.name)).toEqual(['simulated run']);
  });

  it('charts error against distance, or time for a still sensor; gaps for packets without a true hit', () => {
    const s: EvaluationSeries = {
      realPacket: Uint32Array.of(0, 1, 2),
      simPacket: Uint32Array.of(0, 1, 2),
      time: Float64Array.of(0, 0.1, 0.2),
      distance: Float64Array.of(0, 1, 2),
      error: Float32Array.of(0.5, NaN, 0.25),
      trueHits: Uint32Array.of(2, 0, 1),
      falseHits: Uint32Array.of(1, 0, 0),
      falseMisses: Uint32Array.of(1, 3, 0),
    };
    const c = chartSeries(s);
    expect(c.axis).toBe('distance');
    expect(c.error).toEqual([[0, 0.5], [1, null], [2, 0.25]]);
    expect(c.f1).toEqual([[0, 4 / 6], [1, 0], [2, 1]]);
    const still = chartSeries({ ...s, distance: Float64Array.of(0, 0.01, 0.02) });
    expect(still.axis).toBe('time');
    expect(still.error[2]).toEqual([0.2, 0.25]);
  });

  it('labels the six headline figures in the issue\'s order, and finds a run\'s source log', () => {
    const m = {
      packets: 1200, packetError: 0.034, precision: 0.9, recall: 0.8, f1: 0.847, pointCloudError: 1.5, rayError: 0.03,
      packetsWithTrueHits: 1100, trueHits: 10, falseHits: 1, falseMisses: 2, trueMisses: 3, pairedRays: 16,
      unpairedRays: { real: 0, sim: 0 }, unpairedPackets: { real: 2, sim: 0, realRays: 8, simRays: 0 }, packetsPairedByIndex: 1200,
      realPackets: 1202, simPackets: 1200, timeOffsetS: 0, pointCloud: null,
      staticScan: { bhattacharyya: null, histogramMatch: 2.5, bearings: 4, oneSidedBearings: 0, realRays: 1, simRays: 1, bins: { azimuthBinDeg: 0.5, elevationBinDeg: 0.5, rangeBinM: 0.05, maxRangeM: 200 } },
      seconds: 1.2,
    } satisfies EvaluationMetrics;
    expect(headlineTiles(m).map((t) => [t.key, t.value])).toEqual([
      ['packets', '1,200'], ['packetError', '3.4 cm'], ['precision', '0.900'], ['recall', '0.800'], ['f1', '0.847'], ['pointCloudError', '1.50 m'],
    ]);
    expect(Object.fromEntries(detailRows(m))['Bhattacharyya (static)']).toBe('∞ (disjoint)');
    expect(sourceLogOf({ trajectory: { kind: 'log', logId: 4 } })).toBe(4);
    expect(sourceLogOf({ trajectory: { kind: 'trail', speed: 2 } })).toBeNull();
    expect(sourceLogOf(undefined)).toBeNull();
  });
});
