/**
 * Size-based class proposal for automatic segments (docs/methods.md §3), and the class families
 * composition falls back within.
 *
 * A segment's box [l, w, h] is a shrub or a tree by its shape, then a size by its height:
 *  - family: trees are about half as wide as tall (crown diameter ≈ 0.44–0.64 h in the
 *    reference site's generators, vegetation.ts), shrubs as wide as tall or wider
 *    (≈ 1.25–2 h); the width/height ratio splits them at `treeMaxWidthRatio` (default 0.9);
 *  - size: the class of that family whose thesis mean height (Table 4.2) is nearest in log
 *    scale (height ratios, not differences: 1.1 m vs 2.1 m is as far apart as 5.4 m vs 10 m);
 *  - patch: a shrub whose longest side exceeds `patchFactor` (default 1.6) × the class's typical
 *    width (`shrubWidthM`) is a patch of several shrubs (split into cells for primitives).
 * Boxes lower than `minHeight` (default 0.4 m: grass, debris) or with fewer than `minPoints` get no class.
 */
import { ReferenceClass, SHRUB_CLASSES, THESIS_HEIGHT_M, TREE_CLASSES } from '../../src-common/classes';

export interface ClassProposalOptions {
  minHeight?: number;
  treeMaxWidthRatio?: number;
  patchFactor?: number;
  /** Typical diameter of a single shrub per shrub class (m). */
  shrubWidthM?: Partial<Record<number, number>>;
}

/**
 * Single-shrub diameters of the reference site's generators: spec radius × the scale to the
 * Table 4.2 height, doubled (low 0.5 m → 2.2 m, small 0.7 → 2.9, medium 1.0 → 4.8, large 1.5 → 6.8).
 */
export const SHRUB_WIDTH_M: Record<number, number> = {
  [ReferenceClass.lowShrub]: 2.2,
  [ReferenceClass.smallShrub]: 2.9,
  [ReferenceClass.mediumShrub]: 4.8,
  [ReferenceClass.largeShrub]: 6.8,
};

export interface ClassProposal {
  class: number;
  patch: boolean;
}

/** The class nearest in log height among `classes` (ties: the first listed). */
function nearestByHeight(height: number, classes: readonly number[]): number {
  let best = classes[0]!, bestD = Infinity;
  for (const c of classes) {
    const d = Math.abs(Math.log(height / THESIS_HEIGHT_M[c]!));
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}

/** A class for a box of extents [l, w, h] (m), or null (too low to be a shrub or tree). */
export function proposeClass(extents: readonly [number, number, number], opts: ClassProposalOptions = {}): ClassProposal | null {
  const [l, w, h] = extents;
  if (!(h >= (opts.minHeight ?? 0.4))) return null;
  const width = Math.max(l, w);
  if (width / h < (opts.treeMaxWidthRatio ?? 0.9)) return { class: nearestByHeight(h, TREE_CLASSES), patch: false };
  const cls = nearestByHeight(h, SHRUB_CLASSES);
  const typical = opts.shrubWidthM?.[cls] ?? SHRUB_WIDTH_M[cls]!;
  return { class: cls, patch: width > (opts.patchFactor ?? 1.6) * typical };
}

export type ClassFamily = 'shrub' | 'tree';

/** The family of a class: shrub, tree, or null (ground, grass, rock, …: a family of its own). */
export function classFamily(cls: number): ClassFamily | null {
  if ((SHRUB_CLASSES as readonly number[]).includes(cls)) return 'shrub';
  if ((TREE_CLASSES as readonly number[]).includes(cls)) return 'tree';
  return null;
}

/**
 * The other classes of a class's family, nearest first by thesis mean height (log ratio; ties:
 * the smaller class): the order composition falls back in when a class has no primitive.
 */
export function familyFallbacks(cls: number): number[] {
  const fam = classFamily(cls);
  if (!fam) return [];
  const members = (fam === 'shrub' ? SHRUB_CLASSES : TREE_CLASSES).filter((c) => c !== cls) as number[];
  const h = THESIS_HEIGHT_M[cls]!;
  return members.sort((a, b) => Math.abs(Math.log(THESIS_HEIGHT_M[a]! / h)) - Math.abs(Math.log(THESIS_HEIGHT_M[b]! / h)) || a - b);
}
