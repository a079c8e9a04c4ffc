/**
 * The breakdown charts' series: one bar group per class or range bin, F1 from the counts
 * (2·TH/(2·TH+FH+FM), null without any hit), and the error each breakdown measures.
 */
import { describe, expect, it } from 'vitest';
import type { EvaluationMetrics } from '../../../src-common/metrics';
import { classSeries, rangeSeries } from '../../../src-renderer/components/evaluation/breakdown-series';

const metrics = (extra: Partial<EvaluationMetrics>) => ({ perClass: null, byRange: [], ...extra }) as unknown as EvaluationMetrics;

describe('breakdown series', () => {
  it('per class: precision, recall, F1 and point-cloud error per label', () => {
    const s = classSeries(
      metrics({
        perClass: [
          { class: 1, name: 'ground', realHits: 100, trueHits: 80, falseHits: 20, falseMisses: 20, recall: 0.8, precision: 0.8, pointCloudError: 0.12 },
          { class: 2, name: 'tree', realHits: 10, trueHits: 0, falseHits: 0, falseMisses: 0, recall: null, precision: null, pointCloudError: null },
        ],
      }),
    )!;
    expect(s.categories).toEqual(['ground', 'tree']);
    expect(s.precision).toEqual([0.8, null]);
    expect(s.recall).toEqual([0.8, null]);
    expect(s.f1[0]).toBeCloseTo(160 / 200, 12);
    expect(s.f1[1]).toBeNull();
    expect(s.error).toEqual([0.12, null]);
    expect(s.errorName).toBe('point-cloud error');
  });

  it('per range bin: labels in metres and the median range error', () => {
    const s = rangeSeries(
      metrics({
        byRange: [
          { fromM: 0, toM: 10, realHits: 50, trueHits: 45, falseHits: 5, falseMisses: 5, recall: 0.9, precision: 0.9, rangeErrorMedianM: 0.02 },
          { fromM: 10, toM: 20, realHits: 10, trueHits: 3, falseHits: 1, falseMisses: 7, recall: 0.3, precision: 0.75, rangeErrorMedianM: 0.4 },
        ],
      }),
    )!;
    expect(s.categories).toEqual(['0–10', '10–20']);
    expect(s.f1[0]).toBeCloseTo(0.9, 12);
    expect(s.f1[1]).toBeCloseTo(6 / 14, 12);
    expect(s.error).toEqual([0.02, 0.4]);
  });

  it('no labels or no bins: no chart', () => {
    expect(classSeries(metrics({}))).toBeNull();
    expect(rangeSeries(metrics({ byRange: [] }))).toBeNull();
  });
});
