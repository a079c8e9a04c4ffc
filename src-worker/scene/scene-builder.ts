/**
 * SceneBuilder: collects primitives (BLAS) and their placed instances (TLAS), then builds the
 * flat SceneData (layout in scene-data.ts).
 *
 *   const b = new SceneBuilder();
 *   const tree = b.addMesh(positions, 0.4);            // one tree, stored once
 *   for (const pose of poses) b.addInstance(tree, pose, objectId++, ClassId.tree);
 *   const data = b.build({ shared: true });             // typed arrays in SharedArrayBuffers
 *   const query = createSceneQuery(data);               // scene-bvh.ts
 *
 * Primitive ids and instance ids are the indices returned by addX / addInstance, in call order;
 * the build keeps them (elements inside a primitive are reordered into BVH leaf order).
 */
import { buildBvh, type Bvh } from '../geometry/bvh-build';
import { float32Down, float32Up } from '../geometry/bounds';
import { poseRotationMatrix } from '../geometry/pose';
import { cholesky3, precisionFromCholesky } from '../geometry/ray-primitives';
import { ElementKind } from './scene-query';
import { GAUSS_STRIDE, INST_FLOATS, INST_IDENTITY_ROTATION, INST_INTS, PRIM_FLOATS, PRIM_INTS, PrimFloat } from './scene-data';
import { type SceneData } from '../../src-common/scene-data';

export interface SceneBuildOptions {
  /** Put every array in a SharedArrayBuffer (to hand the scene to workers without copying). */
  shared?: boolean;
  /** Ellipsoids intersect a ray when its minimum Mahalanobis distance is below this; default 3.5 (thesis Table 4.1). */
  mahalanobisThreshold?: number;
  /** Voxels intersect a ray when its minimum Mahalanobis distance is below τ; default 2 (seed 000). */
  voxelTau?: number;
  /** Ellipsoid p_hit falls off with the ray's Mahalanobis distance (ellipsoid-falloff.ts); default false. */
  ellipsoidHitFalloff?: boolean;
  /** SAH bins per axis (default 32: measurably better trees than 16 at the same build time) and largest leaf (default 4). */
  bins?: number;
  maxLeaf?: number;
}

/** Identity pose [tx, ty, tz, qx, qy, qz, qw]. */
export const IDENTITY_POSE: readonly number[] = [0, 0, 0, 0, 0, 0, 1];

interface TrianglePrim {
  kind: typeof ElementKind.Surface | typeof ElementKind.Ground;
  positions: Float32Array;
  values: Float32Array;
  param: number;
  groundReflectance: number;
}

interface GaussianPrim {
  kind: typeof ElementKind.Ellipsoid | typeof ElementKind.Voxel;
  /** GAUSS_STRIDE per element (mean, precision, Cholesky, pHit). */
  records: Float64Array;
}

type Prim = TrianglePrim | GaussianPrim;

function perElement(value: number | ArrayLike<number>, n: number, what: string): Float32Array {
  const out = new Float32Array(n);
  if (typeof value === 'number') {
    out.fill(value);
  } else {
    if (value.length !== n) throw new Error(`SceneBuilder: ${what} has ${value.length} values for ${n} elements`);
    for (let i = 0; i < n; i++) out[i] = value[i]!;
  }
  return out;
}

/**
 * Packs Gaussians into GAUSS_STRIDE records. A covariance that is not positive definite gets
 * the smallest ridge ε·I (ε growing from 1e-9·trace) that makes it so: fitted clusters of
 * coplanar points are common and must not break the build.
 */
