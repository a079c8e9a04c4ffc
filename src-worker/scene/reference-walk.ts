/**
 * The reference ray walk over SceneData's two-level BVH (layout in scene-data.ts): the readable
 * JS twin of the WebAssembly kernel (kernel/ray-kernel.c). It answers every query the kernel
 * answers — with the same elements at the same t, bit for bit (test/unit/scene/ray-kernel.test.ts)
 * — and serves where the kernel cannot (no WebAssembly SIMD, rays longer than the kernel's reach,
 * createSceneQuery(data, 'js')).
 *
 *   const w = new ReferenceWalk(data);
 *   w.walk(root, ox, oy, oz, dx, dy, dz, tmin, tmax, WalkOrder.Nearest, visit);
 *
 * One traversal, parameterised by what it visits and in which order it hands elements over:
 * pending items (instance-tree nodes, primitive-tree nodes, elements met) wait in one container,
 * a min-heap on entry distance / element t for WalkOrder.Nearest (so elements come out nearest
 * first and the visitor can stop: closest surface, hybrid and voxel modes) or a stack for
 * WalkOrder.Any (every element, in no order: the fit's replay). Built from the named predicates
 * of geometry/ray-primitives.ts — slabEntry (boxes), rayTriangle (two-sided Möller–Trumbore),
 * rayGaussian (Deschaud et al. 2012, eq. 1: t*, m², σ_t²) — and instance-frame.ts instanceRay. An
 * instance-tree leaf's box is its instance's world box, a lower bound for everything inside, so
 * the instance's primitive root waits under that key; a primitive's elements are tested in its
 * frame, where t is the same (rigid transforms).
 *
 * A new kind of scene element is written twice, once here (measure / met) and once in C
 * (kernel.h, the leaf tests of the walks), with the same operations in the same order; see
 * docs/design.md, "Scenes and the ray kernel".
 */
import { rayGaussian, RaySlabs, rayTriangle, slabEntry } from '../geometry/ray-primitives';
import { instanceRay } from './instance-frame';
import { GAUSS_STRIDE, INST_INTS, PRIM_FLOATS, PRIM_INTS, PrimFloat, PrimInt } from './scene-data';
import { type SceneData } from '../../src-common/scene-data';
import { ElementKind } from './scene-query';

/** How a walk hands elements to its visitor: nearest first (it may stop), or all in no order. */
export const WalkOrder = { Nearest: 0, Any: 1 } as const;
export type WalkOrder = (typeof WalkOrder)[keyof typeof WalkOrder];

/**
 * Receives each element a walk meets: its instance, its index (into triVerts for a triangle, into
 * gauss for a Gaussian), whether it is a triangle, and its measure along the ray in the
 * instance's frame: a triangle's [t, u, v] (rayTriangle), a Gaussian's [t*, m², σ_t²]
 * (rayGaussian). The array is reused: copy what you keep. Returns how far the walk should still
 * go: tmax (or more) for everything, the element's t to finish with the elements tied with it
 * (closest surface), −Infinity to stop now.
 */
export type ElementVisitor = (inst: number, element: number, triangle: boolean, m: Float64Array) => number;

// Pending item codes: b = (instance + 1) · 4 + type (instance −1 for instance-tree nodes), a = node or element.
const INSTANCE_NODE = 0, PRIMITIVE_NODE = 1, TRIANGLE = 2, GAUSSIAN = 3;

export class ReferenceWalk {
  private readonly pending = new PendingItems();
  private readonly world = new RaySlabs();
  private readonly local = new RaySlabs();
  /** The world ray [o, d], and the instance whose frame `ray` and `local` hold now (−1: none). */
  private readonly worldRay = new Float64Array(6);
  private readonly ray = new Float64Array(6);
  private localInst = -1;
  private readonly m = new Float64Array(3);

  constructor(readonly data: SceneData) {}

  /**
   * Walks the tree at `root` (data.rootAll: every instance; data.rootSurface: mesh and ground
   * instances) along the world ray (unit direction), handing `visit` every element met with t in
   * (tmin, tmax], in `order`, until it returns true.
   */
  walk(root: number, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number, order: WalkOrder, visit: ElementVisitor): void {
    if (root < 0 || !(tmax > tmin)) return;
    const w = this.worldRay;
    w[0] = ox; w[1] = oy; w[2] = oz; w[3] = dx; w[4] = dy; w[5] = dz;
    this.world.set(ox, oy, oz, dx, dy, dz);
    this.localInst = -1;
    const entry = slabEntry(this.data.nodeBounds, 6 * root, this.world, tmin, tmax);
    if (entry !== entry) return;
    const p = this.pending;
    p.reset(order === WalkOrder.Nearest);
    p.push(entry, root, INSTANCE_NODE);
    let far = tmax;
    while (p.size > 0) {
      p.take();
      const key = p.takenKey, a = p.takenA, b = p.takenB;
      // Nearest first, everything after this item is farther still.
      if (key > far) return;
      const type = b & 3, inst = (b >> 2) - 1;
      if (type === INSTANCE_NODE || type === PRIMITIVE_NODE) this.expand(a, key, inst, tmin, tmax);
      else far = Math.min(far, visit(inst, a, type === TRIANGLE, this.measure(inst, a, type === TRIANGLE, tmin, tmax)));
    }
  }

