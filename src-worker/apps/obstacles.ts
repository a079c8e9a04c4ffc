/**
 * The obstacle-detection application (docs/methods.md, "Application-level risk"): the studies'
 * cost grid (src-worker/plan/cost-grid.ts, docs/methods.md §7) built from a log's hits, its lethal
 * cells the detected obstacles. Without a scene's terrain the ground under a cell is the lowest
 * hit within `groundWindowCells` cells of it. A cell is detected when at least `minHits` of its
 * hits cost ≥ `lethalCost` (c = min(100 · h / h_max, 100)). The truth is the log's ray classes: a
 * cell is an obstacle when it holds a hit of a solid class or a tree (SOLID_CLASSES).
 * J = false obstacle cells + missed obstacle cells.
 */
import { SiteClass } from '../../src-common/classes';
import { pointCost } from '../plan/cost-grid';
import type { Alpha } from './alpha-sampling';
import type { LogPoints } from './log-points';

/** The cells of the studies' grid (m). */
export const OBSTACLE_CELL_M = 0.5;
/** The grid spans at most this many cells a side (centred on the hits' bounds). */
const MAX_CELLS_SIDE = 1200;

export const SOLID_CLASSES: ReadonlySet<number> = new Set([
  SiteClass.rock, SiteClass.fallenLog, SiteClass.wall, SiteClass.stem, SiteClass.rod, SiteClass.smallTree, SiteClass.mediumTree, SiteClass.largeTree,
]);

/** Detected against true obstacle cells. */
export function obstacleErrors(detected: Uint8Array, truth: Uint8Array): { falseCells: number; missedCells: number } {
  let falseCells = 0, missedCells = 0;
  for (let c = 0; c < detected.length; c++) {
    if (detected[c] && !truth[c]) falseCells++;
    else if (!detected[c] && truth[c]) missedCells++;
  }
  return { falseCells, missedCells };
}

/** A log's hits on the grid, with what does not depend on α. */
export interface ObstacleGrid {
  width: number;
  height: number;
  /** Cell of each point (−1 outside). */
  cellOf: Int32Array;
  z: Float64Array;
  minZ: Float64Array;
  truth: Uint8Array;
  /** Ground per window size, filled as asked. */
  ground: Map<number, Float64Array>;
}

export function obstacleGrid(d: LogPoints): ObstacleGrid {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let i = 0; i < d.count; i++) {
    const x = d.xyz[3 * i]!, y = d.xyz[3 * i + 1]!;
    if (x < x0) x0 = x; if (x > x1) x1 = x;
    if (y < y0) y0 = y; if (y > y1) y1 = y;
  }
  if (!(x1 >= x0)) { x0 = y0 = 0; x1 = y1 = 0; }
  const width = Math.min(MAX_CELLS_SIDE, Math.floor((x1 - x0) / OBSTACLE_CELL_M) + 1);
  const height = Math.min(MAX_CELLS_SIDE, Math.floor((y1 - y0) / OBSTACLE_CELL_M) + 1);
  const ox = (x0 + x1) / 2 - (width * OBSTACLE_CELL_M) / 2, oy = (y0 + y1) / 2 - (height * OBSTACLE_CELL_M) / 2;
  const cellOf = new Int32Array(d.count).fill(-1);
  const z = new Float64Array(d.count);
  const minZ = new Float64Array(width * height).fill(Infinity);
  const truth = new Uint8Array(width * height);
  for (let i = 0; i < d.count; i++) {
    const ix = Math.floor((d.xyz[3 * i]! - ox) / OBSTACLE_CELL_M), iy = Math.floor((d.xyz[3 * i + 1]! - oy) / OBSTACLE_CELL_M);
    z[i] = d.xyz[3 * i + 2]!;
    if (ix < 0 || iy < 0 || ix >= width || iy >= height) continue;
    const c = iy * width + ix;
    cellOf[i] = c;
    if (z[i]! < minZ[c]!) minZ[c] = z[i]!;
    if (SOLID_CLASSES.has(d.cls[i]!)) truth[c] = 1;
  }
  return { width, height, cellOf, z, minZ, truth, ground: new Map() };
}

/** Lowest minZ within w cells (a separable running minimum). */
function groundOf(g: ObstacleGrid, w: number): Float64Array {
  let out = g.ground.get(w);
  if (out) return out;
  const { width, height } = g;
  const rows = new Float64Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let m = Infinity;
      for (let k = Math.max(0, x - w); k <= Math.min(width - 1, x + w); k++) m = Math.min(m, g.minZ[y * width + k]!);
      rows[y * width + x] = m;
    }
  }
  out = new Float64Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let m = Infinity;
      for (let k = Math.max(0, y - w); k <= Math.min(height - 1, y + w); k++) m = Math.min(m, rows[k * width + x]!);
      out[y * width + x] = m;
    }
  }
  g.ground.set(w, out);
  return out;
}

/** The detected obstacle cells at α. */
export function detectObstacles(g: ObstacleGrid, alpha: Alpha): Uint8Array {
  const ground = groundOf(g, Math.round(alpha.groundWindowCells!));
  const hits = new Uint16Array(g.width * g.height);
  const lethal = alpha.lethalCost!, hMax = alpha.hMax!, need = Math.round(alpha.minHits!);
  const detected = new Uint8Array(g.width * g.height);
  for (let i = 0; i < g.cellOf.length; i++) {
    const c = g.cellOf[i]!;
    if (c < 0) continue;
    if (pointCost(g.z[i]! - ground[c]!, hMax) >= lethal && ++hits[c]! >= need) detected[c] = 1;
  }
  return detected;
}

export interface ObstaclesJ {
  j: number;
  falseCells: number;
  missedCells: number;
}

export function obstaclesObjective(g: ObstacleGrid, alpha: Alpha): ObstaclesJ {
  const e = obstacleErrors(detectObstacles(g, alpha), g.truth);
  return { j: e.falseCells + e.missedCells, ...e };
}