function packGaussians(means: ArrayLike<number>, covariances: ArrayLike<number>, pHit: Float32Array): Float64Array {
  const n = pHit.length;
  if (means.length !== 3 * n) throw new Error(`SceneBuilder: ${means.length} mean values for ${n} Gaussians (3 each)`);
  if (covariances.length !== 6 * n) throw new Error(`SceneBuilder: ${covariances.length} covariance values for ${n} Gaussians (6 each: xx, xy, xz, yy, yz, zz)`);
  const rec = new Float64Array(n * GAUSS_STRIDE);
  const cov = new Float64Array(6);
  for (let i = 0; i < n; i++) {
    const o = i * GAUSS_STRIDE;
    rec[o] = means[3 * i]!; rec[o + 1] = means[3 * i + 1]!; rec[o + 2] = means[3 * i + 2]!;
    for (let k = 0; k < 6; k++) cov[k] = covariances[6 * i + k]!;
    const trace = Math.abs(cov[0]!) + Math.abs(cov[3]!) + Math.abs(cov[5]!);
    let ridge = Math.max(trace, 1e-6) * 1e-9;
    while (!cholesky3(cov, 0, rec, o + 9)) {
      if (!Number.isFinite(trace) || ridge > 1e12) throw new Error(`SceneBuilder: covariance of Gaussian ${i} is not finite`);
      cov[0] = covariances[6 * i]! + ridge;
      cov[3] = covariances[6 * i + 3]! + ridge;
      cov[5] = covariances[6 * i + 5]! + ridge;
      ridge *= 10;
    }
    precisionFromCholesky(rec, o + 9, rec, o + 3);
    rec[o + 15] = pHit[i]!;
  }
  return rec;
}

export class SceneBuilder {
  private readonly prims: Prim[] = [];
  private poses: number[] = [];
  private instIds: number[] = [];

  get primitiveCount(): number {
    return this.prims.length;
  }

  get instanceCount(): number {
    return this.instIds.length / 3;
  }

  /** Elements (triangles or Gaussians) of a primitive. */
  elementCount(primitiveId: number): number {
    const p = this.prims[primitiveId];
    if (!p) throw new Error(`SceneBuilder: no primitive ${primitiveId}`);
    return 'records' in p ? p.records.length / GAUSS_STRIDE : p.values.length;
  }

  /** Opaque mesh: 9 floats per triangle (local frame), reflectance in [0, 1] per triangle or for all. */
  addMesh(positions: Float32Array, reflectance: number | ArrayLike<number> = 0.5): number {
    if (positions.length % 9 !== 0) throw new Error(`SceneBuilder: mesh positions length ${positions.length} is not a multiple of 9`);
    const n = positions.length / 9;
    return this.push({ kind: ElementKind.Surface, positions, values: perElement(reflectance, n, 'reflectance'), param: 0, groundReflectance: 0 });
  }

  /**
   * Ground triangles of a hybrid model: p_hit per triangle (or one for all), the shared range
   * variance σ²_ground, and a reflectance used when the physics/mesh modes see them as surfaces.
   */
  addGround(positions: Float32Array, pHit: number | ArrayLike<number>, groundVariance: number, reflectance = 0.3): number {
    if (positions.length % 9 !== 0) throw new Error(`SceneBuilder: ground positions length ${positions.length} is not a multiple of 9`);
    const n = positions.length / 9;
    return this.push({ kind: ElementKind.Ground, positions, values: perElement(pHit, n, 'pHit'), param: groundVariance, groundReflectance: reflectance });
  }

  /** Gaussian ellipsoids: μ (3 each), Σ (6 each: xx, xy, xz, yy, yz, zz), p_hit (each or one). */
  addEllipsoids(means: ArrayLike<number>, covariances: ArrayLike<number>, pHit: number | ArrayLike<number>): number {
    const n = Math.floor(means.length / 3);
    return this.push({ kind: ElementKind.Ellipsoid, records: packGaussians(means, covariances, perElement(pHit, n, 'pHit')) });
  }

  /** Voxel Gaussians (seed 000): μ, Σ as for ellipsoids, and the permeability ρ (p_hit = 1 − ρ). */
  addVoxels(means: ArrayLike<number>, covariances: ArrayLike<number>, permeability: number | ArrayLike<number>): number {
    const n = Math.floor(means.length / 3);
    const rho = perElement(permeability, n, 'permeability');
    for (let i = 0; i < n; i++) rho[i] = 1 - rho[i]!;
    return this.push({ kind: ElementKind.Voxel, records: packGaussians(means, covariances, rho) });
  }

  /** Places a primitive: pose [tx, ty, tz, qx, qy, qz, qw] (world ← primitive). Returns the instance id. */
  addInstance(primitiveId: number, pose: ArrayLike<number> = IDENTITY_POSE, objectId = 0, classId = 0): number {
    if (!this.prims[primitiveId]) throw new Error(`SceneBuilder: no primitive ${primitiveId}`);
    if (pose.length < 7) throw new Error('SceneBuilder: a pose is [tx, ty, tz, qx, qy, qz, qw]');
    for (let k = 0; k < 7; k++) {
      if (!Number.isFinite(pose[k]!)) throw new Error(`SceneBuilder: pose of instance ${this.instanceCount} is not finite`);
      this.poses.push(pose[k]!);
    }
    this.instIds.push(primitiveId, objectId, classId);
    return this.instanceCount - 1;
  }

