/**
 * LAS classification codes are ASPRS's, not Thicket's site classes. A file Thicket wrote (system
 * identifier "Thicket") carries site classes and is read back as is; any other file keeps only
 * what maps without guessing: ASPRS 2 (ground) becomes ground, every other code unknown (ASPRS
 * "low/medium/high vegetation" are height bands, not grass, shrub or tree).
 */
import { SiteClass } from '../../../src-common/classes';

const ASPRS_GROUND = 2;

export function isThicketLas(bytes: Uint8Array): boolean {
  let s = '';
  for (let i = 26; i < 33 && i < bytes.length; i++) s += String.fromCharCode(bytes[i]!);
  return s === 'Thicket';
}

/** Rewrites ASPRS codes as site classes in place (unless the file is Thicket's own). */
export function lasClassesToSite(cls: Uint8Array | null | undefined, bytes: Uint8Array): void {
  if (!cls || isThicketLas(bytes)) return;
  for (let i = 0; i < cls.length; i++) cls[i] = cls[i] === ASPRS_GROUND ? SiteClass.ground : SiteClass.unknown;
}
