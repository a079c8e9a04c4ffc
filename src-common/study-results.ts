/**
 * What one sensor's run of a study measures and keeps (docs/methods.md §7): the metrics the CLI
 * and the Studies page report, and the run's history the page plays back (every frame is one
 * scan: one revolution, or one LMS sweep).
 */

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

/**
 * One scan of a run as it happens (a live drive, docs/studies.md "Live drives"): what the run's
 * history gains with that scan, so a page can grow the history frame by frame and play it while
 * the run goes on. Concatenating every frame's parts in order gives the run's StudyRunArrays.
 */
export interface StudyLiveFrame {
  /** The scan's index (0-based) and the simulated time it ended (s). */
  frame: number;
  time: number;
  /** The vehicle at the scan's start and at its end: t, x, y, z, yaw (s, m, rad). */
  poseStart: Float64Array;
  poseEnd: Float64Array;
  /** The scan's cost rises: cells and their new costs. */
  riseCell: Uint32Array;
  riseCost: Uint8Array;
  /** Plans made since the previous frame (the first frame also carries the plan made at the start): per plan the frames seen, and its vertices. */
  plans: { frame: number; xy: Float32Array }[];
  /** The scan's points kept for display: world x y z and ground-truth class. */
  xyz: Float32Array;
  classId: Uint8Array;
}
