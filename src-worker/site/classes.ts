/**
 * Class ids the procedural builders put on instances (ground-truth `classId` of every ray).
 * The shrub and tree sizes are the classes of METHODS §3 (thesis Table 4.2).
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
