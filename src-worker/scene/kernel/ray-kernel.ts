/**
 * The WebAssembly ray kernel (ray-kernel.c and beside it) for one scene, on this thread.
 *
 *   const k = RayKernel.create(data);     // null where WebAssembly SIMD is missing or the scene does not fit
 *   if (k.closest(ox, oy, oz, dx, dy, dz, tmin, tmax)) … k.hitF[HitF.t], k.hitI[HitI.instance] …
 *       // BvhSceneQuery.closestSurface's SurfaceHit and lastInstance / lastTriangle / lastU / lastV
 *   for (let r = k.travBegin(ox, oy, oz, dx, dy, dz, tmin, tmax); r; r = k.travNext()) … k.elemF[0], k.elemI …
 *       // BvhSceneQuery.traverse's elements in increasing t: t, element, instance, type
 *   k.beamDirs.set(dirs); const mask = k.closestBeam(ox, oy, oz, count, tmin, tmax);
 *       // BvhSceneQuery.closestSurfaceBeam: ray k's answer at k·BEAM_F_STRIDE / k·BEAM_I_STRIDE
 *
 * BvhSceneQuery delegates every query to it; the answers are the reference walk's, bit for bit
 * (ray-kernel.c says why, and where two elements tie), the closest surface ≈ 2.9× sooner on the
 * engine benchmark, a whole hybrid simulation ≈ 2×.
 *
 * Memory: the scene's kernel layout (kernel-scene.ts) is shared: SceneData.kernel when the scene
 * was shared for workers (scene-store.ts shareScene), else made here for this thread. This
 * thread's instance grows that memory once by its own block (thread-local state, ≈ 1.1 MB with
 * the traversal heap, and a 64 KiB C stack).
 */
import { type SceneData, type KernelScene } from '../../../src-common/scene-data';
import { kernelImports, kernelModule, PAGE, type KernelExports, type KernelSink } from './kernel-module';
import { layoutKernelScene } from './kernel-scene';

export { rayKernelAvailable } from './kernel-module';

/** Indices into RayKernel.hitF and hitI (the layout of g_hit in ray-closest.c). */
export const HitF = { t: 0, nx: 1, ny: 2, nz: 3, reflectance: 4, u: 5, v: 6 } as const;
export const HitI = { instance: 0, triangle: 1, objectId: 2, classId: 3 } as const;
/** Indices into RayKernel.elemF and elemI (g_elem in ray-traverse.c). */
export const ElemF = { t: 0, mahalanobis: 1, varT: 2 } as const;
export const ElemI = { element: 0, instance: 1, type: 2 } as const;
/** Most rays in one beam, and the stride of its answers in beamF (doubles) and beamI (ints). */
export const BEAM_MAX = 32;
export const BEAM_F_STRIDE = 9;
export const BEAM_I_STRIDE = 18;
/** Where HitI's fields start within a beam answer's ints (after its 7 doubles). */
export const BEAM_I_OFFSET = 14;

const STACK_BYTES = 65536;

export class RayKernel {
  /** The scene's layout in kernel memory (shared with other threads when the scene came with one). */
  readonly scene: KernelScene;
  /** Bytes this thread added to the memory (its thread-local block and stack). */
  readonly threadBytes: number;
  /** The last closest hit's doubles: [t, nx, ny, nz, reflectance, u, v] (HitF). */
  readonly hitF: Float64Array;
  /** The last closest hit's integers: [instance (−1: none), triangle, objectId, classId] (HitI). */
  readonly hitI: Int32Array;
  /** The traversal's current element: [t, mahalanobis, varT] (ElemF; the last two for Gaussians only). */
  readonly elemF: Float64Array;
  /** The traversal's current element: [element, instance, type] (ElemI; type 2 triangle, 3 Gaussian). */
  readonly elemI: Int32Array;
  /** The beam's directions, 3 per ray (write them, then closestBeam). */
  readonly beamDirs: Float64Array;
  /** The beam's answers: ray k's HitF fields at k·BEAM_F_STRIDE, its HitI fields at k·BEAM_I_STRIDE + BEAM_I_OFFSET. */
  readonly beamF: Float64Array;
  readonly beamI: Int32Array;
  private readonly exp: KernelExports;
  private readonly sink: { fn: KernelSink };

