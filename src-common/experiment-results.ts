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
  /** Scan-matching risk against the log (docs/methods.md, "Application-level risk"): position (m) and angle (rad); null when not computed (a log of one revolution). */
  risk?: number | null;
  riskAngle?: number | null;
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
