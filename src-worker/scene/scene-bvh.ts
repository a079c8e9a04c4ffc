/**
 * The SceneQuery over SceneData's two-level BVH (layout in scene-data.ts).
 *
 *   createSceneQuery(data: SceneData): BvhSceneQuery      (implements SceneQuery)
 *
 * - closestSurface: with the WebAssembly kernel (kernel/ray-kernel.c: the same answers, bit for
 *   bit, from 4-wide trees with SIMD box tests, ≈ 2.9× sooner on the engine bench) wherever
 *   the runtime has WebAssembly SIMD; else (or with createSceneQuery(data, 'js')) in JS: depth
 *   first, nearer child first (the nearer child is visited without a push), culling nodes whose
 *   entry distance is beyond the best hit so far; an instance leaf transforms the ray into the primitive's frame and descends its BVH with the same shrinking
 *   tmax. Mesh and ground triangles are surfaces; ellipsoid and voxel instances are not in
 *   that instance tree at all.
 * - closestSurfaceBeam: closestSurface for rays sharing an origin (the physics stencil) in one
 *   walk over the union of the rays: in the kernel (kernel/ray-beam.c), else in JS
 *   (beam-query.ts); the same per-ray results either way.
 * - traverse: in the kernel where it serves (kernel/ray-traverse.c: the same walk over 4-wide
 *   trees, the elements handed back one at a time to the same visitor code; hybrid runs ≈ 2×
 *   sooner); else front to back with one binary min-heap of pending items (instance-tree nodes,
 *   primitive-tree nodes, element hits) keyed by entry distance or element t, so the visitor
 *   sees elements in increasing t and stopping early skips the rest. The nearest item produced
 *   while processing one is kept out of the heap when nothing pending is nearer (the common
 *   descent costs no heap operations). Instance-tree leaves hold one instance, whose world box
 *   bounds everything in it, so its primitive's root is processed at once.
 *
 * One query object per thread: it owns its stacks, heap and hit record (nothing allocates per
 * ray). The ElementHit passed to `visit` is one reused object (a SceneElementHit, which also
 * says which instance / element was met): copy what you keep.
 * After closestSurface returns true, `lastInstance`, `lastTriangle` (index into triVerts) and
 * `lastU`, `lastV` (barycentrics) describe the hit.
 *
 * Rays must have unit directions for t to be metres (the transforms are rigid, so t is the
 * same in every frame). Creating a query is cheap (it scans the node links once for the
 * deepest node, to size its stacks); cache one per scene per worker.
 */
import {
  GAUSS_STRIDE, INST_FLOATS, INST_IDENTITY_ROTATION, INST_INTS, PRIM_FLOATS, PRIM_INTS, PrimFloat, type SceneData,
} from './scene-data';
import { ElementKind, type ElementHit, type SceneQuery, type SurfaceHit } from './scene-query';
import { cholesky3, rayGaussian } from '../geometry/ray-primitives';
import { BeamQuery } from './beam-query';
import { BEAM_F_STRIDE, BEAM_I_OFFSET, BEAM_I_STRIDE, BEAM_MAX, ElemF, ElemI, HitF, HitI, RayKernel } from './kernel/ray-kernel';

/** The hit record traverse() hands to its visitor: the interface's fields plus where it came from. */
export interface SceneElementHit extends ElementHit {
  /** Instance index (addInstance order). */
  instance: number;
  /** Primitive index (addX order). */
  primitive: number;
  /** Element index in SceneData's triVerts (triangle kinds) or gauss (Gaussian kinds). */
  element: number;
  /** Index of the element in the primitive's builder input (triSource / gaussSource). */
  sourceIndex: number;
}

export function newSceneElementHit(): SceneElementHit {
  return {
    kind: ElementKind.Surface, t: 0, mahalanobis: 0, pHit: 0, objectId: 0, classId: 0, muT: 0, varT: 0,
    mean: new Float64Array(3), chol: new Float64Array(6), instance: -1, primitive: -1, element: -1, sourceIndex: -1,
  };
}

const H_TLAS = 0, H_BLAS = 1, H_TRI = 2, H_GAUSS = 3;

/** How the query walks its trees: 'auto' in the WebAssembly kernel where it can serve, 'js' never. */
export type SurfaceKernel = 'auto' | 'js';

/** Longest ray interval the kernel takes (its float box margins scale with it; kernel.h). */
const KERNEL_REACH = 1e9;

// One kernel per scene per thread, shared by every query on it; it holds the scene's kernel
// layout (shared with other threads, or this thread's own) and its thread block, so only the last
// few scenes keep one (a run's batches all arrive with the same scene uid).
const KERNELS_KEPT = 2;
const kernelsByUid = new Map<number, RayKernel | null>();
const kernelsByObject = new WeakMap<object, RayKernel | null>();

function kernelFor(data: SceneData): RayKernel | null {
  if (data.uid === undefined) {
    let k = kernelsByObject.get(data.nodeBounds);
    if (k === undefined) kernelsByObject.set(data.nodeBounds, (k = RayKernel.create(data)));
    return k;
  }
  let k = kernelsByUid.get(data.uid);
  if (k !== undefined) {
    kernelsByUid.delete(data.uid); // most recently used last
  } else {
    if (kernelsByUid.size >= KERNELS_KEPT) kernelsByUid.delete(kernelsByUid.keys().next().value!);
    k = RayKernel.create(data);
  }
  kernelsByUid.set(data.uid, k);
  return k;
}

/** Inverse direction that is finite for a zero component (no NaN from 0·∞ in the slab test). */
function inv(d: number): number {
  return d !== 0 ? 1 / d : 1e300;
}

