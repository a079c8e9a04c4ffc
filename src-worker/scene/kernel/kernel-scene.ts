/**
 * A scene laid out for the ray kernel in a shared WebAssembly memory, once, for every thread.
 *
 *   const ks = layoutKernelScene(data);   // null where the kernel cannot serve this scene
 *   shared.kernel = ks;                   // posted with the scene: workers instantiate over ks.memory
 *
 * The memory holds, after the module's static data (__heap_base): the Scene record of kernel.h,
 * the 4-wide trees (wide-bvh.ts), the triangles as v0 and edges in double (the values the JS
 * test computes from triVerts each time, so precomputing them changes no bit), the per-triangle
 * values, instances, per-primitive roots / kinds / parameters and the Gaussians. Each thread that
 * casts grows the memory by its own block for thread-local state and stack (ray-kernel.ts).
 *
 * Why a copy at all: a WebAssembly instance can only address its own memory, so the kernel
 * cannot read SceneData's SharedArrayBuffers; the layout is made once per scene (in the thread
 * that posts it to workers: scene-store.ts shareScene) and shared, not once per worker.
 */
import { PRIM_FLOATS, PRIM_INTS, PrimFloat } from '../scene-data';
import type { KernelScene, SceneData } from '../../../src-common/scene-data';

import { ElementKind } from '../scene-query';
import { kernelModule, kernelStatics, MAX_PAGES, PAGE } from './kernel-module';
import { collapseTree, innerNodeCount, WIDE_NODE_WORDS, type WideOut } from './wide-bvh';


/** Byte offsets of each region, 16-aligned. */
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

/**
 * Lays `data` out for the kernel, or returns null where the kernel cannot serve it: no
 * WebAssembly SIMD and threads, an empty scene, a layout beyond 4 GiB, a tree deeper than the
 * kernel's stacks or a leaf larger than its encoding. The reference walk then serves, with the
 * same answers.
 */
export function layoutKernelScene(data: SceneData): KernelScene | null {
  const mod = kernelModule();
  if (!mod || data.rootAll < 0) return null;
  const t0 = performance.now();
  const { heapBase, stackEntries } = kernelStatics(mod);
  // Each wide level of the closest-surface descent pushes at most three children.
  if (3 * maxDepth(data) + 8 > stackEntries) return null;
  // At most one wide node per binary inner node, plus one per tree whose root is a leaf.
  const wideNodes = innerNodeCount(data.nodeLinks, data.nodeCount) + data.primitiveCount + 2;
  const lay = layout(heapBase, data, wideNodes);
  const pages = Math.ceil(lay.end / PAGE);
  if (pages > MAX_PAGES) return null;
  const memory = new WebAssembly.Memory({ initial: pages, maximum: MAX_PAGES, shared: true });
  const buf = memory.buffer, P = data.primitiveCount;
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
  return { memory, record: lay.scene, bytes: lay.end, buildMs: performance.now() - t0 };
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
