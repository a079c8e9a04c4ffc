/**
 * Every element a ray meets within (tmin, tmax] in a fitted model's SceneData, in no particular
 * order — what the replay needs, in JS: the replay walks in the WebAssembly kernel
 * (scene/kernel/ray-collect.c) where the runtime has it, and here otherwise; the tests hold both
 * to the same counts. The scene's own traverse() (scene-bvh.ts) delivers the same
 * elements nearest first through a heap; the replay counts every element up to the return
 * regardless of order, so these walks over the same BVH arrays drop the heap and the per-element
 * hit record. Same tests as traverse: the two-sided Möller–Trumbore triangle test, and for a
 * Gaussian the point of minimum Mahalanobis distance t* = dᵀP(μ−o)/dᵀPd with the distance below
 * the primitive's threshold (tests compare the walks with traverse).
 *
 * - walk: one ray, depth first, both children tested at their parent.
 * - walkBundle: up to 32 rays from one origin (a packet's rays of one laser at neighbouring
 *   azimuths) in one descent: inner nodes are tested once against the union of the rays (per
 *   axis the rays' inverse directions span [ia, ib], and a slab distance (b − o)·iv is bounded by
 *   its values at the ends), widened by a margin, so a node any ray would enter is never culled;
 *   at a leaf each ray takes the single walk's own box test and element tests, so every ray meets
 *   exactly the elements `walk` gives it. Rays whose directions differ in sign on an axis, or lie
 *   in an axis plane, have no such bound: the bundle is refused and its rays walk singly.
 *   Measured: 2.1× the single walk's rays/s on the demo's HDL-32E log, 1.7× on HDL-64E packets
 *   of 1,024 rays (0.75–0.9 M rays/s on one thread here); the heap-ordered traverse() gives
 *   ~0.17 M.
 *
 * Model scenes place every primitive once at the identity (model-scene.ts): instances are only
 * translated, never rotated; a rotated instance is refused.
 */
import { GAUSS_STRIDE, INST_FLOATS, INST_IDENTITY_ROTATION, INST_INTS, PRIM_FLOATS, PRIM_INTS, PrimFloat, type SceneData } from '../scene/scene-data';
import { ElementKind } from '../scene/scene-query';

/**
 * Receives each element a ray meets: the ray (its index in a bundle; 0 for `walk`), the kind,
 * the model index of the element (primitive offset + source index), t (triangle: the
 * intersection; Gaussian: t*), and for Gaussians m² (the squared minimum Mahalanobis distance)
 * and σ_t² = 1 / dᵀPd.
 */
export type ElementSink = (ray: number, kind: number, index: number, t: number, m2: number, varT: number) => void;

/** Most rays in one bundle. */
export const MAX_BUNDLE = 32;

function inv(d: number): number {
  return d !== 0 ? 1 / d : 1e300;
}

/** Relative and absolute widening of the union's slab interval: far above the per-ray rounding. */
const REL = 1e-7;
const ABS = 1e-9;

export class ReplayWalker {
  private readonly stack: Int32Array;
  private readonly offsets: Int32Array;
  // Per bundle ray: inverse direction, direction, tmax (3, 3, 1 per ray).
  private readonly biv = new Float64Array(3 * MAX_BUNDLE);
  private readonly bdir = new Float64Array(3 * MAX_BUNDLE);
  private readonly btmax = new Float64Array(MAX_BUNDLE);

  /** `offsets[p]`: model index of primitive p's first element. */
  constructor(private readonly data: SceneData, offsets: ArrayLike<number>) {
    this.offsets = Int32Array.from(offsets);
    for (let i = 0; i < data.instanceCount; i++) {
      if ((data.instInts[i * INST_INTS + 3]! & INST_IDENTITY_ROTATION) === 0) throw new Error(`replay: instance ${i} is rotated (model scenes place primitives at the identity)`);
    }
    // Depth of the deepest node (children follow their parent) bounds the stack.
    const depth = new Int32Array(data.nodeCount);
    let maxDepth = 0;
    for (let n = 0; n < data.nodeCount; n++) {
      if (data.nodeLinks[2 * n + 1] === 0) {
        const c = data.nodeLinks[2 * n]!, d = depth[n]! + 1;
        depth[c] = d;
        depth[c + 1] = d;
        if (d > maxDepth) maxDepth = d;
      }
    }
    this.stack = new Int32Array(2 * maxDepth + 8);
  }