export class BvhSceneQuery implements SceneQuery {
  readonly data: SceneData;
  private readonly nb: Float32Array;
  private readonly nl: Int32Array;
  private readonly tv: Float32Array;
  private readonly tval: Float32Array;
  private readonly g: Float64Array;
  private readonly ii: Int32Array;
  private readonly ix: Float64Array;
  private readonly refs: Int32Array;
  private readonly pi: Int32Array;
  private readonly pf: Float64Array;

  private stack: Int32Array;
  private beam: BeamQuery | null = null;
  private readonly kernelMode: SurfaceKernel;
  /** The WebAssembly kernel (undefined: not looked up yet; null: the JS traversal serves). */
  private kernel: RayKernel | null | undefined;
  private stackT: Float64Array;
  private bstack: Int32Array;
  private bstackT: Float64Array;

  lastInstance = -1;
  lastTriangle = -1;
  lastU = 0.0;
  lastV = 0.0;
  private hitTri = -1;
  private hitU = 0.0;
  private hitV = 0.0;

  // traverse: heap and the local ray of the current instance
  // Pending items, a binary min-heap on key: a = node or element, b = (instance + 1) · 4 + type.
  private hKey = new Float64Array(256);
  private hA = new Int32Array(256);
  private hB = new Int32Array(256);
  private hSize = 0;
  private wox = 0.0; private woy = 0.0; private woz = 0.0;
  private wdx = 0.0; private wdy = 0.0; private wdz = 0.0;
  private readonly tmp = new Float64Array(3);
  private curInst = -1;
  private lox = 0.0; private loy = 0.0; private loz = 0.0;
  private ldx = 0.0; private ldy = 0.0; private ldz = 0.0;
  private lix = 0.0; private liy = 0.0; private liz = 0.0;
  private loxi = 0.0; private loyi = 0.0; private lozi = 0.0;
  private lnx = 0; private lny = 1; private lnz = 2;
  private wix = 0.0; private wiy = 0.0; private wiz = 0.0;
  private woxi = 0.0; private woyi = 0.0; private wozi = 0.0;
  private wnx = 0; private wny = 1; private wnz = 2;
  private readonly hit: SceneElementHit = newSceneElementHit();
  private readonly sigma = new Float64Array(6);

  constructor(data: SceneData, kernel: SurfaceKernel = 'auto') {
    this.data = data;
    this.kernelMode = kernel;
    this.nb = data.nodeBounds;
    this.nl = data.nodeLinks;
    this.tv = data.triVerts;
    this.tval = data.triValues;
    this.g = data.gauss;
    this.ii = data.instInts;
    this.ix = data.instXform;
    this.refs = data.tlasRefs;
    this.pi = data.primInts;
    this.pf = data.primFloats;
    // Stack depth: the deepest node of any tree (children are always stored after their parent).
    const depth = new Int32Array(data.nodeCount);
    let maxDepth = 0;
    for (let n = 0; n < data.nodeCount; n++) {
      if (this.nl[2 * n + 1] === 0) {
        const c = this.nl[2 * n]!, d = depth[n]! + 1;
        depth[c] = d;
        depth[c + 1] = d;
        if (d > maxDepth) maxDepth = d;
      }
    }
    const size = maxDepth + 4;
    this.stack = new Int32Array(size);
    this.stackT = new Float64Array(size);
    this.bstack = new Int32Array(size);
    this.bstackT = new Float64Array(size);
  }

  closestSurface(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number, out: SurfaceHit): boolean {
    const k = this.kernel === undefined ? this.rayKernel() : this.kernel;
    if (k !== null && tmax <= KERNEL_REACH && tmin >= -KERNEL_REACH) {
      if (!k.closest(ox, oy, oz, dx, dy, dz, tmin, tmax)) return false;
      const f = k.hitF, i = k.hitI;
      out.t = f[HitF.t]!;
      out.nx = f[HitF.nx]!;
      out.ny = f[HitF.ny]!;
      out.nz = f[HitF.nz]!;
      out.reflectance = f[HitF.reflectance]!;
      out.objectId = i[HitI.objectId]!;
      out.classId = i[HitI.classId]!;
      this.lastInstance = i[HitI.instance]!;
      this.lastTriangle = i[HitI.triangle]!;
      this.lastU = f[HitF.u]!;
      this.lastV = f[HitF.v]!;
      return true;
    }
    return this.closestSurfaceJs(ox, oy, oz, dx, dy, dz, tmin, tmax, out);
  }

  /** The WebAssembly kernel this query casts with, or null where the JS traversals serve. */
  rayKernel(): RayKernel | null {
    if (this.kernel === undefined) this.kernel = this.kernelMode === 'auto' ? kernelFor(this.data) : null;
    return this.kernel;
  }

