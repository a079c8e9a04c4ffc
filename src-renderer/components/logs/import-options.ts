/** What the Drive logs page sends with an import (see ImportOptions.vue). */
import type { LogFormat } from '../../../src-common/formats';
import { parseScanRange } from '../../../src-common/scan-range';

/** A side file: a host path (desktop app) or its text (browser mode). */
export type SideFile = { name: string; path: string } | { name: string; text: string };

export interface ImportOptionsValue {
  format: LogFormat | '';
  profileId: string;
  calibration: SideFile | null;
  poses: SideFile | null;
  rebuildMisses: boolean;
  /** The sensor's extrinsic on the vehicle (vehicle ← sensor; docs/drive-logs.md, *Mounts and extrinsics*), */
  extrinsic: SideFile | null;
  /** written the other way (vehicle → sensor): inverted. */
  extrinsicInverse: boolean;
  /** Only these scans, as `thicket import --scans` takes them (`A:B`, `A:`, `A`; docs/drive-logs.md, *Scans*); '' = all. */
  scans: string;
}

export const defaultImportOptions = (): ImportOptionsValue => ({ format: '', profileId: '', calibration: null, poses: null, rebuildMisses: true, extrinsic: null, extrinsicInverse: false, scans: '' });

/** Request fields for logs.importFile (side files as host paths or as text). */
export function importFileFields(o: ImportOptionsValue) {
  return {
    ...common(o),
    ...(o.calibration ? ('path' in o.calibration ? { calibrationPath: o.calibration.path } : { calibration: o.calibration }) : {}),
    ...(o.poses ? ('path' in o.poses ? { posesPath: o.poses.path } : { poses: o.poses }) : {}),
    ...(o.extrinsic ? ('path' in o.extrinsic ? { extrinsicPath: o.extrinsic.path } : { extrinsic: o.extrinsic }) : {}),
  };
}

/** Request fields for logs.importBytes (browser mode, where side files are always text). */
export function importBytesFields(o: ImportOptionsValue) {
  return {
    ...common(o),
    ...(o.calibration && 'text' in o.calibration ? { calibration: o.calibration } : {}),
    ...(o.poses && 'text' in o.poses ? { poses: o.poses } : {}),
    ...(o.extrinsic && 'text' in o.extrinsic ? { extrinsic: o.extrinsic } : {}),
  };
}

function common(o: ImportOptionsValue) {
  return {
    ...(o.format ? { format: o.format } : {}),
    ...(o.profileId ? { profileId: o.profileId } : {}),
    ...(o.profileId || o.calibration ? { rebuildMisses: o.rebuildMisses } : {}),
    ...(o.extrinsic && o.extrinsicInverse ? { extrinsicInverse: true } : {}),
    // A malformed range throws (the import reports it) rather than importing every scan.
    ...(o.scans.trim() ? { scans: parseScanRange(o.scans) } : {}),
  };
}
