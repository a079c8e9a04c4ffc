/**
 * Ground segmentation by spherical variation (seed 001 §IV, thesis 004 §4.3.1.1, docs/methods.md §1, step 1).
 *
 * For each point y of the (subsampled) cloud: the covariance of its neighbours within d_φ,
 * eigenvalues λ₁ ≤ λ₂ ≤ λ₃, φ(y) = λ₁ / (λ₁ + λ₂ + λ₃) — 0 on a plane, 1/3 in an isotropic
 * blob; fewer than N_min neighbours → φ_default. Optionally φ is smoothed bilaterally
 * (004 eq. 4.1–4.2; the extracted eq. 4.1 has φ(r_i) in the sum where φ_j is meant):
 *   φ̃_i = Σ_j w_ij φ_j / Σ_j w_ij,  w_ij = exp(−η_d ‖y_i − y_j‖² / d² − η_φ (φ_i − φ_j)² / (1/3)²)
 * over neighbours within d_smooth. A point is ground when φ̃ < φ_thresh (and, if asked, its
 * local normal is within maxGroundSlopeDeg of vertical: walls and trunks are planar too).
 *
 * Works on one block: its own points first, then a margin of neighbouring blocks' points that
 * only serve as neighbours, so labels do not depend on where the block borders fall.
 */
import type { FitParams } from '../../src-common/fit-params';
import { KdTree } from './kd-tree';
import { symmetricEigenvalues3, symmetricEigenvector3 } from './eigen3';

export interface SegmentationStats {
  /** Points labelled ground / non-ground, and those that took φ_default. */
  ground: number;
  nonGround: number;
  defaulted: number;
}

/**
 * Spherical variation φ of the first n points of `xyz` (3 each) from their neighbours in `tree`
 * (a tree over the same points, or over a superset). Normals' |z| go to `normalZ` when given.
 * Returns how many of the first `countBelow` points took φ_default.
 */
export function sphericalVariation(
  tree: KdTree, xyz: Float64Array, n: number, params: FitParams, phi: Float32Array, normalZ: Float32Array | null, countBelow = n,
): number {
  const pts = tree.points; // tree order: neighbours' coordinates are read through their slot
  const ids = tree.ids;
  const cov = new Float64Array(6), eig = new Float64Array(3), vec = new Float64Array(3);
  const slotOf = new Int32Array(tree.count);
  for (let s = 0; s < tree.count; s++) slotOf[ids[s]!] = s;
  let defaulted = 0;
  for (let i = 0; i < n; i++) {
    const qx = xyz[3 * i]!, qy = xyz[3 * i + 1]!, qz = xyz[3 * i + 2]!;
    const k = tree.radius(qx, qy, qz, params.phiRadius);
    if (k < params.phiMinNeighbors) {
      phi[i] = params.phiDefault;
      if (normalZ) normalZ[i] = 1;
      if (i < countBelow) defaulted++;
      continue;
    }
    // Two passes (mean, then centred sums): stable for far-from-origin coordinates.
    const found = tree.found;
    let mx = 0, my = 0, mz = 0;
    for (let j = 0; j < k; j++) {
      const s = 3 * slotOf[found[j]!]!;
      mx += pts[s]!; my += pts[s + 1]!; mz += pts[s + 2]!;
    }
    mx /= k; my /= k; mz /= k;
    let xx = 0, xy = 0, xz = 0, yy = 0, yz = 0, zz = 0;
    for (let j = 0; j < k; j++) {
      const s = 3 * slotOf[found[j]!]!;
      const dx = pts[s]! - mx, dy = pts[s + 1]! - my, dz = pts[s + 2]! - mz;
      xx += dx * dx; xy += dx * dy; xz += dx * dz; yy += dy * dy; yz += dy * dz; zz += dz * dz;
    }
    cov[0] = xx; cov[1] = xy; cov[2] = xz; cov[3] = yy; cov[4] = yz; cov[5] = zz;
    symmetricEigenvalues3(cov, 0, eig);
    const l1 = Math.max(0, eig[0]!), sum = l1 + Math.max(0, eig[1]!) + Math.max(0, eig[2]!);
    if (!(sum > 0)) {
      phi[i] = params.phiDefault;
      if (normalZ) normalZ[i] = 1;
      if (i < countBelow) defaulted++;
      continue;
    }
    phi[i] = l1 / sum;
    if (normalZ) {
      symmetricEigenvector3(cov, 0, eig[0]!, vec);
      normalZ[i] = Math.abs(vec[2]!);
    }
  }
  return defaulted;
}

/**
 * Labels the first `core` points of a block (xyz: n × 3, core points first, then the margin):
 * writes 1 (ground) or 0 to ground[0..core).
 */
export function segmentPoints(xyz: Float64Array, n: number, core: number, params: FitParams, ground: Uint8Array, checkCancelled: () => void = () => {}): SegmentationStats {
  const tree = new KdTree(xyz, 3, 12, n);
  checkCancelled();
  const smoothing = params.smoothRadius > 0;
  // Without smoothing only the core's φ is needed; with it, the margin's too (they are neighbours).
  const m = smoothing ? n : core;
  const phi = new Float32Array(m);
  const slopeTest = params.maxGroundSlopeDeg < 90;
  const normalZ = slopeTest ? new Float32Array(m) : null;
  const defaulted = sphericalVariation(tree, xyz, m, params, phi, normalZ, core);
  checkCancelled();
  let smoothed = phi;
  if (smoothing) {
    smoothed = new Float32Array(core);
    const d2 = params.smoothRadius * params.smoothRadius, third2 = 1 / 9;
    for (let i = 0; i < core; i++) {
      const k = tree.radius(xyz[3 * i]!, xyz[3 * i + 1]!, xyz[3 * i + 2]!, params.smoothRadius);
      let sw = 0, swp = 0;
      for (let j = 0; j < k; j++) {
        const nb = tree.found[j]!;
        const dp = phi[i]! - phi[nb]!;
        const w = Math.exp(-params.smoothEtaD * (tree.foundD2[j]! / d2) - params.smoothEtaPhi * ((dp * dp) / third2));
        sw += w;
        swp += w * phi[nb]!;
      }
      smoothed[i] = sw > 0 ? swp / sw : phi[i]!;
    }
  }
  const cosSlope = Math.cos((params.maxGroundSlopeDeg * Math.PI) / 180);
  let g = 0;
  for (let i = 0; i < core; i++) {
    const isGround = smoothed[i]! < params.phiThreshold && (!normalZ || normalZ[i]! >= cosSlope);
    ground[i] = isGround ? 1 : 0;
    if (isGround) g++;
  }
  return { ground: g, nonGround: core - g, defaulted };
}