  /** closestSurface by the JS traversal (the reference the kernel matches). */
  private closestSurfaceJs(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number, out: SurfaceHit): boolean {
    const root = this.data.rootSurface;
    if (root < 0 || !(tmax > tmin)) return false;
    const nb = this.nb, nl = this.nl, refs = this.refs, ii = this.ii, ix = this.ix, pi = this.pi;
    const stack = this.stack, stackT = this.stackT;
    const ivx = inv(dx), ivy = inv(dy), ivz = inv(dz);
    const nxo = ivx >= 0 ? 0 : 3, nyo = ivy >= 0 ? 1 : 4, nzo = ivz >= 0 ? 2 : 5;
    const fxo = 3 - nxo, fyo = 5 - nyo, fzo = 7 - nzo;
    const oxi = ox * ivx, oyi = oy * ivy, ozi = oz * ivz;
    let best = tmax;
    let bestInst = -1, bestTri = -1, bestU = 0.0, bestV = 0.0;

    // Depth first, nearer child first; the nearer child is visited without a push.
    let sp = 0;
    let n = root;
    outer: for (;;) {
      const cnt = nl[2 * n + 1]!, first = nl[2 * n]!;
      if (cnt === 0) {
        let o = 6 * first;
        let tn = nb[o + nxo]! * ivx - oxi, tf = nb[o + fxo]! * ivx - oxi, a: number;
        a = nb[o + nyo]! * ivy - oyi; if (a > tn) tn = a;
        a = nb[o + fyo]! * ivy - oyi; if (a < tf) tf = a;
        a = nb[o + nzo]! * ivz - ozi; if (a > tn) tn = a;
        a = nb[o + fzo]! * ivz - ozi; if (a < tf) tf = a;
        if (tn < tmin) tn = tmin;
        if (tf > best) tf = best;
        const hitL = tn <= tf;
        const tl = tn;
        o += 6;
        tn = nb[o + nxo]! * ivx - oxi; tf = nb[o + fxo]! * ivx - oxi;
        a = nb[o + nyo]! * ivy - oyi; if (a > tn) tn = a;
        a = nb[o + fyo]! * ivy - oyi; if (a < tf) tf = a;
        a = nb[o + nzo]! * ivz - ozi; if (a > tn) tn = a;
        a = nb[o + fzo]! * ivz - ozi; if (a < tf) tf = a;
        if (tn < tmin) tn = tmin;
        if (tf > best) tf = best;
        if (hitL) {
          if (tn <= tf) {
            if (tl <= tn) {
              stack[sp] = first + 1; stackT[sp] = tn; sp++;
              n = first;
            } else {
              stack[sp] = first; stackT[sp] = tl; sp++;
              n = first + 1;
            }
          } else {
            n = first;
          }
          continue;
        }
        if (tn <= tf) {
          n = first + 1;
          continue;
        }
      } else {
        for (let k = first; k < first + cnt; k++) {
          const inst = refs[k]!;
          const io = inst * INST_INTS, xo = inst * INST_FLOATS;
          const proot = pi[ii[io]! * PRIM_INTS + 3]!;
          const px = ox - ix[xo + 9]!, py = oy - ix[xo + 10]!, pz = oz - ix[xo + 11]!;
          let t: number;
          if ((ii[io + 3]! & INST_IDENTITY_ROTATION) !== 0) {
            t = this.blasClosest(proot, px, py, pz, dx, dy, dz, tmin, best);
          } else {
            // o_l = Rᵀ (o − t), d_l = Rᵀ d
            const r0 = ix[xo]!, r1 = ix[xo + 1]!, r2 = ix[xo + 2]!, r3 = ix[xo + 3]!, r4 = ix[xo + 4]!, r5 = ix[xo + 5]!;
            const r6 = ix[xo + 6]!, r7 = ix[xo + 7]!, r8 = ix[xo + 8]!;
            t = this.blasClosest(
              proot,
              r0 * px + r3 * py + r6 * pz, r1 * px + r4 * py + r7 * pz, r2 * px + r5 * py + r8 * pz,
              r0 * dx + r3 * dy + r6 * dz, r1 * dx + r4 * dy + r7 * dz, r2 * dx + r5 * dy + r8 * dz,
              tmin, best,
            );
          }
          if (this.hitTri >= 0) {
            best = t;
            bestInst = inst;
            bestTri = this.hitTri;
            bestU = this.hitU;
            bestV = this.hitV;
          }
        }
      }
      for (;;) {
        if (sp === 0) break outer;
        sp--;
        if (stackT[sp]! <= best) {
          n = stack[sp]!;
          break;
        }
      }
    }
    if (bestInst < 0) return false;
    this.lastInstance = bestInst;
    this.lastTriangle = bestTri;
    this.lastU = bestU;
    this.lastV = bestV;
    this.fillSurfaceHit(best, bestInst, bestTri, dx, dy, dz, out);
    return true;
  }

  /**
   * Closest surfaces of up to 32 rays sharing the origin (dirs: 3 per ray), in one traversal
   * (beam-query.ts); each out[k] as closestSurface would fill it. Returns the mask of rays that hit.
   */
  closestSurfaceBeam(ox: number, oy: number, oz: number, dirs: ArrayLike<number>, count: number, tmin: number, tmax: number, out: SurfaceHit[]): number {
    const k = this.kernel === undefined ? this.rayKernel() : this.kernel;
    if (k !== null && count <= BEAM_MAX && tmax <= KERNEL_REACH && tmin >= -KERNEL_REACH) {
      // One walk of the kernel for the whole beam (ray-beam.c).
      const d = k.beamDirs;
      for (let i = 0; i < 3 * count; i++) d[i] = dirs[i]!;
      const mask = k.closestBeam(ox, oy, oz, count, tmin, tmax);
      const f = k.beamF, n = k.beamI;
      for (let r = 0; r < count; r++) {
        if ((mask & (1 << r)) === 0) continue;
        const o = out[r]!, fo = r * BEAM_F_STRIDE, io = r * BEAM_I_STRIDE + BEAM_I_OFFSET;
        o.t = f[fo + HitF.t]!;
        o.nx = f[fo + HitF.nx]!;
        o.ny = f[fo + HitF.ny]!;
        o.nz = f[fo + HitF.nz]!;
        o.reflectance = f[fo + HitF.reflectance]!;
        o.objectId = n[io + HitI.objectId]!;
        o.classId = n[io + HitI.classId]!;
      }
      return mask;
    }
    if (!this.beam) this.beam = new BeamQuery(this.data, this, this.stack.length);
    const mask = this.beam.closest(ox, oy, oz, dirs, count, tmin, tmax, out);
    if (mask >= 0) return mask;
    let m = 0;
    for (let r = 0; r < count; r++) {
      if (this.closestSurface(ox, oy, oz, dirs[3 * r]!, dirs[3 * r + 1]!, dirs[3 * r + 2]!, tmin, tmax, out[r]!)) m |= 1 << r;
    }
    return m;
  }

