/**
 * The per-packet series as chart points: x = distance along the drive (m), or time (s) when the
 * sensor hardly moved; y = the packet's error (m; null where it had no true hit, so the line
 * breaks there) and its F1 = 2·TH/(2·TH+FH+FM). Pure, unit-tested.
 */
import type { EvaluationSeries } from '../../../src-main/api/contract';

export interface ChartSeries {
  axis: 'distance' | 'time';
  /** [x, y] pairs. */
  error: [number, number | null][];
  f1: [number, number | null][];
}

/** Below this much travel the x axis is time. */
const MIN_TRAVEL_M = 0.5;

export function chartSeries(s: EvaluationSeries): ChartSeries {
  const n = s.error.length;
  const travel = n > 0 ? s.distance[n - 1]! - s.distance[0]! : 0;
  const axis = travel >= MIN_TRAVEL_M ? 'distance' : 'time';
  const xs = axis === 'distance' ? s.distance : s.time;
  const error: [number, number | null][] = new Array(n);
  const f1: [number, number | null][] = new Array(n);
  for (let i = 0; i < n; i++) {
    const x = xs[i]!;
    const e = s.error[i]!;
    error[i] = [x, Number.isFinite(e) ? e : null];
    const th = s.trueHits[i]!, den = 2 * th + s.falseHits[i]! + s.falseMisses[i]!;
    f1[i] = [x, den > 0 ? (2 * th) / den : null];
  }
  return { axis, error, f1 };
}
