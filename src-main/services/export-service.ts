/**
 * Exports a drive log or a run (same shape) to PCD, PLY, LAS, a KITTI folder or MCAP, as a
 * job: the store's chunks go to a worker (transferred; a capture's still packed), which decodes,
 * encodes and writes the file. The output's folder must exist; where the output may be, and
 * whether an existing file is replaced, is decided before (export-target.ts).
 */
import { existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { ApiError, type ParsedRequest } from '../api/contract';
import type { RunningJob } from '../jobs/job-runner';
import { chunkBuffers } from '../../src-common/packets';
import type { ExportLogInput } from '../../src-worker/tasks/export-log';
import type { ServiceContext } from './service-context';
import { formatCatalogue } from './format-catalogue';
import { readInTurns } from './chunk-server';
import { LogSourcesRepository } from '../store/log-sources-repository';
import { labelClasses } from './labels-service';
import { asprsTable } from '../../src-common/label-classes';

export async function startExport(ctx: ServiceContext, req: ParsedRequest<'export.start'>): Promise<RunningJob> {
  const session = ctx.requireSession();
  const { kind, id } = req.source;
  const info = kind === 'log' ? session.store.logs.get(id) : session.store.runs.get(id);
  if (!info) throw new ApiError('not_found', `no ${kind === 'log' ? 'drive log' : 'simulation run'} ${id} in this project`);
  const folder = (await formatCatalogue(ctx.pools)).export.find((f) => f.id === req.format)!.folder;
  const dir = folder ? dirname(req.path.replace(/[\\/]+$/, '')) : dirname(req.path);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new ApiError('bad_input', `${req.path}: the folder ${dir} does not exist`);
  if (req.path.endsWith('.thicket') || (!folder && existsSync(req.path) && statSync(req.path).isDirectory())) {
    throw new ApiError('bad_input', `${req.path}: choose a ${req.format.toUpperCase()} file name, not a folder or a project`);
  }
  // A chunk per turn of the event loop: a long log's reads never block the host at once.
  const chunks = await readInTurns(kind === 'log' ? session.store.logs.chunks(id) : session.store.runs.chunks(id));
  // A log keeps what its source file held (a LAS file's georeferencing, clock and class codes).
  const logSource = kind === 'log' ? new LogSourcesRepository(session.store.db).get(id) : null;
  // A log's clock (Unix seconds of its first packet) stamps an MCAP's messages; a run has none.
  const clock = 'info' in info ? info.info.startTime : undefined;
  const startTime = typeof clock === 'number' ? clock : 0;
  // A labelled log's classes export as the project's class list codes them (docs/labeling.md).
  const asprsOf = kind === 'log' && session.store.labels.latest(id) ? asprsTable(labelClasses(session)) : null;
  const options = { source: logSource, lasVersion: req.lasVersion, startTime, asprsOf, ...(req.mcapMessages ? { mcapMessages: req.mcapMessages } : {}) };
  const input: ExportLogInput = { chunks, format: req.format, out: req.path, name: info.name, options };
  return session.runner.submit({
    kind: 'export',
    params: { source: req.source, format: req.format, path: req.path, ...(req.lasVersion ? { lasVersion: req.lasVersion } : {}), ...(req.mcapMessages ? { mcapMessages: req.mcapMessages } : {}) },
    task: 'export-log',
    input,
    transfer: chunks.flatMap(chunkBuffers),
  });
}