  /** The SurfaceHit of triangle `tri` of instance `inst` met at t by direction d (world). */
  fillSurfaceHit(t: number, inst: number, tri: number, dx: number, dy: number, dz: number, out: SurfaceHit): void {
    const tv = this.tv, o = 9 * tri, ix = this.ix, xo = inst * INST_FLOATS;
    const ax = tv[o]!, ay = tv[o + 1]!, az = tv[o + 2]!;
    const e1x = tv[o + 3]! - ax, e1y = tv[o + 4]! - ay, e1z = tv[o + 5]! - az;
    const e2x = tv[o + 6]! - ax, e2y = tv[o + 7]! - ay, e2z = tv[o + 8]! - az;
    const lx = e1y * e2z - e1z * e2y, ly = e1z * e2x - e1x * e2z, lz = e1x * e2y - e1y * e2x;
    let nx = ix[xo]! * lx + ix[xo + 1]! * ly + ix[xo + 2]! * lz;
    let ny = ix[xo + 3]! * lx + ix[xo + 4]! * ly + ix[xo + 5]! * lz;
    let nz = ix[xo + 6]! * lx + ix[xo + 7]! * ly + ix[xo + 8]! * lz;
    let len = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (len === 0) len = 1;
    if (nx * dx + ny * dy + nz * dz > 0) len = -len;
    nx /= len; ny /= len; nz /= len;
    const p = this.ii[inst * INST_INTS]!;
    out.t = t;
    out.nx = nx;
    out.ny = ny;
    out.nz = nz;
    out.reflectance = this.pi[p * PRIM_INTS] === ElementKind.Surface ? this.tval[tri]! : this.pf[p * PRIM_FLOATS + PrimFloat.groundReflectance]!;
    out.objectId = this.ii[inst * INST_INTS + 1]!;
    out.classId = this.ii[inst * INST_INTS + 2]!;
  }

  /**
   * Closest triangle of one primitive's BVH in its local frame, t in (tmin, tmax]. Returns the
   * hit's t and sets hitTri (−1 if none; then the return value is tmax).
   */
  private blasClosest(root: number, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number): number {
    this.hitTri = -1;
    if (root < 0) return tmax;
    const nb = this.nb, nl = this.nl, tv = this.tv;
    const stack = this.bstack, stackT = this.bstackT;
    const ivx = inv(dx), ivy = inv(dy), ivz = inv(dz);
    const nxo = ivx >= 0 ? 0 : 3, nyo = ivy >= 0 ? 1 : 4, nzo = ivz >= 0 ? 2 : 5;
    const fxo = 3 - nxo, fyo = 5 - nyo, fzo = 7 - nzo;
    const oxi = ox * ivx, oyi = oy * ivy, ozi = oz * ivz;
    let best = tmax;
    let hitTri = -1, hitU = 0.0, hitV = 0.0;

    // Root box.
    {
      const o = 6 * root;
      let tn = nb[o + nxo]! * ivx - oxi, tf = nb[o + fxo]! * ivx - oxi, a: number;
      a = nb[o + nyo]! * ivy - oyi; if (a > tn) tn = a;
      a = nb[o + fyo]! * ivy - oyi; if (a < tf) tf = a;
      a = nb[o + nzo]! * ivz - ozi; if (a > tn) tn = a;
      a = nb[o + fzo]! * ivz - ozi; if (a < tf) tf = a;
      if (tn < tmin) tn = tmin;
      if (tf > best) tf = best;
      if (!(tn <= tf)) return tmax;
    }
    let sp = 0;
    let n = root;
    outer: for (;;) {
      const cnt = nl[2 * n + 1]!, first = nl[2 * n]!;
      if (cnt === 0) {
        let o = 6 * first;
        let tn = nb[o + nxo]! * ivx - oxi, tf = nb[o + fxo]! * ivx - oxi, a: number;
        a = nb[o + nyo]! * ivy - oyi; if (a > tn) tn = a;
        a = nb[o + fyo]! * ivy - oyi; if (a < tf) tf = a;
        a = nb[o + nzo]! * ivz - ozi; if (a > tn) tn = a;
        a = nb[o + fzo]! * ivz - ozi; if (a < tf) tf = a;
        if (tn < tmin) tn = tmin;
        if (tf > best) tf = best;
        const hitL = tn <= tf;
        const tl = tn;
        o += 6;
        tn = nb[o + nxo]! * ivx - oxi; tf = nb[o + fxo]! * ivx - oxi;
        a = nb[o + nyo]! * ivy - oyi; if (a > tn) tn = a;
        a = nb[o + fyo]! * ivy - oyi; if (a < tf) tf = a;
        a = nb[o + nzo]! * ivz - ozi; if (a > tn) tn = a;
        a = nb[o + fzo]! * ivz - ozi; if (a < tf) tf = a;
        if (tn < tmin) tn = tmin;
        if (tf > best) tf = best;
        if (hitL) {
          if (tn <= tf) {
            if (tl <= tn) {
              stack[sp] = first + 1; stackT[sp] = tn; sp++;
              n = first;
            } else {
              stack[sp] = first; stackT[sp] = tl; sp++;
              n = first + 1;
            }
          } else {
            n = first;
          }
          continue;
        }
        if (tn <= tf) {
          n = first + 1;
          continue;
        }
      } else {
        for (let tri = first; tri < first + cnt; tri++) {
          // Two-sided Möller–Trumbore (ray-primitives.ts rayTriangle, inlined).
          const o = 9 * tri;
          const ax = tv[o]!, ay = tv[o + 1]!, az = tv[o + 2]!;
          const e1x = tv[o + 3]! - ax, e1y = tv[o + 4]! - ay, e1z = tv[o + 5]! - az;
          const e2x = tv[o + 6]! - ax, e2y = tv[o + 7]! - ay, e2z = tv[o + 8]! - az;
          const px = dy * e2z - dz * e2y, py = dz * e2x - dx * e2z, pz = dx * e2y - dy * e2x;
          const det = e1x * px + e1y * py + e1z * pz;
          if (det === 0) continue;
          const idet = 1 / det;
          const sx = ox - ax, sy = oy - ay, sz = oz - az;
          const u = (sx * px + sy * py + sz * pz) * idet;
          if (u < 0 || u > 1) continue;
          const qx = sy * e1z - sz * e1y, qy = sz * e1x - sx * e1z, qz = sx * e1y - sy * e1x;
          const v = (dx * qx + dy * qy + dz * qz) * idet;
          if (v < 0 || u + v > 1) continue;
          const t = (e2x * qx + e2y * qy + e2z * qz) * idet;
          if (t > tmin && t <= best) {
            best = t;
            hitTri = tri;
            hitU = u;
            hitV = v;
          }
        }
      }
      // Next: the nearest pending node that can still beat the best hit.
      for (;;) {
        if (sp === 0) break outer;
        sp--;
        if (stackT[sp]! <= best) {
          n = stack[sp]!;
          break;
        }
      }
    }
    this.hitTri = hitTri;
    this.hitU = hitU;
    this.hitV = hitV;
    return best;
  }

