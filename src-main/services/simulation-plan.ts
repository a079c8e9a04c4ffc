/**
 * How a simulated drive is cut into simulate-batch tasks, and what their summaries add up to.
 * Shared by runs (src-main/services/simulation.ts), the demo's reference drives (stored as drive
 * logs) and the benchmarks. The batch size is part of the request, never derived from the worker
 * count, so a run is laid out the same whatever the pool's size.
 */
import type { SimulateBatchInput, SimulateBatchSummary } from '../../src-worker/tasks/simulate-batch';
import { packetDurationOf } from '../../src-common/profile-timing';

/** What a simulation needs besides its packet range: the worker-side input of every batch. */
export type SimulationBase = Omit<SimulateBatchInput, 'firstPacket' | 'packetCount'>;

export interface SimulationPlan {
  packets: number;
  durationS: number;
  /** One simulate-batch task per `batchPackets` packets, in packet order (task index = chunk seq). */
  tasks: { task: 'simulate-batch'; input: SimulateBatchInput }[];
}

type Box = { min: [number, number, number]; max: [number, number, number] };

/** `seconds` of the trajectory at the profile's packet rate, cut into fixed-size batches. */
export function planSimulation(base: SimulationBase, seconds: number, batchPackets: number): SimulationPlan {
  const duration = packetDurationOf(base.profile);
  const packets = Math.max(1, Math.floor(seconds / duration + 1e-9));
  const batches = Math.ceil(packets / batchPackets);
  const tasks = Array.from({ length: batches }, (_, b) => {
    const first = b * batchPackets;
    const input: SimulateBatchInput = { ...base, firstPacket: first, packetCount: Math.min(batchPackets, packets - first) };
    return { task: 'simulate-batch' as const, input };
  });
  return { packets, durationS: packets * duration, tasks };
}

/** Totals over a simulation's batch summaries, with the bounds of all their hits (null: none). */
export function sumBatches(outputs: readonly SimulateBatchSummary[]): { rays: number; hits: number; misses: number; skipped: number; bounds: Box | null } {
  let bounds: Box | null = null;
  for (const { bounds: b } of outputs) {
    if (!b) continue;
    if (!bounds) bounds = { min: [...b.min], max: [...b.max] };
    else for (let k = 0; k < 3; k++) {
      if (b.min[k]! < bounds.min[k]!) bounds.min[k] = b.min[k]!;
      if (b.max[k]! > bounds.max[k]!) bounds.max[k] = b.max[k]!;
    }
  }
  const sums = outputs.reduce(
    (a, o) => ({ rays: a.rays + o.rays, hits: a.hits + o.hits, misses: a.misses + o.misses, skipped: a.skipped + o.skippedNaN }),
    { rays: 0, hits: 0, misses: 0, skipped: 0 },
  );
  return { ...sums, bounds };
}
