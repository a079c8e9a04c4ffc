/**
 * The "Fit model…" form's model: θ (docs/methods.md §1, the thesis's defaults from
 * src-common/fit-params.ts), which parameters the form shows first, optional tuning, and the
 * fit.start request it makes — checked here, so the drawer only shows what is wrong.
 */
import { FIT_PARAM_DEFAULTS, resolveFitParams, type FitParamName } from '../../../src-common/fit-params';

/** The parameters a user changes most, shown first; the rest behind "All parameters". */
export const MAIN_PARAMS: readonly FitParamName[] = [
  'cellSize', 'phiThreshold', 'clustersPerPoint', 'minClusterPoints', 'mahalanobisThreshold', 'maxResidual', 'vertexSpacing', 'learnHitPriors', 'ellipsoidHitFalloff',
];

export const PARAM_LABELS: Partial<Record<FitParamName, string>> = {
  cellSize: 'Cell size (m)',
  phiThreshold: 'Ground φ threshold',
  clustersPerPoint: 'Clusters per point',
  minClusterPoints: 'Points per cluster, at least',
  mahalanobisThreshold: 'Mahalanobis limit',
  maxResidual: 'Ground hit distance (m)',
  vertexSpacing: 'Ground vertex spacing (m)',
  learnHitPriors: 'Learn hit priors (1 = yes)',
  ellipsoidHitFalloff: 'Hit-probability falloff (1 = yes)',
  groundNoReturnMisses: 'Rays without a return pass the ground (1 = yes)',
  ellipsoidCells: 'Hit cells per ellipsoid axis (0 = none)',
  groundCells: 'Hit cells per triangle side (0 = none)',
  hitCellPrior: 'Hit-cell prior (pseudo-rays)',
};

export interface FitForm {
  name: string;
  seed: number;
  /** Only the parameters changed from their defaults. */
  params: Partial<Record<FitParamName, number>>;
  tune: boolean;
  tuneSeconds: number;
  tuneEvaluations: number;
}

export function defaultFitForm(): FitForm {
  return { name: '', seed: 1, params: {}, tune: false, tuneSeconds: 10, tuneEvaluations: 30 };
}

export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

export interface FitRequest {
  logId: number;
  seed: number;
  params: Record<string, number>;
  name?: string;
  tune?: { seconds: number; evaluations: number };
}

export function fitRequest(logId: number | null, f: FitForm): Checked<FitRequest> {
  if (logId === null) return { ok: false, reason: 'Choose a drive log.' };
  const params: Record<string, number> = {};
  for (const [k, v] of Object.entries(f.params)) if (v !== undefined && v !== null && v !== FIT_PARAM_DEFAULTS[k as FitParamName]) params[k] = v;
  try {
    resolveFitParams(params);
  } catch (e) {
    return { ok: false, reason: (e as Error).message };
  }
  if (!Number.isInteger(f.seed) || f.seed < 0) return { ok: false, reason: 'The seed is a whole number, 0 or more.' };
  if (f.tune && !(f.tuneSeconds > 0 && Number.isInteger(f.tuneEvaluations) && f.tuneEvaluations >= 2)) return { ok: false, reason: 'Tuning needs a slice of more than 0 s and at least 2 evaluations.' };
  return {
    ok: true,
    value: { logId, seed: f.seed, params, ...(f.name.trim() ? { name: f.name.trim() } : {}), ...(f.tune ? { tune: { seconds: f.tuneSeconds, evaluations: f.tuneEvaluations } } : {}) },
  };
}
