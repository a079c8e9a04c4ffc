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
import { memorySource, readAll, type ByteSource, type DecodedPacket, type LogSourceInfo } from '../formats/log-source';
import { HIT_ONLY_FORMATS, type LogFormatId } from '../formats/log-formats';
import { LogWriter, type LogWriteSummary } from '../formats/log-writer';
import { poseLookupFromFile } from '../formats/pose-lookup';
import { decodePly } from '../formats/ply/ply';
import { decodeLas, initLaz } from '../formats/las/las';
import { lasClassesToSite } from '../formats/las/las-classes';
import { chunkBuffers } from '../../src-common/packets';
import { velodynePcapPackets } from '../formats/velodyne/velodyne-pcap';
import { ousterPackets } from '../formats/ouster/ouster-packet';
import { parseOusterMetadata } from '../formats/ouster/ouster-metadata';
import { udpPackets } from '../formats/pcap';
import { mcapPackets } from '../formats/mcap';
import { db3Packets } from './ros2-db3-file';
import { decodeCloud, type CloudFormat } from '../formats/detect';
import { cloudToPacket } from '../formats/decoded-cloud';
import { rebuildMisses, canRebuildMisses } from '../formats/rebuild-misses';
import type { SensorProfile } from '../../src-common/sensor-profile';

export interface ImportLogInput {
  /** Display name used in errors and as the log name. */
  name: string;
  /** A file on this machine, or */
  path?: string;
  /** its bytes (browser upload). */
  bytes?: Uint8Array;
  format: LogFormatId;
  /** Decodes sensor packets (a unit's calibration) and rebuilds misses of hit-only formats. */
  profile: SensorProfile | null;
  /** Rebuild misses of hit-only formats from `profile` (default true when a profile is given). */
  rebuildMisses?: boolean;
  /** An Ouster capture's metadata JSON (name and text). */
  ousterMetadata?: { name: string; text: string } | null;
  /** Sensor poses from a file (world ← sensor, 7 per pose); times null = one pose per packet. */
  poses?: { name: string; times: Float64Array | null; poses: Float64Array } | null;
  /** Host's count of stored chunks (Int32Array over a SharedArrayBuffer), for flow control. */
  stored?: Int32Array;
  raysPerChunk?: number;
}

export interface ImportLogSummary extends LogWriteSummary {
  format: LogFormatId;
  info: LogSourceInfo;
  /** Hits the format had before misses were rebuilt (= hits), and the rebuilt misses. */
  rebuiltMisses: number;
  /** Points a scan format dropped (non-finite or at the origin). */
  dropped: number;
}

/** Chunks posted but not yet stored by the host before this task waits. */
const MAX_IN_FLIGHT = 4;

