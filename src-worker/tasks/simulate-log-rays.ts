/**
 * One batch of a ray-for-ray simulation of a recorded log (`thicket simulate --rays-from LOG`,
 * docs/simulation.md, *Simulating a log's own rays*): the log's chunks this task is fed (one per
 * task, in the host's plan) are simulated packet for packet — every logged pulse (first returns
 * and misses; a second return is the same pulse) fired from its packet's own pose in its own
 * direction, with its firing time and ring — and each becomes one stored run chunk with the log's
 * packet indices, times and poses. Packets draw from the stream (seed, packet index in the log),
 * so the run does not depend on how the log is chunked or on the number of workers.
 */
import type { MessagePort } from 'node:worker_threads';
import type { TaskContext } from './task-context';
import { feedChunks } from './chunk-feed';
import { queryFor, type SimulateBatchInput, type SimulateBatchSummary } from './simulate-batch';
import { Simulator, ChunkBuilder, newSimulationStats } from '../simulate';
import { logChunkRays } from '../simulate/log-rays';
import { staticTrajectory } from '../geometry/trajectory';
import { chunkBounds } from '../formats/chunk-points';
import { chunkBuffers, type PacketChunk } from '../../src-common/packets';

export interface SimulateLogRaysInput extends Omit<SimulateBatchInput, 'trajectory' | 'mountOverride' | 'firstPacket' | 'packetCount'> {
  /** The log's chunks for this task (src-main/services/chunk-server.ts). */
  feed: MessagePort;
}

export interface SimulateLogRaysSummary extends SimulateBatchSummary {
  packets: number;
  /** Logged pulses (first returns and misses) this task read. */
  pulses: number;
}

export async function simulateLogRays(input: SimulateLogRaysInput, ctx: TaskContext): Promise<SimulateLogRaysSummary> {
  const stats = newSimulationStats();
  let packets = 0, pulses = 0;
  let bounds: SimulateBatchSummary['bounds'] = null;
  for await (const chunk of feedChunks<PacketChunk>(input.feed)) {
    const source = logChunkRays(chunk);
    pulses += source.pulses;
    const sim = new Simulator({
      scene: input.scene ? queryFor(input.scene) : null,
      neighbour: input.neighbour ?? null,
      profile: input.profile,
      rays: source.rays,
      // Unused: every packet carries its own pose (PacketRays.pose).
      trajectory: staticTrajectory(),
      mount: [0, 0, 0, 0, 0, 0, 1],
      seed: input.seed,
      mode: input.mode,
      options: { rangeSampler: input.rangeSampler, ...(input.noiseSigma !== undefined ? { noiseSigma: input.noiseSigma } : {}) },
      learnedNoise: input.learnedNoise ?? null,
    });
    const writer = new ChunkBuilder(chunk.packetStart, chunk.rayCount + 16, chunk.packetCount);
    for (let k = 0; k < chunk.packetCount; k++) {
      ctx.checkCancelled();
      sim.simulatePacket(chunk.packetStart + k, writer, stats);
      ctx.progress((k + 1) / chunk.packetCount, 'simulating the log\'s rays', k + 1 === chunk.packetCount);
    }
    packets += chunk.packetCount;
    const out = writer.finish();
    const b = chunkBounds(out); // before the transfer detaches the chunk's arrays
    if (b) bounds = bounds ? { min: [0, 1, 2].map((i) => Math.min(bounds!.min[i]!, b.min[i]!)) as [number, number, number], max: [0, 1, 2].map((i) => Math.max(bounds!.max[i]!, b.max[i]!)) as [number, number, number] } : b;
    ctx.post({ type: 'chunk', chunk: out }, chunkBuffers(out));
  }
  return { rays: stats.rays, hits: stats.hits, misses: stats.misses, skippedNaN: stats.skippedNaN, bounds, packets, pulses };
}
