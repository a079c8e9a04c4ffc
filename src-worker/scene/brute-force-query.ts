/**
 * The correctness oracle: a SceneQuery over the same SceneData that tests every element of
 * every instance (no BVH), using the named predicates of geometry/ray-primitives.ts.
 * O(elements) per ray: for tests and small scenes only.
 *
 *   createBruteForceQuery(data: SceneData): BruteForceSceneQuery
 *
 * traverse() visits elements sorted by t (ties: instance, then element index).
 */
import { rayGaussian, rayTriangle } from '../geometry/ray-primitives';
import { GAUSS_STRIDE, INST_INTS, PRIM_FLOATS, PRIM_INTS, PrimFloat } from './scene-data';
import { type SceneData } from '../../src-common/scene-data';
import { ElementKind, type ElementHit, type SceneQuery, type SurfaceHit } from './scene-query';
import { fillElementHit, newSceneElementHit } from './element-hit';
import { fillSurfaceHit, instanceRay } from './instance-frame';

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
  private readonly ray = new Float64Array(6);
  private readonly sigma = new Float64Array(6);

  constructor(data: SceneData) {
    this.data = data;
  }

  private collect(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number, surfacesOnly: boolean): Found[] {
    const d = this.data, found: Found[] = [];
    for (let i = 0; i < d.instanceCount; i++) {
      const p = d.instInts[i * INST_INTS]!;
      const kind = d.primInts[p * PRIM_INTS]!;
      const first = d.primInts[p * PRIM_INTS + 1]!, count = d.primInts[p * PRIM_INTS + 2]!;
      const isTri = kind === ElementKind.Surface || kind === ElementKind.Ground;
      if (surfacesOnly && !isTri) continue;
      instanceRay(d, i, ox, oy, oz, dx, dy, dz, this.ray);
      const r = this.ray, lox = r[0]!, loy = r[1]!, loz = r[2]!, ldx = r[3]!, ldy = r[4]!, ldz = r[5]!;
      const thr = d.primFloats[p * PRIM_FLOATS + PrimFloat.param]!;
      for (let e = first; e < first + count; e++) {
        if (isTri) {
          if (rayTriangle(lox, loy, loz, ldx, ldy, ldz, d.triVerts, 9 * e, tmin, tmax, this.tmp)) {
            found.push({ t: this.tmp[0]!, inst: i, element: e, m: 0, varT: 0 });
          }
        } else {
          rayGaussian(lox, loy, loz, ldx, ldy, ldz, d.gauss, e * GAUSS_STRIDE, this.tmp);
          const t = this.tmp[0]!, m2 = this.tmp[1]!;
          if (m2 < thr * thr && t > tmin && t <= tmax) found.push({ t, inst: i, element: e, m: Math.sqrt(Math.max(m2, 0)), varT: this.tmp[2]! });
        }
      }
    }
    found.sort((a, b) => a.t - b.t || a.inst - b.inst || a.element - b.element);
    return found;
  }

  closestSurface(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number, out: SurfaceHit): boolean {
    const f = this.collect(ox, oy, oz, dx, dy, dz, tmin, tmax, true)[0];
    if (!f) return false;
    this.lastInstance = f.inst;
    this.lastTriangle = f.element;
    fillSurfaceHit(this.data, f.t, f.inst, f.element, dx, dy, dz, out);
    return true;
  }

  traverse(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number, visit: (hit: ElementHit) => boolean): void {
    const hit = newSceneElementHit();
    const ray = Float64Array.of(ox, oy, oz, dx, dy, dz);
    for (const f of this.collect(ox, oy, oz, dx, dy, dz, tmin, tmax, false)) {
      fillElementHit(this.data, hit, f.inst, f.element, f.t, f.m, f.varT, this.sigma, ray);
      if (visit(hit)) return;
    }
  }
}

export function createBruteForceQuery(data: SceneData): BruteForceSceneQuery {
  return new BruteForceSceneQuery(data);
}
