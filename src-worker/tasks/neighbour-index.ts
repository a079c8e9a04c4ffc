/**
 * The neighbour simulator's input (Tallavajhula 2018 §4.3.2): a training log's hits in a spatial index
 * (src-worker/simulate/neighbour-index.ts), built chunk by chunk as the host feeds the log — only
 * the hits are kept, 21 bytes each — and returned in shared memory, so every batch of the run
 * reads the same bytes.
 */
import type { MessagePort } from 'node:worker_threads';
import type { TaskContext } from './task-context';
import type { PacketChunk } from '../../src-common/packets';
import { NeighbourIndexBuilder, neighbourCellFor } from '../simulate/neighbour-build';
import type { NeighbourSource } from '../simulate/types';
import { DEFAULT_NEIGHBOUR_RADIUS } from '../simulate/neighbour';
import { feedChunks } from './chunk-feed';
import { toShared } from '../../src-common/shared-memory';

export interface NeighbourIndexInput {
  feed: MessagePort;
  /** The threshold d⊥ (m) the index is built for; the simulator's default when absent. */
  radius?: number;
}

export async function neighbourIndexTask(input: NeighbourIndexInput, ctx: TaskContext): Promise<NeighbourSource> {
  const radius = input.radius ?? DEFAULT_NEIGHBOUR_RADIUS;
  const builder = new NeighbourIndexBuilder({ cell: neighbourCellFor(radius) });
  for await (const c of feedChunks<PacketChunk>(input.feed)) {
    ctx.checkCancelled();
    builder.add(c);
  }
  return { index: toShared(builder.finish()), radius };
}
