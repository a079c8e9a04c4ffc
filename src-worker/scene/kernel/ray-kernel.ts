/**
 * The WebAssembly ray kernel (ray-kernel.c and beside it) for one scene, on this thread.
 *
 *   const k = RayKernel.create(data);     // null where WebAssembly SIMD is missing or the scene does not fit
 *   if (k.closest(ox, oy, oz, dx, dy, dz, tmin, tmax)) … k.hitF[HitF.t], k.hitI[HitI.instance] …
 *       // BvhSceneQuery.closestSurface's SurfaceHit and lastInstance / lastTriangle / lastU / lastV
 *   for (let r = k.travBegin(ox, oy, oz, dx, dy, dz, tmin, tmax); r; r = k.travNext()) … k.elemF[0], k.elemI …
 *       // BvhSceneQuery.traverse's elements in increasing t: t, element, instance, type
 *
 * BvhSceneQuery delegates both traversals to it; the answers are the JS traversals', bit for bit
 * (ray-kernel.c says why, and where two elements tie), the closest surface ≈ 2.9× sooner on the
 * engine benchmark, a whole hybrid simulation ≈ 2×.
 *
 * Memory: a WebAssembly instance addresses only its own linear memory, so each kernel holds a
 * copy of what the traversals read (triangles as v0 and edges in double, twice the scene's
 * floats; Gaussians; instances) plus the 4-wide trees (wide-bvh.ts): 176 MB for the engine
 * benchmark's 1.5 M triangles, a few MB for a composed scene. That is one copy per worker thread per scene,
 * made once when the thread's query first casts a ray (scene-bvh.ts keeps the last two);
 * SceneData itself stays shared.
 */
import { PRIM_FLOATS, PRIM_INTS, PrimFloat, type SceneData } from '../scene-data';
import { ElementKind } from '../scene-query';
import { RAY_KERNEL_WASM } from './ray-kernel-wasm';
import { collapseTree, innerNodeCount, WIDE_NODE_WORDS, type WideOut } from './wide-bvh';

interface KernelExports {
  rk_init(scene: number): void;
  rk_hit(): number;
  rk_elem(): number;
  rk_stack_size(): number;
  rk_closest(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number): number;
  rk_trav_begin(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number): number;
  rk_trav_next(): number;
  __heap_base: WebAssembly.Global;
}

const PAGE = 65536;
const MAX_PAGES = 65536; // wasm32: 4 GiB
/** Pages the module's static data needs at least (its stacks and traversal heap: ~1.1 MB). */
const STATIC_PAGES = 32;

/** Indices into RayKernel.hitF and hitI (the layout of g_hit in ray-closest.c). */
export const HitF = { t: 0, nx: 1, ny: 2, nz: 3, reflectance: 4, u: 5, v: 6 } as const;
export const HitI = { instance: 0, triangle: 1, objectId: 2, classId: 3 } as const;
/** Indices into RayKernel.elemF and elemI (g_elem in ray-traverse.c). */
export const ElemF = { t: 0, mahalanobis: 1, varT: 2 } as const;
export const ElemI = { element: 0, instance: 1, type: 2 } as const;

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

/** Byte offsets of each region in the kernel's memory, 16-aligned; `scene` is the Scene record of kernel.h. */
interface Layout {
  scene: number; nodes: number; tv: number; tval: number; instInts: number; instXform: number; tlasRefs: number;
  primRoot: number; primRefl: number; primKind: number; primParam: number; gauss: number; end: number;
}

function layout(heapBase: number, data: SceneData, wideNodes: number): Layout {
  const align = (x: number) => (x + 15) & ~15;
  const P = data.primitiveCount;
  const scene = align(heapBase);
  const nodes = align(scene + 13 * 4);
  const tv = align(nodes + wideNodes * WIDE_NODE_WORDS * 4);
  const tval = align(tv + 2 * data.triVerts.byteLength);
  const instInts = align(tval + data.triValues.byteLength);
  const instXform = align(instInts + data.instInts.byteLength);
  const tlasRefs = align(instXform + data.instXform.byteLength);
  const primRoot = align(tlasRefs + data.tlasRefs.byteLength);
  const primRefl = align(primRoot + 4 * P);
  const primKind = align(primRefl + 8 * P);
  const primParam = align(primKind + 4 * P);
  const gauss = align(primParam + 8 * P);
  return { scene, nodes, tv, tval, instInts, instXform, tlasRefs, primRoot, primRefl, primKind, primParam, gauss, end: align(gauss + data.gauss.byteLength) };
}

export class RayKernel {
  /** Bytes of the kernel's memory (its copy of the scene and its wide trees). */
  readonly memoryBytes: number;
  /** Milliseconds to lay the scene out and collapse the trees. */
  readonly buildMs: number;
  /** The last closest hit's doubles: [t, nx, ny, nz, reflectance, u, v] (HitF). */
  readonly hitF: Float64Array;
  /** The last closest hit's integers: [instance (−1: none), triangle, objectId, classId] (HitI). */
  readonly hitI: Int32Array;
  /** The traversal's current element: [t, mahalanobis, varT] (ElemF; the last two for Gaussians only). */
  readonly elemF: Float64Array;
  /** The traversal's current element: [element, instance, type] (ElemI; type 2 triangle, 3 Gaussian). */
  readonly elemI: Int32Array;
  private readonly exp: KernelExports;

