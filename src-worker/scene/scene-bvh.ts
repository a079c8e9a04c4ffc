/**
 * The SceneQuery over SceneData's two-level BVH (layout in scene-data.ts).
 *
 *   createSceneQuery(data: SceneData): BvhSceneQuery      (implements SceneQuery)
 *
 * Every query runs in the WebAssembly kernel (kernel/ray-kernel.c: 4-wide trees, SIMD box tests)
 * wherever the runtime has WebAssembly SIMD and the ray's interval is within its reach, else in
 * the reference walk (reference-walk.ts), which gives the same answers bit for bit and is what
 * the kernel is tested against; createSceneQuery(data, 'js') asks for the reference always.
 * - closestSurface: the nearest mesh or ground triangle (ray-closest.c; the reference walks the
 *   surface instance tree nearest first and stops at the first element);
 * - closestSurfaceBeam: closestSurface for up to 32 rays from one origin (the physics stencil)
 *   in one kernel walk over the union of the rays (ray-beam.c); the reference casts them one by one;
 * - traverse: every element nearest first to a visitor that may stop (ray-traverse.c, handing
 *   elements back one at a time; the reference's ordered walk);
 * - collect: every element in no order to a sink (ray-collect.c; the reference's unordered walk),
 *   for the fit's replay.
 *
 * One query object per thread: it owns its walk state and hit records (nothing allocates per
 * ray). The ElementHit passed to `visit` is one reused object (a SceneElementHit, which also
 * says which instance / element was met): copy what you keep.
 * After closestSurface returns true, `lastInstance`, `lastTriangle` (index into triVerts) and
 * `lastU`, `lastV` (barycentrics) describe the hit.
 *
 * Rays must have unit directions for t to be metres (the transforms are rigid, so t is the
 * same in every frame). Creating a query is cheap; cache one per scene per worker.
 */
import { INST_INTS } from './scene-data';
import { type SceneData } from '../../src-common/scene-data';
import type { ElementHit, SceneQuery, SurfaceHit } from './scene-query';
import { fillElementHit, newSceneElementHit, type SceneElementHit } from './element-hit';
import { fillSurfaceHit } from './instance-frame';
import { ReferenceWalk, WalkOrder, type ElementVisitor } from './reference-walk';
import { BEAM_F_STRIDE, BEAM_I_OFFSET, BEAM_I_STRIDE, BEAM_MAX, ElemF, ElemI, HitF, HitI, RayKernel } from './kernel/ray-kernel';
import type { KernelSink } from './kernel/kernel-module';

export { newSceneElementHit, type SceneElementHit } from './element-hit';

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

export class BvhSceneQuery implements SceneQuery {
  readonly data: SceneData;
  lastInstance = -1;
  lastTriangle = -1;
  lastU = 0.0;
  lastV = 0.0;

  private readonly kernelMode: SurfaceKernel;
  /** The WebAssembly kernel (undefined: not looked up yet; null: the reference walk serves). */
  private kernel: RayKernel | null | undefined;
  private reference: ReferenceWalk | null = null;
  private readonly hit: SceneElementHit = newSceneElementHit();
  private readonly sigma = new Float64Array(6);
  private closestT = 0.0;
  // The reference walk's visitors, made once; what they forward to is set per call.
  private visit: (hit: ElementHit) => boolean = () => true;
  private sink: KernelSink = () => undefined;
  private sinkRay = 0;
  private readonly closestVisitor: ElementVisitor;
  private readonly traverseVisitor: ElementVisitor;
  private readonly collectVisitor: ElementVisitor;
  /** The ray traverse() is walking (world origin, direction): fillElementHit places it on hit cells. */
  private readonly ray = new Float64Array(6);

  constructor(data: SceneData, kernel: SurfaceKernel = 'auto') {
    this.data = data;
    this.kernelMode = kernel;
    // The first surface met is the closest; of several met at exactly that t the last handed
    // over wins, as in the kernel (a tie is the one place the two may differ: ray-kernel.c).
    this.closestVisitor = (inst, tri, _triangle, m) => {
      this.lastInstance = inst;
      this.lastTriangle = tri;
      this.lastU = m[1]!;
      this.lastV = m[2]!;
      this.closestT = m[0]!;
      return m[0]!;
    };
    this.traverseVisitor = (inst, e, triangle, m) => {
      const m2 = m[1]!;
      return this.visitElement(m[0]!, e, inst, triangle ? 0 : Math.sqrt(m2 > 0 ? m2 : 0), m[2]!, this.visit) ? -Infinity : Infinity;
    };
    this.collectVisitor = (inst, e, triangle, m) => {
      const m2 = m[1]!;
      this.sink(this.sinkRay, this.data.instInts[inst * INST_INTS]!, e, m[0]!, triangle ? 0 : m2 > 0 ? m2 : 0, triangle ? 0 : m[2]!);
      return Infinity;
    };
  }

