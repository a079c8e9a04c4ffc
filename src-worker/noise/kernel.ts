/**
 * Gaussian kernel weights over the features ψ = (nominal range r, incidence δ) with a diagonal
 * bandwidth (h_r, h_δ), as both regressions of Tallavajhula (2018, §3.4.2) use: training states
 * sorted by r, so a query visits only those within 4 h_r of it.
 */
export interface FeatureSet {
  /** Ascending nominal ranges (m). */
  r: Float64Array;
  /** Incidence (rad) of the same states. */
  delta: Float64Array;
}

export interface Bandwidth {
  r: number;
  delta: number;
}

/** Index of the first r ≥ x. */
function lowerBound(a: Float64Array, x: number): number {
  let lo = 0, hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Calls visit(i, w) for every state of `set` whose weight at (qr, qd) is above 1e-9, returns their
 * sum. `skip` (an index or −1) leaves one state out.
 */
export function visitWeights(set: FeatureSet, h: Bandwidth, qr: number, qd: number, visit: (i: number, w: number) => void, skip = -1): number {
  const from = lowerBound(set.r, qr - 4 * h.r), to = lowerBound(set.r, qr + 4 * h.r);
  let sum = 0;
  for (let i = from; i < to; i++) {
    if (i === skip) continue;
    const a = (set.r[i]! - qr) / h.r, b = (set.delta[i]! - qd) / h.delta;
    const e = 0.5 * (a * a + b * b);
    if (e > 20) continue;
    const w = Math.exp(-e);
    sum += w;
    visit(i, w);
  }
  return sum;
}

/** The state nearest (qr, qd) in bandwidth units: the prediction where no kernel reaches. */
export function nearestState(set: FeatureSet, h: Bandwidth, qr: number, qd: number): number {
  let best = 0, bestD = Infinity;
  for (let i = 0; i < set.r.length; i++) {
    const a = (set.r[i]! - qr) / h.r, b = (set.delta[i]! - qd) / h.delta;
    const d = a * a + b * b;
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

/** A bandwidth grid: ranges (m) × incidences (rad). */
export const BANDWIDTH_GRID: { r: readonly number[]; delta: readonly number[] } = {
  r: [0.1, 0.25, 0.5, 1, 2, 4],
  delta: [0.02, 0.05, 0.15, 0.4],
};

/** Every bandwidth of the grid. */
export function bandwidthGrid(): Bandwidth[] {
  return BANDWIDTH_GRID.r.flatMap((r) => BANDWIDTH_GRID.delta.map((delta) => ({ r, delta })));
}
