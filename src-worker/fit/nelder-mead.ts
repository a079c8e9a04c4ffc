/**
 * Nelder–Mead simplex search inside a box (the thesis tuned θ with a derivative-free optimiser,
 * docs/methods.md §1, step 5). The objective here is a whole fit + simulation + evaluation, so every
 * evaluation is expensive and noisy-free (seeded); the search therefore:
 *
 * - works in the unit cube (each parameter scaled to [0, 1] of its bounds) so one step size
 *   suits parameters of very different scales, and clamps every trial point into the cube
 *   (bounds are hard: a fit with φ_thresh < 0 means nothing);
 * - rounds integer parameters before evaluating and caches evaluations by the rounded point, so
 *   clamping or rounding to an already-seen point costs nothing;
 * - stops after `maxEvaluations` objective calls (the budget a user sets), or when the simplex
 *   has shrunk below `tolerance` in the cube and its values agree within `tolerance`.
 *
 * Deterministic: no randomness; ties are broken by vertex order.
 */

export interface BoxParameter {
  name: string;
  lower: number;
  upper: number;
  /** Round to whole numbers before evaluating. */
  integer?: boolean;
}

export interface NelderMeadOptions {
  maxEvaluations: number;
  /** Initial step per dimension, as a fraction of the box (default 0.25). */
  initialStep?: number;
  /** Stop when the simplex's extent (cube units) and its value spread are both below this (default 1e-3). */
  tolerance?: number;
  /** Called after each (uncached) evaluation; throw from it to cancel the search. */
  onEvaluation?: (e: TrialRecord) => void;
}

export interface TrialRecord {
  /** 1-based count of objective calls. */
  evaluation: number;
  /** The parameters as evaluated (integers rounded). */
  x: Record<string, number>;
  value: number;
  /** What produced the point: the initial simplex or a simplex move. */
  step: 'initial' | 'reflect' | 'expand' | 'contract' | 'shrink';
}

export interface NelderMeadResult {
  best: Record<string, number>;
  value: number;
  evaluations: number;
  trace: TrialRecord[];
  /** Why the search ended. */
  stopped: 'budget' | 'converged';
}

const ALPHA = 1, GAMMA = 2, RHO = 0.5, SIGMA = 0.5;

export function nelderMead(
  params: readonly BoxParameter[],
  start: Record<string, number>,
  objective: (x: Record<string, number>) => number,
  opts: NelderMeadOptions,
): NelderMeadResult {
  const n = params.length;
  if (n === 0) throw new Error('tuning: no parameters to tune');
  for (const p of params) {
    if (!(p.upper > p.lower)) throw new Error(`tuning: parameter ${p.name} needs lower < upper (got [${p.lower}, ${p.upper}])`);
    const s = start[p.name];
    if (s === undefined || !Number.isFinite(s)) throw new Error(`tuning: no start value for ${p.name}`);
  }
  if (!(opts.maxEvaluations >= n + 1)) throw new Error(`tuning: a budget of ${opts.maxEvaluations} evaluations cannot even fill the initial simplex of ${n + 1} points`);
  const step = opts.initialStep ?? 0.25;
  const tol = opts.tolerance ?? 1e-3;
  const trace: TrialRecord[] = [];
  const cache = new Map<string, number>();

  const toX = (u: readonly number[]): Record<string, number> => {
    const x: Record<string, number> = {};
    params.forEach((p, i) => {
      const v = p.lower + Math.min(1, Math.max(0, u[i]!)) * (p.upper - p.lower);
      x[p.name] = p.integer ? Math.round(v) : v;
    });
    return x;
  };
  let budgetLeft = opts.maxEvaluations;
  const evaluate = (u: number[], kind: TrialRecord['step']): number => {
    const x = toX(u);
    const key = params.map((p) => x[p.name]!.toPrecision(12)).join(',');
    const seen = cache.get(key);
    if (seen !== undefined) return seen;
    budgetLeft--;
    const raw = objective(x);
    // A failed fit (NaN) is the worst point there is, not a crash of the search.
    const value = Number.isFinite(raw) ? raw : Number.POSITIVE_INFINITY;
    cache.set(key, value);
    const rec: TrialRecord = { evaluation: trace.length + 1, x, value, step: kind };
    trace.push(rec);
    opts.onEvaluation?.(rec);
    return value;
  };
  const clamp = (u: number[]) => u.map((v) => Math.min(1, Math.max(0, v)));

  const u0 = params.map((p) => (start[p.name]! - p.lower) / (p.upper - p.lower));
  const simplex: { u: number[]; f: number }[] = [{ u: clamp(u0), f: NaN }];
  for (let i = 0; i < n; i++) {
    const u = clamp(u0);
    u[i] = u[i]! + step <= 1 ? u[i]! + step : u[i]! - step;
    simplex.push({ u: clamp(u), f: NaN });
  }
  for (const v of simplex) v.f = evaluate(v.u, 'initial');

  let stopped: NelderMeadResult['stopped'] = 'budget';
  while (budgetLeft > 0) {
    simplex.sort((a, b) => a.f - b.f); // stable: ties keep vertex order
    const best = simplex[0]!, worst = simplex[n]!, second = simplex[n - 1]!;
    let extent = 0;
    for (const v of simplex) for (let i = 0; i < n; i++) extent = Math.max(extent, Math.abs(v.u[i]! - best.u[i]!));
    if (extent < tol && Math.abs(worst.f - best.f) <= tol * Math.max(1, Math.abs(best.f))) {
      stopped = 'converged';
      break;
    }
    const centroid = new Array<number>(n).fill(0);
    for (let k = 0; k < n; k++) for (let i = 0; i < n; i++) centroid[i]! += simplex[k]!.u[i]! / n;
    const along = (t: number) => clamp(centroid.map((c, i) => c + t * (worst.u[i]! - c)));

    const ur = along(-ALPHA);
    const fr = evaluate(ur, 'reflect');
    if (fr < best.f && budgetLeft > 0) {
      const ue = along(-GAMMA);
      const fe = evaluate(ue, 'expand');
      simplex[n] = fe < fr ? { u: ue, f: fe } : { u: ur, f: fr };
      continue;
    }
    if (fr < second.f) {
      simplex[n] = { u: ur, f: fr };
      continue;
    }
    if (budgetLeft === 0) break;
    // Outside contraction when the reflection beat the worst point, inside otherwise.
    const outside = fr < worst.f;
    const uc = along(outside ? -RHO : RHO);
    const fc = evaluate(uc, 'contract');
    if (fc < (outside ? fr : worst.f)) {
      simplex[n] = { u: uc, f: fc };
      continue;
    }
    for (let k = 1; k <= n && budgetLeft > 0; k++) {
      const v = simplex[k]!;
      v.u = clamp(v.u.map((x, i) => best.u[i]! + SIGMA * (x - best.u[i]!)));
      v.f = evaluate(v.u, 'shrink');
    }
  }
  simplex.sort((a, b) => a.f - b.f);
  // The best point ever evaluated (a shrink may have been cut short by the budget).
  let bestRec = trace[0]!;
  for (const r of trace) if (r.value < bestRec.value) bestRec = r;
  const fromSimplex = simplex[0]!.f <= bestRec.value ? toX(simplex[0]!.u) : bestRec.x;
  return { best: fromSimplex, value: Math.min(simplex[0]!.f, bestRec.value), evaluations: trace.length, trace, stopped };
}
