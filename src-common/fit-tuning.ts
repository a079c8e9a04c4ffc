/**
 * Which fitting parameters model tuning searches (docs/methods.md §1 step 5; Tallavajhula 2018
 * §4.3) and the box each is searched in. Shared: the host refuses a request naming a parameter
 * that has no box before any job starts, and the tuning task searches these boxes.
 */
import type { FitParamName } from './fit-params';

/** One searched parameter: its bounds, and whether it is rounded to whole numbers. */
export interface TuningBox {
  name: string;
  lower: number;
  upper: number;
  integer?: boolean;
}

/** What the thesis tuned (segmentation threshold, cluster density, Mahalanobis limit) and the cluster floor, with search boxes around Table 4.1's values. */
export const DEFAULT_TUNED_PARAMS: readonly (TuningBox & { name: FitParamName })[] = [
  { name: 'phiThreshold', lower: 0.03, upper: 0.2 },
  { name: 'clustersPerPoint', lower: 0.01, upper: 0.15 },
  { name: 'mahalanobisThreshold', lower: 1.5, upper: 5 },
  { name: 'minClusterPoints', lower: 3, upper: 15, integer: true },
];

/** Search boxes for other parameters a user may name (within fit-params.ts's limits). */
const OTHER_BOXES: Partial<Record<FitParamName, [number, number, boolean?]>> = {
  phiRadius: [0.3, 2],
  phiDefault: [0, 1 / 3],
  phiMinNeighbors: [3, 30, true],
  maxGroundSlopeDeg: [15, 90],
  cellSize: [0.05, 0.3],
  vertexSpacing: [0.25, 2],
  surfaceRadius: [0.3, 5],
  maxResidual: [0.1, 2],
  voxelSize: [0.1, 1],
  voxelTau: [1, 4],
  // The (hit, miss) priors of p_hit (Table 4.1: triangles (1, 2), ellipsoids (0, 1)): they decide
  // how far a lightly observed element is trusted, which moves recall.
  groundHitPrior: [0, 20],
  groundMissPrior: [0.1, 5],
  ellipsoidHitPrior: [0, 5],
  ellipsoidMissPrior: [0.1, 5],
};

/** The search box of each named parameter (the defaults above, else OTHER_BOXES); throws on a name with no box. */
export function tuningBoxes(names: readonly string[] | undefined): TuningBox[] {
  if (!names || names.length === 0) return DEFAULT_TUNED_PARAMS.map((p) => ({ ...p }));
  return names.map((name) => {
    const d = DEFAULT_TUNED_PARAMS.find((p) => p.name === name);
    if (d) return { ...d };
    const o = OTHER_BOXES[name as FitParamName];
    if (!o) {
      const known = [...DEFAULT_TUNED_PARAMS.map((p) => p.name), ...Object.keys(OTHER_BOXES)];
      throw new Error(`fit parameter "${name}" cannot be tuned (tunable: ${known.join(', ')})`);
    }
    return { name, lower: o[0], upper: o[1], ...(o[2] ? { integer: true } : {}) };
  });
}
