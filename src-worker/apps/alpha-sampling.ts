/**
 * The distribution p(α) of each application's tunable parameters (docs/methods.md,
 * "Application-level risk"; Tallavajhula 2018, §2.3.4 and §4.4.2): each parameter uniform on its
 * interval, on a log₁₀ scale where its name says `log` (the thesis drew the log voxel size and the
 * log minimum objective change uniformly). Integer parameters are rounded after drawing.
 */
import { RandomStream } from '../random/stream';
import { APPLICATIONS, type Alpha, type Application } from '../../src-common/application-risk';

export { APPLICATIONS, type Alpha, type Application };

interface ParamRange {
  lo: number;
  hi: number;
  integer?: boolean;
}

/** Every application's parameters and their intervals. */
export const ALPHA_RANGES: Record<Application, Record<string, ParamRange>> = {
  // 004 §4.4.2: the voxel filter's log size, the log minimum objective change between ICP
  // iterations (mean squared point-to-plane residual, m²), the correspondence distance and the
  // iteration limit.
  'scan-matching': {
    logVoxelSize: { lo: Math.log10(0.05), hi: Math.log10(1) },
    logMinObjectiveChange: { lo: -8, hi: -2 },
    maxCorrespondenceDistance: { lo: 0.2, hi: 2 },
    iterations: { lo: 5, hi: 50, integer: true },
  },
  // The studies' cost grid (docs/methods.md §7): h_max, the lethal cost, the ground window and the
  // hits a cell needs before it may be called an obstacle.
  obstacles: {
    hMax: { lo: 0.5, hi: 2.5 },
    lethalCost: { lo: 30, hi: 90 },
    groundWindowCells: { lo: 1, hi: 6, integer: true },
    minHits: { lo: 1, hi: 5, integer: true },
  },
  // The fit's ground segmentation (docs/methods.md §1, step 1).
  ground: {
    phiRadius: { lo: 0.3, hi: 1.5 },
    phiThreshold: { lo: 0.02, hi: 0.15 },
    phiMinNeighbors: { lo: 5, hi: 20, integer: true },
    maxGroundSlopeDeg: { lo: 15, hi: 60 },
  },
};

/** n draws of α for `app`, seeded: the same (app, n, seed) gives the same list. */
export function sampleAlphas(app: Application, n: number, seed: number): Alpha[] {
  const ranges = ALPHA_RANGES[app];
  const out: Alpha[] = [];
  for (let k = 0; k < n; k++) {
    const rng = new RandomStream(seed, k);
    const a: Alpha = {};
    for (const [name, r] of Object.entries(ranges)) {
      const x = r.lo + (r.hi - r.lo) * rng.next();
      a[name] = r.integer ? Math.min(r.hi, Math.round(x)) : x;
    }
    out.push(a);
  }
  return out;
}
