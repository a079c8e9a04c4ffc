/**
 * One sensor's run of a sensor study (003 §3.5.3, METHODS §7): its settings, and what it
 * returns — the metrics and the run's history for display (every frame = one scan: one
 * revolution, or one LMS sweep).
 */
import type { GridSpec } from './cost-grid';
import type { TruthObject } from './ground-truth';
import type { MountSpec, VehicleSpec } from './vehicle';

export type StudyLoop = 'closed' | 'open';
export type StudySimulation = 'physics' | 'hybrid';

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

export interface StudyMetrics {
  /** Cells holding at least one point at the end. */
  cellsObserved: number;
  /** Closed loop: distance driven (m). Open loop: length of the A* path from the start to the goal on the final map (003 Fig. 10). */
  pathLength: number | null;
  /** Simulated seconds until the vehicle was within goalToleranceM of the goal; null if never. */
  timeToGoal: number | null;
  /** Closed loop: 1 if the run ended on a collision. Open loop: solid obstacles the fixed route touched. */
  collisions: number;
  /** Lethal cells holding only vegetation lower than hMax in ground truth. */
  falseObstacles: number;
  /** Solid obstacles within relevanceM of the track from which no return reached the map. */
  missedObstacles: number;
  /** Solid obstacles within relevanceM of the track (missedObstacles' denominator). */
  obstacles: number;
  /** Times a re-plan took another route (beyond the first 2 m ahead) than the plan it replaced. */
  replans: number;
  outcome: 'goal' | 'collision' | 'timeout';
  lethalCells: number;
  scans: number;
  /** Returns registered into the grid. */
  points: number;
  /** Simulated time at the end (s). */
  endTime: number;
  /** The obstacle hit (closed loop), else null. */
  collidedWith: number | null;
}

/** The run's history, typed arrays (transferred from the worker, stored as BLOBs). */
export interface StudyRunArrays {
  /** Per frame: end time (s) of its scan. */
  frameTime: Float64Array;
  /** Per frame: index of its first cost rise in eventCell/eventCost. */
  frameStart: Uint32Array;
  /** Every rise of a cell's cost, in order: the cell and its new cost. */
  eventCell: Uint32Array;
  eventCost: Uint8Array;
  /** Per frame: vehicle at the scan's start: t, x, y, z, yaw. */
  poses: Float64Array;
  /** Per plan: the frame after which it was made, and its first vertex in planXY (plans + 1 entries). */
  planFrame: Uint32Array;
  planStart: Uint32Array;
  /** Plan vertices (corners of the cell path), x y pairs. */
  planXY: Float32Array;
  /** Decimated registered points: world x y z, their frame and ground-truth class. */
  cloudXYZ: Float32Array;
  cloudFrame: Uint32Array;
  cloudClass: Uint8Array;
  /** The final grid (UNKNOWN = 255). */
  finalCost: Uint8Array;
}

export interface StudyRunResult {
  seq: number;
  profileId: string;
  metrics: StudyMetrics;
  arrays: StudyRunArrays;
}

export type { TruthObject };
