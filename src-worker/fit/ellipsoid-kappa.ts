/**
 * κ of each ellipsoid's hit-probability falloff by maximum likelihood over the replay
 * (docs/methods.md §1 step 4; the model is in src-worker/scene/ellipsoid-falloff.ts).
 *
 * Ray i meets the ellipsoid at weight wᵢ = exp(−mᵢ²/2) and either returns from it (a hit) or
 * passes through. With P(hit | w) = 1 − exp(−κw) the log-likelihood is
 *   L(κ) = Σ_hits ln(1 − e^{−κwᵢ}) − κ Σ_passes wⱼ,
 * concave, with dL/dκ = Σ_hits wᵢ / (e^{κwᵢ} − 1) − Σ_passes wⱼ decreasing from +∞ to −Σ wⱼ, so
 * the root is found by bisection in ln κ. The (hit, miss) prior (a, b) enters as a pseudo-hits
 * and b pseudo-passes at the mean weight w̄: with every ray at w̄ the estimate is exactly
 * p_hit = (hits + a) / (hits + misses + a + b), the constant model's.
 *
 * Rays are counted in FALLOFF_BINS equal bins of m²/k² ∈ [0, 1) (k the Mahalanobis threshold):
 * rays meeting an ellipsoid are spread evenly over its cross-section's area, so evenly in m²,
 * which makes w log-uniform — bins even in w would put most rays in the lowest one. A bin
 * stands for the mean of w over it, 2(e^{−a/2} − e^{−b/2}) / (b − a) for m² ∈ [a, b). Integer
 * counts add up the same however the replay was split into batches.
 *
 * p is stored as float32, so κ is kept up to κw̄ ≈ 14 (1 − p ≈ 1e-6); a larger κ reads back as
 * p = 1, an ellipsoid solid at every m — it is then one that nearly every ray meeting it hit.
 */
import { meanFalloffWeight } from '../scene/ellipsoid-falloff';

export const FALLOFF_BINS = 12;

/** The bin of a ray at squared Mahalanobis distance m2 from an ellipsoid met within k (k2 = k²). */
export function falloffBin(m2: number, k2: number): number {
  const b = Math.floor((m2 / k2) * FALLOFF_BINS);
  return b < 0 || b !== b ? 0 : b >= FALLOFF_BINS ? FALLOFF_BINS - 1 : b;
}

/** The weight a bin stands for: the mean of exp(−m²/2) over its m² range. */
export function falloffBinWeight(bin: number, k2: number): number {
  const d = k2 / FALLOFF_BINS, a = bin * d;
  return (2 * (Math.exp(-0.5 * a) - Math.exp(-0.5 * (a + d)))) / d;
}

const LN_KAPPA_MIN = Math.log(1e-9);
const LN_KAPPA_MAX = Math.log(1e6);
const BISECTIONS = 48;

/**
 * Per ellipsoid, the stored p (the hit probability at w̄ = meanFalloffWeight(threshold)) of the
 * maximum-likelihood κ: 1 − exp(−κ w̄). Counts are FALLOFF_BINS per ellipsoid.
 */
export function falloffProbabilities(hitBins: Uint32Array, passBins: Uint32Array, a: number, b: number, threshold: number): Float32Array {
  const n = hitBins.length / FALLOFF_BINS;
  const out = new Float32Array(n);
  const wBar = meanFalloffWeight(threshold);
  const w = Array.from({ length: FALLOFF_BINS }, (_, j) => falloffBinWeight(j, threshold * threshold));
  for (let e = 0; e < n; e++) {
    const o = e * FALLOFF_BINS;
    let hits = a, passW = b * wBar;
    for (let j = 0; j < FALLOFF_BINS; j++) {
      hits += hitBins[o + j]!;
      passW += passBins[o + j]! * w[j]!;
    }
    if (!(hits > 0)) continue; // nothing returned, no prior: 0
    if (!(passW > 0)) {
      out[e] = 1;
      continue;
    }
    // dL/dκ at κ = e^u; positive below the root.
    const slope = (u: number): number => {
      const kappa = Math.exp(u);
      let s = a > 0 ? (a * wBar) / Math.expm1(kappa * wBar) : 0;
      for (let j = 0; j < FALLOFF_BINS; j++) {
        const h = hitBins[o + j]!;
        if (h > 0) s += (h * w[j]!) / Math.expm1(kappa * w[j]!);
      }
      return s - passW;
    };
    let lo = LN_KAPPA_MIN, hi = LN_KAPPA_MAX;
    if (slope(hi) > 0) {
      out[e] = -Math.expm1(-Math.exp(hi) * wBar);
      continue;
    }
    for (let i = 0; i < BISECTIONS; i++) {
      const mid = 0.5 * (lo + hi);
      if (slope(mid) > 0) lo = mid;
      else hi = mid;
    }
    out[e] = -Math.expm1(-Math.exp(0.5 * (lo + hi)) * wBar);
  }
  return out;
}
