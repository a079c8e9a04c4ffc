/**
 * A display form of a stored scene (the Scenes page's 3D view): the two-level SceneData walked
 * instance by instance into world-space elements a browser can draw — triangles (mesh and ground
 * primitives) and Gaussians (ellipsoids and voxels, as mean + covariance) — each with the class
 * and object id of the instance that placed it.
 *
 * A scene of a thousand placed trees is a million triangles as placed, so both kinds are capped:
 * when more are placed than the budget allows, every k-th one (k fractional: indices
 * ⌊j·total/budget⌋ over the placed order) is kept, so the decimation is even across the scene
 * rather than dropping whole objects at its end.
 *
 * Positions are relative to `centre` (the scene bounds' centre, in float64 here) before they go
 * to float32, so scenes in map coordinates keep centimetres in the view.
 */
import { GAUSS_STRIDE, GaussField, INST_FLOATS, INST_INTS, InstInt, PRIM_INTS, PrimInt } from './scene-data';
import { type SceneData } from '../../src-common/scene-data';
import { ElementKind } from './scene-query';

export const PREVIEW_MAX_TRIANGLES = 300_000;
export const PREVIEW_MAX_GAUSSIANS = 50_000;

export interface ScenePreviewOptions {
  /** Most triangles to emit (default 300 000). */
  maxTriangles?: number;
  /** Most Gaussians (ellipsoids + voxels) to emit (default 50 000). */
  maxGaussians?: number;
}

export interface ScenePreview {
  /** World point every position below is relative to (the bounds' centre). */
  centre: [number, number, number];
  /** World bounds of the scene's instances. */
  bounds: { min: [number, number, number]; max: [number, number, number] };
  instances: number;
  triangles: {
    /** 9 floats per triangle (three vertices), world − centre. */
    positions: Float32Array;
    /** Class id of the placing instance, per triangle. */
    classIds: Uint8Array;
    /** Object id of the placing instance (an annotation entry for composed scenes), per triangle. */
    objectIds: Int32Array;
    /** Element kind per triangle: 0 mesh surface, 1 ground. */
    kinds: Uint8Array;
    /** Triangles as placed, before the cap. */
    total: number;
  };
  gaussians: {
    /** 3 per Gaussian, world − centre. */
    means: Float32Array;
    /** Σ in the world frame, 6 per Gaussian: xx, xy, xz, yy, yz, zz. */
    covariances: Float32Array;
    /** p_hit (voxels: 1 − permeability). */
    pHit: Float32Array;
    /** 2 ellipsoid, 3 voxel (ElementKind). */
    kinds: Uint8Array;
    classIds: Uint8Array;
    objectIds: Int32Array;
    total: number;
  };
  /** The scene's thresholds: ellipsoids are met within this Mahalanobis distance; voxels use τ. */
  mahalanobisThreshold: number;
  voxelTau: number;
}

const isTriangleKind = (k: number) => k === ElementKind.Surface || k === ElementKind.Ground;
const isGaussianKind = (k: number) => k === ElementKind.Ellipsoid || k === ElementKind.Voxel;

/**
 * Placed elements of the kinds `want` accepts: the total, and for each instance the range of
 * global placed indices it covers. Indices j·total/cap (j = 0 … cap − 1) pick the kept ones.
 */
function placedCount(data: SceneData, want: (kind: number) => boolean): number {
  let total = 0;
  for (let i = 0; i < data.instanceCount; i++) {
    const p = data.instInts[i * INST_INTS + InstInt.primitive]!;
    if (want(data.primInts[p * PRIM_INTS + PrimInt.kind]!)) total += data.primInts[p * PRIM_INTS + PrimInt.count]!;
  }
  return total;
}

/**
 * Calls `emit(instance, element)` for the evenly strided selection of at most `cap` placed
 * elements of the wanted kinds, in placed order; returns how many were emitted.
 */
function forEachKept(data: SceneData, want: (kind: number) => boolean, total: number, cap: number, emit: (inst: number, element: number) => void): number {
  const keep = Math.min(total, Math.max(0, Math.floor(cap)));
  if (keep === 0) return 0;
  let j = 0; // next kept ordinal
  let next = 0; // its global placed index: ⌊j·total/keep⌋
  let base = 0; // global placed index of the current instance's first element
  for (let i = 0; i < data.instanceCount && j < keep; i++) {
    const p = data.instInts[i * INST_INTS + InstInt.primitive]!;
    if (!want(data.primInts[p * PRIM_INTS + PrimInt.kind]!)) continue;
    const first = data.primInts[p * PRIM_INTS + PrimInt.first]!;
    const count = data.primInts[p * PRIM_INTS + PrimInt.count]!;
    while (j < keep && next < base + count) {
      emit(i, first + (next - base));
      j++;
      next = Math.floor((j * total) / keep);
    }
    base += count;
  }
  return j;
}

