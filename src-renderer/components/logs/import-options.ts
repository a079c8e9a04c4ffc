/** What the Drive logs page sends with an import (see ImportOptions.vue). */
import type { LogFormat } from '../../../src-common/formats';

/** A side file: a host path (desktop app) or its text (browser mode). */
export type SideFile = { name: string; path: string } | { name: string; text: string };

export interface ImportOptionsValue {
  format: LogFormat | '';
  profileId: string;
  calibration: SideFile | null;
  poses: SideFile | null;
  rebuildMisses: boolean;
}

export const defaultImportOptions = (): ImportOptionsValue => ({ format: '', profileId: '', calibration: null, poses: null, rebuildMisses: true });

/** Request fields for logs.importFile (side files as host paths or as text). */
export function importFileFields(o: ImportOptionsValue) {
  return {
    ...common(o),
    ...(o.calibration ? ('path' in o.calibration ? { calibrationPath: o.calibration.path } : { calibration: o.calibration }) : {}),
    ...(o.poses ? ('path' in o.poses ? { posesPath: o.poses.path } : { poses: o.poses }) : {}),
  };
}

/** Request fields for logs.importBytes (browser mode, where side files are always text). */
export function importBytesFields(o: ImportOptionsValue) {
  return {
    ...common(o),
    ...(o.calibration && 'text' in o.calibration ? { calibration: o.calibration } : {}),
    ...(o.poses && 'text' in o.poses ? { poses: o.poses } : {}),
  };
}

function common(o: ImportOptionsValue) {
  return {
    ...(o.format ? { format: o.format } : {}),
    ...(o.profileId ? { profileId: o.profileId } : {}),
    ...(o.profileId || o.calibration ? { rebuildMisses: o.rebuildMisses } : {}),
  };
}
