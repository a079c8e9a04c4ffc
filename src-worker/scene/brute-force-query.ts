/**
 * The correctness oracle: a SceneQuery over the same SceneData that tests every element of
 * every instance (no BVH), using the reference functions of geometry/ray-primitives.ts.
 * O(elements) per ray: for tests and small scenes only.
 *
 *   createBruteForceQuery(data: SceneData): BruteForceSceneQuery
 *
 * traverse() visits elements sorted by t (ties: instance, then element index).
 */
import { rayGaussian, rayTriangle } from '../geometry/ray-primitives';
import {
  GAUSS_STRIDE, INST_FLOATS, INST_INTS, PRIM_FLOATS, PRIM_INTS, PrimFloat, type SceneData,
} from './scene-data';
import { ElementKind, type ElementHit, type SceneQuery, type SurfaceHit } from './scene-query';
import { BvhSceneQuery, newSceneElementHit, type SceneElementHit } from './scene-bvh';

interface Found {
  t: number;
  inst: number;
  element: number;
  m: number;
  varT: number;
}

export class BruteForceSceneQuery implements SceneQuery {
  readonly data: SceneData;
  lastInstance = -1;
  lastTriangle = -1;
  private readonly tmp = new Float64Array(4);
  private readonly helper: BvhSceneQuery;

  constructor(data: SceneData) {
    this.data = data;
    this.helper = new BvhSceneQuery(data); // only for worldGaussian (a pure function of the data)
  }

  /** The ray in instance i's local frame: [ox, oy, oz, dx, dy, dz]. */
  private local(i: number, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number): number[] {
    const x = this.data.instXform, o = i * INST_FLOATS;
    const px = ox - x[o + 9]!, py = oy - x[o + 10]!, pz = oz - x[o + 11]!;
    return [
      x[o]! * px + x[o + 3]! * py + x[o + 6]! * pz,
      x[o + 1]! * px + x[o + 4]! * py + x[o + 7]! * pz,
      x[o + 2]! * px + x[o + 5]! * py + x[o + 8]! * pz,
      x[o]! * dx + x[o + 3]! * dy + x[o + 6]! * dz,
      x[o + 1]! * dx + x[o + 4]! * dy + x[o + 7]! * dz,
      x[o + 2]! * dx + x[o + 5]! * dy + x[o + 8]! * dz,
    ];
  }

  private collect(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number, surfacesOnly: boolean): Found[] {
    const d = this.data, found: Found[] = [];
    for (let i = 0; i < d.instanceCount; i++) {
      const p = d.instInts[i * INST_INTS]!;
      const kind = d.primInts[p * PRIM_INTS]!;
      const first = d.primInts[p * PRIM_INTS + 1]!, count = d.primInts[p * PRIM_INTS + 2]!;
      const isTri = kind === ElementKind.Surface || kind === ElementKind.Ground;
      if (surfacesOnly && !isTri) continue;
      const [lox, loy, loz, ldx, ldy, ldz] = this.local(i, ox, oy, oz, dx, dy, dz) as [number, number, number, number, number, number];
      const thr = d.primFloats[p * PRIM_FLOATS + PrimFloat.param]!;
      for (let e = first; e < first + count; e++) {
        if (isTri) {
          if (rayTriangle(lox, loy, loz, ldx, ldy, ldz, d.triVerts, 9 * e, tmin, tmax, this.tmp)) {
            found.push({ t: this.tmp[0]!, inst: i, element: e, m: 0, varT: 0 });
          }
        } else {
          rayGaussian(lox, loy, loz, ldx, ldy, ldz, d.gauss, e * GAUSS_STRIDE, this.tmp);
          const t = this.tmp[0]!;
          if (this.tmp[1]! < thr && t > tmin && t <= tmax) found.push({ t, inst: i, element: e, m: this.tmp[1]!, varT: this.tmp[2]! });
        }
      }
    }
    found.sort((a, b) => a.t - b.t || a.inst - b.inst || a.element - b.element);
    return found;
  }

