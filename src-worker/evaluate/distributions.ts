/**
 * Distributions for the physics validations: the gamma law of 003 §3.4.1 and the exponential
 * law of Macedo et al. (003 eq. 2 without divergence), with the special functions they need and
 * a maximum-likelihood fit of the gamma shape.
 */
import type { RandomStream } from '../random/stream';
import { binProbabilities } from './histogram';

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
  -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
  1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0 (Lanczos, g = 7; ~15 digits). */
export function lnGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lnGamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0]!;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i]! / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/**
 * Regularised lower incomplete gamma P(a, x) = γ(a, x) / Γ(a): the series for x < a + 1, the
 * continued fraction (modified Lentz) otherwise.
 */
export function regularizedGammaP(a: number, x: number): number {
  if (!(a > 0)) throw new Error(`gamma P: shape must be > 0 (got ${a})`);
  if (x <= 0) return 0;
  if (x === Infinity) return 1;
  const lnPre = a * Math.log(x) - x - lnGamma(a);
  if (x < a + 1) {
    let sum = 1 / a, term = sum, ap = a;
    for (let n = 0; n < 10_000; n++) {
      ap += 1;
      term *= x / ap;
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * 1e-16) break;
    }
    return Math.min(1, sum * Math.exp(lnPre));
  }
  const tiny = 1e-300;
  let b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
  for (let i = 1; i < 10_000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-16) break;
  }
  return Math.max(0, 1 - Math.exp(lnPre) * h);
}

/** Gamma density with shape k and rate β at x ≥ 0. */
export function gammaPdf(x: number, shape: number, rate: number): number {
  if (x < 0) return 0;
  if (x === 0) return shape < 1 ? Infinity : shape === 1 ? rate : 0;
  return Math.exp(shape * Math.log(rate) + (shape - 1) * Math.log(x) - rate * x - lnGamma(shape));
}

export function gammaCdf(x: number, shape: number, rate: number): number {
  return x <= 0 ? 0 : regularizedGammaP(shape, rate * x);
}

export function exponentialCdf(x: number, rate: number): number {
  return x <= 0 ? 0 : -Math.expm1(-rate * x);
}

/**
 * The gamma law of 003 §3.4.1 for the range r in a stand of grass (stems λ per m², diameter d,
 * edge at D): p(r) = (r−D)^(α−1) (αλd)^α e^{−αλd(r−D)} / Γ(α), i.e. a gamma law of the
 * penetration r − D with shape α and rate αλd (mean 1/(λd) whatever α). α = 1 is the exponential
 * law of Macedo et al., p(r) = λd e^{−λd(r−D)}.
 */
export function grassGammaCdf(penetration: number, alpha: number, lambdaD: number): number {
  return gammaCdf(penetration, alpha, alpha * lambdaD);
}

/**
 * Maximum-likelihood gamma shape α for binned penetrations under the law above (rate tied to
 * αλd), truncated to the histogram window: maximises Σ_b n_b ln P_b(α), with P_b the law's
 * probability of bin b renormalised to [lo, hi]. Binned (rather than per-sample) likelihood
 * because the window is where both the data and the truncated law live, and it is what the
 * Bhattacharyya comparison uses. Golden-section search on ln α after a coarse scan of
 * α ∈ [0.05, 500].
 */
export function fitGammaShapeBinned(counts: ArrayLike<number>, lo: number, hi: number, lambdaD: number): { alpha: number; logLikelihood: number } {
  const bins = counts.length;
  const ll = (lnAlpha: number): number => {
    const alpha = Math.exp(lnAlpha);
    const p = binProbabilities((x) => grassGammaCdf(x, alpha, lambdaD), lo, hi, bins);
    let s = 0;
    for (let b = 0; b < bins; b++) {
      const n = counts[b]!;
      if (n > 0) s += n * Math.log(Math.max(p[b]!, 1e-300));
    }
    return s;
  };
  const a = Math.log(0.05), z = Math.log(500);
  const steps = 60;
  let best = a, bestLL = -Infinity;
  for (let i = 0; i <= steps; i++) {
    const x = a + ((z - a) * i) / steps;
    const v = ll(x);
    if (v > bestLL) {
      bestLL = v;
      best = x;
    }
  }
  const h = (z - a) / steps;
  let lo2 = Math.max(a, best - h), hi2 = Math.min(z, best + h);
  const g = (Math.sqrt(5) - 1) / 2;
  let x1 = hi2 - g * (hi2 - lo2), x2 = lo2 + g * (hi2 - lo2);
  let f1 = ll(x1), f2 = ll(x2);
  for (let it = 0; it < 60 && hi2 - lo2 > 1e-7; it++) {
    if (f1 > f2) {
      hi2 = x2; x2 = x1; f2 = f1;
      x1 = hi2 - g * (hi2 - lo2); f1 = ll(x1);
    } else {
      lo2 = x1; x1 = x2; f1 = f2;
      x2 = lo2 + g * (hi2 - lo2); f2 = ll(x2);
    }
  }
  const x = f1 > f2 ? x1 : x2;
  const v = Math.max(f1, f2);
  return v >= bestLL ? { alpha: Math.exp(x), logLikelihood: v } : { alpha: Math.exp(best), logLikelihood: bestLL };
}

/** A Gamma(shape, rate) sample (Marsaglia–Tsang; shape < 1 by the boost U^(1/k)). */
export function sampleGamma(shape: number, rate: number, rng: RandomStream): number {
  if (shape < 1) return sampleGamma(shape + 1, rate, rng) * Math.pow(rng.nextOpen(), 1 / shape);
  const d = shape - 1 / 3, c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number, v: number;
    do {
      x = rng.normal();
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = rng.nextOpen();
    if (u < 1 - 0.0331 * x * x * x * x || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return (d * v) / rate;
  }
}
