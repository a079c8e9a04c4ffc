/**
 * Classes of the reference site's objects: the site classes (classes.ts) — ground, grass, the
 * four shrub and three tree sizes of thesis 004 Table 4.2, rock — plus fallen logs, which the
 * engine's builders do not make (SiteClass.fallenLog).
 *
 * Heights are the thesis's mean instance heights (Table 4.2, metres); the generator draws each
 * variant within ±20 % of them.
 */
import { SITE_CLASS_NAMES, SiteClass } from './classes';

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
