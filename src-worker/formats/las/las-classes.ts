/**
 * LAS classification codes are ASPRS's (LAS 1.4 R15, Table 17), not Thicket's site classes.
 *
 * Writing: each site class goes to the ASPRS code of the same meaning — ground 2, grass low
 * vegetation 3, shrubs medium vegetation 4, trees high vegetation 5, everything else
 * unclassified 1 — and the exact site class id goes to the point's user data byte, named by a
 * VLR (user "Thicket", record 1: 16-byte entries of class id and name, the layout of the
 * standard classification lookup, LASF_Spec record 0).
 *
 * Reading: a file with that VLR gives its site classes from the user data; an older Thicket file
 * (system identifier "Thicket", no VLR) carries site classes in the classification field; any
 * other file keeps only what maps without guessing: ASPRS 2 (ground) becomes ground, every other
 * code unknown (ASPRS "low/medium/high vegetation" are height bands, not grass, shrub or tree).
 */
import { SHRUB_CLASSES, SiteClass, SITE_CLASS_NAMES, TREE_CLASSES } from '../../../src-common/classes';
import type { LasHeader } from './las-header';

export const THICKET_VLR_USER = 'Thicket';
export const THICKET_CLASSES_RECORD = 1;
const ENTRY = 16;
const ASPRS_UNCLASSIFIED = 1;
const ASPRS_GROUND = 2;

/** ASPRS low, medium and high vegetation. */
const ASPRS_OF = new Map<number, number>([
  [SiteClass.ground, ASPRS_GROUND],
  [SiteClass.grass, 3],
  ...SHRUB_CLASSES.map((c) => [c, 4] as const),
  ...TREE_CLASSES.map((c) => [c, 5] as const),
]);

/** The ASPRS code a site class is written as. */
export function asprsCode(siteClass: number): number {
  return ASPRS_OF.get(siteClass) ?? ASPRS_UNCLASSIFIED;
}

/** The Thicket classes VLR's data: per class its id and name (15 ASCII bytes, NUL-padded). */
export function thicketClassesRecord(): Uint8Array {
  const names = Object.entries(SITE_CLASS_NAMES);
  const out = new Uint8Array(names.length * ENTRY);
  names.forEach(([id, name], k) => {
    out[k * ENTRY] = Number(id);
    for (let i = 0; i < Math.min(name.length, ENTRY - 1); i++) out[k * ENTRY + 1 + i] = name.charCodeAt(i) & 0x7f;
  });
  return out;
}

export function isThicketLas(bytes: Uint8Array): boolean {
  let s = '';
  for (let i = 26; i < 33 && i < bytes.length; i++) s += String.fromCharCode(bytes[i]!);
  return s === 'Thicket';
}

/** Whether the file names Thicket's classes in a VLR (its user data bytes are site classes). */
export function hasThicketClasses(h: LasHeader): boolean {
  return h.vlrs.some((v) => v.userId === THICKET_VLR_USER && v.recordId === THICKET_CLASSES_RECORD);
}

/**
 * The site class of every point: from the user data where the file names Thicket's classes, the
 * classification of an older Thicket file as it is, else ASPRS ground → ground, the rest unknown.
 */
export function siteClassesOf(codes: Uint8Array, userData: Uint8Array, h: LasHeader, bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  if (hasThicketClasses(h)) return userData.slice();
  if (isThicketLas(bytes)) return codes.slice();
  return codes.map((c) => (c === ASPRS_GROUND ? SiteClass.ground : SiteClass.unknown));
}
