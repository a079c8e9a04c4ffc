/**
 * NP-Reg: nonparametric distribution regression (Tallavajhula, 2018, §3.4.2.2, Procedure 2).
 *
 * Each training state's observations become a histogram of the range residual with a null bin
 * (ESTIMATEDENSITY, eq. 3.4; risk.ts lays out the bins), and the histogram at a query is the
 * kernel-weighted mean of the training histograms (REGRESS, eq. 3.5): the prediction is linear in
 * the histograms, so it is made on their cumulative sums directly. The bandwidth Δ_x = diag(h_r,
 * h_δ) is chosen on a grid by leave-one-out cross-validation of the histogram match.
 */
import { bandwidthGrid, nearestState, visitWeights, type Bandwidth, type FeatureSet } from './kernel';
import { histogramMatch, type NoiseBins } from './risk';

/** One beam's training states: features sorted by r and their cumulative histograms (N × B). */
export interface NpRegBeam {
  set: FeatureSet;
  cdf: Float64Array;
  B: number;
}

/** The cumulative histogram at (qr, qd) into `out` (B values). */
export function predictCdf(beam: NpRegBeam, h: Bandwidth, qr: number, qd: number, out: Float64Array, skip = -1): void {
  const { cdf, B } = beam;
  out.fill(0);
  const sum = visitWeights(beam.set, h, qr, qd, (i, w) => {
    const o = i * B;
    for (let k = 0; k < B; k++) out[k] = out[k]! + w * cdf[o + k]!;
  }, skip);
  if (sum > 1e-12) {
    for (let k = 0; k < B; k++) out[k] = out[k]! / sum;
    return;
  }
  // No kernel reaches: the nearest state's histogram.
  let j = nearestState(beam.set, h, qr, qd);
  if (j === skip) j = j > 0 ? j - 1 : Math.min(j + 1, beam.set.r.length - 1);
  for (let k = 0; k < B; k++) out[k] = cdf[j * B + k]!;
}

/**
 * Δ_x by leave-one-out cross-validation over every beam: the grid point with the least mean
 * histogram match of the left-out states (at most `maxQueries` a beam, evenly spaced in r).
 */
export function selectNpRegBandwidth(beams: readonly NpRegBeam[], bins: NoiseBins, maxQueries = 150): Bandwidth {
  let best = bandwidthGrid()[0]!, bestLoss = Infinity;
  for (const h of bandwidthGrid()) {
    let loss = 0, n = 0;
    for (const beam of beams) {
      const N = beam.set.r.length;
      if (N < 3) continue;
      const out = new Float64Array(beam.B);
      const stride = Math.max(1, Math.floor(N / maxQueries));
      for (let i = 0; i < N; i += stride) {
        predictCdf(beam, h, beam.set.r[i]!, beam.set.delta[i]!, out, i);
        loss += histogramMatch(out, beam.cdf.subarray(i * beam.B, (i + 1) * beam.B), bins.width);
        n++;
      }
    }
    if (n > 0 && loss / n < bestLoss) {
      bestLoss = loss / n;
      best = h;
    }
  }
  return best;
}
