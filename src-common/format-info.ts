/**
 * What every layer may know about a log or export format beyond its id: plain, JSON-safe facts
 * (label, file extensions, what an import needs). The worker's format registry
 * (src-worker/formats/registry.ts) holds them in each format's descriptor; the host hands them
 * to the renderer through the API (`formats.list`), so a new format shows up in the UI without
 * an edit there.
 */
import type { ExportFormat, LogFormat } from './formats';

/** How many leading bytes format detection reads: the host sends no more of an upload to it. */
export const DETECT_HEAD_BYTES = 1024;

/** What a sensor profile does for a format's import (`--profile`). */
export type ProfileUse =
  /** Decodes its packets (a capture of raw sensor packets; the data usually names a built-in). */
  | 'decodes'
  /** Rebuilds the misses the format does not keep (hit-only scans). */
  | 'rebuilds-misses'
  /** Both, by content: packets are decoded, clouds get their misses rebuilt (ROS 2 bags). */
  | 'decodes-or-rebuilds'
  /** Nothing: the format carries its own calibration. */
  | 'none';

export interface LogFormatInfo<Id extends LogFormat = LogFormat> {
  id: Id;
  /** A few words for menus, e.g. "Velodyne pcap". */
  label: string;
  /** Lower-case file name endings with their dot, the first the usual one. */
  extensions: readonly string[];
  /** 'scan': one registered cloud decoded whole; 'stream': packets read through a window. */
  kind: 'scan' | 'stream';
  /** Keeps only hits (misses are rebuilt from a profile when one is given). */
  hitOnly: boolean;
  needs: {
    /**
     * The calibration file (`--calibration`): 'required' when the format cannot be decoded
     * without its metadata (an Ouster capture's JSON); 'optional' when a Velodyne calibration
     * replaces the built-in profile (and rebuilds misses of hit-only formats).
     */
    calibration: 'required' | 'optional';
    profile: ProfileUse;
    /** The poses the format carries itself (e.g. "tf, odometry"), null when it has none:
     * a poses file or the identity then. */
    ownPoses: string | null;
  };
}

export interface ExportFormatInfo<Id extends ExportFormat = ExportFormat> {
  id: Id;
  /** What the export holds, for menus. */
  label: string;
  /** The output is a folder (KITTI's layout) rather than one file. */
  folder: boolean;
  /** File name ending of a one-file export (with its dot); the folder name suffix otherwise. */
  extension: string;
}

/** The answer of `formats.list`: every log format the importer reads and every export. */
export interface FormatCatalogue {
  log: LogFormatInfo[];
  export: ExportFormatInfo[];
}
