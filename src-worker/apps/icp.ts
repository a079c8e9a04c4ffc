/**
 * Point-to-plane ICP with a voxel-grid filter and a RANSAC outer loop: the scan matcher of the
 * scan-matching application (docs/methods.md, "Application-level risk"; Tallavajhula 2018,
 * §4.4.2, which used a PCL-based matcher of this shape; point-to-plane: Chen and Medioni,
 * "Object modelling by registration of multiple range images", 1992; RANSAC: Fischler and Bolles,
 * "Random sample consensus", 1981).
 *
 * A rigid transform is 12 numbers: R row-major (9), then t (3); it maps a source point p to R p + t.
 * ICP finds the transform that carries the source onto the target. Each iteration pairs every
 * transformed source point with its nearest target point within the correspondence distance,
 * linearises the point-to-plane residual n·(p' − q) in a small rotation ω and translation v
 * (row [p' × n, n]), solves the 6 × 6 normal equations and composes the update. It stops after
 * `iterations`, when the objective (mean squared residual) changes by less than
 * `minObjectiveChange`, or when the update is below 1e-8 (rad and m).
 *
 * The RANSAC outer loop runs ICP from the initial guess on `ransacTrials` random halves of the
 * source, scores each result by the number of ALL source points within the inlier threshold of a
 * target point, and keeps the best (ties: the lower objective).
 */
import { KdTree } from '../fit/kd-tree';
import { symmetricEigenvalues3, symmetricEigenvector3 } from '../fit/eigen3';
import { RandomStream } from '../random/stream';

export type Transform = Float64Array<ArrayBuffer>;

export function identityTransform(): Transform {
  return Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0);
}

/** p ↦ R p + t into out[o..o+2]. */
function apply(T: Transform, x: number, y: number, z: number, out: Float64Array, o: number): void {
  out[o] = T[0]! * x + T[1]! * y + T[2]! * z + T[9]!;
  out[o + 1] = T[3]! * x + T[4]! * y + T[5]! * z + T[10]!;
  out[o + 2] = T[6]! * x + T[7]! * y + T[8]! * z + T[11]!;
}

/** a ∘ b (b first). */
export function composeTransforms(a: Transform, b: Transform): Transform {
  const out = new Float64Array(12);
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) out[3 * r + c] = a[3 * r]! * b[c]! + a[3 * r + 1]! * b[3 + c]! + a[3 * r + 2]! * b[6 + c]!;
    out[9 + r] = a[3 * r]! * b[9]! + a[3 * r + 1]! * b[10]! + a[3 * r + 2]! * b[11]! + a[9 + r]!;
  }
  return out;
}

/** Rotation matrix of the rotation vector ω (Rodrigues). */
function rodrigues(wx: number, wy: number, wz: number, out: Float64Array): void {
  const th = Math.hypot(wx, wy, wz);
  if (th < 1e-12) {
    out.set([1, -wz, wy, wz, 1, -wx, -wy, wx, 1]);
    return;
  }
  const kx = wx / th, ky = wy / th, kz = wz / th;
  const c = Math.cos(th), s = Math.sin(th), v = 1 - c;
  out[0] = c + kx * kx * v; out[1] = kx * ky * v - kz * s; out[2] = kx * kz * v + ky * s;
  out[3] = ky * kx * v + kz * s; out[4] = c + ky * ky * v; out[5] = ky * kz * v - kx * s;
  out[6] = kz * kx * v - ky * s; out[7] = kz * ky * v + kx * s; out[8] = c + kz * kz * v;
}

/** The angle (rad) of a transform's rotation. */
export function rotationAngle(T: Transform): number {
  const c = (T[0]! + T[4]! + T[8]! - 1) / 2;
  return Math.acos(Math.max(-1, Math.min(1, c)));
}

/**
 * The voxel-grid filter: the centroid of the points in each cube of side `size` (m), in the order
 * of each voxel's first point. size ≤ 0: the points as they are.
 */
export function voxelFilter(xyz: Float64Array, n: number, size: number): Float64Array {
  if (!(size > 0)) return xyz.slice(0, 3 * n);
  const slot = new Map<number, number>();
  const sums: number[] = [];
  const counts: number[] = [];
  const inv = 1 / size;
  // Keys: cell indices offset into [0, 2^17) per axis (±6.5 km at 0.1 m), packed into 51 bits.
  const B = 131072, H = B / 2;
  for (let i = 0; i < n; i++) {
    const x = xyz[3 * i]!, y = xyz[3 * i + 1]!, z = xyz[3 * i + 2]!;
    const ix = Math.floor(x * inv) + H, iy = Math.floor(y * inv) + H, iz = Math.floor(z * inv) + H;
    const key = (ix * B + iy) * B + iz;
    let s = slot.get(key);
    if (s === undefined) {
      s = counts.length;
      slot.set(key, s);
      counts.push(0);
      sums.push(0, 0, 0);
    }
    counts[s] = counts[s]! + 1;
    sums[3 * s] = sums[3 * s]! + x;
    sums[3 * s + 1] = sums[3 * s + 1]! + y;
    sums[3 * s + 2] = sums[3 * s + 2]! + z;
  }
  const out = new Float64Array(3 * counts.length);
  for (let s = 0; s < counts.length; s++) {
    const c = counts[s]!;
    out[3 * s] = sums[3 * s]! / c;
    out[3 * s + 1] = sums[3 * s + 1]! / c;
    out[3 * s + 2] = sums[3 * s + 2]! / c;
  }
  return out;
}