  closestSurface(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number, out: SurfaceHit): boolean {
    const f = this.collect(ox, oy, oz, dx, dy, dz, tmin, tmax, true)[0];
    if (!f) return false;
    const d = this.data;
    this.lastInstance = f.inst;
    this.lastTriangle = f.element;
    const v = d.triVerts, o = 9 * f.element, x = d.instXform, xo = f.inst * INST_FLOATS;
    const e1 = [v[o + 3]! - v[o]!, v[o + 4]! - v[o + 1]!, v[o + 5]! - v[o + 2]!];
    const e2 = [v[o + 6]! - v[o]!, v[o + 7]! - v[o + 1]!, v[o + 8]! - v[o + 2]!];
    const l = [e1[1]! * e2[2]! - e1[2]! * e2[1]!, e1[2]! * e2[0]! - e1[0]! * e2[2]!, e1[0]! * e2[1]! - e1[1]! * e2[0]!];
    const n = [0, 1, 2].map((r) => x[xo + 3 * r]! * l[0]! + x[xo + 3 * r + 1]! * l[1]! + x[xo + 3 * r + 2]! * l[2]!);
    let len = Math.hypot(n[0]!, n[1]!, n[2]!) || 1;
    if (n[0]! * dx + n[1]! * dy + n[2]! * dz > 0) len = -len;
    const p = d.instInts[f.inst * INST_INTS]!;
    out.t = f.t;
    out.nx = n[0]! / len;
    out.ny = n[1]! / len;
    out.nz = n[2]! / len;
    out.reflectance = d.primInts[p * PRIM_INTS] === ElementKind.Surface ? d.triValues[f.element]! : d.primFloats[p * PRIM_FLOATS + PrimFloat.groundReflectance]!;
    out.objectId = d.instInts[f.inst * INST_INTS + 1]!;
    out.classId = d.instInts[f.inst * INST_INTS + 2]!;
    return true;
  }

  traverse(
    ox: number, oy: number, oz: number, dx: number, dy: number, dz: number,
    tmin: number, tmax: number,
    visit: (hit: ElementHit) => boolean,
  ): void {
    const d = this.data;
    const hit: SceneElementHit = newSceneElementHit();
    for (const f of this.collect(ox, oy, oz, dx, dy, dz, tmin, tmax, false)) {
      const p = d.instInts[f.inst * INST_INTS]!;
      const kind = d.primInts[p * PRIM_INTS]! as ElementKind;
      hit.kind = kind;
      hit.t = f.t;
      hit.muT = f.t;
      hit.instance = f.inst;
      hit.primitive = p;
      hit.element = f.element;
      hit.objectId = d.instInts[f.inst * INST_INTS + 1]!;
      hit.classId = d.instInts[f.inst * INST_INTS + 2]!;
      if (kind === ElementKind.Surface || kind === ElementKind.Ground) {
        hit.sourceIndex = d.triSource[f.element]!;
        hit.mahalanobis = 0;
        hit.pHit = kind === ElementKind.Ground ? d.triValues[f.element]! : 1;
        hit.varT = kind === ElementKind.Ground ? d.primFloats[p * PRIM_FLOATS + PrimFloat.param]! : 0;
        hit.mean.fill(0);
        hit.chol.fill(0);
      } else {
        hit.sourceIndex = d.gaussSource[f.element]!;
        hit.mahalanobis = f.m;
        hit.varT = f.varT;
        hit.pHit = d.gauss[f.element * GAUSS_STRIDE + 15]!;
        this.helper.worldGaussian(f.element, f.inst, hit.mean, hit.chol);
      }
      if (visit(hit)) return;
    }
  }
}

export function createBruteForceQuery(data: SceneData): BruteForceSceneQuery {
  return new BruteForceSceneQuery(data);
}
