/**
 * P-Reg: parametric distribution regression (Tallavajhula, 2018, §3.4.2.1, Procedure 1).
 *
 * Each training state's observations are compressed into β = (P_null, μ, σ) by maximum
 * likelihood — the fraction of nulls, and the mean and standard deviation of the range residuals
 * z − r of its returns — and each component is regressed over the features ψ = (r, δ) by local
 * linear smoothing with a Gaussian kernel, w = (ΨᵀWΨ)⁻¹ΨᵀWY. Bandwidths are per component (common
 * to every beam), chosen by leave-one-out cross-validation of the risk (selectPRegBandwidths).
 */
import { bandwidthGrid, nearestState, visitWeights, type Bandwidth, type FeatureSet } from './kernel';
import { binCount, histogramMatch, parametricCdf, type NoiseBins } from './risk';

export interface CellParameters {
  pNull: number;
  /** Mean and standard deviation of the residuals of the returns (NaN with fewer than 2). */
  mu: number;
  sigma: number;
}

/**
 * ESTIMATEPARAMETERS: β of one state from its observations (NaN = null) around nominal range r.
 * *Deviation:* μ and σ are the median and the scaled median absolute deviation (1.4826 · MAD) of
 * the residuals rather than their mean and standard deviation: a beam on an object's edge returns
 * now the object, now the background metres behind it, and one such return makes the maximum
 * likelihood σ of a Gaussian metres wide (docs/methods.md §8).
 */
export function cellParameters(z: ArrayLike<number>, r: number): CellParameters {
  const e: number[] = [];
  let n = 0;
  for (let j = 0; j < z.length; j++) {
    n++;
    if (!Number.isNaN(z[j]!)) e.push(z[j]! - r);
  }
  const hits = e.length;
  if (hits < 2) return { pNull: n ? (n - hits) / n : 0, mu: NaN, sigma: NaN };
  const mu = median(e);
  const sigma = 1.4826 * median(e.map((v) => Math.abs(v - mu)));
  return { pNull: (n - hits) / n, mu, sigma };
}

function median(a: number[]): number {
  a.sort((x, y) => x - y);
  const m = a.length >> 1;
  return a.length % 2 ? a[m]! : 0.5 * (a[m - 1]! + a[m]!);
}

/** One beam's training states: features sorted by r and their β. */
export interface PRegBeam {
  set: FeatureSet;
  pNull: Float64Array;
  mu: Float64Array;
  sigma: Float64Array;
}

export interface PRegBandwidths {
  pNull: Bandwidth;
  mu: Bandwidth;
  sigma: Bandwidth;
}

/** The smallest σ predicted (m): a sensor's range resolution is about this. */
export const MIN_SIGMA = 0.001;

/**
 * Local linear estimate of `y` at (qr, qd): the intercept of the weighted least-squares plane in
 * (r − qr, δ − qd); the weighted mean where that system is singular; the nearest state's value
 * where no kernel reaches. States whose y is NaN are left out.
 */
export function localLinear(set: FeatureSet, y: Float64Array, h: Bandwidth, qr: number, qd: number, skip = -1): number {
  let s0 = 0, sa = 0, sb = 0, saa = 0, sab = 0, sbb = 0, y0 = 0, ya = 0, yb = 0;
  visitWeights(set, h, qr, qd, (i, w) => {
    const v = y[i]!;
    if (Number.isNaN(v)) return;
    const a = set.r[i]! - qr, b = set.delta[i]! - qd;
    s0 += w; sa += w * a; sb += w * b; saa += w * a * a; sab += w * a * b; sbb += w * b * b;
    y0 += w * v; ya += w * a * v; yb += w * b * v;
  }, skip);
  if (!(s0 > 1e-12)) {
    // No kernel reaches: the nearest state with a value.
    const j = nearestState(set, h, qr, qd);
    return Number.isNaN(y[j]!) ? meanOf(y) : y[j]!;
  }
  // Cramer's rule for [s0 sa sb; sa saa sab; sb sab sbb] β = [y0 ya yb], the intercept β0.
  const det = s0 * (saa * sbb - sab * sab) - sa * (sa * sbb - sab * sb) + sb * (sa * sab - saa * sb);
  const scale = s0 * (saa + 1e-300) * (sbb + 1e-300);
  if (Math.abs(det) <= 1e-9 * Math.abs(scale) || !Number.isFinite(det)) return y0 / s0;
  const num = y0 * (saa * sbb - sab * sab) - sa * (ya * sbb - sab * yb) + sb * (ya * sab - saa * yb);
  const v = num / det;
  return Number.isFinite(v) ? v : y0 / s0;
}

function meanOf(y: Float64Array): number {
  let s = 0, n = 0;
  for (const v of y) if (!Number.isNaN(v)) { s += v; n++; }
  return n ? s / n : 0;
}

/** REGRESS: β at (qr, qd) from the beam's states, clamped to its domain. */
export function predictParameters(beam: PRegBeam, bw: PRegBandwidths, qr: number, qd: number, skip = -1): CellParameters {
  const pNull = Math.min(1, Math.max(0, localLinear(beam.set, beam.pNull, bw.pNull, qr, qd, skip)));
  const mu = localLinear(beam.set, beam.mu, bw.mu, qr, qd, skip);
  const sigma = Math.max(MIN_SIGMA, localLinear(beam.set, beam.sigma, bw.sigma, qr, qd, skip));
  return { pNull, mu, sigma };
}

/**
 * Bandwidths by leave-one-out cross-validation over every beam, scored by the risk itself (the
 * histogram match of the left-out states' own histograms, `cdfs`: N × B per beam), as the thesis
 * tunes every hyperparameter (§3.4.3): coordinate descent over the three components' grids,
 * one round from the grid's middle. At most `maxQueries` states a beam are left out in turn (evenly spaced in r).
 */
export function selectPRegBandwidths(beams: readonly PRegBeam[], cdfs: readonly Float64Array[], bins: NoiseBins, maxQueries = 60): PRegBandwidths {
  const grid = bandwidthGrid();
  const B = binCount(bins);
  const out = new Float64Array(B);
  const loss = (bw: PRegBandwidths): number => {
    let sum = 0, n = 0;
    beams.forEach((beam, k) => {
      const N = beam.set.r.length;
      if (N < 3) return;
      const stride = Math.max(1, Math.floor(N / maxQueries));
      for (let i = 0; i < N; i += stride) {
        const p = predictParameters(beam, bw, beam.set.r[i]!, beam.set.delta[i]!, i);
        parametricCdf(p.pNull, p.mu, p.sigma, bins, out);
        sum += histogramMatch(out, cdfs[k]!.subarray(i * B, (i + 1) * B), bins.width);
        n++;
      }
    });
    return n ? sum / n : Infinity;
  };
  const mid = grid[Math.floor(grid.length / 2)]!;
  const bw: PRegBandwidths = { pNull: mid, mu: mid, sigma: mid };
  for (let round = 0; round < 1; round++) {
    for (const name of ['pNull', 'mu', 'sigma'] as const) {
      let best = bw[name], bestLoss = Infinity;
      for (const h of grid) {
        const l = loss({ ...bw, [name]: h });
        if (l < bestLoss) {
          bestLoss = l;
          best = h;
        }
      }
      bw[name] = best;
    }
  }
  return bw;
}
