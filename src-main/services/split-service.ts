/**
 * Split a drive log into two new logs at a scan: scans 1…K−1 in the first, K… in the second,
 * numbered from 1 in capture order by the timeline's rule (one revolution per azimuth wrap,
 * src-worker/formats/capture-scans.ts). A training and a test log from one capture
 * (docs/drive-logs.md, "Scans").
 *
 * The scan count and K are checked before anything is written (the timeline is built in a
 * worker). Then a job's task reads the log through a feed and posts each part's chunks; the
 * host appends them to two rows staged hidden (status 'importing', as an import stages its log),
 * and publishes both in one transaction when the task has succeeded. A failure or a cancel
 * discards both; the original log is never touched.
 */
import { ApiError } from '../api/contract';
import type { RunningJob } from '../jobs/job-runner';
import type { PacketChunk } from '../../src-common/packets';
import type { SplitLogInput, SplitLogOutput } from '../../src-worker/tasks/split-log';
import type { ProjectSession } from './project-session';
import type { EventBus } from './event-bus';
import { serveChunks } from './chunk-server';
import { loadTimeline, logSource } from './cloud-views';

/** Must match src-worker/tasks/split-log.ts's SPLIT_CHUNK (the host imports only the worker's types). */
const SPLIT_CHUNK = 'split-chunk';

export interface SplitRequest {
  logId: number;
  /** First scan of the second log (numbered from 1): 2 ≤ at ≤ the log's scans. */
  at: number;
}

export interface SplitPart {
  log: number;
  name: string;
  scans: number;
  packets: number;
}

export async function startSplit(session: ProjectSession, events: EventBus, req: SplitRequest): Promise<RunningJob> {
  const { store } = session;
  const log = store.logs.get(req.logId);
  if (!log) throw new ApiError('not_found', `no drive log ${req.logId} in this project`);
  const timeline = await loadTimeline(session, logSource(session, log.id, log.createdAt), 2);
  const scans = timeline.sweepStart.length;
  if (!Number.isInteger(req.at) || req.at < 2 || req.at > scans) {
    throw new ApiError('bad_input', `drive log ${log.id} (${log.name}) has ${scans} scan(s), numbered from 1: the split's first scan of the second log must be 2…${scans}, got ${req.at}${scans < 2 ? ' (a log of one scan cannot be split)' : ''}`);
  }
  const at = timeline.sweepStart[req.at - 1]!;
  const range = (a: number, b: number) => (a === b ? `scan ${a}` : `scans ${a}–${b}`);
  const names = [`${log.name} ${range(1, req.at - 1)}`, `${log.name} ${range(req.at, scans)}`];
  const counts = [req.at - 1, scans - req.at + 1];

  const { port, close } = serveChunks(() => store.logs.chunks(log.id), `drive log ${log.id}`);
  const input: SplitLogInput = { feed: port, at, packets: log.packets };
  const ids = [0, 0];
  const seq = [0, 0];
  const discard = () => {
    for (const id of ids) if (id) store.logs.discard(id);
  };
  const running = session.runner.submit({
    kind: 'split',
    params: { logId: log.id, at: req.at, scans },
    task: 'split-log',
    input,
    // A MessagePort is transferable like a buffer; the runner passes the list to the pool as is.
    transfer: [port as unknown as ArrayBuffer],
    onMessage: (m) => {
      if (m.type !== 'output' || m.name !== SPLIT_CHUNK) return;
      const { part, chunk } = m.value as { part: 0 | 1; chunk: PacketChunk };
      store.logs.appendChunk(ids[part]!, seq[part]!++, chunk);
    },
    onSuccess: (output) => {
      close();
      const out = output as SplitLogOutput;
      if (!store.logs.get(log.id)) throw new Error(`drive log ${log.id} was deleted during the split: nothing was stored`);
      const startTime = typeof log.info.startTime === 'number' ? log.info.startTime : 0;
      const parts: SplitPart[] = [];
      store.transaction(() => {
        out.parts.forEach((t, i) => {
          const info = {
            ...log.info,
            startTime: startTime + t.startOffsetS,
            splitFrom: { log: log.id, name: log.name, scans: i === 0 ? `1:${req.at - 1}` : `${req.at}:${scans}`, of: scans },
          };
          store.logs.finishImport(ids[i]!, {
            format: log.format,
            packets: t.packets,
            points: t.hits,
            hits: t.hits,
            misses: t.misses,
            durationS: t.durationS,
            bounds: t.bounds,
            info,
            profileId: log.profileId,
            ...(out.decodeProfile ? { decodeProfile: out.decodeProfile } : {}),
          });
          parts.push({ log: ids[i]!, name: names[i]!, scans: counts[i]!, packets: t.packets });
          // The log's ground-truth objects (the ids its rays carry) go with each part: a list of
          // objects, not of rays, so it is copied here.
          for (const a of store.annotations.list(log.id)) {
            const data = store.annotations.read(a.id);
            if (data) store.annotations.create(a.name, ids[i]!, data.entries);
          }
        });
      });
      for (const p of parts) events.emit({ type: 'project', entity: 'driveLogs', id: p.log });
      return { logs: parts };
    },
    onAbort: () => {
      close();
      discard();
    },
  });
  // Synchronous right after submit: no task message can be handled before the rows exist.
  for (let i = 0; i < 2; i++) {
    ids[i] = store.logs.beginImport({ name: names[i]!, format: log.format, sourcePath: log.sourcePath, profileId: log.profileId, jobId: running.job.id });
  }
  return running;
}
