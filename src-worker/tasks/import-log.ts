/**
 * Import a drive log of any format: the file is read through a ByteSource (streamed for
 * captures and bags, whole for single scans), decoded into packets, given poses, misses rebuilt
 * where the format keeps only hits, and cut into chunks that go to the host (transferred),
 * which stores them. Flow control: the host counts stored chunks in a shared counter and this
 * task waits while too many are in flight, so a capture larger than memory never piles up in
 * the host's message queue.
 */
import { basename, join } from 'node:path';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { TaskContext } from './task-context';
import { openFileSource } from './file-source';
import { openDb3Bag } from './ros2-db3-file';
import { isFolder, readScanFolder, scanFolderPackets, type ScanFolder } from './scan-folder';
import { memorySource, type ByteSource, type DecodedPacket, type LogSourceInfo } from '../formats/log-source';
import { logFormat } from '../formats/registry';
import type { LogFormatDescriptor } from '../formats/log-format';
import { LogWriter, type LogWriteSummary } from '../formats/log-writer';
import { poseLookupFromFile } from '../formats/pose-lookup';
import { selectScans, type ScanSelection } from '../formats/scan-selection';
import type { ScanRange } from '../../src-common/scan-range';
import { chunkBuffers } from '../../src-common/packets';
import { rebuildMisses, canRebuildMisses } from '../formats/rebuild-misses';
import type { LogFormat } from '../../src-common/formats';
import type { SensorProfile } from '../../src-common/sensor-profile';

export interface ImportLogInput {
  /** Display name used in errors and as the log name. */
  name: string;
  /** A file on this machine, or */
  path?: string;
  /** its bytes (browser upload). */
  bytes?: Uint8Array;
  format: LogFormat;
  /** Decodes sensor packets (a unit's calibration) and rebuilds misses of hit-only formats. */
  profile: SensorProfile | null;
  /** Rebuild misses of hit-only formats from `profile` (default true when a profile is given). */
  rebuildMisses?: boolean;
  /** The format's own metadata file when it needs one (an Ouster capture's JSON): name and text. */
  metadata?: { name: string; text: string } | null;
  /** Sensor poses from a file (world ← sensor, 7 per pose); times null = one pose per packet. */
  poses?: { name: string; times: Float64Array | null; poses: Float64Array } | null;
  /** Only these scans (numbered from 1, inclusive; docs/drive-logs.md "Scans"); null = all. */
  scans?: ScanRange | null;
  /** The sensor on the vehicle (vehicle ← sensor, 7 numbers; --mount / --extrinsic): packet poses = vehicle pose · mount. */
  mount?: number[] | null;
  /** Host's count of stored chunks (Int32Array over a SharedArrayBuffer), for flow control. */
  stored?: Int32Array;
  raysPerChunk?: number;
}

export interface ImportLogSummary extends LogWriteSummary {
  format: LogFormat;
  info: LogSourceInfo;
  /** Hits the format had before misses were rebuilt (= hits), and the rebuilt misses. */
  rebuiltMisses: number;
  /** Points a scan format dropped (non-finite or at the origin). */
  dropped: number;
  /** The capture's scans, when they were counted (per-scan poses, a range of scans). */
  scans: ScanSelection | null;
  /** What the user should know but did not stop the import (a truncated file's dropped bytes). */
  warnings: string[];
}

/** Chunks posted but not yet stored by the host before this task waits. */
const MAX_IN_FLIGHT = 4;