  private push(p: Prim): number {
    this.prims.push(p);
    return this.prims.length - 1;
  }

  build(opts: SceneBuildOptions = {}): SceneData {
    const t0 = performance.now();
    const threshold = opts.mahalanobisThreshold ?? 3.5;
    const tau = opts.voxelTau ?? 2;
    const bvhOpts = { bins: opts.bins ?? 32, maxLeaf: opts.maxLeaf ?? 4 };
    const P = this.prims.length;
    const I = this.instanceCount;

    // 1. One BVH per primitive.
    const blas: Bvh[] = [];
    const primBounds = new Float64Array(6 * P);
    let triTotal = 0, gaussTotal = 0, nodeTotal = 0;
    for (let p = 0; p < P; p++) {
      const prim = this.prims[p]!;
      const boxes = 'records' in prim
        ? gaussianBoxes(prim.records, prim.kind === ElementKind.Ellipsoid ? threshold : tau)
        : triangleBoxes(prim.positions);
      const bvh = buildBvh(boxes, boxes.length / 6, bvhOpts);
      blas.push(bvh);
      if (bvh.nodeCount > 0) for (let k = 0; k < 6; k++) primBounds[6 * p + k] = bvh.nodeBounds[k]!;
      nodeTotal += bvh.nodeCount;
      if ('records' in prim) gaussTotal += prim.records.length / GAUSS_STRIDE;
      else triTotal += prim.values.length;
    }

    // 2. Instances: transforms and world boxes.
    const instInts = new Int32Array(I * INST_INTS);
    const instXform = new Float64Array(I * INST_FLOATS);
    const instBoxes = new Float32Array(6 * I);
    const worldBounds = new Float64Array(6);
    worldBounds.set([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]);
    const all: number[] = [];
    const surf: number[] = [];
    for (let i = 0; i < I; i++) {
      const p = this.instIds[3 * i]!;
      instInts[i * INST_INTS] = p;
      instInts[i * INST_INTS + 1] = this.instIds[3 * i + 1]!;
      instInts[i * INST_INTS + 2] = this.instIds[3 * i + 2]!;
      const xo = i * INST_FLOATS;
      poseRotationMatrix(this.poses, 7 * i, instXform, xo);
      instXform[xo + 9] = this.poses[7 * i]!;
      instXform[xo + 10] = this.poses[7 * i + 1]!;
      instXform[xo + 11] = this.poses[7 * i + 2]!;
      const ident = instXform[xo] === 1 && instXform[xo + 4] === 1 && instXform[xo + 8] === 1
        && instXform[xo + 1] === 0 && instXform[xo + 2] === 0 && instXform[xo + 3] === 0
        && instXform[xo + 5] === 0 && instXform[xo + 6] === 0 && instXform[xo + 7] === 0;
      instInts[i * INST_INTS + 3] = ident ? INST_IDENTITY_ROTATION : 0;
      if (blas[p]!.nodeCount === 0) continue;
      transformedBox(primBounds, 6 * p, instXform, xo, instBoxes, 6 * i);
      for (let k = 0; k < 3; k++) {
        worldBounds[k] = Math.min(worldBounds[k]!, instBoxes[6 * i + k]!);
        worldBounds[k + 3] = Math.max(worldBounds[k + 3]!, instBoxes[6 * i + k + 3]!);
      }
      all.push(i);
      const kind = this.prims[p]!.kind;
      if (kind === ElementKind.Surface || kind === ElementKind.Ground) surf.push(i);
    }
    if (all.length === 0) worldBounds.fill(0);
    // Instance trees have one instance per leaf: a leaf's box is then the instance's world box.
    const tlasOpts = { ...bvhOpts, maxLeaf: 1 };
    const tlasAll = buildBvh(subsetBoxes(instBoxes, all), all.length, tlasOpts);
    const tlasSurf = buildBvh(subsetBoxes(instBoxes, surf), surf.length, tlasOpts);
    nodeTotal += tlasAll.nodeCount + tlasSurf.nodeCount;

    // 3. Flat output arrays.
    const alloc = opts.shared
      ? <T>(ctor: new (b: SharedArrayBuffer) => T, bytesPer: number, n: number) => new ctor(new SharedArrayBuffer(Math.max(0, n * bytesPer)))
      : <T>(ctor: new (b: ArrayBuffer) => T, bytesPer: number, n: number) => new ctor(new ArrayBuffer(Math.max(0, n * bytesPer)));
    const primInts = alloc(Int32Array, 4, P * PRIM_INTS);
    const primFloats = alloc(Float64Array, 8, P * PRIM_FLOATS);
    const triVerts = alloc(Float32Array, 4, triTotal * 9);
    const triValues = alloc(Float32Array, 4, triTotal);
    const triSource = alloc(Int32Array, 4, triTotal);
    const gauss = alloc(Float64Array, 8, gaussTotal * GAUSS_STRIDE);
    const gaussSource = alloc(Int32Array, 4, gaussTotal);
    const nodeBounds = alloc(Float32Array, 4, nodeTotal * 6);
    const nodeLinks = alloc(Int32Array, 4, nodeTotal * 2);
    const outInstInts = alloc(Int32Array, 4, instInts.length);
    const outInstXform = alloc(Float64Array, 8, instXform.length);
    const tlasRefs = alloc(Int32Array, 4, all.length + surf.length);
    const bounds = alloc(Float64Array, 8, 6);
    outInstInts.set(instInts);
    outInstXform.set(instXform);
    bounds.set(worldBounds);

    let triAt = 0, gaussAt = 0, nodeAt = 0;
    const copyNodes = (bvh: Bvh, elementBase: number): number => {
      const base = nodeAt;
      nodeBounds.set(bvh.nodeBounds.subarray(0, 6 * bvh.nodeCount), 6 * base);
      for (let n = 0; n < bvh.nodeCount; n++) {
        const first = bvh.nodeLinks[2 * n]!, count = bvh.nodeLinks[2 * n + 1]!;
        nodeLinks[2 * (base + n)] = count === 0 ? first + base : first + elementBase;
        nodeLinks[2 * (base + n) + 1] = count;
      }
      nodeAt += bvh.nodeCount;
      return bvh.nodeCount > 0 ? base : -1;
    };
    for (let p = 0; p < P; p++) {
      const prim = this.prims[p]!;
      const bvh = blas[p]!;
      const pi = p * PRIM_INTS, pf = p * PRIM_FLOATS;
      primInts[pi] = prim.kind;
      for (let k = 0; k < 6; k++) primFloats[pf + k] = primBounds[6 * p + k]!;
      const n = bvh.order.length;
      if ('records' in prim) {
        primInts[pi + 1] = gaussAt;
        primInts[pi + 2] = n;
        primFloats[pf + PrimFloat.param] = prim.kind === ElementKind.Ellipsoid ? threshold : tau;
        for (let j = 0; j < n; j++) {
          const src = bvh.order[j]! * GAUSS_STRIDE;
          gauss.set(prim.records.subarray(src, src + GAUSS_STRIDE), (gaussAt + j) * GAUSS_STRIDE);
          gaussSource[gaussAt + j] = bvh.order[j]!;
        }
        primInts[pi + 3] = copyNodes(bvh, gaussAt);
        gaussAt += n;
      } else {
        primInts[pi + 1] = triAt;
        primInts[pi + 2] = n;
        primFloats[pf + PrimFloat.param] = prim.param;
        primFloats[pf + PrimFloat.groundReflectance] = prim.groundReflectance;
        for (let j = 0; j < n; j++) {
          const e = bvh.order[j]!;
          triVerts.set(prim.positions.subarray(9 * e, 9 * e + 9), 9 * (triAt + j));
          triValues[triAt + j] = prim.values[e]!;
          triSource[triAt + j] = e;
        }
        primInts[pi + 3] = copyNodes(bvh, triAt);
        triAt += n;
      }
      primInts[pi + 4] = bvh.nodeCount;
    }
    for (let j = 0; j < all.length; j++) tlasRefs[j] = all[tlasAll.order[j]!]!;
    for (let j = 0; j < surf.length; j++) tlasRefs[all.length + j] = surf[tlasSurf.order[j]!]!;
    const rootAll = copyNodes(tlasAll, 0);
    const rootSurface = copyNodes(tlasSurf, all.length);

    return {
      format: 'thicket-scene/1',
      primitiveCount: P,
      triangleCount: triTotal,
      gaussianCount: gaussTotal,
      nodeCount: nodeTotal,
      instanceCount: I,
      primInts, primFloats, triVerts, triValues, triSource, gauss, gaussSource, nodeBounds, nodeLinks,
      instInts: outInstInts,
      instXform: outInstXform,
      tlasRefs, rootAll, rootSurface, bounds,
      mahalanobisThreshold: threshold,
      voxelTau: tau,
      ellipsoidHitFalloff: opts.ellipsoidHitFalloff ?? false,
      buildMs: performance.now() - t0,
      // 52 random bits: a cache key, not an input to any result (so not from the seeded streams).
      uid: Math.floor(Math.random() * 2 ** 52),
    };
  }
}

