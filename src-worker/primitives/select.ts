/**
 * Picking a primitive for an annotation entry (thesis 004 §4.3.1.4): among the library's
 * primitives of the entry's class (that have the elements the mode simulates), the one whose box
 * extents are nearest — Euclidean norm of the difference of [l, w, h]; ties go to the lower
 * primitive id. A class with no primitive falls back to the nearest class of its family
 * (classify.ts familyFallbacks: shrubs to shrubs, trees to trees, by thesis mean height).
 *
 * `yawSymmetric` also tries each primitive turned a quarter turn ([w, l, h]) and keeps the
 * better fit (placed with yaw + π/2): an annotation's length axis is a convention (the axis
 * nearest travel), not a property of the plant. Off by default (the thesis compares [l, w, h]).
 */
import { familyFallbacks } from './classify';
import { hasElementsFor, type Primitive } from '../../src-common/primitive';
import type { ComposeMode } from '../../src-common/modes';

export function extentsDistance(a: readonly number[], b: readonly number[]): number {
  return Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
}

export interface Selection {
  primitive: Primitive;
  distance: number;
  /** Placed a quarter turn from the entry's yaw (yawSymmetric). */
  swapped: boolean;
  /** The primitive's class differs from the entry's (family fallback). */
  fallback: boolean;
}

export class PrimitiveIndex {
  /** Candidates per class, ascending id. */
  readonly byClass = new Map<number, Primitive[]>();

  constructor(library: readonly Primitive[], readonly mode: ComposeMode) {
    const seen = new Set<number>();
    for (const p of library) {
      if (seen.has(p.id)) throw new Error(`primitive library: id ${p.id} appears twice`);
      seen.add(p.id);
      if (!hasElementsFor(p, mode)) continue;
      let list = this.byClass.get(p.class);
      if (!list) this.byClass.set(p.class, (list = []));
      list.push(p);
    }
    for (const list of this.byClass.values()) list.sort((a, b) => a.id - b.id);
  }

  /** Classes with at least one candidate, ascending. */
  classes(): number[] {
    return [...this.byClass.keys()].sort((a, b) => a - b);
  }

  /** The class actually used for `cls`: itself, else the nearest of its family that has candidates; null if none. */
  resolveClass(cls: number): number | null {
    if (this.byClass.has(cls)) return cls;
    for (const c of familyFallbacks(cls)) if (this.byClass.has(c)) return c;
    return null;
  }

  /** The nearest-extents primitive for an entry of class `cls`, or null when neither the class nor its family has any. */
  select(cls: number, extents: readonly number[], yawSymmetric = false): Selection | null {
    const use = this.resolveClass(cls);
    if (use === null) return null;
    let best: Selection | null = null;
    for (const p of this.byClass.get(use)!) {
      const d = extentsDistance(p.extents, extents);
      // Strictly better only: candidates are in id order, so ties keep the lower id.
      if (!best || d < best.distance) best = { primitive: p, distance: d, swapped: false, fallback: use !== cls };
      if (yawSymmetric) {
        const ds = extentsDistance([p.extents[1], p.extents[0], p.extents[2]], extents);
        if (ds < best.distance) best = { primitive: p, distance: ds, swapped: true, fallback: use !== cls };
      }
    }
    return best;
  }
}
