/**
 * The observation histogram of a learned sensor model and the thesis's risk (Tallavajhula, 2018,
 * §3.4.3; docs/methods.md §8).
 *
 * A cell's observations are binned by their residual z − r (r its nominal range) into B bins:
 * bin 0 below −span, bins 1 … B−3 of `width` across [−span, span), bin B−2 at or above span,
 * and a last bin for nulls (a null is farthest from any range: a missing return). The loss is the
 * *histogram match*, the L1 norm of the difference of the cumulative histograms, times the bin
 * width so that it reads in metres (for two returns with no nulls, the mean distance the
 * probability mass moves: a shift of 1 cm costs 0.01 m); the empirical risk is its mean over the
 * test cells.
 */
export interface NoiseBins {
  /** Bin width (m). */
  width: number;
  /** Residuals in [−span, span) get bins of their own; the rest go to the two end bins. */
  span: number;
}

export const DEFAULT_BINS: NoiseBins = { width: 0.01, span: 0.3 };

export function binCount(b: NoiseBins): number {
  return Math.round((2 * b.span) / b.width) + 3;
}

/** Bin of a residual (NaN: the null bin). */
export function binOf(residual: number, b: NoiseBins, B: number): number {
  if (Number.isNaN(residual)) return B - 1;
  if (residual < -b.span) return 0;
  if (residual >= b.span) return B - 2;
  return 1 + Math.min(B - 4, Math.floor((residual + b.span) / b.width));
}

/** Cumulative histogram (B values, the last 1) of observations `z` (NaN null) around `r`; null when empty. */
export function empiricalCdf(z: ArrayLike<number>, r: number, b: NoiseBins, out: Float64Array): boolean {
  const B = out.length;
  out.fill(0);
  let n = 0;
  for (let j = 0; j < z.length; j++) {
    const k = binOf(z[j]! - r, b, B);
    out[k] = out[k]! + 1;
    n++;
  }
  if (n === 0) return false;
  let acc = 0;
  for (let k = 0; k < B; k++) {
    acc += out[k]! / n;
    out[k] = acc;
  }
  return true;
}

/** Standard normal CDF (Abramowitz and Stegun 7.1.26 through erf; |error| < 1.5e-7). */
export function normalCdf(x: number): number {
  const t = 1 / (1 + 0.3275911 * Math.abs(x) / Math.SQRT2);
  const y = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-(x * x) / 2);
  return x >= 0 ? 0.5 * (1 + y) : 0.5 * (1 - y);
}

/** Cumulative histogram of the parametric model: a null with pNull, else residual ~ N(μ, σ²). */
export function parametricCdf(pNull: number, mu: number, sigma: number, b: NoiseBins, out: Float64Array): void {
  const B = out.length;
  const s = Math.max(sigma, 1e-6);
  const hit = 1 - pNull;
  // Bin k (1 … B−3) ends at −span + k·width; bin 0 ends at −span; bin B−2 ends at +∞.
  for (let k = 0; k <= B - 3; k++) out[k] = hit * normalCdf((-b.span + k * b.width - mu) / s);
  out[B - 2] = hit;
  out[B - 1] = 1;
}

/** Histogram match of two cumulative histograms, in metres (× bin width). */
export function histogramMatch(a: ArrayLike<number>, c: ArrayLike<number>, width: number): number {
  let s = 0;
  for (let k = 0; k < a.length; k++) s += Math.abs(a[k]! - c[k]!);
  return s * width;
}
