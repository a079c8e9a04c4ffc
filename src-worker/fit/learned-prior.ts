/**
 * Hit-probability priors learned from the log itself (empirical Bayes; docs/methods.md §1, step 4).
 *
 * An element's p_hit is the posterior mean (h + a) / (h + m + a + b) of a Beta(a, b) prior after
 * h returns and m pass-throughs in the replay. The thesis fixes (a, b) per element kind (004
 * Table 4.1: (1, 2) for triangles, (0, 1) for ellipsoids), which on a single real scan — where
 * most elements are met by a handful of rays — pulls well-observed solid ground far below 1 and
 * costs the model a tenth of its own training hits. Here (a, b) are instead the maximum of the
 * marginal likelihood of all the kind's counts under the beta-binomial model,
 *
 *     L(a, b) = Σ_i [ ln B(h_i + a, m_i + b) − ln B(a, b) ]   (binomial coefficients are constant),
 *
 * so the prior is the distribution of hit rates the log's own elements show (for ground on an
 * off-road scan: nearly all mass near 1). Elements no ray met do not enter L; they get the prior
 * mean a / (a + b).
 *
 * Counts are small integers, so the elements are grouped by their (h, m) pair first: the search
 * costs one pass over the elements and then a few hundred evaluations over the distinct pairs.
 * The search (nelder-mead.ts, deterministic) runs over (ln a, ln b) in a box.
 */
import { lnGamma } from '../evaluate/distributions';
import { nelderMead } from './nelder-mead';

export interface BetaPrior {
  a: number;
  b: number;
  /** Elements whose counts entered the estimate (met by at least one ray). */
  elements: number;
}

/** The search box of ln a and ln b: priors from e^−6 ≈ 0.0025 to e^6 ≈ 403 pseudo-counts. */
const LN_BOUND = 6;
const EVALUATIONS = 300;

/** ln B(x, y). */
function lnBeta(x: number, y: number): number {
  return lnGamma(x) + lnGamma(y) - lnGamma(x + y);
}

/**
 * The maximum-likelihood Beta prior of the hit rates behind `hits`/`misses` (one pair per element),
 * or `fallback` when fewer than two elements were observed (nothing to learn a spread from).
 */
export function learnBetaPrior(hits: Uint32Array, misses: Uint32Array, fallback: { a: number; b: number }): BetaPrior {
  const pairs = new Map<number, number>();
  let observed = 0;
  for (let i = 0; i < hits.length; i++) {
    const h = hits[i]!, m = misses[i]!;
    if (h + m === 0) continue;
    observed++;
    const key = h * 4294967296 + m; // exact: both are below 2^32
    pairs.set(key, (pairs.get(key) ?? 0) + 1);
  }
  if (observed < 2) return { ...fallback, elements: observed };
  const hs: number[] = [], ms: number[] = [], ws: number[] = [];
  for (const [key, w] of pairs) {
    hs.push(Math.floor(key / 4294967296));
    ms.push(key % 4294967296);
    ws.push(w);
  }
  // All hits or all misses: the likelihood grows without bound towards p = 1 or 0; the box stops it.
  const negLogLikelihood = (x: Record<string, number>): number => {
    const a = Math.exp(x.lnA!), b = Math.exp(x.lnB!);
    const base = lnBeta(a, b);
    let ll = 0;
    for (let k = 0; k < hs.length; k++) ll += ws[k]! * (lnBeta(hs[k]! + a, ms[k]! + b) - base);
    return -ll;
  };
  const box = [
    { name: 'lnA', lower: -LN_BOUND, upper: LN_BOUND },
    { name: 'lnB', lower: -LN_BOUND, upper: LN_BOUND },
  ];
  const r = nelderMead(box, { lnA: 0, lnB: 0 }, negLogLikelihood, { maxEvaluations: EVALUATIONS, tolerance: 1e-6 });
  return { a: Math.exp(r.best.lnA!), b: Math.exp(r.best.lnB!), elements: observed };
}
