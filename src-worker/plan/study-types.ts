/**
 * One sensor's run of a sensor study (003 §3.5.3, docs/methods.md §7): its settings, and what it
 * returns — the metrics and the run's history for display (every frame = one scan: one
 * revolution, or one LMS sweep).
 */
import type { GridSpec } from './cost-grid';
import type { TruthObject } from './ground-truth';
import type { MountSpec, VehicleSpec } from './vehicle';
import type { StudyLoop, StudySimulation } from '../../src-common/modes';
import type { StudyMetrics, StudyRunArrays } from '../../src-common/study-results';

export type { StudyMetrics, StudyRunArrays };

export type { StudyLoop, StudySimulation };

export interface StudyGridSettings extends GridSpec {
  /** Largest negotiable vegetation height (m): a point h above the ground costs min(100 h / hMax, 100). */
  hMax: number;
  lethalCost: number;
  unknownCost: number;
}

export interface StudyPlannerSettings {
  costWeight: number;
  /** Radius around lethal cells that A* avoids (m) and how strongly (step multiplier). */
  inflationM: number;
  inflationPenalty: number;
  /** Re-plan at least this often (s), and at most this often when the map changes on the path. */
  replanPeriodS: number;
  minReplanIntervalS: number;
  /** The goal is reached within this distance (m). */
  goalToleranceM: number;
  /** Solid obstacles within this distance of the driven track count for missedObstacles (m). */
  relevanceM: number;
}

export interface StudyRunSpec {
  /** Index of this run in its study (sensor × mount order). */
  seq: number;
  loop: StudyLoop;
  simulation: StudySimulation;
  /** Simulated time limit (closed loop) or the map's age (open loop), s. */
  seconds: number;
  seed: number;
  vehicle: VehicleSpec & { clearanceM: number };
  mount: MountSpec;
  start: [number, number];
  /** Initial heading (rad, counter-clockwise from +x). */
  startYaw: number;
  goal: [number, number];
  /** Open loop: the fixed route, x y pairs (from the start). */
  route: number[] | null;
  grid: StudyGridSettings;
  planner: StudyPlannerSettings;
  /** Points of the run kept for display (decimated evenly over the scans). */
  cloudBudget: number;
}

export interface StudyRunResult {
  seq: number;
  profileId: string;
  metrics: StudyMetrics;
  arrays: StudyRunArrays;
}

export type { TruthObject };