  /** One ray; the sink sees it as ray `ray`. */
  walk(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number, sink: ElementSink, ray = 0): void {
    const d = this.data, root = d.rootAll;
    if (root < 0 || !(tmax > tmin)) return;
    const nb = d.nodeBounds, nl = d.nodeLinks, refs = d.tlasRefs, ii = d.instInts, ix = d.instXform, pi = d.primInts;
    const stack = this.stack;
    const ivx = inv(dx), ivy = inv(dy), ivz = inv(dz);
    const nxo = ivx >= 0 ? 0 : 3, nyo = ivy >= 0 ? 1 : 4, nzo = ivz >= 0 ? 2 : 5;
    const fxo = 3 - nxo, fyo = 5 - nyo, fzo = 7 - nzo;
    const oxi = ox * ivx, oyi = oy * ivy, ozi = oz * ivz;
    let sp = 0;
    stack[sp++] = root;
    while (sp > 0) {
      const n = stack[--sp]!;
      const o = 6 * n;
      // Slab test in the world frame (the instance tree's boxes are world boxes).
      let tn = nb[o + nxo]! * ivx - oxi, tf = nb[o + fxo]! * ivx - oxi, a: number;
      a = nb[o + nyo]! * ivy - oyi; if (a > tn) tn = a;
      a = nb[o + fyo]! * ivy - oyi; if (a < tf) tf = a;
      a = nb[o + nzo]! * ivz - ozi; if (a > tn) tn = a;
      a = nb[o + fzo]! * ivz - ozi; if (a < tf) tf = a;
      if (tn < tmin) tn = tmin;
      if (tf > tmax) tf = tmax;
      if (!(tn <= tf)) continue;
      const cnt = nl[2 * n + 1]!, first = nl[2 * n]!;
      if (cnt === 0) {
        stack[sp++] = first;
        stack[sp++] = first + 1;
        continue;
      }
      for (let k = first; k < first + cnt; k++) {
        const inst = refs[k]!;
        const xo = inst * INST_FLOATS;
        const p = ii[inst * INST_INTS]!;
        const proot = pi[p * PRIM_INTS + 3]!;
        if (proot < 0) continue;
        this.blas(p, proot, ox - ix[xo + 9]!, oy - ix[xo + 10]!, oz - ix[xo + 11]!, dx, dy, dz, tmin, tmax, sink, ray);
      }
    }
  }

  private blas(p: number, root: number, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number, sink: ElementSink, ray: number): void {
    const d = this.data, nb = d.nodeBounds, nl = d.nodeLinks;
    const tri = isTriangleKind(d.primInts[p * PRIM_INTS]!);
    // The BLAS walk has its own stack region above the instance walk's (never more than its depth).
    const stack = this.stack, bottom = this.stack.length >> 1;
    const ivx = inv(dx), ivy = inv(dy), ivz = inv(dz);
    const nxo = ivx >= 0 ? 0 : 3, nyo = ivy >= 0 ? 1 : 4, nzo = ivz >= 0 ? 2 : 5;
    const fxo = 3 - nxo, fyo = 5 - nyo, fzo = 7 - nzo;
    const oxi = ox * ivx, oyi = oy * ivy, ozi = oz * ivz;
    let sp = bottom;
    // The root's box is the instance's box, already passed in the instance walk: start inside.
    let n = root;
    for (;;) {
      const cnt = nl[2 * n + 1]!, first = nl[2 * n]!;
      if (cnt === 0) {
        // Test both children here and descend into a hit one, pushing the other if it is hit too.
        const hitL = slab(nb, 6 * first, nxo, nyo, nzo, fxo, fyo, fzo, ivx, ivy, ivz, oxi, oyi, ozi, tmin, tmax);
        const hitR = slab(nb, 6 * first + 6, nxo, nyo, nzo, fxo, fyo, fzo, ivx, ivy, ivz, oxi, oyi, ozi, tmin, tmax);
        if (hitL) {
          if (hitR) stack[sp++] = first + 1;
          n = first;
          continue;
        }
        if (hitR) {
          n = first + 1;
          continue;
        }
      } else if (tri) {
        this.triangles(p, first, cnt, ray, ox, oy, oz, dx, dy, dz, tmin, tmax, sink);
      } else {
        this.gaussians(p, first, cnt, ray, ox, oy, oz, dx, dy, dz, tmin, tmax, sink);
      }
      if (sp === bottom) return;
      n = stack[--sp]!;
    }
  }

