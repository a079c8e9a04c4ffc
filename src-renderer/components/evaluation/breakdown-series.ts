/**
 * The per-class and per-range breakdowns (docs/methods.md §6, *Breakdowns*) as bar-chart series:
 * one category per class or range bin, its precision, recall and F1 = 2·TH/(2·TH+FH+FM) (null
 * where undefined: no bar), and its error in metres — the class's point-cloud error, the bin's
 * median |r̂ − r|. Pure, unit-tested.
 */
import type { EvaluationMetrics } from '../../../src-common/metrics';

export interface BreakdownSeries {
  /** Category labels along the x axis. */
  categories: string[];
  precision: (number | null)[];
  recall: (number | null)[];
  f1: (number | null)[];
  /** Error per category (m), null where none was measured. */
  error: (number | null)[];
  /** What the error is, for the axis and the tooltip. */
  errorName: string;
}

interface Counts {
  trueHits: number;
  falseHits: number;
  falseMisses: number;
  precision: number | null;
  recall: number | null;
}

const f1Of = (c: Counts): number | null => {
  const den = 2 * c.trueHits + c.falseHits + c.falseMisses;
  return den > 0 ? (2 * c.trueHits) / den : null;
};

function series<T extends Counts>(rows: readonly T[], label: (r: T) => string, error: (r: T) => number | null, errorName: string): BreakdownSeries {
  return {
    categories: rows.map(label),
    precision: rows.map((r) => r.precision),
    recall: rows.map((r) => r.recall),
    f1: rows.map(f1Of),
    error: rows.map(error),
    errorName,
  };
}

/** Per class of a labelled real log; null when the log has no labels. */
export function classSeries(m: EvaluationMetrics): BreakdownSeries | null {
  if (!m.perClass || m.perClass.length === 0) return null;
  return series(m.perClass, (c) => c.name, (c) => c.pointCloudError, 'point-cloud error');
}

/** Per range bin; null when there is none. */
export function rangeSeries(m: EvaluationMetrics): BreakdownSeries | null {
  if (!m.byRange || m.byRange.length === 0) return null;
  return series(m.byRange, (b) => `${b.fromM}–${b.toM}`, (b) => b.rangeErrorMedianM, 'median range error');
}
