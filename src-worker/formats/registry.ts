/**
 * The format registry: one descriptor per log format and per export format, the only list of
 * them in the worker. It drives the import task (open), detection (detectLogFormat, also run
 * before an import by the prepare-import task), the export task, the catalogue the host serves
 * to the pages (`formats.list`), and the fuzzer (fuzzTargets); its keys are the ids of
 * src-common/formats.ts, which the API and the CLI's usage list. A new format is one
 * descriptor file and one line here (docs/design.md, "Log formats").
 *
 * Detection goes in this object's order: first every format's signature, then names and
 * textual headers; an Ouster capture comes before a Velodyne one since they share the pcap
 * signature and only a JSON calibration tells them apart.
 */
import type { ExportFormat, LogFormat } from '../../src-common/formats';
import type { FormatCatalogue } from '../../src-common/format-info';
import type { ExportFormatDescriptor, LogFormatDescriptor } from './log-format';
import type { FuzzTarget } from './fuzz-target';
import { ousterPcapFormat } from './ouster/ouster-pcap-format';
import { velodynePcapFormat } from './velodyne/velodyne-pcap-format';
import { mcapExport, mcapFormat } from './mcap/mcap-format';
import { ros2Db3Format } from './ros2/ros2-db3-format';
import { lasExport, lasFormat } from './las/las-format';
import { plyExport, plyFormat } from './ply/ply-format';
import { pcdExport, pcdFormat } from './pcd/pcd-format';
import { kittiBinFormat, kittiExport } from './kitti/kitti-bin-format';
import { sickJsonFormat } from './sick/sick-json-format';
import { FUZZ_TARGETS as POSES_FILE_FUZZ_TARGETS } from './poses-file';

export const LOG_FORMAT_REGISTRY = {
  'ouster-pcap': ousterPcapFormat,
  'velodyne-pcap': velodynePcapFormat,
  mcap: mcapFormat,
  'ros2-db3': ros2Db3Format,
  las: lasFormat,
  ply: plyFormat,
  pcd: pcdFormat,
  'kitti-bin': kittiBinFormat,
  'sick-json': sickJsonFormat,
} as const satisfies { [Id in LogFormat]: LogFormatDescriptor<Id> };

export const EXPORT_FORMAT_REGISTRY = {
  pcd: pcdExport,
  ply: plyExport,
  las: lasExport,
  kitti: kittiExport,
  mcap: mcapExport,
} as const satisfies { [Id in ExportFormat]: ExportFormatDescriptor<Id> };

const LOG_DESCRIPTORS: readonly LogFormatDescriptor[] = Object.values(LOG_FORMAT_REGISTRY);

export function logFormat(id: LogFormat): LogFormatDescriptor {
  return LOG_FORMAT_REGISTRY[id];
}

export function exportFormat(id: ExportFormat): ExportFormatDescriptor {
  return EXPORT_FORMAT_REGISTRY[id];
}

export { DETECT_HEAD_BYTES } from '../../src-common/format-info';

export interface DetectOptions {
  /** The import comes with a JSON calibration (an Ouster capture's metadata). */
  jsonCalibration?: boolean;
}

/** The format of a file from its name and first bytes: signatures first, then names; null when none. */
export function detectLogFormat(name: string, head: Uint8Array, opts: DetectOptions = {}): LogFormat | null {
  const lower = name.toLowerCase();
  const eligible = LOG_DESCRIPTORS.filter((d) => !d.detect.onlyWithJsonCalibration || opts.jsonCalibration);
  for (const d of eligible) if (d.detect.magic?.(head)) return d.info.id;
  for (const d of eligible) {
    const byName = d.detect.byName ?? ((n: string) => d.info.extensions.some((e) => n.endsWith(e)));
    if (byName(lower, head)) return d.info.id;
  }
  return null;
}

/** The plain facts of every format, for the host to serve (formats.list). */
export function formatCatalogue(): FormatCatalogue {
  return {
    log: LOG_DESCRIPTORS.map((d) => d.info),
    export: Object.values(EXPORT_FORMAT_REGISTRY).map((d) => d.info),
  };
}

/** Every fuzz target: each log format's, then the side files' an import reads (poses files). */
export function fuzzTargets(): FuzzTarget[] {
  return [...LOG_DESCRIPTORS.flatMap((d) => d.fuzz), ...POSES_FILE_FUZZ_TARGETS];
}