export async function importLog(input: ImportLogInput, ctx: TaskContext): Promise<ImportLogSummary> {
  ctx.progress(0, 'opening', true);
  const name = input.name || (input.path ? basename(input.path) : 'log');
  let src: ByteSource & { close?: () => void };
  let scratch: string | null = null;
  if (input.bytes && input.format === 'ros2-db3') {
    // SQLite reads files: an uploaded bag goes to a private temporary file first.
    scratch = mkdtempSync(join(tmpdir(), 'thicket-bag-'));
    const path = join(scratch, 'bag.db3');
    writeFileSync(path, input.bytes);
    input = { ...input, path, bytes: undefined };
  }
  if (input.bytes) src = memorySource(name, input.bytes);
  else if (input.path) src = openFileSource(input.path, name);
  else throw new Error('import: give a path or the bytes of a file');
  try {
    if (input.format === 'las') await initLaz(); // LAZ decompression is WebAssembly, loaded once per worker
    return importFrom(src, name, input, ctx);
  } finally {
    src.close?.();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}

function importFrom(src: ByteSource, name: string, input: ImportLogInput, ctx: TaskContext): ImportLogSummary {
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
  const writer = new LogWriter(sink, { poses: input.poses ? poseLookupFromFile(input.poses) : null, raysPerChunk: input.raysPerChunk });
  const rebuild = input.profile && (input.rebuildMisses ?? true) && HIT_ONLY_FORMATS.includes(input.format) && canRebuildMisses(input.profile)
    ? input.profile
    : null;
  const decodeCtx = { checkCancelled: () => ctx.checkCancelled(), progress: (f: number, m: string) => ctx.progress(0.02 + 0.96 * f, m) };
  const packets = openPackets(src, name, input, decodeCtx);
  let hitsBefore = 0;
  let r: IteratorResult<DecodedPacket, LogSourceInfo & { dropped?: number }>;
  let n = 0;
  while (!(r = packets.next()).done) {
    let p = r.value;
    if (rebuild) {
      for (let i = 0; i < p.count; i++) if (!Number.isNaN(p.range[i]!)) hitsBefore++;
      p = rebuildMisses(p, rebuild);
    }
    writer.add(p);
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
    rebuiltMisses: rebuild ? s.rays - hitsBefore : 0,
    dropped: info.dropped ?? 0,
  };
}

type PacketStream = Generator<DecodedPacket, LogSourceInfo & { dropped?: number }, void>;

function openPackets(src: ByteSource, name: string, input: ImportLogInput, ctx: { checkCancelled(): void; progress(f: number, m: string): void }): PacketStream {
  switch (input.format) {
    case 'velodyne-pcap':
      return velodynePcapPackets(src, { name, profile: input.profile, ctx });
    case 'ouster-pcap': {
      const m = input.ousterMetadata;
      if (!m) throw new Error(`${name}: an Ouster capture needs its metadata JSON`);
      return ousterPackets(withProgress(udpPackets(src, name), src.size, ctx), parseOusterMetadata(m.text, m.name), name, ctx);
    }
    case 'mcap':
      return mcapPackets(src, { name, profile: input.profile, ctx });
    case 'ros2-db3': {
      if (!input.path) throw new Error(`${name}: a .db3 bag is read from a file`);
      return db3Packets(input.path, { name, profile: input.profile, ctx });
    }
    case 'kitti-bin':
    case 'pcd':
    case 'ply':
    case 'las':
      return scanPackets(src, name, input.format);
    default:
      throw new Error(`${name}: importing ${input.format} files is not available in this build`);
  }
}

/** Passes datagrams through, reporting how far into the file they are. */
function* withProgress<T extends { offset: number }>(it: Iterable<T>, size: number, ctx: { progress(f: number, m: string): void }): Generator<T, void, void> {
  let n = 0;
  for (const x of it) {
    if ((++n & 1023) === 0 && size > 0) ctx.progress(x.offset / size, 'decoding packets');
    yield x;
  }
}

/** A single registered scan as one packet. */
function* scanPackets(src: ByteSource, name: string, format: 'kitti-bin' | 'pcd' | 'ply' | 'las'): PacketStream {
  const bytes = readAll(src);
  const cloud = format === 'ply' ? decodePly(bytes, name) : format === 'las' ? decodeLas(bytes, name) : decodeCloud(bytes, name, format as CloudFormat);
  if (format === 'las') lasClassesToSite(cloud.cls, bytes);
  const c = cloudToPacket(cloud);
  yield {
    time: cloud.timeBase,
    pose: c.packetPose,
    count: c.rayCount,
    dir: c.rayDir,
    range: c.rayRange,
    intensity: c.rayIntensity,
    rayTime: c.rayTime,
    ring: c.rayRing,
    ret: c.rayReturn,
    cls: c.rayClass,
  };
  const origin = 'origin' in cloud ? (cloud as { origin: number[] }).origin : null;
  const notes: Record<string, string | number | boolean> = { points: cloud.count };
  // LAS keeps georeferenced coordinates: the points are stored relative to this origin (metres).
  if (origin && origin.some((v) => v !== 0)) notes.origin = origin.join(', ');
  return { format, recordsMisses: false, notes, dropped: cloud.count - c.rayCount };
}