export function scenePreview(data: SceneData, opts: ScenePreviewOptions = {}): ScenePreview {
  const b = data.bounds;
  const centre: [number, number, number] = [(b[0]! + b[3]!) / 2, (b[1]! + b[4]!) / 2, (b[2]! + b[5]!) / 2];
  const [cx, cy, cz] = centre;
  const X = data.instXform;

  // ---- triangles
  const triTotal = placedCount(data, isTriangleKind);
  const triKeep = Math.min(triTotal, Math.max(0, Math.floor(opts.maxTriangles ?? PREVIEW_MAX_TRIANGLES)));
  const positions = new Float32Array(triKeep * 9);
  const triClass = new Uint8Array(triKeep);
  const triObject = new Int32Array(triKeep);
  const triKinds = new Uint8Array(triKeep);
  let w = 0;
  forEachKept(data, isTriangleKind, triTotal, triKeep, (inst, t) => {
    const xo = inst * INST_FLOATS;
    for (let v = 0; v < 3; v++) {
      const s = 9 * t + 3 * v;
      const lx = data.triVerts[s]!, ly = data.triVerts[s + 1]!, lz = data.triVerts[s + 2]!;
      const o = 9 * w + 3 * v;
      positions[o] = X[xo]! * lx + X[xo + 1]! * ly + X[xo + 2]! * lz + X[xo + 9]! - cx;
      positions[o + 1] = X[xo + 3]! * lx + X[xo + 4]! * ly + X[xo + 5]! * lz + X[xo + 10]! - cy;
      positions[o + 2] = X[xo + 6]! * lx + X[xo + 7]! * ly + X[xo + 8]! * lz + X[xo + 11]! - cz;
    }
    const io = inst * INST_INTS;
    const p = data.instInts[io + InstInt.primitive]!;
    triClass[w] = data.instInts[io + InstInt.classId]! & 255;
    triObject[w] = data.instInts[io + InstInt.objectId]!;
    triKinds[w] = data.primInts[p * PRIM_INTS + PrimInt.kind]!;
    w++;
  });

  // ---- Gaussians
  const gTotal = placedCount(data, isGaussianKind);
  const gKeep = Math.min(gTotal, Math.max(0, Math.floor(opts.maxGaussians ?? PREVIEW_MAX_GAUSSIANS)));
  const means = new Float32Array(gKeep * 3);
  const covs = new Float32Array(gKeep * 6);
  const pHit = new Float32Array(gKeep);
  const gKinds = new Uint8Array(gKeep);
  const gClass = new Uint8Array(gKeep);
  const gObject = new Int32Array(gKeep);
  let g = 0;
  forEachKept(data, isGaussianKind, gTotal, gKeep, (inst, e) => {
    const xo = inst * INST_FLOATS;
    const go = e * GAUSS_STRIDE;
    const G = data.gauss;
    const mx = G[go + GaussField.mean]!, my = G[go + GaussField.mean + 1]!, mz = G[go + GaussField.mean + 2]!;
    means[3 * g] = X[xo]! * mx + X[xo + 1]! * my + X[xo + 2]! * mz + X[xo + 9]! - cx;
    means[3 * g + 1] = X[xo + 3]! * mx + X[xo + 4]! * my + X[xo + 5]! * mz + X[xo + 10]! - cy;
    means[3 * g + 2] = X[xo + 6]! * mx + X[xo + 7]! * my + X[xo + 8]! * mz + X[xo + 11]! - cz;
    // Σ = L Lᵀ from the stored Cholesky factor (row-major lower: L00, L10, L11, L20, L21, L22) …
    const c = go + GaussField.chol;
    const l00 = G[c]!, l10 = G[c + 1]!, l11 = G[c + 2]!, l20 = G[c + 3]!, l21 = G[c + 4]!, l22 = G[c + 5]!;
    const sxx = l00 * l00, sxy = l00 * l10, sxz = l00 * l20;
    const syy = l10 * l10 + l11 * l11, syz = l10 * l20 + l11 * l21, szz = l20 * l20 + l21 * l21 + l22 * l22;
    // … turned into the world frame: R Σ Rᵀ (A = R Σ first, then A Rᵀ's upper triangle).
    const r00 = X[xo]!, r01 = X[xo + 1]!, r02 = X[xo + 2]!;
    const r10 = X[xo + 3]!, r11 = X[xo + 4]!, r12 = X[xo + 5]!;
    const r20 = X[xo + 6]!, r21 = X[xo + 7]!, r22 = X[xo + 8]!;
    const a00 = r00 * sxx + r01 * sxy + r02 * sxz, a01 = r00 * sxy + r01 * syy + r02 * syz, a02 = r00 * sxz + r01 * syz + r02 * szz;
    const a10 = r10 * sxx + r11 * sxy + r12 * sxz, a11 = r10 * sxy + r11 * syy + r12 * syz, a12 = r10 * sxz + r11 * syz + r12 * szz;
    const a20 = r20 * sxx + r21 * sxy + r22 * sxz, a21 = r20 * sxy + r21 * syy + r22 * syz, a22 = r20 * sxz + r21 * syz + r22 * szz;
    const o6 = 6 * g;
    covs[o6] = a00 * r00 + a01 * r01 + a02 * r02;
    covs[o6 + 1] = a00 * r10 + a01 * r11 + a02 * r12;
    covs[o6 + 2] = a00 * r20 + a01 * r21 + a02 * r22;
    covs[o6 + 3] = a10 * r10 + a11 * r11 + a12 * r12;
    covs[o6 + 4] = a10 * r20 + a11 * r21 + a12 * r22;
    covs[o6 + 5] = a20 * r20 + a21 * r21 + a22 * r22;
    pHit[g] = G[go + GaussField.pHit]!;
    const io = inst * INST_INTS;
    const p = data.instInts[io + InstInt.primitive]!;
    gKinds[g] = data.primInts[p * PRIM_INTS + PrimInt.kind]!;
    gClass[g] = data.instInts[io + InstInt.classId]! & 255;
    gObject[g] = data.instInts[io + InstInt.objectId]!;
    g++;
  });

  return {
    centre,
    bounds: { min: [b[0]!, b[1]!, b[2]!], max: [b[3]!, b[4]!, b[5]!] },
    instances: data.instanceCount,
    triangles: { positions, classIds: triClass, objectIds: triObject, kinds: triKinds, total: triTotal },
    gaussians: { means, covariances: covs, pHit, kinds: gKinds, classIds: gClass, objectIds: gObject, total: gTotal },
    mahalanobisThreshold: data.mahalanobisThreshold,
    voxelTau: data.voxelTau,
  };
}