  /**
   * Every element each of `count` rays from (ox, oy, oz) meets within (tmin, tmaxs[k]]:
   * directions dirs[3k..3k+2] (unit). Returns false (nothing walked) when the rays cannot share a
   * descent (see the file comment): walk them singly.
   */
  walkBundle(ox: number, oy: number, oz: number, dirs: ArrayLike<number>, tmaxs: ArrayLike<number>, count: number, tmin: number, sink: ElementSink): boolean {
    if (count > MAX_BUNDLE) throw new Error(`replay: at most ${MAX_BUNDLE} rays in a bundle`);
    const d = this.data, root = d.rootAll;
    const biv = this.biv, bdir = this.bdir, btmax = this.btmax;
    let iax = Infinity, ibx = -Infinity, iay = Infinity, iby = -Infinity, iaz = Infinity, ibz = -Infinity;
    let tmaxU = -Infinity;
    const sx = dirs[0]! > 0, sy = dirs[1]! > 0, sz = dirs[2]! > 0;
    for (let k = 0; k < count; k++) {
      const dx = dirs[3 * k]!, dy = dirs[3 * k + 1]!, dz = dirs[3 * k + 2]!;
      if (dx === 0 || dy === 0 || dz === 0 || dx > 0 !== sx || dy > 0 !== sy || dz > 0 !== sz) return false;
      const vx = 1 / dx, vy = 1 / dy, vz = 1 / dz;
      bdir[3 * k] = dx; bdir[3 * k + 1] = dy; bdir[3 * k + 2] = dz;
      biv[3 * k] = vx; biv[3 * k + 1] = vy; biv[3 * k + 2] = vz;
      btmax[k] = tmaxs[k]!;
      if (vx < iax) iax = vx; if (vx > ibx) ibx = vx;
      if (vy < iay) iay = vy; if (vy > iby) iby = vy;
      if (vz < iaz) iaz = vz; if (vz > ibz) ibz = vz;
      if (tmaxs[k]! > tmaxU) tmaxU = tmaxs[k]!;
    }
    if (root < 0 || !(tmaxU > tmin)) return true;
    const nb = d.nodeBounds, nl = d.nodeLinks, refs = d.tlasRefs, ii = d.instInts, ix = d.instXform, pi = d.primInts;
    const nxo = sx ? 0 : 3, nyo = sy ? 1 : 4, nzo = sz ? 2 : 5;
    const fxo = 3 - nxo, fyo = 5 - nyo, fzo = 7 - nzo;
    const stack = this.stack;
    let sp = 0;
    stack[sp++] = root;
    while (sp > 0) {
      const n = stack[--sp]!;
      if (!union(nb, 6 * n, nxo, nyo, nzo, fxo, fyo, fzo, ox, oy, oz, iax, ibx, iay, iby, iaz, ibz, tmin, tmaxU)) continue;
      const cnt = nl[2 * n + 1]!, first = nl[2 * n]!;
      if (cnt === 0) {
        stack[sp++] = first;
        stack[sp++] = first + 1;
        continue;
      }
      for (let k = first; k < first + cnt; k++) {
        const inst = refs[k]!;
        const xo = inst * INST_FLOATS;
        const p = ii[inst * INST_INTS]!;
        const proot = pi[p * PRIM_INTS + 3]!;
        if (proot < 0) continue;
        const lx = ox - ix[xo + 9]!, ly = oy - ix[xo + 10]!, lz = oz - ix[xo + 11]!;
        if (nl[2 * proot + 1]! > 0) {
          // A one-leaf primitive: `walk` tests it only through the instance's box (this leaf, n).
          this.leafBundle(p, proot, n, true, ox, oy, oz, lx, ly, lz, count, tmin, sink);
          continue;
        }
        this.blasBundle(p, proot, lx, ly, lz, iax, ibx, iay, iby, iaz, ibz, count, tmin, tmaxU, nxo, nyo, nzo, sink);
      }
    }
    return true;
  }