/** A target cloud ready for matching: its k-d tree and a unit normal per point (0 where it has too few neighbours). */
export interface IcpTarget {
  tree: KdTree;
  normals: Float32Array;
}

/** Normals by PCA over the neighbours within `radius` (at least 5 of them). */
export function prepareTarget(xyz: Float64Array, radius: number): IcpTarget {
  const n = xyz.length / 3;
  const tree = new KdTree(xyz, 3, 12, n);
  const normals = new Float32Array(3 * n);
  const cov = new Float64Array(6), eig = new Float64Array(3), vec = new Float64Array(3);
  for (let i = 0; i < n; i++) {
    const k = tree.radius(xyz[3 * i]!, xyz[3 * i + 1]!, xyz[3 * i + 2]!, radius);
    if (k < 5) continue;
    let mx = 0, my = 0, mz = 0;
    for (let j = 0; j < k; j++) {
      const f = 3 * tree.found[j]!;
      mx += xyz[f]!; my += xyz[f + 1]!; mz += xyz[f + 2]!;
    }
    mx /= k; my /= k; mz /= k;
    let xx = 0, xy = 0, xz = 0, yy = 0, yz = 0, zz = 0;
    for (let j = 0; j < k; j++) {
      const f = 3 * tree.found[j]!;
      const dx = xyz[f]! - mx, dy = xyz[f + 1]! - my, dz = xyz[f + 2]! - mz;
      xx += dx * dx; xy += dx * dy; xz += dx * dz; yy += dy * dy; yz += dy * dz; zz += dz * dz;
    }
    cov[0] = xx; cov[1] = xy; cov[2] = xz; cov[3] = yy; cov[4] = yz; cov[5] = zz;
    symmetricEigenvalues3(cov, 0, eig);
    if (!symmetricEigenvector3(cov, 0, eig[0]!, vec)) continue;
    const len = Math.hypot(vec[0]!, vec[1]!, vec[2]!);
    if (!(len > 0)) continue;
    normals[3 * i] = vec[0]! / len;
    normals[3 * i + 1] = vec[1]! / len;
    normals[3 * i + 2] = vec[2]! / len;
  }
  return { tree, normals };
}

export interface IcpParams {
  maxCorrespondenceDistance: number;
  iterations: number;
  minObjectiveChange: number;
}

export interface IcpResult {
  transform: Transform;
  /** Mean squared point-to-plane residual at the last iteration (m²); Infinity without correspondences. */
  objective: number;
  iterations: number;
  correspondences: number;
}

/** Solves the symmetric 6 × 6 system A x = b (row-major A) by Gaussian elimination with pivoting; false when singular. */
export function solve6(A: Float64Array, b: Float64Array, x: Float64Array): boolean {
  const M = new Float64Array(42);
  for (let r = 0; r < 6; r++) {
    for (let c = 0; c < 6; c++) M[7 * r + c] = A[6 * r + c]!;
    M[7 * r + 6] = b[r]!;
  }
  for (let c = 0; c < 6; c++) {
    let p = c;
    for (let r = c + 1; r < 6; r++) if (Math.abs(M[7 * r + c]!) > Math.abs(M[7 * p + c]!)) p = r;
    if (!(Math.abs(M[7 * p + c]!) > 1e-12)) return false;
    if (p !== c) {
      for (let k = 0; k < 7; k++) {
        const t = M[7 * c + k]!;
        M[7 * c + k] = M[7 * p + k]!;
        M[7 * p + k] = t;
      }
    }
    for (let r = c + 1; r < 6; r++) {
      const f = M[7 * r + c]! / M[7 * c + c]!;
      if (f !== 0) for (let k = c; k < 7; k++) M[7 * r + k] = M[7 * r + k]! - f * M[7 * c + k]!;
    }
  }
  for (let r = 5; r >= 0; r--) {
    let s = M[7 * r + 6]!;
    for (let k = r + 1; k < 6; k++) s -= M[7 * r + k]! * x[k]!;
    x[r] = s / M[7 * r + r]!;
  }
  return true;
}