  // ---------------------------------------------------------------- traverse

  traverse(
    ox: number, oy: number, oz: number, dx: number, dy: number, dz: number,
    tmin: number, tmax: number,
    visit: (hit: ElementHit) => boolean,
  ): void {
    const k = this.kernel === undefined ? this.rayKernel() : this.kernel;
    if (k !== null && tmax <= KERNEL_REACH && tmin >= -KERNEL_REACH) {
      // The kernel walks the trees and measures Gaussians along the ray; the elements come back
      // one at a time, in the same order, to the same visitElement.
      const f = k.elemF, i = k.elemI;
      for (let more = k.travBegin(ox, oy, oz, dx, dy, dz, tmin, tmax); more; more = k.travNext()) {
        if (this.visitElement(f[ElemF.t]!, i[ElemI.element]!, i[ElemI.instance]!, i[ElemI.type]!, visit, f[ElemF.mahalanobis]!, f[ElemF.varT]!)) return;
      }
      return;
    }
    this.traverseJs(ox, oy, oz, dx, dy, dz, tmin, tmax, visit);
  }

  /** traverse by the JS heap walk (the reference the kernel matches). */
  private traverseJs(
    ox: number, oy: number, oz: number, dx: number, dy: number, dz: number,
    tmin: number, tmax: number,
    visit: (hit: ElementHit) => boolean,
  ): void {
    const root = this.data.rootAll;
    if (root < 0 || !(tmax > tmin)) return;
    const nl = this.nl, nb = this.nb, refs = this.refs, ii = this.ii, pi = this.pi, pf = this.pf, tv = this.tv, g = this.g;
    this.setWorldRay(ox, oy, oz, dx, dy, dz);
    this.hSize = 0;
    this.curInst = -1;
    let key = this.boxWorld(root, tmin, tmax);
    if (key !== key) return;
    // World-ray slab parameters, constant for the whole ray.
    const wnx = this.wnx, wny = this.wny, wnz = this.wnz, wfx = 3 - wnx, wfy = 5 - wny, wfz = 7 - wnz;
    const wix = this.wix, wiy = this.wiy, wiz = this.wiz, woxi = this.woxi, woyi = this.woyi, wozi = this.wozi;
    // The current instance's local ray, cached in locals (ci: the instance they belong to, −1: stale).
    let ci = -1;
    let lox = 0.0, loy = 0.0, loz = 0.0, ldx = 0.0, ldy = 0.0, ldz = 0.0;
    let lix = 0.0, liy = 0.0, liz = 0.0, loxi = 0.0, loyi = 0.0, lozi = 0.0;
    let lnx = 0, lny = 1, lnz = 2, lfx = 3, lfy = 4, lfz = 5;
    // The nearest item produced while processing the current one, kept out of the heap
    // (nB < 0: none); the same offer/push sequence as before, so heap order is unchanged.
    let nK = 0.0, nA = 0, nB: number;
    // The item being processed: a = node or element, b = (instance + 1) · 4 + type.
    let a = root, b: number = H_TLAS;
    for (;;) {
      nB = -1;
      const type = b & 3;
      if (type === H_TLAS) {
        const cnt = nl[2 * a + 1]!, first = nl[2 * a]!;
        if (cnt === 0) {
          for (let c = first; c <= first + 1; c++) {
            const o = 6 * c;
            let near = nb[o + wnx]! * wix - woxi, far = nb[o + wfx]! * wix - woxi, s: number;
            s = nb[o + wny]! * wiy - woyi; if (s > near) near = s;
            s = nb[o + wfy]! * wiy - woyi; if (s < far) far = s;
            s = nb[o + wnz]! * wiz - wozi; if (s > near) near = s;
            s = nb[o + wfz]! * wiz - wozi; if (s < far) far = s;
            if (near < tmin) near = tmin;
            if (far > tmax) far = tmax;
            if (!(near <= far)) continue;
            if (nB < 0) { nK = near; nA = c; nB = H_TLAS; } else if (near < nK) { this.push(nK, nA, nB); nK = near; nA = c; nB = H_TLAS; } else this.push(near, c, H_TLAS);
          }
        } else {
          // Instance leaf (one instance when built by SceneBuilder): its box is the instance's
          // world box, a lower bound for everything inside, so its BLAS root is processed right
          // now; further instances of the leaf wait in the heap under the same key.
          for (let k = first + 1; k < first + cnt; k++) {
            const inst = refs[k]!;
            const ra = pi[ii[inst * INST_INTS]! * PRIM_INTS + 3]!, rb = (inst + 1) * 4 + H_BLAS;
            if (nB < 0) { nK = key; nA = ra; nB = rb; } else if (key < nK) { this.push(nK, nA, nB); nK = key; nA = ra; nB = rb; } else this.push(key, ra, rb);
          }
          const inst = refs[first]!;
          a = pi[ii[inst * INST_INTS]! * PRIM_INTS + 3]!;
          b = (inst + 1) * 4 + H_BLAS;
          if (nB >= 0) this.push(nK, nA, nB);
          continue;
        }
      } else if (type === H_BLAS) {
        const inst = (b >> 2) - 1;
        if (inst !== ci) {
          if (inst !== this.curInst) this.setLocalRay(inst, ox, oy, oz, dx, dy, dz);
          ci = inst;
          lox = this.lox; loy = this.loy; loz = this.loz; ldx = this.ldx; ldy = this.ldy; ldz = this.ldz;
          lix = this.lix; liy = this.liy; liz = this.liz; loxi = this.loxi; loyi = this.loyi; lozi = this.lozi;
          lnx = this.lnx; lny = this.lny; lnz = this.lnz; lfx = 3 - lnx; lfy = 5 - lny; lfz = 7 - lnz;
        }
        const cnt = nl[2 * a + 1]!, first = nl[2 * a]!;
        if (cnt === 0) {
          for (let c = first; c <= first + 1; c++) {
            const o = 6 * c;
            let near = nb[o + lnx]! * lix - loxi, far = nb[o + lfx]! * lix - loxi, s: number;
            s = nb[o + lny]! * liy - loyi; if (s > near) near = s;
            s = nb[o + lfy]! * liy - loyi; if (s < far) far = s;
            s = nb[o + lnz]! * liz - lozi; if (s > near) near = s;
            s = nb[o + lfz]! * liz - lozi; if (s < far) far = s;
            if (near < tmin) near = tmin;
            if (far > tmax) far = tmax;
            if (!(near <= far)) continue;
            if (nB < 0) { nK = near; nA = c; nB = b; } else if (near < nK) { this.push(nK, nA, nB); nK = near; nA = c; nB = b; } else this.push(near, c, b);
          }
        } else {
          const p = ii[inst * INST_INTS]!;
          const kind = pi[p * PRIM_INTS]!;
          if (kind === ElementKind.Surface || kind === ElementKind.Ground) {
            const eb = (inst + 1) * 4 + H_TRI;
            for (let tri = first; tri < first + cnt; tri++) {
              const o = 9 * tri;
              const ax = tv[o]!, ay = tv[o + 1]!, az = tv[o + 2]!;
              const e1x = tv[o + 3]! - ax, e1y = tv[o + 4]! - ay, e1z = tv[o + 5]! - az;
              const e2x = tv[o + 6]! - ax, e2y = tv[o + 7]! - ay, e2z = tv[o + 8]! - az;
              const px = ldy * e2z - ldz * e2y, py = ldz * e2x - ldx * e2z, pz = ldx * e2y - ldy * e2x;
              const det = e1x * px + e1y * py + e1z * pz;
              if (det === 0) continue;
              const idet = 1 / det;
              const sx = lox - ax, sy = loy - ay, sz = loz - az;
              const u = (sx * px + sy * py + sz * pz) * idet;
              if (u < 0 || u > 1) continue;
              const qx = sy * e1z - sz * e1y, qy = sz * e1x - sx * e1z, qz = sx * e1y - sy * e1x;
              const v = (ldx * qx + ldy * qy + ldz * qz) * idet;
              if (v < 0 || u + v > 1) continue;
              const t = (e2x * qx + e2y * qy + e2z * qz) * idet;
              if (!(t > tmin && t <= tmax)) continue;
              if (nB < 0) { nK = t; nA = tri; nB = eb; } else if (t < nK) { this.push(nK, nA, nB); nK = t; nA = tri; nB = eb; } else this.push(t, tri, eb);
            }
          } else {
            const thr = pf[p * PRIM_FLOATS + PrimFloat.param]!;
            const thr2 = thr * thr;
            const eb = (inst + 1) * 4 + H_GAUSS;
            for (let e = first; e < first + cnt; e++) {
              // seed 000 eq. 1 (ray-primitives.ts rayGaussian, inlined): minimum Mahalanobis distance and t*.
              const o = e * GAUSS_STRIDE;
              const ex = g[o]! - lox, ey = g[o + 1]! - loy, ez = g[o + 2]! - loz;
              const p00 = g[o + 3]!, p01 = g[o + 4]!, p02 = g[o + 5]!, p11 = g[o + 6]!, p12 = g[o + 7]!, p22 = g[o + 8]!;
              const pdx = p00 * ldx + p01 * ldy + p02 * ldz;
              const pdy = p01 * ldx + p11 * ldy + p12 * ldz;
              const pdz = p02 * ldx + p12 * ldy + p22 * ldz;
              const dPd = ldx * pdx + ldy * pdy + ldz * pdz;
              const dPe = ex * pdx + ey * pdy + ez * pdz;
              const ePe = ex * (p00 * ex + p01 * ey + p02 * ez) + ey * (p01 * ex + p11 * ey + p12 * ez) + ez * (p02 * ex + p12 * ey + p22 * ez);
              const t = dPe / dPd;
              if (ePe - dPe * t >= thr2) continue;
              if (!(t > tmin && t <= tmax)) continue;
              if (nB < 0) { nK = t; nA = e; nB = eb; } else if (t < nK) { this.push(nK, nA, nB); nK = t; nA = e; nB = eb; } else this.push(t, e, eb);
            }
          }
        }
      } else {
        const inst = (b >> 2) - 1;
        if (this.visitElement(key, a, inst, type, visit)) return;
        // A Gaussian's visit may have moved the query's local ray to its instance.
        if (this.curInst !== ci) ci = -1;
      }
      // Next item: the nearest one just produced if nothing pending is nearer, else the heap's top.
      if (nB >= 0 && (this.hSize === 0 || nK <= this.hKey[0]!)) {
        key = nK;
        a = nA;
        b = nB;
      } else {
        if (nB >= 0) this.push(nK, nA, nB);
        if (this.hSize === 0) return;
        key = this.hKey[0]!;
        a = this.hA[0]!;
        b = this.hB[0]!;
        this.popTop();
      }
    }
  }

