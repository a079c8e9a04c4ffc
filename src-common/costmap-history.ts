/**
 * A study run's costmap history (docs/methods.md §7): the worker records, scan by scan, the cells
 * whose cost rose; the host replays them for `studies.costmap` and the Studies page replays them
 * as it plays a run back. Cost 0 … 100, UNKNOWN_COST where nothing was seen.
 */

/** The cost of a cell nothing has been seen in. */
export const UNKNOWN_COST = 255;

/**
 * The grid at a point of a run's history: replays the recorded rises (cell, cost) of the first
 * `frames` frames onto an all-unknown grid. `frameStart[k]` is the index of frame k's first rise.
 */
export function replayCostmap(cells: number, eventCell: ArrayLike<number>, eventCost: ArrayLike<number>, frameStart: ArrayLike<number>, frames: number, out?: Uint8Array): Uint8Array {
  const grid = out ?? new Uint8Array(cells);
  grid.fill(UNKNOWN_COST);
  const end = frames >= frameStart.length ? eventCell.length : frameStart[Math.max(0, frames)]!;
  for (let i = 0; i < end; i++) grid[eventCell[i]!] = eventCost[i]!;
  return grid;
}
