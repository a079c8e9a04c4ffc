/**
 * Import a single registered scan (KITTI .bin, PCD) as a drive log of one packet.
 * The decoded packet goes back to the main thread through the port (transferred), where the
 * store writes it; this task only reads and decodes.
 */
import { basename } from 'node:path';
import type { TaskContext } from './task-context';
import { readFileWithProgress } from './read-file';
import { decodeCloud, type CloudFormat } from '../formats/detect';
import { chunkBuffers } from '../formats/packets';
import { cloudToPacket } from '../formats/decoded-cloud';
import { chunkBounds, countHits } from '../formats/chunk-points';

export interface ImportCloudInput {
  /** Display name used in errors and as the log name. */
  name: string;
  /** A file on this machine, or */
  path?: string;
  /** its bytes (browser upload). */
  bytes?: Uint8Array;
  /** Detected (or chosen) by the host before the job starts, so a wrong file fails at once. */
  format: CloudFormat;
}

export interface ImportSummary {
  format: CloudFormat;
  packets: number;
  points: number;
  hits: number;
  misses: number;
  dropped: number;
  durationS: number;
  bounds: { min: [number, number, number]; max: [number, number, number] } | null;
}

export async function importCloud(input: ImportCloudInput, ctx: TaskContext): Promise<ImportSummary> {
  ctx.progress(0, 'reading', true);
  const bytes = input.bytes ?? (input.path ? await readFileWithProgress(input.path, ctx, [0, 0.4], 'reading') : null);
  if (!bytes) throw new Error('import: give a path or the bytes of a file');
  const name = input.name || (input.path ? basename(input.path) : 'scan');
  ctx.checkCancelled();
  ctx.progress(0.4, 'decoding', true);
  const format = input.format;
  const cloud = decodeCloud(bytes, name, format);
  ctx.checkCancelled();
  ctx.progress(0.7, 'building packets', true);
  const chunk = cloudToPacket(cloud);
  const hits = countHits(chunk);
  const bounds = chunkBounds(chunk);
  ctx.checkCancelled();
  ctx.progress(0.85, 'storing', true);
  ctx.post({ type: 'chunk', chunk }, chunkBuffers(chunk));
  return {
    format,
    packets: chunk.packetCount,
    points: hits,
    hits,
    misses: chunk.rayCount - hits,
    dropped: cloud.count - chunk.rayCount,
    durationS: 0,
    bounds,
  };
}
