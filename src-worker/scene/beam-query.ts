/**
 * Closest surfaces of a beam: up to 32 rays from one origin (the physics stencil's 9 sub-rays,
 * a few mrad apart) in ONE traversal of the two-level BVH instead of one per ray.
 *
 * Nodes are tested against the union of the rays: per axis the rays' inverse directions span
 * [ia, ib], and the slab distances (b − o)·iv are bounded by their values at the ends of that
 * span. The union interval is widened by a margin far above the rounding error of the per-ray
 * slab test (δ·|iv|, δ = 1e-9 × the coordinates' magnitude), so a node that any single ray's
 * own test (scene-bvh.ts closestSurface) would accept is never culled; an axis whose rays point
 * both ways does not constrain. The far end is clamped to the largest per-ray best hit, so a
 * node is culled only when it lies beyond every ray's best. At a leaf each ray runs the same
 * Möller–Trumbore arithmetic as closestSurface (the origin terms s = o − v0 and q = s × e1 are
 * shared: the origin is common), so every ray's result equals an independent closestSurface
 * call, except which of two triangles at exactly equal t wins (visit order differs).
 */
import { INST_FLOATS, INST_IDENTITY_ROTATION, INST_INTS, PRIM_FLOATS, PRIM_INTS, type SceneData } from './scene-data';
import type { SurfaceHit } from './scene-query';

/** Most rays in one beam (a bit mask reports which hit). */
export const MAX_BEAM_RAYS = 32;

const REL = 1e-9;

/** What the beam query needs from the full query: filling a hit record exactly like closestSurface. */
export interface SurfaceHitFiller {
  fillSurfaceHit(t: number, inst: number, tri: number, dx: number, dy: number, dz: number, out: SurfaceHit): void;
}

export class BeamQuery {
  private readonly nb: Float32Array;
  private readonly nl: Int32Array;
  private readonly tv: Float32Array;
  private readonly ii: Int32Array;
  private readonly ix: Float64Array;
  private readonly refs: Int32Array;
  private readonly pi: Int32Array;
  private readonly pf: Float64Array;
  private readonly stack: Int32Array;
  private readonly stackT: Float64Array;
  private readonly bstack: Int32Array;
  private readonly bstackT: Float64Array;
  private readonly best = new Float64Array(MAX_BEAM_RAYS);
  private readonly bestInst = new Int32Array(MAX_BEAM_RAYS);
  private readonly bestTri = new Int32Array(MAX_BEAM_RAYS);
  /** Directions in the current instance's frame, 3 per ray. */
  private readonly ld = new Float64Array(3 * MAX_BEAM_RAYS);
  /** Union slab parameters: per axis [ia, ib, margin]. */
  private readonly u = new Float64Array(9);
  private readonly worldScale: number;
  private maxBest = 0.0;
  /** Largest distance of a ray's direction from ray 0's, padded (setUnion). */
  private spread = 0.0;
  /** Set by setUnion: some axis is unbounded. */
  private straddles = false;

  constructor(private readonly data: SceneData, private readonly filler: SurfaceHitFiller, stackSize: number) {
    this.nb = data.nodeBounds;
    this.nl = data.nodeLinks;
    this.tv = data.triVerts;
    this.ii = data.instInts;
    this.ix = data.instXform;
    this.refs = data.tlasRefs;
    this.pi = data.primInts;
    this.pf = data.primFloats;
    this.stack = new Int32Array(stackSize);
    this.stackT = new Float64Array(stackSize);
    this.bstack = new Int32Array(stackSize);
    this.bstackT = new Float64Array(stackSize);
    let m = 0;
    for (let k = 0; k < 6; k++) m = Math.max(m, Math.abs(data.bounds[k]!));
    this.worldScale = m;
  }

