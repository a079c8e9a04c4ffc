/**
 * The WebAssembly closest-surface kernel (ray-kernel.c) for one scene, on this thread.
 *
 *   const k = RayKernel.create(data);          // null where WebAssembly SIMD is missing or the scene does not fit
 *   if (k.closest(ox, oy, oz, dx, dy, dz, tmin, tmax)) … k.hitF[HitF.t], k.hitI[HitI.instance] …
 *                                              // the SurfaceHit and lastInstance/… of BvhSceneQuery
 *
 * BvhSceneQuery.closestSurface delegates to it; the answer is the JS traversal's, bit for bit
 * (same double-precision operations; ray-kernel.c says why), 2.5–3.5× sooner.
 *
 * Memory: a WebAssembly instance addresses only its own linear memory, so each kernel holds a
 * copy of what closest-surface queries read (triangles, instances) plus the 4-wide trees
 * (wide-bvh.ts), about the size of the scene's surface part. That is one copy per worker thread
 * per scene, made once when the thread's query first casts a ray; SceneData itself stays shared.
 */
import { PRIM_FLOATS, PRIM_INTS, PrimFloat, type SceneData } from '../scene-data';
import { ElementKind } from '../scene-query';
import { RAY_KERNEL_WASM } from './ray-kernel-wasm';
import { collapseTree, innerNodeCount, WIDE_NODE_WORDS, type WideOut } from './wide-bvh';

interface KernelExports {
  rk_init(nodes: number, tv: number, tval: number, instInts: number, instXform: number, tlasRefs: number, primRoot: number, primRefl: number, rootSurface: number): void;
  rk_hit(): number;
  rk_stack_size(): number;
  rk_closest(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number): number;
  __heap_base: WebAssembly.Global;
}

const PAGE = 65536;
const MAX_PAGES = 65536; // wasm32: 4 GiB

/** Indices into RayKernel.hitF and hitI (the layout of g_hit in ray-kernel.c). */
export const HitF = { t: 0, nx: 1, ny: 2, nz: 3, reflectance: 4, u: 5, v: 6 } as const;
export const HitI = { instance: 0, triangle: 1, objectId: 2, classId: 3 } as const;

let compiled: WebAssembly.Module | null | undefined;

/** The compiled module, or null where this runtime lacks WebAssembly SIMD. Compiled once per thread. */
function kernelModule(): WebAssembly.Module | null {
  if (compiled !== undefined) return compiled;
  compiled = null;
  if (typeof WebAssembly === 'object') {
    const bin = atob(RAY_KERNEL_WASM);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    if (WebAssembly.validate(bytes)) compiled = new WebAssembly.Module(bytes);
  }
  return compiled;
}

/** Whether this runtime can run the kernel at all. */
export function rayKernelAvailable(): boolean {
  return kernelModule() !== null;
}

/** Byte offsets of each region in the kernel's memory, 16-aligned. */
interface Layout { nodes: number; tv: number; tval: number; instInts: number; instXform: number; tlasRefs: number; primRoot: number; primRefl: number; end: number }

function layout(heapBase: number, data: SceneData, wideBound: number): Layout {
  const align = (x: number) => (x + 15) & ~15;
  const nodes = align(heapBase);
  const tv = align(nodes + wideBound * WIDE_NODE_WORDS * 4);
  const tval = align(tv + data.triVerts.byteLength);
  const instInts = align(tval + data.triValues.byteLength);
  const instXform = align(instInts + data.instInts.byteLength);
  const tlasRefs = align(instXform + data.instXform.byteLength);
  const primRoot = align(tlasRefs + data.tlasRefs.byteLength);
  const primRefl = align(primRoot + 4 * data.primitiveCount);
  return { nodes, tv, tval, instInts, instXform, tlasRefs, primRoot, primRefl, end: align(primRefl + 8 * data.primitiveCount) };
}

export class RayKernel {
  /** Bytes of the kernel's memory (its copy of the surface part of the scene and its wide trees). */
  readonly memoryBytes: number;
  /** Milliseconds to lay the scene out and collapse the trees. */
  readonly buildMs: number;
  private readonly exp: KernelExports;
  /** The last hit's doubles: [t, nx, ny, nz, reflectance, u, v] (HitF). */
  readonly hitF: Float64Array;
  /** The last hit's integers: [instance (−1: none), triangle, objectId, classId] (HitI). */
  readonly hitI: Int32Array;

