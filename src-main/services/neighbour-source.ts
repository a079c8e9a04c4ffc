/**
 * The neighbour simulator's input (Tallavajhula 2018 §4.3.2): a training drive log's hits in a spatial
 * index, built in a worker (task neighbour-index) as the host feeds it the log's chunks one at a
 * time (chunk-server.ts) — only the hits are kept, 21 bytes each — and returned in shared
 * memory, so every batch of the run reads the same bytes (as scenes are shared: scene-store.ts).
 */
import { ApiError } from '../api/contract';
import type { ProjectSession } from './project-session';
import { runFed } from './chunk-server';
import type { NeighbourIndexInput } from '../../src-worker/tasks/neighbour-index';
import type { SimulateBatchInput } from '../../src-worker/tasks/simulate-batch';

type NeighbourSource = NonNullable<SimulateBatchInput['neighbour']>;

/** `radius`: the threshold d⊥ (m); the simulator's default when absent. */
export async function neighbourSource(session: ProjectSession, logId: number, radius?: number): Promise<{ source: NeighbourSource; name: string; seconds: number }> {
  const log = session.store.logs.get(logId);
  if (!log) throw new ApiError('not_found', `no drive log ${logId} in this project`);
  if (log.hits === 0) throw new ApiError('bad_input', `drive log ${log.id} (${log.name}) has no hits (${log.misses} misses): the neighbour simulator has nothing to replay`);
  const t0 = performance.now();
  const { result } = await runFed(session, 'neighbour-index', () => session.store.logs.chunks(logId), `drive log ${logId}`, (feed): NeighbourIndexInput => ({ feed, ...(radius !== undefined ? { radius } : {}) }));
  return { source: result as NeighbourSource, name: log.name, seconds: (performance.now() - t0) / 1000 };
}