/** Outward padding of element boxes: keeps rays that graze a box face from being culled by rounding. */
function padDown(v: number): number {
  return float32Down(v - 1e-6 - Math.abs(v) * 1e-7);
}
function padUp(v: number): number {
  return float32Up(v + 1e-6 + Math.abs(v) * 1e-7);
}

function triangleBoxes(pos: Float32Array): Float32Array {
  const n = pos.length / 9;
  const boxes = new Float32Array(6 * n);
  for (let i = 0; i < n; i++) {
    const o = 9 * i;
    for (let a = 0; a < 3; a++) {
      const v0 = pos[o + a]!, v1 = pos[o + 3 + a]!, v2 = pos[o + 6 + a]!;
      boxes[6 * i + a] = padDown(Math.min(v0, v1, v2));
      boxes[6 * i + 3 + a] = padUp(Math.max(v0, v1, v2));
    }
  }
  return boxes;
}

/** Box of the threshold ellipsoid {x : (x−μ)ᵀΣ⁻¹(x−μ) ≤ k²}: μ ± k·√Σ_ii (Σ_ii from the Cholesky rows). */
function gaussianBoxes(rec: Float64Array, k: number): Float32Array {
  const n = rec.length / GAUSS_STRIDE;
  const boxes = new Float32Array(6 * n);
  for (let i = 0; i < n; i++) {
    const o = i * GAUSS_STRIDE;
    const l00 = rec[o + 9]!, l10 = rec[o + 10]!, l11 = rec[o + 11]!, l20 = rec[o + 12]!, l21 = rec[o + 13]!, l22 = rec[o + 14]!;
    const sx = Math.sqrt(l00 * l00), sy = Math.sqrt(l10 * l10 + l11 * l11), sz = Math.sqrt(l20 * l20 + l21 * l21 + l22 * l22);
    const h = [k * sx, k * sy, k * sz];
    for (let a = 0; a < 3; a++) {
      boxes[6 * i + a] = padDown(rec[o + a]! - h[a]!);
      boxes[6 * i + 3 + a] = padUp(rec[o + a]! + h[a]!);
    }
  }
  return boxes;
}

/** World box of a local box under x_w = R x + t (float32, rounded outwards). */
function transformedBox(b: Float64Array, bo: number, x: Float64Array, xo: number, out: Float32Array, oo: number): void {
  for (let r = 0; r < 3; r++) {
    // Interval arithmetic per row: centre and half extent.
    let c = x[xo + 9 + r]!, h = 0;
    for (let a = 0; a < 3; a++) {
      const m = x[xo + 3 * r + a]!;
      const mid = 0.5 * (b[bo + a]! + b[bo + 3 + a]!), half = 0.5 * (b[bo + 3 + a]! - b[bo + a]!);
      c += m * mid;
      h += Math.abs(m) * half;
    }
    out[oo + r] = padDown(c - h);
    out[oo + 3 + r] = padUp(c + h);
  }
}

function subsetBoxes(boxes: Float32Array, ids: number[]): Float32Array {
  const out = new Float32Array(6 * ids.length);
  for (let j = 0; j < ids.length; j++) out.set(boxes.subarray(6 * ids[j]!, 6 * ids[j]! + 6), 6 * j);
  return out;
}