  /** Node a's met children, or its leaf's instances or met elements, become pending items. */
  private expand(a: number, key: number, inst: number, tmin: number, tmax: number): void {
    const d = this.data, p = this.pending, first = d.nodeLinks[2 * a]!, count = d.nodeLinks[2 * a + 1]!;
    if (inst >= 0) this.enterInstance(inst);
    if (count === 0) {
      const slabs = inst >= 0 ? this.local : this.world;
      for (let c = first; c <= first + 1; c++) {
        const entry = slabEntry(d.nodeBounds, 6 * c, slabs, tmin, tmax);
        if (entry === entry) p.push(entry, c, (inst + 1) * 4 + (inst >= 0 ? PRIMITIVE_NODE : INSTANCE_NODE));
      }
      return;
    }
    if (inst < 0) {
      // An instance-tree leaf: each instance's primitive root waits under the leaf's entry.
      for (let k = first; k < first + count; k++) {
        const i = d.tlasRefs[k]!, root = d.primInts[d.instInts[i * INST_INTS]! * PRIM_INTS + PrimInt.root]!;
        if (root >= 0) p.push(key, root, (i + 1) * 4 + PRIMITIVE_NODE);
      }
      return;
    }
    const prim = d.instInts[inst * INST_INTS]!, kind = d.primInts[prim * PRIM_INTS]!;
    const triangle = kind === ElementKind.Surface || kind === ElementKind.Ground;
    const limit = d.primFloats[prim * PRIM_FLOATS + PrimFloat.param]!;
    for (let e = first; e < first + count; e++) {
      if (this.met(e, triangle, limit * limit, tmin, tmax)) p.push(this.m[0]!, e, (inst + 1) * 4 + (triangle ? TRIANGLE : GAUSSIAN));
    }
  }

  /**
   * Whether the current local ray meets element e within (tmin, tmax] (its measure in `m`): a
   * triangle it crosses, a Gaussian it passes with m² below the primitive's squared limit.
   */
  private met(e: number, triangle: boolean, limit2: number, tmin: number, tmax: number): boolean {
    const r = this.ray, m = this.m;
    if (triangle) return rayTriangle(r[0]!, r[1]!, r[2]!, r[3]!, r[4]!, r[5]!, this.data.triVerts, 9 * e, tmin, tmax, m);
    rayGaussian(r[0]!, r[1]!, r[2]!, r[3]!, r[4]!, r[5]!, this.data.gauss, e * GAUSS_STRIDE, m);
    const t = m[0]!;
    return !(m[1]! >= limit2) && t > tmin && t <= tmax;
  }

  /** Element e's measure along the ray in instance inst's frame (met already, so this repeats it). */
  private measure(inst: number, e: number, triangle: boolean, tmin: number, tmax: number): Float64Array {
    this.enterInstance(inst);
    const r = this.ray;
    if (triangle) rayTriangle(r[0]!, r[1]!, r[2]!, r[3]!, r[4]!, r[5]!, this.data.triVerts, 9 * e, tmin, tmax, this.m);
    else rayGaussian(r[0]!, r[1]!, r[2]!, r[3]!, r[4]!, r[5]!, this.data.gauss, e * GAUSS_STRIDE, this.m);
    return this.m;
  }

  /** Moves the ray into instance inst's frame (kept until another instance needs it). */
  private enterInstance(inst: number): void {
    if (inst === this.localInst) return;
    const w = this.worldRay, r = this.ray;
    instanceRay(this.data, inst, w[0]!, w[1]!, w[2]!, w[3]!, w[4]!, w[5]!, r);
    this.local.set(r[0]!, r[1]!, r[2]!, r[3]!, r[4]!, r[5]!);
    this.localInst = inst;
  }
}

/** Pending items (key, a, b): a binary min-heap on key (ordered) or a stack (unordered). */
class PendingItems {
  private key = new Float64Array(256);
  private a = new Int32Array(256);
  private b = new Int32Array(256);
  size = 0;
  private ordered = true;
  /** The item take() removed last. */
  takenKey = 0.0;
  takenA = 0;
  takenB = 0;

  reset(ordered: boolean): void {
    this.size = 0;
    this.ordered = ordered;
  }

  push(key: number, a: number, b: number): void {
    if (this.size === this.key.length) this.grow();
    let i = this.size++;
    // Ordered: sift up from the end.
    while (this.ordered && i > 0) {
      const parent = (i - 1) >> 1;
      if (this.key[parent]! <= key) break;
      this.move(parent, i);
      i = parent;
    }
    this.key[i] = key; this.a[i] = a; this.b[i] = b;
  }

  /** Removes the nearest item (ordered) or the newest (unordered) into takenKey / takenA / takenB. */
  take(): void {
    const n = --this.size;
    if (!this.ordered) {
      this.takenKey = this.key[n]!; this.takenA = this.a[n]!; this.takenB = this.b[n]!;
      return;
    }
    this.takenKey = this.key[0]!; this.takenA = this.a[0]!; this.takenB = this.b[0]!;
    if (n === 0) return;
    // Sift the last item down from the top.
    const key = this.key[n]!, a = this.a[n]!, b = this.b[n]!;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && this.key[c + 1]! < this.key[c]!) c++;
      if (this.key[c]! >= key) break;
      this.move(c, i);
      i = c;
    }
    this.key[i] = key; this.a[i] = a; this.b[i] = b;
  }

  private move(from: number, to: number): void {
    this.key[to] = this.key[from]!; this.a[to] = this.a[from]!; this.b[to] = this.b[from]!;
  }

  private grow(): void {
    const key = new Float64Array(2 * this.key.length), a = new Int32Array(key.length), b = new Int32Array(key.length);
    key.set(this.key); a.set(this.a); b.set(this.b);
    this.key = key; this.a = a; this.b = b;
  }
}