  private blasBundle(
    p: number, root: number, ox: number, oy: number, oz: number,
    iax: number, ibx: number, iay: number, iby: number, iaz: number, ibz: number,
    count: number, tmin: number, tmaxU: number, nxo: number, nyo: number, nzo: number, sink: ElementSink,
  ): void {
    const d = this.data, nb = d.nodeBounds, nl = d.nodeLinks;
    const fxo = 3 - nxo, fyo = 5 - nyo, fzo = 7 - nzo;
    const stack = this.stack, bottom = this.stack.length >> 1;
    let sp = bottom;
    let n = root;
    for (;;) {
      const cnt = nl[2 * n + 1]!, first = nl[2 * n]!;
      if (cnt === 0) {
        const hitL = union(nb, 6 * first, nxo, nyo, nzo, fxo, fyo, fzo, ox, oy, oz, iax, ibx, iay, iby, iaz, ibz, tmin, tmaxU);
        const hitR = union(nb, 6 * first + 6, nxo, nyo, nzo, fxo, fyo, fzo, ox, oy, oz, iax, ibx, iay, iby, iaz, ibz, tmin, tmaxU);
        if (hitL) {
          if (hitR) stack[sp++] = first + 1;
          n = first;
          continue;
        }
        if (hitR) {
          n = first + 1;
          continue;
        }
      } else {
        this.leafBundle(p, n, n, false, ox, oy, oz, ox, oy, oz, count, tmin, sink);
      }
      if (sp === bottom) return;
      n = stack[--sp]!;
    }
  }

  /**
   * Leaf `leaf` of primitive p for every bundle ray that passes its own box test against node
   * `box` (the leaf itself, or for a one-leaf primitive the instance's world box, from the world
   * origin (wx, wy, wz)) — the single walk's test, so each ray meets what `walk` would give it.
   */
  private leafBundle(p: number, leaf: number, box: number, world: boolean, wx: number, wy: number, wz: number, ox: number, oy: number, oz: number, count: number, tmin: number, sink: ElementSink): void {
    const d = this.data, nb = d.nodeBounds;
    const cnt = d.nodeLinks[2 * leaf + 1]!, first = d.nodeLinks[2 * leaf]!;
    const tri = isTriangleKind(d.primInts[p * PRIM_INTS]!);
    const biv = this.biv, bdir = this.bdir, btmax = this.btmax;
    const bx = world ? wx : ox, by = world ? wy : oy, bz = world ? wz : oz;
    for (let k = 0; k < count; k++) {
      const ivx = biv[3 * k]!, ivy = biv[3 * k + 1]!, ivz = biv[3 * k + 2]!;
      const nxo = ivx >= 0 ? 0 : 3, nyo = ivy >= 0 ? 1 : 4, nzo = ivz >= 0 ? 2 : 5;
      const tmax = btmax[k]!;
      if (!(tmax > tmin)) continue;
      if (!slab(nb, 6 * box, nxo, nyo, nzo, 3 - nxo, 5 - nyo, 7 - nzo, ivx, ivy, ivz, bx * ivx, by * ivy, bz * ivz, tmin, tmax)) continue;
      const dx = bdir[3 * k]!, dy = bdir[3 * k + 1]!, dz = bdir[3 * k + 2]!;
      if (tri) this.triangles(p, first, cnt, k, ox, oy, oz, dx, dy, dz, tmin, tmax, sink);
      else this.gaussians(p, first, cnt, k, ox, oy, oz, dx, dy, dz, tmin, tmax, sink);
    }
  }

  private triangles(p: number, first: number, cnt: number, ray: number, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number, sink: ElementSink): void {
    const d = this.data, tv = d.triVerts, source = d.triSource;
    const kind = d.primInts[p * PRIM_INTS]!, base = this.offsets[p]!;
    for (let e = first; e < first + cnt; e++) {
      const q = 9 * e;
      const ax = tv[q]!, ay = tv[q + 1]!, az = tv[q + 2]!;
      const e1x = tv[q + 3]! - ax, e1y = tv[q + 4]! - ay, e1z = tv[q + 5]! - az;
      const e2x = tv[q + 6]! - ax, e2y = tv[q + 7]! - ay, e2z = tv[q + 8]! - az;
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
      if (!(t > tmin && t <= tmax)) continue;
      sink(ray, kind, base + source[e]!, t, 0, 0);
    }
  }