export async function importLog(input: ImportLogInput, ctx: TaskContext): Promise<ImportLogSummary> {
  ctx.progress(0, 'opening', true);
  const name = input.name || (input.path ? basename(input.path) : 'log');
  const format = logFormat(input.format);
  let src: ByteSource & { close?: () => void };
  let scratch: string | null = null;
  if (input.bytes && format.readsFilePath) {
    // SQLite reads files: an uploaded bag goes to a private temporary file first.
    scratch = mkdtempSync(join(tmpdir(), 'thicket-bag-'));
    const path = join(scratch, 'bag.db3');
    writeFileSync(path, input.bytes);
    input = { ...input, path, bytes: undefined };
  }
  // A folder of scans (KITTI odometry's layout): each scan is opened as it is read.
  const folder = input.path && !input.bytes && isFolder(input.path) ? readScanFolder(input.path) : null;
  if (folder) src = memorySource(name, new Uint8Array(0));
  else if (input.bytes) src = memorySource(name, input.bytes);
  else if (input.path) src = openFileSource(input.path, name);
  else throw new Error('import: give a path or the bytes of a file');
  try {
    await format.prepare?.();
    return importFrom(format, src, name, input, ctx, folder);
  } finally {
    src.close?.();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}

function importFrom(format: LogFormatDescriptor, src: ByteSource, name: string, input: ImportLogInput, ctx: TaskContext, folder: ScanFolder | null): ImportLogSummary {
  let posted = 0;
  const sink = (chunk: Parameters<ConstructorParameters<typeof LogWriter>[0]>[0]): void => {
    ctx.post({ type: 'chunk', chunk }, chunkBuffers(chunk));
    posted++;
    const stored = input.stored;
    if (!stored) return;
    while (posted - Atomics.load(stored, 0) > MAX_IN_FLIGHT) {
      ctx.checkCancelled();
      Atomics.wait(stored, 0, Atomics.load(stored, 0), 100);
    }
  };
  const openOne = (one: ByteSource, oneName: string, path: string | null, progress: (f: number, m: string) => void) => format.open({
    src: one,
    name: oneName,
    path,
    profile: input.profile,
    metadata: input.metadata ?? null,
    ctx: { checkCancelled: () => ctx.checkCancelled(), progress },
    openBag: openDb3Bag,
  });
  const open = (progress: (f: number, m: string) => void) => (folder
    ? scanFolderPackets(folder, (one, oneName) => openOne(one, oneName, null, () => {}), progress)
    : openOne(src, name, input.path ?? null, progress));
  // Rows without times and a range of scans need the capture's scans: a first pass counts them.
  const needScans = (input.poses && !input.poses.times) || input.scans;
  const scans = needScans ? selectScans(open((f, m) => ctx.progress(0.02 + 0.3 * f, `counting scans: ${m}`)), name, input.scans ?? null) : null;
  const lookup = input.poses ? poseLookupFromFile(input.poses, scans?.capture ?? null) : null;
  // The file's rows are matched to the packet's place and time in the capture, whatever is kept.
  let captureIndex = 0, captureT0 = NaN;
  const writer = new LogWriter(sink, {
    poses: lookup ? { poseFor: (_i, _t, abs, out) => lookup.poseFor(captureIndex, abs - captureT0, abs, out) } : null,
    raysPerChunk: input.raysPerChunk,
    mount: input.mount ?? null,
  });
  const rebuild = input.profile && (input.rebuildMisses ?? true) && format.info.hitOnly && canRebuildMisses(input.profile)
    ? input.profile
    : null;
  const from = scans ? scans.fromPacket : 0, to = scans ? scans.toPacket : Infinity;
  const packets = open(scans ? (f, m) => ctx.progress(0.32 + 0.66 * f, m) : (f, m) => ctx.progress(0.02 + 0.96 * f, m));
  // Rays rebuilt from the profile (an organised scan's own empty cells are not rebuilt: rebuild-misses.ts).
  let rebuilt = 0;
  let r: IteratorResult<DecodedPacket, LogSourceInfo & { dropped?: number }>;
  let n = 0;
  while (!(r = packets.next()).done) {
    let p = r.value;
    if (Number.isNaN(captureT0)) captureT0 = Number.isFinite(p.time) ? p.time : 0;
    if (captureIndex < from || captureIndex >= to) {
      captureIndex++;
      continue;
    }
    if (rebuild) {
      const q = rebuildMisses(p, rebuild, name);
      rebuilt += q.count - p.count;
      p = q;
    }
    writer.add(p);
    captureIndex++;
    if ((++n & 255) === 0) ctx.checkCancelled();
  }
  ctx.checkCancelled();
  ctx.progress(0.99, 'storing', true);
  const s = writer.finish();
  const info = r.value;
  return {
    ...s,
    format: input.format,
    info,
    rebuiltMisses: rebuilt,
    dropped: info.dropped ?? 0,
    scans: scans ? { ...scans, capture: null, placement: lookup?.placement ?? null } : null,
    warnings: info.warnings ?? [],
  };
}