  private constructor(exp: KernelExports, memory: WebAssembly.Memory, bytes: number, buildMs: number) {
    this.exp = exp;
    const hit = exp.rk_hit(), elem = exp.rk_elem();
    this.hitF = new Float64Array(memory.buffer, hit, 7);
    this.hitI = new Int32Array(memory.buffer, hit + 56, 4);
    this.elemF = new Float64Array(memory.buffer, elem, 3);
    this.elemI = new Int32Array(memory.buffer, elem + 24, 3);
    this.memoryBytes = bytes;
    this.buildMs = buildMs;
  }

  /**
   * A kernel over `data`, or null where it cannot serve: no WebAssembly SIMD, an empty scene, a
   * scene beyond 4 GiB, a tree deeper than the kernel's stacks or a leaf larger than its
   * encoding. Callers then use the JS traversals, which give the same answers.
   */
  static create(data: SceneData): RayKernel | null {
    const mod = kernelModule();
    if (!mod || data.rootAll < 0) return null;
    const t0 = performance.now();
    // At most one wide node per binary inner node, plus one per tree whose root is a leaf.
    const wideNodes = innerNodeCount(data.nodeLinks, data.nodeCount) + data.primitiveCount + 2;
    // The module's static data (stacks, heap, records) ends at __heap_base; the scene goes after it.
    const memory = new WebAssembly.Memory({ initial: STATIC_PAGES, maximum: MAX_PAGES });
    const exp = new WebAssembly.Instance(mod, { env: { memory } }).exports as unknown as KernelExports;
    // Each wide level of the closest-surface descent pushes at most three children.
    if (3 * maxDepth(data) + 8 > exp.rk_stack_size()) return null;
    const lay = layout(exp.__heap_base.value as number, data, wideNodes);
    const pages = Math.ceil(lay.end / PAGE);
    if (pages > MAX_PAGES) return null;
    if (pages > STATIC_PAGES) memory.grow(pages - STATIC_PAGES);
    const buf = memory.buffer, P = data.primitiveCount;
    // Triangles as the tests use them: v0, v1 − v0, v2 − v0 in double (differences of the floats,
    // exactly what the JS test computes each time).
    const tv = new Float64Array(buf, lay.tv, data.triVerts.length), src = data.triVerts;
    for (let o = 0; o < src.length; o += 9) {
      const ax = src[o]!, ay = src[o + 1]!, az = src[o + 2]!;
      tv[o] = ax; tv[o + 1] = ay; tv[o + 2] = az;
      tv[o + 3] = src[o + 3]! - ax; tv[o + 4] = src[o + 4]! - ay; tv[o + 5] = src[o + 5]! - az;
      tv[o + 6] = src[o + 6]! - ax; tv[o + 7] = src[o + 7]! - ay; tv[o + 8] = src[o + 8]! - az;
    }
    new Float32Array(buf, lay.tval, data.triValues.length).set(data.triValues);
    new Int32Array(buf, lay.instInts, data.instInts.length).set(data.instInts);
    new Float64Array(buf, lay.instXform, data.instXform.length).set(data.instXform);
    new Int32Array(buf, lay.tlasRefs, data.tlasRefs.length).set(data.tlasRefs);
    new Float64Array(buf, lay.gauss, data.gauss.length).set(data.gauss);
    const primRoot = new Int32Array(buf, lay.primRoot, P);
    const primRefl = new Float64Array(buf, lay.primRefl, P);
    const primKind = new Int32Array(buf, lay.primKind, P);
    const primParam = new Float64Array(buf, lay.primParam, P);
    const out: WideOut = { f32: new Float32Array(buf), i32: new Int32Array(buf), base: lay.nodes / 4, next: 0 };
    const collapse = (root: number) => (root >= 0 ? collapseTree(data.nodeBounds, data.nodeLinks, root, out) : -1);
    let rootSurface: number, rootAll: number;
    try {
      for (let p = 0; p < P; p++) {
        const kind = data.primInts[p * PRIM_INTS]!;
        primRoot[p] = collapse(data.primInts[p * PRIM_INTS + 3]!);
        primKind[p] = kind;
        // Meshes carry a reflectance per triangle; a ground one for all its triangles.
        primRefl[p] = kind === ElementKind.Ground ? data.primFloats[p * PRIM_FLOATS + PrimFloat.groundReflectance]! : -1;
        primParam[p] = data.primFloats[p * PRIM_FLOATS + PrimFloat.param]!;
      }
      rootSurface = collapse(data.rootSurface);
      rootAll = collapse(data.rootAll);
    } catch {
      return null; // a leaf too large for the encoding (not built by SceneBuilder): keep the JS path
    }
    // The Scene record, field by field in kernel.h's order (pointers are 32-bit in wasm32).
    new Int32Array(buf, lay.scene, 13).set([
      lay.nodes, lay.tv, lay.tval, lay.instInts, lay.instXform, lay.tlasRefs,
      lay.primRoot, lay.primRefl, lay.primKind, lay.primParam, lay.gauss, rootSurface, rootAll,
    ]);
    exp.rk_init(lay.scene);
    return new RayKernel(exp, memory, lay.end, performance.now() - t0);
  }

  /**
   * Closest surface along the ray (unit direction), t in (tmin, tmax]. Returns whether there is
   * one; then `hitF` and `hitI` hold it.
   */
  closest(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number): boolean {
    return this.exp.rk_closest(ox, oy, oz, dx, dy, dz, tmin, tmax) !== 0;
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

function checked(r: number): boolean {
  if (r < 0) throw new Error('ray kernel: more than 65,536 items pending along one ray (traversal heap full)');
  return r !== 0;
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
