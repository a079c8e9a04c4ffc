/**
 * What the real-data experiment reports (docs/fitting-and-primitives.md, "The real-data
 * experiment"): per simulator built from a training log, how well it predicted a test log's own
 * rays, and the hybrid model's self-check on its training log.
 */
import type { HeadlineMetrics } from './metrics';

export const REAL_SIMULATORS = ['hybrid', 'voxel', 'mesh', 'neighbour'] as const;
export type RealSimulator = (typeof REAL_SIMULATORS)[number];

export interface RealExperimentRow extends HeadlineMetrics {
  simulator: RealSimulator;
  /** The stored run and evaluation (open them in the app). */
  run: number;
  evaluation: number;
}

export interface RealExperiment {
  table: RealExperimentRow[];
  selfCheck: RealExperimentRow;
  model: number;
  primitives: { hybrid: number; mesh: number; segments: number };
  scenes: { mesh: number };
  /** The simulated sensor when one was given; null: each log's own. */
  profileId: string | null;
  seconds: number;
}
