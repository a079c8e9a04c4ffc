/**
 * The totals a drive log's row and a run's row both keep (packets, points, hits, misses, duration,
 * bounds): their columns, and the row's values as the API's CloudTotals.
 */
import type { Bounds, CloudTotals } from '../api/contract';

export interface TotalsRow {
  packets: number;
  points: number;
  hits: number;
  misses: number;
  duration_s: number;
  /** JSON {min, max}, or NULL for a stream without a hit. */
  bounds: string | null;
}

export const TOTALS_COLUMNS = 'packets, points, hits, misses, duration_s, bounds';

export function totalsOf(r: TotalsRow): CloudTotals {
  return {
    packets: r.packets,
    points: r.points,
    hits: r.hits,
    misses: r.misses,
    durationS: r.duration_s,
    bounds: r.bounds === null ? null : (JSON.parse(r.bounds) as Bounds),
  };
}
