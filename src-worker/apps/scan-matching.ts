/**
 * The scan-matching application (docs/methods.md, "Application-level risk"; Tallavajhula 2018,
 * §4.4.2): consecutive revolutions i, i + 1 are registered by ICP (icp.ts: voxel-filtered,
 * point-to-plane, a RANSAC outer loop) from the identity, giving q̃ᵢ,ᵢ₊₁, the pose of scan i + 1
 * in scan i's frame; the log's own poses give qᵢ,ᵢ₊₁ = qᵢ⁻¹ qᵢ₊₁. The objective is the mean over
 * the pairs of ‖t̃ − t‖ (m), with the mean angle of the rotation between R and R̃ as a second objective (rad).
 */
import { poseRotationMatrix } from '../geometry/pose';
import { identityTransform, prepareTarget, ransacIcp, rotationAngle, voxelFilter, type Transform } from './icp';
import type { Alpha } from './alpha-sampling';
import type { Scan } from './log-points';

/** Source points matched per pair at most (a strided subset of the filtered scan). */
export const MAX_SOURCE_POINTS = 3000;
/** RANSAC trials per pair and the fraction of the source each matches. */
export const RANSAC_TRIALS = 2;
export const RANSAC_FRACTION = 0.5;

/** The rigid transform of a pose [t, q] (world ← sensor). */
export function poseTransform(pose: ArrayLike<number>, o = 0): Transform {
  const T = identityTransform();
  poseRotationMatrix(pose, o, T, 0);
  T[9] = pose[o]!; T[10] = pose[o + 1]!; T[11] = pose[o + 2]!;
  return T;
}

/** a⁻¹ b for rigid transforms. */
export function relativeTransform(a: Transform, b: Transform): Transform {
  const out = new Float64Array(12);
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) out[3 * r + c] = a[r]! * b[c]! + a[3 + r]! * b[3 + c]! + a[6 + r]! * b[6 + c]!;
    const dx = b[9]! - a[9]!, dy = b[10]! - a[10]!, dz = b[11]! - a[11]!;
    out[9 + r] = a[r]! * dx + a[3 + r]! * dy + a[6 + r]! * dz;
  }
  return out;
}

/** Position error (m) and rotation-angle error (rad) of an estimate against the truth. */
export function poseError(estimate: Transform, truth: Transform): { position: number; angle: number } {
  const position = Math.hypot(estimate[9]! - truth[9]!, estimate[10]! - truth[10]!, estimate[11]! - truth[11]!);
  return { position, angle: rotationAngle(relativeTransform(truth, estimate)) };
}

/** The scan-matching objective, or null when the scans give no pair. */
export interface ScanMatchingJ {
  position: number;
  angle: number;
  pairs: number;
}

/** `pairs[k]` = index of a scan whose successor is scans[pairs[k] + 1]. */
export function scanMatchingObjective(scans: Scan[], pairs: readonly number[], alpha: Alpha, seed: number, checkCancelled: () => void = () => {}): ScanMatchingJ {
  const voxel = 10 ** alpha.logVoxelSize!;
  const params = {
    maxCorrespondenceDistance: alpha.maxCorrespondenceDistance!,
    iterations: Math.max(1, Math.round(alpha.iterations!)),
    minObjectiveChange: 10 ** alpha.logMinObjectiveChange!,
    ransacTrials: RANSAC_TRIALS,
    inlierThreshold: Math.max(0.1, alpha.maxCorrespondenceDistance! / 2),
    sampleFraction: RANSAC_FRACTION,
    seed,
  };
  const filtered = new Map<number, Float64Array>();
  const filter = (i: number) => {
    let f = filtered.get(i);
    if (!f) filtered.set(i, (f = voxelFilter(scans[i]!.points, scans[i]!.points.length / 3, voxel)));
    return f;
  };
  let position = 0, angle = 0;
  for (const i of pairs) {
    checkCancelled();
    const target = prepareTarget(filter(i), Math.max(3 * voxel, 0.75));
    const source = strided(filter(i + 1), MAX_SOURCE_POINTS);
    const est = ransacIcp(source, target, params).transform;
    const truth = relativeTransform(poseTransform(scans[i]!.pose), poseTransform(scans[i + 1]!.pose));
    const e = poseError(est, truth);
    position += e.position;
    angle += e.angle;
  }
  const n = pairs.length;
  return { position: n ? position / n : 0, angle: n ? angle / n : 0, pairs: n };
}

function strided(xyz: Float64Array, cap: number): Float64Array {
  const n = xyz.length / 3;
  if (n <= cap) return xyz;
  const step = n / cap;
  const out = new Float64Array(3 * cap);
  for (let j = 0; j < cap; j++) {
    const i = Math.floor(j * step);
    out[3 * j] = xyz[3 * i]!; out[3 * j + 1] = xyz[3 * i + 1]!; out[3 * j + 2] = xyz[3 * i + 2]!;
  }
  return out;
}