  private gaussians(p: number, first: number, cnt: number, ray: number, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number, sink: ElementSink): void {
    const d = this.data, g = d.gauss, source = d.gaussSource;
    const kind = d.primInts[p * PRIM_INTS]!, base = this.offsets[p]!;
    const thr = d.primFloats[p * PRIM_FLOATS + PrimFloat.param]!, thr2 = thr * thr;
    for (let e = first; e < first + cnt; e++) {
      const q = e * GAUSS_STRIDE;
      const ex = g[q]! - ox, ey = g[q + 1]! - oy, ez = g[q + 2]! - oz;
      const p00 = g[q + 3]!, p01 = g[q + 4]!, p02 = g[q + 5]!, p11 = g[q + 6]!, p12 = g[q + 7]!, p22 = g[q + 8]!;
      const pdx = p00 * dx + p01 * dy + p02 * dz;
      const pdy = p01 * dx + p11 * dy + p12 * dz;
      const pdz = p02 * dx + p12 * dy + p22 * dz;
      const dPd = dx * pdx + dy * pdy + dz * pdz;
      const dPe = ex * pdx + ey * pdy + ez * pdz;
      const ePe = ex * (p00 * ex + p01 * ey + p02 * ez) + ey * (p01 * ex + p11 * ey + p12 * ez) + ez * (p02 * ex + p12 * ey + p22 * ez);
      const t = dPe / dPd;
      const m2 = ePe - dPe * t;
      if (m2 >= thr2) continue;
      if (!(t > tmin && t <= tmax)) continue;
      sink(ray, kind, base + source[e]!, t, m2 > 0 ? m2 : 0, 1 / dPd);
    }
  }
}

function isTriangleKind(kind: number): boolean {
  return kind === ElementKind.Surface || kind === ElementKind.Ground;
}

/** One ray's slab test of the box at nb[o..o+5] within [tmin, tmax] (the single walk's arithmetic). */
function slab(
  nb: Float32Array, o: number, nxo: number, nyo: number, nzo: number, fxo: number, fyo: number, fzo: number,
  ivx: number, ivy: number, ivz: number, oxi: number, oyi: number, ozi: number, tmin: number, tmax: number,
): boolean {
  let tn = nb[o + nxo]! * ivx - oxi, tf = nb[o + fxo]! * ivx - oxi, a: number;
  a = nb[o + nyo]! * ivy - oyi; if (a > tn) tn = a;
  a = nb[o + fyo]! * ivy - oyi; if (a < tf) tf = a;
  a = nb[o + nzo]! * ivz - ozi; if (a > tn) tn = a;
  a = nb[o + fzo]! * ivz - ozi; if (a < tf) tf = a;
  return (tn < tmin ? tmin : tn) <= (tf > tmax ? tmax : tf);
}

/**
 * The bundle's union slab test: per axis the near distance is the smaller of (b − o)·ia and
 * (b − o)·ib, the far the larger (iv spans [ia, ib], all of one sign), then widened.
 */
function union(
  nb: Float32Array, o: number, nxo: number, nyo: number, nzo: number, fxo: number, fyo: number, fzo: number,
  ox: number, oy: number, oz: number, iax: number, ibx: number, iay: number, iby: number, iaz: number, ibz: number, tmin: number, tmax: number,
): boolean {
  let v = nb[o + nxo]! - ox, a = v * iax, b = v * ibx;
  let tn = a < b ? a : b;
  v = nb[o + fxo]! - ox; a = v * iax; b = v * ibx;
  let tf = a > b ? a : b;
  v = nb[o + nyo]! - oy; a = v * iay; b = v * iby;
  let c = a < b ? a : b; if (c > tn) tn = c;
  v = nb[o + fyo]! - oy; a = v * iay; b = v * iby;
  c = a > b ? a : b; if (c < tf) tf = c;
  v = nb[o + nzo]! - oz; a = v * iaz; b = v * ibz;
  c = a < b ? a : b; if (c > tn) tn = c;
  v = nb[o + fzo]! - oz; a = v * iaz; b = v * ibz;
  c = a > b ? a : b; if (c < tf) tf = c;
  tn -= REL * (tn < 0 ? -tn : tn) + ABS;
  tf += REL * (tf < 0 ? -tf : tf) + ABS;
  return (tn < tmin ? tmin : tn) <= (tf > tmax ? tmax : tf);
}
