/**
 * Histograms and the distances between them: the Bhattacharyya distance of 000 Table I
 * (−ln Σ √(p q) over the bins) and the histogram match of 004 §3.4.3 (L1 norm of the difference
 * of the cumulative histograms).
 */

export interface Histogram1D {
  lo: number;
  hi: number;
  /** Counts per bin (equal widths over [lo, hi]). */
  counts: Float64Array;
  /** Values counted (including any clamped into the end bins). */
  total: number;
  /** Values below lo / above hi that were dropped (0 when clamping). */
  below: number;
  above: number;
}

/**
 * Equal-width histogram of the finite values over [lo, hi] (the last bin includes hi). With
 * `clamp`, values outside go into the end bins; otherwise they are counted in below / above.
 * NaNs are ignored.
 */
export function histogram1d(values: ArrayLike<number>, lo: number, hi: number, bins: number, opts: { clamp?: boolean } = {}): Histogram1D {
  if (!(hi > lo) || !(bins >= 1)) throw new Error(`histogram: need hi > lo and bins ≥ 1 (got [${lo}, ${hi}], ${bins})`);
  const n = Math.floor(bins);
  const counts = new Float64Array(n);
  const w = (hi - lo) / n;
  let total = 0, below = 0, above = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (Number.isNaN(v)) continue;
    let b = Math.floor((v - lo) / w);
    if (v === hi) b = n - 1;
    if (b < 0 || b >= n) {
      if (!opts.clamp) {
        if (b < 0) below++;
        else above++;
        continue;
      }
      b = b < 0 ? 0 : n - 1;
    }
    counts[b]!++;
    total++;
  }
  return { lo, hi, counts, total, below, above };
}

/** Bin edges of a histogram (bins + 1 values). */
export function binEdges(lo: number, hi: number, bins: number): Float64Array {
  const e = new Float64Array(bins + 1);
  for (let i = 0; i <= bins; i++) e[i] = lo + ((hi - lo) * i) / bins;
  return e;
}

/** The counts scaled to sum to 1 (all zeros stay zeros). */
export function normalize(counts: ArrayLike<number>): Float64Array {
  let s = 0;
  for (let i = 0; i < counts.length; i++) s += counts[i]!;
  const out = new Float64Array(counts.length);
  if (s > 0) for (let i = 0; i < counts.length; i++) out[i] = counts[i]! / s;
  return out;
}

/** Σ √(p q) of the two histograms, each normalised first (1 for identical, 0 for disjoint). */
export function bhattacharyyaCoefficient(p: ArrayLike<number>, q: ArrayLike<number>): number {
  if (p.length !== q.length) throw new Error(`bhattacharyya: histograms differ in length (${p.length} vs ${q.length})`);
  const a = normalize(p), b = normalize(q);
  let s = 0;
  for (let i = 0; i < a.length; i++) s += Math.sqrt(a[i]! * b[i]!);
  return Math.min(1, s);
}

/** Bhattacharyya distance −ln Σ √(p q) (000 Table I); Infinity for disjoint histograms. */
export function bhattacharyyaDistance(p: ArrayLike<number>, q: ArrayLike<number>): number {
  const bc = bhattacharyyaCoefficient(p, q);
  return bc > 0 ? -Math.log(bc) : Infinity;
}

/** Histogram match (004 §3.4.3): L1 norm of the difference of the normalised cumulative histograms. */
export function histogramMatch(p: ArrayLike<number>, q: ArrayLike<number>): number {
  if (p.length !== q.length) throw new Error(`histogram match: histograms differ in length (${p.length} vs ${q.length})`);
  const a = normalize(p), b = normalize(q);
  let ca = 0, cb = 0, s = 0;
  for (let i = 0; i < a.length; i++) {
    ca += a[i]!;
    cb += b[i]!;
    s += Math.abs(ca - cb);
  }
  return s;
}

/**
 * Probabilities of the bins of [lo, hi] (bins equal widths) under a distribution given by its
 * CDF, renormalised to the window (the law truncated to [lo, hi]).
 */
export function binProbabilities(cdf: (x: number) => number, lo: number, hi: number, bins: number): Float64Array {
  const out = new Float64Array(bins);
  let prev = cdf(lo);
  const total = cdf(hi) - prev;
  for (let i = 0; i < bins; i++) {
    const next = cdf(lo + ((hi - lo) * (i + 1)) / bins);
    out[i] = total > 0 ? Math.max(0, next - prev) / total : 0;
    prev = next;
  }
  return out;
}