/** ICP of the source points listed in `use` (all when null) onto the target, from `init`. */
export function icp(source: Float64Array, target: IcpTarget, params: IcpParams, init: Transform = identityTransform(), use: Int32Array | null = null): IcpResult {
  const { tree, normals } = target;
  const tp = tree.points, ids = tree.ids;
  const slotOf = new Int32Array(tree.count);
  for (let s = 0; s < tree.count; s++) slotOf[ids[s]!] = s;
  const m = use ? use.length : source.length / 3;
  const d2max = params.maxCorrespondenceDistance * params.maxCorrespondenceDistance;
  let T: Transform = init.slice();
  const p = new Float64Array(3), A = new Float64Array(36), b = new Float64Array(6), x = new Float64Array(6), a = new Float64Array(6);
  const dR = new Float64Array(9);
  let previous = Infinity, objective = Infinity, correspondences = 0, it = 0;
  while (it < params.iterations) {
    it++;
    A.fill(0);
    b.fill(0);
    let sum = 0, count = 0;
    for (let j = 0; j < m; j++) {
      const i = use ? use[j]! : j;
      apply(T, source[3 * i]!, source[3 * i + 1]!, source[3 * i + 2]!, p, 0);
      const q = tree.nearest(p[0]!, p[1]!, p[2]!);
      if (q < 0 || tree.nearestD2 > d2max) continue;
      const nx = normals[3 * q]!, ny = normals[3 * q + 1]!, nz = normals[3 * q + 2]!;
      if (nx === 0 && ny === 0 && nz === 0) continue;
      const s = 3 * slotOf[q]!;
      const r = nx * (p[0]! - tp[s]!) + ny * (p[1]! - tp[s + 1]!) + nz * (p[2]! - tp[s + 2]!);
      a[0] = p[1]! * nz - p[2]! * ny;
      a[1] = p[2]! * nx - p[0]! * nz;
      a[2] = p[0]! * ny - p[1]! * nx;
      a[3] = nx; a[4] = ny; a[5] = nz;
      for (let u = 0; u < 6; u++) {
        b[u] = b[u]! - a[u]! * r;
        for (let v = u; v < 6; v++) A[6 * u + v] = A[6 * u + v]! + a[u]! * a[v]!;
      }
      sum += r * r;
      count++;
    }
    correspondences = count;
    if (count < 6) {
      objective = Infinity;
      break;
    }
    objective = sum / count;
    for (let u = 0; u < 6; u++) for (let v = 0; v < u; v++) A[6 * u + v] = A[6 * v + u]!;
    if (!solve6(A, b, x)) break;
    rodrigues(x[0]!, x[1]!, x[2]!, dR);
    T = composeTransforms(Float64Array.of(...dR, x[3]!, x[4]!, x[5]!), T);
    if (Math.hypot(x[0]!, x[1]!, x[2]!) < 1e-8 && Math.hypot(x[3]!, x[4]!, x[5]!) < 1e-8) break;
    if (Math.abs(previous - objective) < params.minObjectiveChange) break;
    previous = objective;
  }
  return { transform: T, objective, iterations: it, correspondences };
}

/** Source points within `threshold` of a target point after `T`. */
export function inlierCount(source: Float64Array, target: IcpTarget, T: Transform, threshold: number): number {
  const p = new Float64Array(3);
  const t2 = threshold * threshold;
  let n = 0;
  for (let i = 0; i < source.length / 3; i++) {
    apply(T, source[3 * i]!, source[3 * i + 1]!, source[3 * i + 2]!, p, 0);
    const q = target.tree.nearest(p[0]!, p[1]!, p[2]!);
    if (q >= 0 && target.tree.nearestD2 <= t2) n++;
  }
  return n;
}

export interface RansacIcpParams extends IcpParams {
  ransacTrials: number;
  /** Inlier threshold of the consensus score (m). */
  inlierThreshold: number;
  /** Fraction of the source each trial matches. */
  sampleFraction: number;
  seed: number;
}

/** ICP inside a RANSAC loop (see the file's comment). */
export function ransacIcp(source: Float64Array, target: IcpTarget, params: RansacIcpParams, init: Transform = identityTransform()): IcpResult & { inliers: number } {
  const n = source.length / 3;
  let best: (IcpResult & { inliers: number }) | null = null;
  for (let trial = 0; trial < Math.max(1, params.ransacTrials); trial++) {
    const rng = new RandomStream(params.seed, trial);
    const picked: number[] = [];
    for (let i = 0; i < n; i++) if (rng.next() < params.sampleFraction) picked.push(i);
    const r = icp(source, target, params, init, Int32Array.from(picked));
    const inliers = Number.isFinite(r.objective) ? inlierCount(source, target, r.transform, params.inlierThreshold) : -1;
    if (!best || inliers > best.inliers || (inliers === best.inliers && r.objective < best.objective)) best = { ...r, inliers };
  }
  return best!;
}