  private constructor(scene: KernelScene, exp: KernelExports, threadBytes: number, sink: { fn: KernelSink }) {
    this.scene = scene;
    this.exp = exp;
    this.sink = sink;
    this.threadBytes = threadBytes;
    // Views after this thread's grow, so they cover its block.
    const buf = scene.memory.buffer, hit = exp.rk_hit(), elem = exp.rk_elem();
    this.hitF = new Float64Array(buf, hit, 7);
    this.hitI = new Int32Array(buf, hit + 56, 4);
    this.elemF = new Float64Array(buf, elem, 3);
    this.elemI = new Int32Array(buf, elem + 24, 3);
    const dirs = exp.rk_beam_dirs(), out = exp.rk_beam_out();
    this.beamDirs = new Float64Array(buf, dirs, 3 * BEAM_MAX);
    this.beamF = new Float64Array(buf, out, BEAM_F_STRIDE * BEAM_MAX);
    this.beamI = new Int32Array(buf, out, BEAM_I_STRIDE * BEAM_MAX);
  }

  /**
   * This thread's kernel over `data` (its shared layout, or a private one made now), or null
   * where the kernel cannot serve (kernel-scene.ts layoutKernelScene says when); callers then
   * use the reference walk (reference-walk.ts), which gives the same answers.
   */
  static create(data: SceneData): RayKernel | null {
    const mod = kernelModule();
    const scene = data.kernel instanceof Object && data.kernel.memory instanceof WebAssembly.Memory ? data.kernel : layoutKernelScene(data);
    if (!mod || !scene) return null;
    const sink = { fn: NO_SINK };
    const exp = new WebAssembly.Instance(mod, kernelImports(scene.memory, sink)).exports as unknown as KernelExports;
    // Growing a shared memory is atomic, so each thread gets its own pages.
    // This thread's block: thread-local variables, scratch (stacks and traversal heap), C stack.
    // It starts on a page, which satisfies any TLS alignment.
    const tls = ((exp.__tls_size.value as number) + 15) & ~15;
    const pages = Math.ceil((tls + exp.rk_scratch_bytes() + STACK_BYTES) / PAGE);
    const base = scene.memory.grow(pages) * PAGE;
    exp.__wasm_init_tls(base);
    exp.__stack_pointer.value = base + pages * PAGE; // the stack grows down from the block's end
    exp.rk_init(scene.record, base + tls);
    return new RayKernel(scene, exp, pages * PAGE, sink);
  }

  /**
   * Closest surface along the ray (unit direction), t in (tmin, tmax]. Returns whether there is
   * one; then `hitF` and `hitI` hold it.
   */
  closest(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number): boolean {
    return this.exp.rk_closest(ox, oy, oz, dx, dy, dz, tmin, tmax) !== 0;
  }

  /**
   * Closest surfaces of the first `count` (≤ BEAM_MAX) rays in beamDirs, all from o, in one walk
   * (ray-beam.c). Returns the mask of rays that hit; their answers are in beamF / beamI.
   */
  closestBeam(ox: number, oy: number, oz: number, count: number, tmin: number, tmax: number): number {
    return this.exp.rk_closest_beam(ox, oy, oz, count, tmin, tmax);
  }

  /**
   * Every element the ray meets within (tmin, tmax], in no order, to `sink` (ray-collect.c):
   * (ray, primitive, element index into triVerts or gauss, t, m², σ_t²); `ray` is the caller's tag.
   */
  collect(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number, ray: number, sink: KernelSink): void {
    this.sink.fn = sink;
    this.exp.rk_collect(ox, oy, oz, dx, dy, dz, tmin, tmax, ray);
  }

  /** Starts the front-to-back traversal of a ray; true with its first element in elemF / elemI. */
  travBegin(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number): boolean {
    return checked(this.exp.rk_trav_begin(ox, oy, oz, dx, dy, dz, tmin, tmax));
  }

  /** The traversal's next element (true, in elemF / elemI), or false when there are no more. */
  travNext(): boolean {
    return checked(this.exp.rk_trav_next());
  }
}

const NO_SINK: KernelSink = () => undefined;

function checked(r: number): boolean {
  if (r < 0) throw new Error('ray kernel: more than 65,536 items pending along one ray (traversal heap full)');
  return r !== 0;
}
