/**
 * The ground-segmentation application (docs/methods.md, "Application-level risk"): the fit's
 * segmentation by spherical variation (src-worker/fit/segmentation.ts, docs/methods.md §1, step 1)
 * run on a few of a log's scans, each in the world frame, with α = (d_φ, φ_thresh, N_min, the
 * steepest ground slope). The truth is the log's ray classes: a hit is ground when its class is
 * ground; hits of unknown class are left out. J = 1 − F1 of the ground label.
 */
import { FIT_PARAM_DEFAULTS, type FitParams } from '../../src-common/fit-params';
import { CLASS_UNKNOWN } from '../../src-common/packets';
import { SiteClass } from '../../src-common/classes';
import { segmentPoints } from '../fit/segmentation';
import type { Alpha } from './alpha-sampling';
import { scanPointRange, spreadScans, type LogPoints } from './log-points';

/** Scans segmented per log, and points per scan at most. */
export const GROUND_SCANS = 3;
export const GROUND_POINTS_PER_SCAN = 30_000;

/** One scan's points (world frame) and their truth: 1 ground, 0 other, 255 unknown. */
export interface GroundCloud {
  xyz: Float64Array;
  truth: Uint8Array;
}

export function groundClouds(d: LogPoints): GroundCloud[] {
  const out: GroundCloud[] = [];
  for (const k of spreadScans(d.scanStarts.length, GROUND_SCANS, 0)) {
    const { from, to } = scanPointRange(d, k);
    const step = Math.max(1, Math.ceil((to - from) / GROUND_POINTS_PER_SCAN));
    const m = Math.ceil((to - from) / step);
    const xyz = new Float64Array(3 * m), truth = new Uint8Array(m);
    for (let j = 0, i = from; i < to; i += step, j++) {
      xyz.set(d.xyz.subarray(3 * i, 3 * i + 3), 3 * j);
      const c = d.cls[i]!;
      truth[j] = c === CLASS_UNKNOWN ? 255 : c === SiteClass.ground ? 1 : 0;
    }
    if (m > 0) out.push({ xyz, truth });
  }
  return out;
}

/** F1 of predicted ground against the truth (unknown left out); 1 when neither has ground. */
export function groundF1(predicted: Uint8Array, truth: Uint8Array): number {
  let tp = 0, fp = 0, fn = 0;
  for (let i = 0; i < truth.length; i++) {
    const t = truth[i]!;
    if (t === 255) continue;
    if (predicted[i] && t) tp++;
    else if (predicted[i]) fp++;
    else if (t) fn++;
  }
  return tp + fp + fn === 0 ? 1 : (2 * tp) / (2 * tp + fp + fn);
}

export function segmentationParams(alpha: Alpha): FitParams {
  return {
    ...(FIT_PARAM_DEFAULTS as unknown as FitParams),
    phiRadius: alpha.phiRadius!,
    phiThreshold: alpha.phiThreshold!,
    phiMinNeighbors: Math.round(alpha.phiMinNeighbors!),
    maxGroundSlopeDeg: alpha.maxGroundSlopeDeg!,
  };
}

/** J = 1 − F1 over the clouds' rays together. */
export function groundObjective(clouds: GroundCloud[], alpha: Alpha, checkCancelled: () => void = () => {}): number {
  const params = segmentationParams(alpha);
  const predicted: Uint8Array[] = [];
  for (const c of clouds) {
    const n = c.truth.length;
    const g = new Uint8Array(n);
    segmentPoints(c.xyz, n, n, params, g, checkCancelled);
    predicted.push(g);
  }
  const all = (parts: Uint8Array[]) => {
    const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
    let o = 0;
    for (const p of parts) { out.set(p, o); o += p.length; }
    return out;
  };
  return 1 - groundF1(all(predicted), all(clouds.map((c) => c.truth)));
}