  /** Fills the reused hit record for element `a` of instance `inst` met at `t` and calls the visitor. */
  private visitElement(t: number, a: number, inst: number, type: number, visit: (hit: ElementHit) => boolean, gm = NaN, gVarT = NaN): boolean {
    const hit = this.hit, ii = this.ii, pi = this.pi, pf = this.pf;
    const p = ii[inst * INST_INTS]!;
    hit.instance = inst;
    hit.primitive = p;
    hit.element = a;
    hit.objectId = ii[inst * INST_INTS + 1]!;
    hit.classId = ii[inst * INST_INTS + 2]!;
    hit.t = t;
    hit.muT = t;
    const kind = pi[p * PRIM_INTS]!;
    hit.kind = kind as ElementKind;
    if (type === H_TRI) {
      hit.sourceIndex = this.data.triSource[a]!;
      hit.mahalanobis = 0;
      if (kind === ElementKind.Ground) {
        hit.pHit = this.tval[a]!;
        hit.varT = pf[p * PRIM_FLOATS + PrimFloat.param]!;
      } else {
        hit.pHit = 1;
        hit.varT = 0;
      }
      hit.mean.fill(0);
      hit.chol.fill(0);
    } else {
      if (gVarT === gVarT) {
        // The kernel measured it along the ray already (the same operations as rayGaussian).
        hit.mahalanobis = gm;
        hit.varT = gVarT;
      } else {
        // The local ray may have moved on to another instance since this element was found.
        if (inst !== this.curInst) this.setLocalRayFromWorld(inst);
        rayGaussian(this.lox, this.loy, this.loz, this.ldx, this.ldy, this.ldz, this.g, a * GAUSS_STRIDE, this.tmp);
        hit.mahalanobis = this.tmp[1]!;
        hit.varT = this.tmp[2]!;
      }
      hit.sourceIndex = this.data.gaussSource[a]!;
      hit.pHit = this.g[a * GAUSS_STRIDE + 15]!;
      this.worldGaussian(a, inst, hit.mean, hit.chol);
    }
    return visit(hit);
  }

