/**
 * What the log and run views read: a decimated display cloud (the whole log or a packet range,
 * with the range's misses as rays) and the playback timeline. Logs and runs are stored alike
 * (packet chunks), so one implementation serves both.
 */
import type { CloudData, ParsedRequest, Timeline } from '../api/contract';
import { type PacketChunk, chunkBuffers } from '../../src-common/packets';
import type { DisplayCloud } from '../../src-worker/tasks/display-cloud';
import type { LogTimelineInput, logTimelineTask } from '../../src-worker/tasks/log-timeline';
import type { ChunkMeta } from '../store/chunk-table';
import type { ProjectSession } from './project-session';
import { readInTurns, runFed } from './chunk-server';
import type { MessagePort } from 'node:worker_threads';

type TimelineData = Awaited<ReturnType<typeof logTimelineTask>>;

/** Where a view's packets live: the log or run repository, by id. */
export interface PacketSource {
  kind: 'log' | 'run';
  id: number;
  /** Changes when the entity does (a deleted id reused by a new log): part of the cache key. */
  version: string;
  chunks(): Iterable<PacketChunk>;
  chunksInRange(from: number, to: number): Iterable<PacketChunk>;
  chunkMeta(): Iterable<ChunkMeta>;
}

export function logSource(session: ProjectSession, id: number, createdAt: string): PacketSource {
  const logs = session.store.logs;
  return {
    kind: 'log',
    id,
    version: createdAt,
    chunks: () => logs.chunks(id),
    chunksInRange: (from, to) => logs.chunksInRange(id, from, to),
    chunkMeta: () => logs.chunkMeta(id),
  };
}

export function runSource(session: ProjectSession, id: number, createdAt: string): PacketSource {
  const runs = session.store.runs;
  return {
    kind: 'run',
    id,
    version: createdAt,
    chunks: () => runs.chunks(id),
    chunksInRange: (from, to) => runs.chunksInRange(id, from, to),
    chunkMeta: () => runs.chunkMeta(id),
  };
}

export async function loadCloud(session: ProjectSession, src: PacketSource, req: ParsedRequest<'logs.cloud'>): Promise<CloudData> {
  const range = req.packets ?? null;
  // Read a chunk per turn of the event loop: a long log's reads never block the host at once.
  const chunks = await readInTurns(range ? src.chunksInRange(range.from, range.to) : src.chunks());
  const input = {
    chunks,
    budget: req.budget,
    packets: range,
    misses: req.misses ? { budget: req.missBudget, lengthM: req.missLengthM } : null,
  };
  // The transform and decimation run in a worker: a large log would block the host's event loop.
  const { outputs } = await session.runner.runTransient('display-cloud', input, chunks.flatMap(chunkBuffers));
  return { source: { kind: src.kind, id: src.id }, ...(outputs.get('cloud') as DisplayCloud) };
}

/**
 * Timelines are kept per project and entity: a view asks once per open, but reading every chunk's
 * directions costs as much as a fraction of the log, and a log never changes once imported.
 */
const timelines = new WeakMap<ProjectSession, Map<string, { maxPoses: number; timeline: Timeline }>>();
const KEEP = 8;

export async function loadTimeline(session: ProjectSession, src: PacketSource, maxPoses: number): Promise<Timeline> {
  let cache = timelines.get(session);
  if (!cache) timelines.set(session, (cache = new Map()));
  const key = `${src.kind}:${src.id}:${src.version}`;
  const hit = cache.get(key);
  if (hit && hit.maxPoses === maxPoses) {
    cache.delete(key);
    cache.set(key, hit); // most recently used last
    return hit.timeline;
  }
  // Built in a worker as the host feeds it each chunk's times, poses and directions.
  const input = (feed: MessagePort): LogTimelineInput => ({ feed, maxPoses });
  const t = (await runFed(session, 'log-timeline', () => src.chunkMeta(), `${src.kind === 'log' ? 'drive log' : 'run'} ${src.id}`, input)).result as TimelineData;
  const timeline: Timeline = { source: { kind: src.kind, id: src.id }, ...t };
  cache.set(key, { maxPoses, timeline });
  while (cache.size > KEEP) cache.delete(cache.keys().next().value!);
  return timeline;
}
