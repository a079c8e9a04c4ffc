/**
 * The neighbour simulator's input (thesis 004 §4.3.2): a training drive log's hits in a spatial
 * index (src-worker/simulate/neighbour-index.ts), built once on the host as the log's chunks are
 * read — only the hits are kept, 21 bytes each — and moved into shared memory, so every batch of
 * the run reads the same bytes (as scenes are shared: scene-store.ts).
 */
import { ApiError } from '../api/contract';
import type { ProjectSession } from './project-session';
import { toShared } from './scene-store';
import { NeighbourIndexBuilder, neighbourCellFor } from '../../src-worker/simulate/neighbour-build';
import type { NeighbourSource } from '../../src-worker/simulate/types';

export function neighbourSource(session: ProjectSession, logId: number, radius: number): { source: NeighbourSource; name: string; seconds: number } {
  const log = session.store.logs.get(logId);
  if (!log) throw new ApiError('not_found', `no drive log ${logId} in this project`);
  if (log.hits === 0) throw new ApiError('bad_input', `drive log ${log.id} (${log.name}) has no hits (${log.misses} misses): the neighbour simulator has nothing to replay`);
  const t0 = performance.now();
  const builder = new NeighbourIndexBuilder({ cell: neighbourCellFor(radius) });
  for (const c of session.store.logs.chunks(logId)) builder.add(c);
  const index = toShared(builder.finish());
  return { source: { index, radius }, name: log.name, seconds: (performance.now() - t0) / 1000 };
}
