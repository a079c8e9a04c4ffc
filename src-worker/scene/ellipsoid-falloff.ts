/**
 * What an ellipsoid's p_hit means when the hit probability falls off away from its centre
 * (docs/methods.md §1 step 4): Beer–Lambert attenuation through a Gaussian density.
 *
 * A ray whose minimum Mahalanobis distance to the ellipsoid is m crosses an optical depth
 * proportional to the Gaussian's density integrated along it, ∝ exp(−m²/2); so
 *   P(hit | m) = 1 − exp(−κ · w(m)),   w(m) = exp(−m²/2).
 * The stored number stays a probability: p = P(hit) at the mean weight w̄ of the rays that meet
 * the ellipsoid (m spread evenly over the disk of radius k, the Mahalanobis threshold):
 *   w̄ = ∫₀ᵏ e^{−m²/2} 2πm dm / (πk²) = 2(1 − e^{−k²/2}) / k²,   p = 1 − exp(−κ w̄),
 * hence P(hit | m) = 1 − (1 − p)^(w(m) / w̄). A scene built without the falloff reads p as one
 * constant for every ray (Table 4.1's model), which is also the best constant approximation.
 */

/** w̄: the mean of exp(−m²/2) over rays meeting an ellipsoid within Mahalanobis distance k. */
export function meanFalloffWeight(k: number): number {
  return k > 0 ? (2 * (1 - Math.exp(-0.5 * k * k))) / (k * k) : 1;
}

/**
 * P(hit | m) from the stored p (the probability at w̄): 1 − (1 − p)^(exp(−m²/2) / w̄).
 * `wBar` = meanFalloffWeight(threshold), passed in so a walk computes it once.
 */
export function falloffHitProbability(p: number, m2: number, wBar: number): number {
  if (!(p < 1)) return 1;
  if (!(p > 0)) return 0;
  return -Math.expm1((Math.exp(-0.5 * m2) / wBar) * Math.log1p(-p));
}