  /**
   * Closest surface of each ray k < count (direction dirs[3k..3k+2], unit), all from (ox, oy, oz),
   * t in (tmin, tmax]; fills out[k] for the rays that hit and returns their bit mask, or −1
   * (nothing filled) when the rays point both ways along a world axis: then cast them singly.
   */
  closest(ox: number, oy: number, oz: number, dirs: ArrayLike<number>, count: number, tmin: number, tmax: number, out: SurfaceHit[]): number {
    const root = this.data.rootSurface;
    if (count > MAX_BEAM_RAYS) throw new Error(`beam query: at most ${MAX_BEAM_RAYS} rays`);
    if (root < 0 || !(tmax > tmin) || count <= 0) return 0;
    const best = this.best, bestInst = this.bestInst, bestTri = this.bestTri;
    for (let k = 0; k < count; k++) {
      best[k] = tmax;
      bestInst[k] = -1;
      bestTri[k] = -1;
    }
    this.maxBest = tmax;
    const nb = this.nb, nl = this.nl, refs = this.refs, ii = this.ii, ix = this.ix, pi = this.pi, ld = this.ld, u = this.u;
    const stack = this.stack, stackT = this.stackT;
    let spread = 0;
    for (let k = 0; k < 3 * count; k++) ld[k] = dirs[k]!;
    for (let k = 1; k < count; k++) {
      const ex = ld[3 * k]! - ld[0]!, ey = ld[3 * k + 1]! - ld[1]!, ez = ld[3 * k + 2]! - ld[2]!;
      const e = Math.sqrt(ex * ex + ey * ey + ez * ez);
      if (e > spread) spread = e;
    }
    // Padding: local directions are rotated with rounding (≈1e-16), and |c ± s| must stay conservative.
    this.spread = spread * (1 + 1e-6) + 1e-12;
    this.setUnion(this.worldScale + Math.max(Math.abs(ox), Math.abs(oy), Math.abs(oz)));
    // A beam straddling a world axis plane (e.g. a horizontal scanner's beam, up and down by a
    // few mrad) has no far bound on that axis, so the union would accept every box along its
    // footprint (the whole terrain under a horizontal beam): let the caller trace rays singly.
    if (this.straddles) return -1;
    const iax = u[0]!, ibx = u[1]!, mx = u[2]!, iay = u[3]!, iby = u[4]!, my = u[5]!, iaz = u[6]!, ibz = u[7]!, mz = u[8]!;
    const nxo = ibx < 0 ? 3 : 0, nyo = iby < 0 ? 4 : 1, nzo = ibz < 0 ? 5 : 2;
    const fxo = 3 - nxo, fyo = 5 - nyo, fzo = 7 - nzo;

    let sp = 0;
    let n = root;
    outer: for (;;) {
      const cnt = nl[2 * n + 1]!, first = nl[2 * n]!;
      if (cnt === 0) {
        const tl = unionEntry(nb, 6 * first, ox, oy, oz, iax, ibx, mx, iay, iby, my, iaz, ibz, mz, nxo, nyo, nzo, fxo, fyo, fzo, tmin, this.maxBest);
        const tr = unionEntry(nb, 6 * first + 6, ox, oy, oz, iax, ibx, mx, iay, iby, my, iaz, ibz, mz, nxo, nyo, nzo, fxo, fyo, fzo, tmin, this.maxBest);
        if (tl === tl) {
          if (tr === tr) {
            if (tl <= tr) {
              stack[sp] = first + 1; stackT[sp] = tr; sp++;
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
        if (tr === tr) {
          n = first + 1;
          continue;
        }
      } else {
        for (let k = first; k < first + cnt; k++) {
          const inst = refs[k]!;
          const io = inst * INST_INTS, xo = inst * INST_FLOATS;
          const prim = ii[io]!;
          const proot = pi[prim * PRIM_INTS + 3]!;
          if (proot < 0) continue;
          const px = ox - ix[xo + 9]!, py = oy - ix[xo + 10]!, pz = oz - ix[xo + 11]!;
          if ((ii[io + 3]! & INST_IDENTITY_ROTATION) !== 0) {
            for (let j = 0; j < 3 * count; j++) ld[j] = dirs[j]!;
            this.blas(inst, prim, proot, px, py, pz, count, tmin);
          } else {
            // o_l = Rᵀ (o − t), d_l = Rᵀ d (the same arithmetic as closestSurface)
            const r0 = ix[xo]!, r1 = ix[xo + 1]!, r2 = ix[xo + 2]!, r3 = ix[xo + 3]!, r4 = ix[xo + 4]!, r5 = ix[xo + 5]!;
            const r6 = ix[xo + 6]!, r7 = ix[xo + 7]!, r8 = ix[xo + 8]!;
            for (let j = 0; j < count; j++) {
              const dx = dirs[3 * j]!, dy = dirs[3 * j + 1]!, dz = dirs[3 * j + 2]!;
              ld[3 * j] = r0 * dx + r3 * dy + r6 * dz;
              ld[3 * j + 1] = r1 * dx + r4 * dy + r7 * dz;
              ld[3 * j + 2] = r2 * dx + r5 * dy + r8 * dz;
            }
            this.blas(inst, prim, proot, r0 * px + r3 * py + r6 * pz, r1 * px + r4 * py + r7 * pz, r2 * px + r5 * py + r8 * pz, count, tmin);
          }
        }
      }
      for (;;) {
        if (sp === 0) break outer;
        sp--;
        if (stackT[sp]! <= this.maxBest) {
          n = stack[sp]!;
          break;
        }
      }
    }
    let mask = 0;
    for (let k = 0; k < count; k++) {
      if (bestInst[k]! < 0) continue;
      mask |= 1 << k;
      this.filler.fillSurfaceHit(best[k]!, bestInst[k]!, bestTri[k]!, dirs[3 * k]!, dirs[3 * k + 1]!, dirs[3 * k + 2]!, out[k]!);
    }
    return mask;
  }

  /**
   * Union slab parameters of the rays in `ld` (see the file comment); `scale` bounds |coordinates|.
   * Every ray lies within `spread` (a rotation-invariant chord length, padded for rounding) of
   * ray 0, so per axis its component is in [c − s, c + s] and its inverse in [1/(c+s), 1/(c−s)]:
   * 2 divisions per axis instead of one per ray.
   */
  private setUnion(scale: number): void {
    const ld = this.ld, u = this.u, delta = REL * (1 + scale), s = this.spread;
    this.straddles = false;
    for (let a = 0; a < 3; a++) {
      const c = ld[a]!;
      const lo = c - s, hi = c + s;
      if (lo <= 0 && hi >= 0) {
        // Rays on both sides of (or along) the slab's planes: the axis bounds nothing (an instance
        // frame only; closest() casts such beams singly when it happens in the world frame).
        u[3 * a] = 0; u[3 * a + 1] = 0; u[3 * a + 2] = Infinity;
        this.straddles = true;
      } else {
        const i0 = 1 / hi, i1 = 1 / lo;
        const ia = i0 < i1 ? i0 : i1, ib = i0 < i1 ? i1 : i0;
        u[3 * a] = ia; u[3 * a + 1] = ib;
        u[3 * a + 2] = delta * (-ia > ib ? -ia : ib);
      }
    }
  }

  /** One instance's BLAS for every ray (directions already in its frame in `ld`). */
  private blas(inst: number, prim: number, root: number, ox: number, oy: number, oz: number, count: number, tmin: number): void {
    const pf = this.pf, po = prim * PRIM_FLOATS;
    let scale = Math.max(Math.abs(ox), Math.abs(oy), Math.abs(oz));
    for (let k = 0; k < 6; k++) scale = Math.max(scale, Math.abs(pf[po + k]!));
    this.setUnion(scale);
    const u = this.u;
    const iax = u[0]!, ibx = u[1]!, mx = u[2]!, iay = u[3]!, iby = u[4]!, my = u[5]!, iaz = u[6]!, ibz = u[7]!, mz = u[8]!;
    const nxo = ibx < 0 ? 3 : 0, nyo = iby < 0 ? 4 : 1, nzo = ibz < 0 ? 5 : 2;
    const fxo = 3 - nxo, fyo = 5 - nyo, fzo = 7 - nzo;
    const nb = this.nb, nl = this.nl, tv = this.tv, ld = this.ld, best = this.best, bestInst = this.bestInst, bestTri = this.bestTri;
    const stack = this.bstack, stackT = this.bstackT;
    let maxBest = this.maxBest;
    const rootT = unionEntry(nb, 6 * root, ox, oy, oz, iax, ibx, mx, iay, iby, my, iaz, ibz, mz, nxo, nyo, nzo, fxo, fyo, fzo, tmin, maxBest);
    if (rootT !== rootT) return;
    let sp = 0;
    let n = root;
    let entry = rootT;
    outer: for (;;) {
      const cnt = nl[2 * n + 1]!, first = nl[2 * n]!;
      if (cnt === 0) {
        const tl = unionEntry(nb, 6 * first, ox, oy, oz, iax, ibx, mx, iay, iby, my, iaz, ibz, mz, nxo, nyo, nzo, fxo, fyo, fzo, tmin, maxBest);
        const tr = unionEntry(nb, 6 * first + 6, ox, oy, oz, iax, ibx, mx, iay, iby, my, iaz, ibz, mz, nxo, nyo, nzo, fxo, fyo, fzo, tmin, maxBest);
        if (tl === tl) {
          if (tr === tr) {
            if (tl <= tr) {
              stack[sp] = first + 1; stackT[sp] = tr; sp++;
              n = first; entry = tl;
            } else {
              stack[sp] = first; stackT[sp] = tl; sp++;
              n = first + 1; entry = tr;
            }
          } else {
            n = first; entry = tl;
          }
          continue;
        }
        if (tr === tr) {
          n = first + 1; entry = tr;
          continue;
        }
      } else {
        let changed = false;
        for (let tri = first; tri < first + cnt; tri++) {
          // Two-sided Möller–Trumbore, term for term as in closestSurface; s and q depend only on the origin.
          const o = 9 * tri;
          const ax = tv[o]!, ay = tv[o + 1]!, az = tv[o + 2]!;
          const e1x = tv[o + 3]! - ax, e1y = tv[o + 4]! - ay, e1z = tv[o + 5]! - az;
          const e2x = tv[o + 6]! - ax, e2y = tv[o + 7]! - ay, e2z = tv[o + 8]! - az;
          const sx = ox - ax, sy = oy - ay, sz = oz - az;
          const qx = sy * e1z - sz * e1y, qy = sz * e1x - sx * e1z, qz = sx * e1y - sy * e1x;
          const e2q = e2x * qx + e2y * qy + e2z * qz;
          for (let k = 0; k < count; k++) {
            // A ray whose best hit is nearer than this leaf's (conservative) entry cannot improve.
            if (entry > best[k]!) continue;
            const dx = ld[3 * k]!, dy = ld[3 * k + 1]!, dz = ld[3 * k + 2]!;
            const px = dy * e2z - dz * e2y, py = dz * e2x - dx * e2z, pz = dx * e2y - dy * e2x;
            const det = e1x * px + e1y * py + e1z * pz;
            if (det === 0) continue;
            const idet = 1 / det;
            const uu = (sx * px + sy * py + sz * pz) * idet;
            if (uu < 0 || uu > 1) continue;
            const vv = (dx * qx + dy * qy + dz * qz) * idet;
            if (vv < 0 || uu + vv > 1) continue;
            const t = e2q * idet;
            if (t > tmin && t <= best[k]!) {
              best[k] = t;
              bestInst[k] = inst;
              bestTri[k] = tri;
              changed = true;
            }
          }
        }
        if (changed) {
          maxBest = best[0]!;
          for (let k = 1; k < count; k++) if (best[k]! > maxBest) maxBest = best[k]!;
        }
      }
      for (;;) {
        if (sp === 0) break outer;
        sp--;
        if (stackT[sp]! <= maxBest) {
          n = stack[sp]!;
          entry = stackT[sp]!;
          break;
        }
      }
    }
    this.maxBest = maxBest;
  }
}

/**
 * Entry distance of the beam's union into the box at nb[o..o+5], within [tmin, tmax], or NaN.
 * Per axis the near distance is min over the span of (b_near − o)·iv, the far one max of
 * (b_far − o)·iv, each widened by the margin m (an unbounded axis: iv span 0, m = ∞).
 * Small enough for V8 to inline at its call sites (a branchier version was not, and cost 35 %).
 */
function unionEntry(
  nb: Float32Array, o: number, ox: number, oy: number, oz: number,
  iax: number, ibx: number, mx: number, iay: number, iby: number, my: number, iaz: number, ibz: number, mz: number,
  nxo: number, nyo: number, nzo: number, fxo: number, fyo: number, fzo: number, tmin: number, tmax: number,
): number {
  let d = nb[o + nxo]! - ox, a = d * iax, b = d * ibx;
  let tn = (a < b ? a : b) - mx;
  d = nb[o + fxo]! - ox; a = d * iax; b = d * ibx;
  let tf = (a > b ? a : b) + mx;
  d = nb[o + nyo]! - oy; a = d * iay; b = d * iby;
  let c = (a < b ? a : b) - my; if (c > tn) tn = c;
  d = nb[o + fyo]! - oy; a = d * iay; b = d * iby;
  c = (a > b ? a : b) + my; if (c < tf) tf = c;
  d = nb[o + nzo]! - oz; a = d * iaz; b = d * ibz;
  c = (a < b ? a : b) - mz; if (c > tn) tn = c;
  d = nb[o + fzo]! - oz; a = d * iaz; b = d * ibz;
  c = (a > b ? a : b) + mz; if (c < tf) tf = c;
  if (tn < tmin) tn = tmin;
  if (tf > tmax) tf = tmax;
  return tn <= tf ? tn : NaN;
}
