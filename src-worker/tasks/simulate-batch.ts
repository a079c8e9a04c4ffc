/**
 * One batch of a simulation run: packets [firstPacket, firstPacket + packetCount) of a drive,
 * returned as ONE chunk (stored under the batch index, so the run's layout never depends on the
 * number of workers). The scene (or, in neighbour mode, the training log's hit index) arrives in
 * SharedArrayBuffers; the scene's query object and the sensor's revolution pattern are cached
 * per worker, so later batches of the same run skip both.
 */
import type { TaskContext } from './task-context';
import type { SceneData } from '../../src-common/scene-data';
import { createSceneQuery, type BvhSceneQuery } from '../scene/scene-bvh';
import type { SensorProfile } from '../../src-common/sensor-profile';
import type { LearnedNoiseTables } from '../../src-common/noise-model';
import { revolutionPattern, packetRays, type ScanPattern } from '../sensors/scan-pattern';
import { Simulator, ChunkBuilder, newSimulationStats, type RangeSampler, type SimulationMode } from '../simulate';
import type { NeighbourSource } from '../simulate/types';
import { createTrajectory } from '../geometry/trajectory';
import { chunkBounds } from '../formats/chunk-points';
import { chunkBuffers } from '../../src-common/packets';

export interface SimulateBatchInput {
  /** The scene (shared memory); null in neighbour mode, which replays `neighbour` instead. */
  scene: SceneData | null;
  /** Neighbour mode: the training log's hit index (shared memory) and the threshold d⊥ (m). */
  neighbour?: NeighbourSource | null;
  /** Range noise σ (m) instead of the profile's (mesh/physics returns; 000 §V-C's baseline: 0.005). */
  noiseSigma?: number;
  profile: SensorProfile;
  /** The learned noise model the profile names (range.noiseModel), read from the project by the host. */
  learnedNoise?: LearnedNoiseTables | null;
  /** World ← vehicle (or ← sensor when `mountOverride` is the identity) samples. */
  trajectory: { times: Float64Array; poses: Float64Array };
  mountOverride: number[] | null;
  mode: SimulationMode;
  seed: number;
  rangeSampler: RangeSampler;
  firstPacket: number;
  packetCount: number;
}

export interface SimulateBatchSummary {
  rays: number;
  hits: number;
  misses: number;
  skippedNaN: number;
  /** World bounds of the batch's hits (null: none), so the host merges boxes rather than points. */
  bounds: { min: [number, number, number]; max: [number, number, number] } | null;
}

// Keyed by the scene's shared triangle buffer: the same run's batches hit the cache.
const queries = new WeakMap<object, BvhSceneQuery>();
const patterns = new Map<string, ScanPattern>();

/** The scene's query object, built once per worker (simulate-log-rays.ts shares it). */
export function queryFor(scene: SceneData): BvhSceneQuery {
  const key = scene.nodeBounds.buffer;
  let q = queries.get(key);
  if (!q) {
    q = createSceneQuery(scene);
    queries.set(key, q);
  }
  return q;
}

function patternFor(profile: SensorProfile): ScanPattern {
  const key = JSON.stringify(profile);
  let p = patterns.get(key);
  if (!p) {
    if (patterns.size > 8) patterns.clear();
    p = revolutionPattern(profile);
    patterns.set(key, p);
  }
  return p;
}

export function simulateBatch(input: SimulateBatchInput, ctx: TaskContext): SimulateBatchSummary {
  const pattern = patternFor(input.profile);
  const sim = new Simulator({
    scene: input.scene ? queryFor(input.scene) : null,
    neighbour: input.neighbour ?? null,
    profile: input.profile,
    rays: (p) => packetRays(pattern, p),
    trajectory: createTrajectory(input.trajectory.times, input.trajectory.poses),
    mount: input.mountOverride,
    seed: input.seed,
    mode: input.mode,
    options: { rangeSampler: input.rangeSampler, ...(input.noiseSigma !== undefined ? { noiseSigma: input.noiseSigma } : {}) },
    learnedNoise: input.learnedNoise ?? null,
  });
  const stats = newSimulationStats();
  // One record per ray in single-return modes: size the chunk for that, so it never grows and
  // finish() copies nothing (dual returns grow it).
  const raysPerPacket = Math.ceil(pattern.rayCount / pattern.packetsPerRevolution);
  const writer = new ChunkBuilder(input.firstPacket, input.packetCount * raysPerPacket, input.packetCount);
  for (let k = 0; k < input.packetCount; k++) {
    ctx.checkCancelled();
    sim.simulatePacket(input.firstPacket + k, writer, stats);
    ctx.progress((k + 1) / input.packetCount, 'simulating', k + 1 === input.packetCount); // the last one always goes
  }
  const chunk = writer.finish();
  const bounds = chunkBounds(chunk); // before the transfer detaches the chunk's arrays
  ctx.post({ type: 'chunk', chunk }, chunkBuffers(chunk));
  return { rays: stats.rays, hits: stats.hits, misses: stats.misses, skippedNaN: stats.skippedNaN, bounds };
}
