/**
 * Export a drive log or a simulation run to the field's formats, so simulated logs feed users'
 * own tools. Each format's exporter is in the format registry (formats/registry.ts); this task
 * gives it the output on disk: the file itself, or the folder of a folder format (KITTI).
 */
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { TaskContext } from './task-context';
import type { PacketChunk } from '../../src-common/packets';
import type { ExportFormat } from '../../src-common/formats';
import { exportFormat } from '../formats/registry';
import { withRays } from '../formats/packed-rays';
import type { ExportCounts, ExportOptions, ExportOutput } from '../formats/log-format';

export interface ExportLogInput {
  chunks: PacketChunk[];
  format: ExportFormat;
  /** A file (pcd, ply, las, mcap) or a folder (kitti) on this machine. */
  out: string;
  /** Log or run name, written into headers where the format has a place for it. */
  name: string;
  /** What the log's source file held, and the LAS version to write. */
  options?: ExportOptions;
}

export interface ExportSummary extends ExportCounts {
  format: ExportFormat;
  out: string;
}

export async function exportLog(input: ExportLogInput, ctx: TaskContext): Promise<ExportSummary> {
  ctx.progress(0, 'exporting', true);
  const { format, out } = input;
  const counts = await exportFormat(format).write(input.chunks.map(withRays), fileOutput(out), ctx, input.options);
  return { format, out, ...counts };
}

/** The output path as an ExportOutput: '' is the path itself, other names are inside it. */
function fileOutput(out: string): ExportOutput {
  const at = (rel: string): string => (rel ? join(out, rel) : out);
  return {
    writeFile: (rel, bytes) => writeFileSync(at(rel), bytes),
    mkdir: (rel) => void mkdirSync(at(rel), { recursive: true }),
    openStream() {
      const fd = openSync(out, 'w');
      return { write: (bytes) => void writeSync(fd, bytes), close: () => closeSync(fd) };
    },
  };
}
