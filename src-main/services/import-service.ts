import { closeSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { ApiError, type LogFormat } from '../api/contract';
import type { JobSpec, RunningJob } from '../jobs/job-runner';
import type { ImportCloudInput, ImportSummary } from '../../src-worker/tasks/import-cloud';
import { detectFormat, DETECT_HEAD_BYTES } from '../../src-worker/formats/detect';
import type { ProjectSession } from './project-session';
import type { EventBus } from './event-bus';

export interface ImportRequest {
  name?: string;
  path?: string;
  bytes?: Uint8Array;
  format?: LogFormat;
}

/**
 * Start importing a scan as a drive log. The format is settled first (a file of unknown type
 * fails at once, before any job or row exists). The log row then exists from the start in state
 * 'importing' (so a host killed mid-import leaves a row that the next open removes); chunks are
 * written as the worker streams them; success marks it ready, failure or cancel deletes it.
 */
export function startImport(session: ProjectSession, events: EventBus, req: ImportRequest): RunningJob {
  const name = req.name ?? (req.path ? basename(req.path) : 'scan');
  let bytes = req.bytes;
  // Transfer only a buffer the array owns entirely; otherwise copy once.
  if (bytes && (bytes.byteOffset !== 0 || bytes.byteLength !== bytes.buffer.byteLength)) bytes = bytes.slice();
  const format = req.format ?? detectFormat(name, bytes ? bytes.subarray(0, DETECT_HEAD_BYTES) : readHead(req.path!));
  if (!format) throw new ApiError('bad_input', `${name}: unknown file type (Thicket reads KITTI .bin and PCD scans; choose a format explicitly if the extension is unusual)`);
  const input: ImportCloudInput = { name, path: req.path, bytes, format };
  let logId = 0;
  let seq = 0;
  const spec: JobSpec = {
    kind: 'import',
    params: { name, path: req.path ?? null, format, bytes: bytes?.byteLength ?? null },
    task: 'import-cloud',
    input,
    transfer: bytes ? [bytes.buffer as ArrayBuffer] : [],
    onMessage: (m) => {
      if (m.type === 'chunk') session.store.logs.appendChunk(logId, seq++, m.chunk);
    },
    onSuccess: (output) => {
      const s = output as ImportSummary;
      session.store.logs.finishImport(logId, {
        packets: s.packets,
        points: s.points,
        hits: s.hits,
        misses: s.misses,
        durationS: s.durationS,
        bounds: s.bounds,
      });
      events.emit({ type: 'project', entity: 'driveLogs', id: logId });
      return { log: logId, format, packets: s.packets, points: s.points, hits: s.hits, misses: s.misses, dropped: s.dropped, durationS: s.durationS };
    },
    onAbort: () => {
      if (logId) session.store.logs.discard(logId);
    },
  };
  const running = session.runner.submit(spec);
  // Synchronous right after submit: no task message can be handled before the row exists.
  logId = session.store.logs.beginImport({ name, format, sourcePath: req.path ?? null, profileId: null, jobId: running.job.id });
  return running;
}

function readHead(path: string): Uint8Array {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new ApiError('not_found', `${path}: no such file`);
    if (code === 'EISDIR') throw new ApiError('bad_input', `${path}: is a folder, not a file`);
    throw new ApiError('bad_input', `${path}: cannot read (${code ?? (e as Error).message})`);
  }
  try {
    const head = new Uint8Array(DETECT_HEAD_BYTES);
    const n = readSync(fd, head, 0, head.byteLength, 0);
    return head.subarray(0, n);
  } catch (e) {
    throw new ApiError('bad_input', `${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  } finally {
    closeSync(fd);
  }
}