  private constructor(exp: KernelExports, memory: WebAssembly.Memory, hitPtr: number, bytes: number, buildMs: number) {
    this.exp = exp;
    this.hitF = new Float64Array(memory.buffer, hitPtr, 7);
    this.hitI = new Int32Array(memory.buffer, hitPtr + 56, 4);
    this.memoryBytes = bytes;
    this.buildMs = buildMs;
  }

  /**
   * A kernel over `data`'s surface instances, or null where it cannot serve: no WebAssembly SIMD,
   * no surfaces, a scene beyond 4 GiB, a tree deeper than the kernel's stacks or a leaf larger
   * than its encoding. Callers then use the JS traversal, which gives the same answers.
   */
  static create(data: SceneData): RayKernel | null {
    const mod = kernelModule();
    if (!mod || data.rootSurface < 0) return null;
    const t0 = performance.now();
    const wideBound = innerNodeCount(data.nodeLinks, data.nodeCount) + data.primitiveCount + 1;
    // The module's static data (stacks, hit record) ends at __heap_base; the scene goes after it.
    const memory = new WebAssembly.Memory({ initial: 2, maximum: MAX_PAGES });
    const exp = new WebAssembly.Instance(mod, { env: { memory } }).exports as unknown as KernelExports;
    // Each wide level pushes at most three children.
    if (3 * maxDepth(data) + 8 > exp.rk_stack_size()) return null;
    const lay = layout(exp.__heap_base.value as number, data, wideBound);
    const pages = Math.ceil(lay.end / PAGE);
    if (pages > MAX_PAGES) return null;
    if (pages > 2) memory.grow(pages - 2);
    const buf = memory.buffer;
    new Float32Array(buf, lay.tv, data.triVerts.length).set(data.triVerts);
    new Float32Array(buf, lay.tval, data.triValues.length).set(data.triValues);
    new Int32Array(buf, lay.instInts, data.instInts.length).set(data.instInts);
    new Float64Array(buf, lay.instXform, data.instXform.length).set(data.instXform);
    new Int32Array(buf, lay.tlasRefs, data.tlasRefs.length).set(data.tlasRefs);
    const out: WideOut = { f32: new Float32Array(buf), i32: new Int32Array(buf), base: lay.nodes / 4, next: 0 };
    const primRoot = new Int32Array(buf, lay.primRoot, data.primitiveCount);
    const primRefl = new Float64Array(buf, lay.primRefl, data.primitiveCount);
    let rootSurface: number;
    try {
      for (let p = 0; p < data.primitiveCount; p++) {
        const kind = data.primInts[p * PRIM_INTS]!, root = data.primInts[p * PRIM_INTS + 3]!;
        const triangles = kind === ElementKind.Surface || kind === ElementKind.Ground;
        primRoot[p] = triangles && root >= 0 ? collapseTree(data.nodeBounds, data.nodeLinks, root, out) : -1;
        // Meshes carry a reflectance per triangle; a ground one for all its triangles.
        primRefl[p] = kind === ElementKind.Ground ? data.primFloats[p * PRIM_FLOATS + PrimFloat.groundReflectance]! : -1;
      }
      rootSurface = collapseTree(data.nodeBounds, data.nodeLinks, data.rootSurface, out);
    } catch {
      return null; // a leaf too large for the encoding (not built by SceneBuilder): keep the JS path
    }
    exp.rk_init(lay.nodes, lay.tv, lay.tval, lay.instInts, lay.instXform, lay.tlasRefs, lay.primRoot, lay.primRefl, rootSurface);
    return new RayKernel(exp, memory, exp.rk_hit(), lay.end, performance.now() - t0);
  }

  /**
   * Closest surface along the ray (unit direction), t in (tmin, tmax]. Returns whether there is
   * one; then `hitF` and `hitI` hold it (HIT_* indices).
   */
  closest(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number): boolean {
    return this.exp.rk_closest(ox, oy, oz, dx, dy, dz, tmin, tmax) !== 0;
  }
}

/** Depth of the deepest node of any tree (children are stored after their parents). */
function maxDepth(data: SceneData): number {
  const nl = data.nodeLinks, depth = new Int32Array(data.nodeCount);
  let max = 0;
  for (let n = 0; n < data.nodeCount; n++) {
    if (nl[2 * n + 1] !== 0) continue;
    const c = nl[2 * n]!, d = depth[n]! + 1;
    depth[c] = d;
    depth[c + 1] = d;
    if (d > max) max = d;
  }
  return max;
}
