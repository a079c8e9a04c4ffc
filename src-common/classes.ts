/**
 * The object-class taxonomy: the ids every layer uses for what a ray hit (the ground-truth
 * `classId` of simulated rays, annotation entries, primitives) and their display names. The shrub
 * and tree sizes are the classes of docs/methods.md §3 (Tallavajhula's thesis, 2018, Table 4.2).
 */
export const SiteClass = {
  unknown: 0,
  ground: 1,
  grass: 2,
  lowShrub: 3,
  smallShrub: 4,
  mediumShrub: 5,
  largeShrub: 6,
  smallTree: 7,
  mediumTree: 8,
  largeTree: 9,
  rock: 10,
  /** Validation fixtures. */
  stem: 11,
  rod: 12,
  wall: 13,
  /** A fallen log: a solid obstacle lying on the ground (reference site). */
  fallenLog: 14,
} as const;
export type SiteClass = (typeof SiteClass)[keyof typeof SiteClass];

export const SITE_CLASS_NAMES: Record<SiteClass, string> = {
  0: 'unknown', 1: 'ground', 2: 'grass', 3: 'low shrub', 4: 'small shrub', 5: 'medium shrub', 6: 'large shrub',
  7: 'small tree', 8: 'medium tree', 9: 'large tree', 10: 'rock', 11: 'stem', 12: 'rod', 13: 'wall', 14: 'fallen log',
};

/**
 * Classes of the reference site's objects: the classes above — ground, grass, the
 * four shrub and three tree sizes of thesis 004 Table 4.2, rock — plus fallen logs, which the
 * engine's builders do not make (SiteClass.fallenLog).
 *
 * Heights are the thesis's mean instance heights (Table 4.2, metres); the generator draws each
 * variant within ±20 % of them.
 */

export const ReferenceClass = {
  ground: SiteClass.ground,
  grass: SiteClass.grass,
  lowShrub: SiteClass.lowShrub,
  smallShrub: SiteClass.smallShrub,
  mediumShrub: SiteClass.mediumShrub,
  largeShrub: SiteClass.largeShrub,
  smallTree: SiteClass.smallTree,
  mediumTree: SiteClass.mediumTree,
  largeTree: SiteClass.largeTree,
  rock: SiteClass.rock,
  /** A fallen log: a solid obstacle lying on the ground. */
  log: SiteClass.fallenLog,
} as const;
export type ReferenceClass = (typeof ReferenceClass)[keyof typeof ReferenceClass];

/** Display name of a class id. */
export function referenceClassName(id: number): string {
  return (SITE_CLASS_NAMES as Record<number, string>)[id] ?? 'unknown';
}

/** Thesis 004 Table 4.2: mean instance height per shrub and tree class (m). */
export const THESIS_HEIGHT_M: Record<number, number> = {
  [ReferenceClass.lowShrub]: 1.1,
  [ReferenceClass.smallShrub]: 2.1,
  [ReferenceClass.mediumShrub]: 3.8,
  [ReferenceClass.largeShrub]: 5.4,
  [ReferenceClass.smallTree]: 5.9,
  [ReferenceClass.mediumTree]: 9.4,
  [ReferenceClass.largeTree]: 13.4,
};

export const SHRUB_CLASSES = [ReferenceClass.lowShrub, ReferenceClass.smallShrub, ReferenceClass.mediumShrub, ReferenceClass.largeShrub] as const;
export const TREE_CLASSES = [ReferenceClass.smallTree, ReferenceClass.mediumTree, ReferenceClass.largeTree] as const;