  /** World-frame mean and Cholesky factor of Gaussian `e` placed by instance `inst`. */
  worldGaussian(e: number, inst: number, mean: Float64Array, chol: Float64Array): void {
    const g = this.g, o = e * GAUSS_STRIDE, x = this.ix, xo = inst * INST_FLOATS;
    const mx = g[o]!, my = g[o + 1]!, mz = g[o + 2]!;
    if ((this.ii[inst * INST_INTS + 3]! & INST_IDENTITY_ROTATION) !== 0) {
      mean[0] = mx + x[xo + 9]!;
      mean[1] = my + x[xo + 10]!;
      mean[2] = mz + x[xo + 11]!;
      for (let k = 0; k < 6; k++) chol[k] = g[o + 9 + k]!;
      return;
    }
    const r0 = x[xo]!, r1 = x[xo + 1]!, r2 = x[xo + 2]!, r3 = x[xo + 3]!, r4 = x[xo + 4]!, r5 = x[xo + 5]!, r6 = x[xo + 6]!, r7 = x[xo + 7]!, r8 = x[xo + 8]!;
    mean[0] = r0 * mx + r1 * my + r2 * mz + x[xo + 9]!;
    mean[1] = r3 * mx + r4 * my + r5 * mz + x[xo + 10]!;
    mean[2] = r6 * mx + r7 * my + r8 * mz + x[xo + 11]!;
    // A = R L (a square root of RΣRᵀ); Σ_w = A Aᵀ; then its Cholesky factor.
    const l00 = g[o + 9]!, l10 = g[o + 10]!, l11 = g[o + 11]!, l20 = g[o + 12]!, l21 = g[o + 13]!, l22 = g[o + 14]!;
    const a00 = r0 * l00 + r1 * l10 + r2 * l20, a01 = r1 * l11 + r2 * l21, a02 = r2 * l22;
    const a10 = r3 * l00 + r4 * l10 + r5 * l20, a11 = r4 * l11 + r5 * l21, a12 = r5 * l22;
    const a20 = r6 * l00 + r7 * l10 + r8 * l20, a21 = r7 * l11 + r8 * l21, a22 = r8 * l22;
    const s = this.sigma;
    s[0] = a00 * a00 + a01 * a01 + a02 * a02;
    s[1] = a00 * a10 + a01 * a11 + a02 * a12;
    s[2] = a00 * a20 + a01 * a21 + a02 * a22;
    s[3] = a10 * a10 + a11 * a11 + a12 * a12;
    s[4] = a10 * a20 + a11 * a21 + a12 * a22;
    s[5] = a20 * a20 + a21 * a21 + a22 * a22;
    if (!cholesky3(s, 0, chol, 0)) {
      // Rounding made a near-singular Σ indefinite: fall back to the stored factor rotated.
      for (let k = 0; k < 6; k++) chol[k] = g[o + 9 + k]!;
    }
  }

