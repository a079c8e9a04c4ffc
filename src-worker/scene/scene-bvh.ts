/**
 * The SceneQuery over SceneData's two-level BVH (layout in scene-data.ts).
 *
 *   createSceneQuery(data: SceneData): BvhSceneQuery      (implements SceneQuery)
 *
 * - closestSurface: depth-first, nearer child first, culling nodes whose entry distance is
 *   beyond the best hit so far; instance leaves transform the ray into the primitive's frame
 *   and descend its BVH in the same call. Mesh and ground triangles are surfaces; ellipsoid and
 *   voxel instances are not in that tree at all.
 * - traverse: front to back with one binary heap over node entry distances and pending element
 *   hits, so the visitor sees elements in increasing t and stopping early skips the rest.
 *
 * One query object per thread: it owns its stacks, heap and hit record (nothing allocates per
 * ray). The ElementHit passed to `visit` is one reused object (a SceneElementHit, which also
 * says which instance / element was met): copy what you keep.
 * After closestSurface returns true, `lastInstance`, `lastTriangle` (index into triVerts) and
 * `lastU`, `lastV` (barycentrics) describe the hit.
 */
import {
  GAUSS_STRIDE, INST_FLOATS, INST_IDENTITY_ROTATION, INST_INTS, PRIM_FLOATS, PRIM_INTS, PrimFloat, type SceneData,
} from './scene-data';
import { ElementKind, type ElementHit, type SceneQuery, type SurfaceHit } from './scene-query';
import { cholesky3 } from '../geometry/ray-primitives';

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
  private hKey = new Float64Array(256);
  private hA = new Int32Array(256);
  private hB = new Int32Array(256);
  private hType = new Uint8Array(256);
  private hM = new Float64Array(256);
  private hVar = new Float64Array(256);
  private hSize = 0;
  private curInst = -1;
  private lox = 0.0; private loy = 0.0; private loz = 0.0;
  private ldx = 0.0; private ldy = 0.0; private ldz = 0.0;
  private lix = 0.0; private liy = 0.0; private liz = 0.0;
  private readonly hit: SceneElementHit = newSceneElementHit();
  private readonly sigma = new Float64Array(6);

  constructor(data: SceneData) {
    this.data = data;
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

    let sp = 0;
    stack[sp] = root;
    stackT[sp] = tmin;
    sp++;
    while (sp > 0) {
      sp--;
      if (stackT[sp]! > best) continue;
      const n = stack[sp]!;
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
        const hitR = tn <= tf;
        if (hitL && hitR) {
          if (tl <= tn) {
            stack[sp] = first + 1; stackT[sp] = tn; sp++;
            stack[sp] = first; stackT[sp] = tl; sp++;
          } else {
            stack[sp] = first; stackT[sp] = tl; sp++;
            stack[sp] = first + 1; stackT[sp] = tn; sp++;
          }
        } else if (hitL) {
          stack[sp] = first; stackT[sp] = tl; sp++;
        } else if (hitR) {
          stack[sp] = first + 1; stackT[sp] = tn; sp++;
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
    }
    if (bestInst < 0) return false;
    this.lastInstance = bestInst;
    this.lastTriangle = bestTri;
    this.lastU = bestU;
    this.lastV = bestV;
    this.fillSurfaceHit(best, bestInst, bestTri, dx, dy, dz, out);
    return true;
  }

  private fillSurfaceHit(t: number, inst: number, tri: number, dx: number, dy: number, dz: number, out: SurfaceHit): void {
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
    stack[sp] = root;
    stackT[sp] = tmin;
    sp++;
    while (sp > 0) {
      sp--;
      if (stackT[sp]! > best) continue;
      const n = stack[sp]!;
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
        const hitR = tn <= tf;
        if (hitL && hitR) {
          if (tl <= tn) {
            stack[sp] = first + 1; stackT[sp] = tn; sp++;
            stack[sp] = first; stackT[sp] = tl; sp++;
          } else {
            stack[sp] = first; stackT[sp] = tl; sp++;
            stack[sp] = first + 1; stackT[sp] = tn; sp++;
          }
        } else if (hitL) {
          stack[sp] = first; stackT[sp] = tl; sp++;
        } else if (hitR) {
          stack[sp] = first + 1; stackT[sp] = tn; sp++;
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
    const root = this.data.rootAll;
    if (root < 0 || !(tmax > tmin)) return;
    const nl = this.nl, refs = this.refs, ii = this.ii, pi = this.pi, pf = this.pf, tv = this.tv, g = this.g;
    const wix = inv(dx), wiy = inv(dy), wiz = inv(dz);
    this.hSize = 0;
    this.curInst = -1;
    const t0 = this.boxEntry(root, ox, oy, oz, wix, wiy, wiz, tmin, tmax);
    if (t0 !== t0) return;
    this.push(t0, H_TLAS, root, -1, 0, 0);
    while (this.hSize > 0) {
      // Pop the minimum.
      const key = this.hKey[0]!, type = this.hType[0]!, a = this.hA[0]!, b = this.hB[0]!, m = this.hM[0]!, vr = this.hVar[0]!;
      this.popTop();
      if (type === H_TLAS) {
        const cnt = nl[2 * a + 1]!, first = nl[2 * a]!;
        if (cnt === 0) {
          let t = this.boxEntry(first, ox, oy, oz, wix, wiy, wiz, tmin, tmax);
          if (t === t) this.push(t, H_TLAS, first, -1, 0, 0);
          t = this.boxEntry(first + 1, ox, oy, oz, wix, wiy, wiz, tmin, tmax);
          if (t === t) this.push(t, H_TLAS, first + 1, -1, 0, 0);
        } else {
          for (let k = first; k < first + cnt; k++) {
            const inst = refs[k]!;
            this.setLocalRay(inst, ox, oy, oz, dx, dy, dz);
            const proot = pi[ii[inst * INST_INTS]! * PRIM_INTS + 3]!;
            const t = this.boxEntry(proot, this.lox, this.loy, this.loz, this.lix, this.liy, this.liz, tmin, tmax);
            if (t === t) this.push(t, H_BLAS, proot, inst, 0, 0);
          }
        }
      } else if (type === H_BLAS) {
        if (b !== this.curInst) this.setLocalRay(b, ox, oy, oz, dx, dy, dz);
        const lox = this.lox, loy = this.loy, loz = this.loz, ldx = this.ldx, ldy = this.ldy, ldz = this.ldz;
        const cnt = nl[2 * a + 1]!, first = nl[2 * a]!;
        if (cnt === 0) {
          let t = this.boxEntry(first, lox, loy, loz, this.lix, this.liy, this.liz, tmin, tmax);
          if (t === t) this.push(t, H_BLAS, first, b, 0, 0);
          t = this.boxEntry(first + 1, lox, loy, loz, this.lix, this.liy, this.liz, tmin, tmax);
          if (t === t) this.push(t, H_BLAS, first + 1, b, 0, 0);
        } else {
          const p = ii[b * INST_INTS]!;
          const kind = pi[p * PRIM_INTS]!;
          if (kind === ElementKind.Surface || kind === ElementKind.Ground) {
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
              if (t > tmin && t <= tmax) this.push(t, H_TRI, tri, b, 0, 0);
            }
          } else {
            const thr = pf[p * PRIM_FLOATS + PrimFloat.param]!;
            const thr2 = thr * thr;
            for (let e = first; e < first + cnt; e++) {
              const o = e * GAUSS_STRIDE;
              const ex = g[o]! - lox, ey = g[o + 1]! - loy, ez = g[o + 2]! - loz;
              const p00 = g[o + 3]!, p01 = g[o + 4]!, p02 = g[o + 5]!, p11 = g[o + 6]!, p12 = g[o + 7]!, p22 = g[o + 8]!;
              const pdx = p00 * ldx + p01 * ldy + p02 * ldz;
              const pdy = p01 * ldx + p11 * ldy + p12 * ldz;
              const pdz = p02 * ldx + p12 * ldy + p22 * ldz;
              const dPd = ldx * pdx + ldy * pdy + ldz * pdz;
              const dPe = ex * pdx + ey * pdy + ez * pdz;
              const ePe = ex * (p00 * ex + p01 * ey + p02 * ez) + ey * (p01 * ex + p11 * ey + p12 * ez) + ez * (p02 * ex + p12 * ey + p22 * ez);
              const varT = 1 / dPd;
              const m2 = ePe - dPe * dPe * varT;
              if (m2 >= thr2) continue;
              const t = dPe * varT;
              if (t > tmin && t <= tmax) this.push(t, H_GAUSS, e, b, m2 > 0 ? Math.sqrt(m2) : 0, varT);
            }
          }
        }
      } else {
        const hit = this.hit;
        const p = ii[b * INST_INTS]!;
        hit.instance = b;
        hit.primitive = p;
        hit.element = a;
        hit.objectId = ii[b * INST_INTS + 1]!;
        hit.classId = ii[b * INST_INTS + 2]!;
        hit.t = key;
        hit.muT = key;
        if (type === H_TRI) {
          const kind = pi[p * PRIM_INTS]!;
          hit.kind = kind as ElementKind;
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
          hit.kind = pi[p * PRIM_INTS]! as ElementKind;
          hit.sourceIndex = this.data.gaussSource[a]!;
          hit.mahalanobis = m;
          hit.varT = vr;
          hit.pHit = g[a * GAUSS_STRIDE + 15]!;
          this.worldGaussian(a, b, hit.mean, hit.chol);
        }
        if (visit(hit)) return;
      }
    }
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

  private setLocalRay(inst: number, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number): void {
    const x = this.ix, xo = inst * INST_FLOATS;
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
    this.lix = inv(this.ldx);
    this.liy = inv(this.ldy);
    this.liz = inv(this.ldz);
  }

  /** Entry distance of the ray into node n's box within [tmin, tmax], or NaN. */
  private boxEntry(n: number, ox: number, oy: number, oz: number, ix: number, iy: number, iz: number, tmin: number, tmax: number): number {
    const nb = this.nb, o = 6 * n;
    let t0 = (nb[o]! - ox) * ix, t1 = (nb[o + 3]! - ox) * ix;
    let near = t0 < t1 ? t0 : t1, far = t0 < t1 ? t1 : t0;
    t0 = (nb[o + 1]! - oy) * iy; t1 = (nb[o + 4]! - oy) * iy;
    if (t0 < t1) { if (t0 > near) near = t0; if (t1 < far) far = t1; } else { if (t1 > near) near = t1; if (t0 < far) far = t0; }
    t0 = (nb[o + 2]! - oz) * iz; t1 = (nb[o + 5]! - oz) * iz;
    if (t0 < t1) { if (t0 > near) near = t0; if (t1 < far) far = t1; } else { if (t1 > near) near = t1; if (t0 < far) far = t0; }
    if (near < tmin) near = tmin;
    if (far > tmax) far = tmax;
    return near <= far ? near : NaN;
  }

  private push(key: number, type: number, a: number, b: number, m: number, vr: number): void {
    if (this.hSize === this.hKey.length) this.growHeap();
    const hKey = this.hKey, hA = this.hA, hB = this.hB, hType = this.hType, hM = this.hM, hVar = this.hVar;
    let i = this.hSize++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (hKey[parent]! <= key) break;
      hKey[i] = hKey[parent]!; hA[i] = hA[parent]!; hB[i] = hB[parent]!; hType[i] = hType[parent]!; hM[i] = hM[parent]!; hVar[i] = hVar[parent]!;
      i = parent;
    }
    hKey[i] = key; hA[i] = a; hB[i] = b; hType[i] = type; hM[i] = m; hVar[i] = vr;
  }

  private popTop(): void {
    const n = --this.hSize;
    if (n === 0) return;
    const hKey = this.hKey, hA = this.hA, hB = this.hB, hType = this.hType, hM = this.hM, hVar = this.hVar;
    const key = hKey[n]!, a = hA[n]!, b = hB[n]!, type = hType[n]!, m = hM[n]!, vr = hVar[n]!;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && hKey[c + 1]! < hKey[c]!) c++;
      if (hKey[c]! >= key) break;
      hKey[i] = hKey[c]!; hA[i] = hA[c]!; hB[i] = hB[c]!; hType[i] = hType[c]!; hM[i] = hM[c]!; hVar[i] = hVar[c]!;
      i = c;
    }
    hKey[i] = key; hA[i] = a; hB[i] = b; hType[i] = type; hM[i] = m; hVar[i] = vr;
  }

  private growHeap(): void {
    const size = this.hKey.length * 2;
    const grow = <T extends Float64Array | Int32Array | Uint8Array>(old: T, ctor: new (n: number) => T): T => {
      const next = new ctor(size);
      next.set(old as never);
      return next;
    };
    this.hKey = grow(this.hKey, Float64Array);
    this.hA = grow(this.hA, Int32Array);
    this.hB = grow(this.hB, Int32Array);
    this.hType = grow(this.hType, Uint8Array);
    this.hM = grow(this.hM, Float64Array);
    this.hVar = grow(this.hVar, Float64Array);
  }
}

/** A query over a built (or received) scene. Cheap: wraps the arrays, allocates only stacks. */
export function createSceneQuery(data: SceneData): BvhSceneQuery {
  return new BvhSceneQuery(data);
}