  /** The WebAssembly kernel this query casts with, or null where the reference walk serves. */
  rayKernel(): RayKernel | null {
    if (this.kernel === undefined) this.kernel = this.kernelMode === 'auto' ? kernelFor(this.data) : null;
    return this.kernel;
  }

  /** The kernel where it takes this interval (its float box margins scale with it; kernel.h), else null. */
  private kernelFor(tmin: number, tmax: number): RayKernel | null {
    const k = this.kernel === undefined ? this.rayKernel() : this.kernel;
    return k !== null && tmax <= KERNEL_REACH && tmin >= -KERNEL_REACH ? k : null;
  }

  private walker(): ReferenceWalk {
    return (this.reference ??= new ReferenceWalk(this.data));
  }

  closestSurface(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number, out: SurfaceHit): boolean {
    const k = this.kernelFor(tmin, tmax);
    if (k === null) {
      this.lastInstance = -1;
      this.walker().walk(this.data.rootSurface, ox, oy, oz, dx, dy, dz, tmin, tmax, WalkOrder.Nearest, this.closestVisitor);
      if (this.lastInstance < 0) return false;
      fillSurfaceHit(this.data, this.closestT, this.lastInstance, this.lastTriangle, dx, dy, dz, out);
      return true;
    }
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

  /**
   * Closest surfaces of up to 32 rays sharing the origin (dirs: 3 per ray), in one kernel walk;
   * each out[k] as closestSurface would fill it. Returns the mask of rays that hit.
   */
  closestSurfaceBeam(ox: number, oy: number, oz: number, dirs: ArrayLike<number>, count: number, tmin: number, tmax: number, out: SurfaceHit[]): number {
    const k = this.kernelFor(tmin, tmax);
    if (k === null || count > BEAM_MAX) {
      // The reference casts the rays one by one: the same answers.
      let m = 0;
      for (let r = 0; r < count; r++) {
        if (this.closestSurface(ox, oy, oz, dirs[3 * r]!, dirs[3 * r + 1]!, dirs[3 * r + 2]!, tmin, tmax, out[r]!)) m |= 1 << r;
      }
      return m;
    }
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

  traverse(
    ox: number, oy: number, oz: number, dx: number, dy: number, dz: number,
    tmin: number, tmax: number,
    visit: (hit: ElementHit) => boolean,
  ): void {
    const r = this.ray;
    r[0] = ox; r[1] = oy; r[2] = oz; r[3] = dx; r[4] = dy; r[5] = dz;
    const k = this.kernelFor(tmin, tmax);
    if (k === null) {
      this.visit = visit;
      this.walker().walk(this.data.rootAll, ox, oy, oz, dx, dy, dz, tmin, tmax, WalkOrder.Nearest, this.traverseVisitor);
      return;
    }
    // The kernel walks the trees and measures Gaussians along the ray; the elements come back
    // one at a time, in the same order, to the same visitElement.
    const f = k.elemF, i = k.elemI;
    for (let more = k.travBegin(ox, oy, oz, dx, dy, dz, tmin, tmax); more; more = k.travNext()) {
      if (this.visitElement(f[ElemF.t]!, i[ElemI.element]!, i[ElemI.instance]!, f[ElemF.mahalanobis]!, f[ElemF.varT]!, visit)) return;
    }
  }

  /**
   * Every element the ray meets within (tmin, tmax], in no order, to `sink` as (ray, primitive,
   * element index into triVerts or gauss, t, m² clamped at 0, σ_t²; zeros for triangles);
   * `ray` is the caller's tag.
   */
  collect(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number, ray: number, sink: KernelSink): void {
    const k = this.kernelFor(tmin, tmax);
    if (k !== null) {
      k.collect(ox, oy, oz, dx, dy, dz, tmin, tmax, ray, sink);
      return;
    }
    this.sink = sink;
    this.sinkRay = ray;
    this.walker().walk(this.data.rootAll, ox, oy, oz, dx, dy, dz, tmin, tmax, WalkOrder.Any, this.collectVisitor);
  }

  /** Fills the reused hit record for element `e` of instance `inst` met at `t` and calls the visitor. */
  private visitElement(t: number, e: number, inst: number, mahalanobis: number, varT: number, visit: (hit: ElementHit) => boolean): boolean {
    fillElementHit(this.data, this.hit, inst, e, t, mahalanobis, varT, this.sigma, this.ray);
    return visit(this.hit);
  }
}

/** A query over a built (or received) scene. Cheap: wraps the arrays. */
export function createSceneQuery(data: SceneData, kernel: SurfaceKernel = 'auto'): BvhSceneQuery {
  return new BvhSceneQuery(data, kernel);
}
