/**
 * How tall a placed primitive of a class may be: the scene editor's scale limits
 * (docs/design.md, *Scene editor*). The shrub and tree classes are the height classes of
 * Tallavajhula's thesis (2018, Table 4.2; docs/methods.md §3): a class's band runs between the
 * geometric means of its mean height and its neighbours' in the family (the boundaries at which
 * `classify.ts` would call a box of that height the neighbour class), and as far again past the
 * family's lowest and highest class. Other classes (grass, rock, fallen log, …) have no thesis
 * height: a primitive of theirs scales by ½ to 2.
 */
import { SHRUB_CLASSES, THESIS_HEIGHT_M, TREE_CLASSES } from './classes';

/** Scale limits for classes without a height band, and for every class (a primitive × 0.1 … 10 at most). */
export const FREE_SCALE_RANGE: readonly [number, number] = [0.5, 2];
export const MIN_SCALE = 0.1;
export const MAX_SCALE = 10;

function familyBand(family: readonly number[], cls: number): [number, number] | null {
  const i = family.indexOf(cls);
  if (i < 0) return null;
  const h = THESIS_HEIGHT_M[cls]!;
  const below = i > 0 ? THESIS_HEIGHT_M[family[i - 1]!]! : h * h / THESIS_HEIGHT_M[family[i + 1]!]!;
  const above = i < family.length - 1 ? THESIS_HEIGHT_M[family[i + 1]!]! : h * h / THESIS_HEIGHT_M[family[i - 1]!]!;
  return [Math.sqrt(below * h), Math.sqrt(above * h)];
}

/** The height band (m) of a shrub or tree class; null for a class without one. */
export function classHeightRange(cls: number): [number, number] | null {
  return familyBand(SHRUB_CLASSES, cls) ?? familyBand(TREE_CLASSES, cls);
}

/**
 * The scales a primitive of class `cls` and height `height` (m) may be placed at: those that keep
 * it inside its class's height band — always including 1 (the primitive as it was extracted or
 * generated, even when its own height lies outside the band) — within [MIN_SCALE, MAX_SCALE].
 */
export function scaleRange(cls: number, height: number): [number, number] {
  const band = classHeightRange(cls);
  let lo: number, hi: number;
  if (band && height > 0) {
    lo = Math.min(1, band[0] / height);
    hi = Math.max(1, band[1] / height);
  } else {
    [lo, hi] = FREE_SCALE_RANGE;
  }
  return [Math.max(MIN_SCALE, lo), Math.min(MAX_SCALE, hi)];
}

/** `scale` clamped into the primitive's range (a non-finite scale becomes 1). */
export function clampScale(scale: number, cls: number, height: number): number {
  const [lo, hi] = scaleRange(cls, height);
  const s = Number.isFinite(scale) ? scale : 1;
  return Math.min(hi, Math.max(lo, s));
}