  private setLocalRayFromWorld(inst: number): void {
    this.setLocalRay(inst, this.wox, this.woy, this.woz, this.wdx, this.wdy, this.wdz);
  }

  private setLocalRay(inst: number, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number): void {
    const x = this.ix, xo = inst * INST_FLOATS;
    this.wox = ox; this.woy = oy; this.woz = oz; this.wdx = dx; this.wdy = dy; this.wdz = dz;
    const px = ox - x[xo + 9]!, py = oy - x[xo + 10]!, pz = oz - x[xo + 11]!;
    this.curInst = inst;
    if ((this.ii[inst * INST_INTS + 3]! & INST_IDENTITY_ROTATION) !== 0) {
      this.lox = px; this.loy = py; this.loz = pz;
      this.ldx = dx; this.ldy = dy; this.ldz = dz;
    } else {
      const r0 = x[xo]!, r1 = x[xo + 1]!, r2 = x[xo + 2]!, r3 = x[xo + 3]!, r4 = x[xo + 4]!, r5 = x[xo + 5]!, r6 = x[xo + 6]!, r7 = x[xo + 7]!, r8 = x[xo + 8]!;
      this.lox = r0 * px + r3 * py + r6 * pz;
      this.loy = r1 * px + r4 * py + r7 * pz;
      this.loz = r2 * px + r5 * py + r8 * pz;
      this.ldx = r0 * dx + r3 * dy + r6 * dz;
      this.ldy = r1 * dx + r4 * dy + r7 * dz;
      this.ldz = r2 * dx + r5 * dy + r8 * dz;
    }
    const ix = inv(this.ldx), iy = inv(this.ldy), iz = inv(this.ldz);
    this.lix = ix; this.liy = iy; this.liz = iz;
    this.lnx = ix >= 0 ? 0 : 3; this.lny = iy >= 0 ? 1 : 4; this.lnz = iz >= 0 ? 2 : 5;
    this.loxi = this.lox * ix; this.loyi = this.loy * iy; this.lozi = this.loz * iz;
  }

  private setWorldRay(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number): void {
    const ix = inv(dx), iy = inv(dy), iz = inv(dz);
    this.wix = ix; this.wiy = iy; this.wiz = iz;
    this.wnx = ix >= 0 ? 0 : 3; this.wny = iy >= 0 ? 1 : 4; this.wnz = iz >= 0 ? 2 : 5;
    this.woxi = ox * ix; this.woyi = oy * iy; this.wozi = oz * iz;
  }

  /** Entry distance of the world ray into node n's box within [tmin, tmax], or NaN. */
  private boxWorld(n: number, tmin: number, tmax: number): number {
    const nb = this.nb, o = 6 * n;
    const nx = this.wnx, ny = this.wny, nz = this.wnz, ix = this.wix, iy = this.wiy, iz = this.wiz;
    const oxi = this.woxi, oyi = this.woyi, ozi = this.wozi;
    let near = nb[o + nx]! * ix - oxi, far = nb[o + 3 - nx]! * ix - oxi, a: number;
    a = nb[o + ny]! * iy - oyi; if (a > near) near = a;
    a = nb[o + 5 - ny]! * iy - oyi; if (a < far) far = a;
    a = nb[o + nz]! * iz - ozi; if (a > near) near = a;
    a = nb[o + 7 - nz]! * iz - ozi; if (a < far) far = a;
    if (near < tmin) near = tmin;
    if (far > tmax) far = tmax;
    return near <= far ? near : NaN;
  }

  private push(key: number, a: number, b: number): void {
    if (this.hSize === this.hKey.length) this.growHeap();
    const hKey = this.hKey, hA = this.hA, hB = this.hB;
    let i = this.hSize++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pk = hKey[parent]!;
      if (pk <= key) break;
      hKey[i] = pk; hA[i] = hA[parent]!; hB[i] = hB[parent]!;
      i = parent;
    }
    hKey[i] = key; hA[i] = a; hB[i] = b;
  }

  private popTop(): void {
    const n = --this.hSize;
    if (n === 0) return;
    const hKey = this.hKey, hA = this.hA, hB = this.hB;
    const key = hKey[n]!, a = hA[n]!, b = hB[n]!;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && hKey[c + 1]! < hKey[c]!) c++;
      const ck = hKey[c]!;
      if (ck >= key) break;
      hKey[i] = ck; hA[i] = hA[c]!; hB[i] = hB[c]!;
      i = c;
    }
    hKey[i] = key; hA[i] = a; hB[i] = b;
  }

  private growHeap(): void {
    const size = this.hKey.length * 2;
    const key = new Float64Array(size), a = new Int32Array(size), b = new Int32Array(size);
    key.set(this.hKey); a.set(this.hA); b.set(this.hB);
    this.hKey = key; this.hA = a; this.hB = b;
  }
}

/** A query over a built (or received) scene. Cheap: wraps the arrays, allocates only stacks. */
export function createSceneQuery(data: SceneData, kernel: SurfaceKernel = 'auto'): BvhSceneQuery {
  return new BvhSceneQuery(data, kernel);
}
