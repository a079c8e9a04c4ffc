/**
 * A costmap as an RGBA image, one pixel per cell, north (+y) up: unknown cells dark, known
 * cells from green (cost 0) through yellow (50) to red (100); lethal cells a brighter red
 * outline-free fill; then the overlays — the driven track (white), the last planned path (cyan),
 * the start (white square), the goal (blue square) and the vehicle's footprint (magenta).
 * Pure pixels: the PNG encoding lives with the worker task (it needs zlib). Optionally only a
 * window of cells (pointsWindow: around start, goal and route).
 */
import { UNKNOWN_COST_RGB, costColour } from '../../src-common/colormaps';
import { UNKNOWN, type GridSpec } from './cost-grid';

export interface CostmapOverlay {
  /** Driven positions, x y pairs (world m). */
  track?: ArrayLike<number> | null;
  /** Planned path, x y pairs. */
  path?: ArrayLike<number> | null;
  start?: readonly [number, number] | null;
  goal?: readonly [number, number] | null;
  /** Vehicle pose and size for its footprint. */
  vehicle?: { x: number; y: number; yaw: number; length: number; width: number } | null;
}

/** Cells [i0, i1) × [j0, j1) of the grid to draw (default: all). */
export interface CellWindow {
  i0: number;
  j0: number;
  i1: number;
  j1: number;
}

/**
 * The window around the given points (start, goal, route) grown by `margin` cells and clamped to
 * the grid: the same for every run of a study, so their pictures compare side by side, and a
 * small site in a big grid stays readable.
 */
export function pointsWindow(spec: GridSpec, points: ArrayLike<number>, margin: number): CellWindow {
  let i0 = Infinity, j0 = Infinity, i1 = -Infinity, j1 = -Infinity;
  for (let k = 0; k + 1 < points.length; k += 2) {
    const i = Math.floor((points[k]! - spec.originX) / spec.cellM), j = Math.floor((points[k + 1]! - spec.originY) / spec.cellM);
    i0 = Math.min(i0, i); j0 = Math.min(j0, j); i1 = Math.max(i1, i); j1 = Math.max(j1, j);
  }
  if (!(i1 >= i0)) return { i0: 0, j0: 0, i1: spec.width, j1: spec.height };
  const w = { i0: Math.max(0, i0 - margin), j0: Math.max(0, j0 - margin), i1: Math.min(spec.width, i1 + 1 + margin), j1: Math.min(spec.height, j1 + 1 + margin) };
  return w.i1 > w.i0 && w.j1 > w.j0 ? w : { i0: 0, j0: 0, i1: spec.width, j1: spec.height };
}

export interface RgbaImage {
  width: number;
  height: number;
  /** width × height × 4 bytes, top row first. */
  pixels: Uint8Array;
}



export function renderCostmap(cost: Uint8Array, spec: GridSpec, lethalCost: number, overlay: CostmapOverlay = {}, window?: CellWindow): RgbaImage {
  const win = window ?? { i0: 0, j0: 0, i1: spec.width, j1: spec.height };
  const W = win.i1 - win.i0, H = win.j1 - win.j0;
  if (!(W > 0 && H > 0)) throw new Error('costmap image: empty window');
  const px = new Uint8Array(W * H * 4);
  for (let j = 0; j < H; j++) {
    const row = H - 1 - j;
    for (let i = 0; i < W; i++) {
      const c = cost[(j + win.j0) * spec.width + i + win.i0]!;
      const rgb = c === UNKNOWN ? UNKNOWN_COST_RGB : costColour(c, lethalCost);
      const o = (row * W + i) * 4;
      px[o] = rgb[0]; px[o + 1] = rgb[1]; px[o + 2] = rgb[2]; px[o + 3] = 255;
    }
  }
  const put = (i: number, j: number, rgb: readonly number[]) => {
    if (i < 0 || j < 0 || i >= W || j >= H) return;
    const o = ((H - 1 - j) * W + i) * 4;
    px[o] = rgb[0]!; px[o + 1] = rgb[1]!; px[o + 2] = rgb[2]!;
  };
  const toI = (x: number) => Math.floor((x - spec.originX) / spec.cellM) - win.i0;
  const toJ = (y: number) => Math.floor((y - spec.originY) / spec.cellM) - win.j0;
  const line = (xy: ArrayLike<number>, rgb: readonly number[]) => {
    for (let k = 0; k + 3 < xy.length; k += 2) {
      let i0 = toI(xy[k]!), j0 = toJ(xy[k + 1]!);
      const i1 = toI(xy[k + 2]!), j1 = toJ(xy[k + 3]!);
      // Bresenham
      const di = Math.abs(i1 - i0), dj = -Math.abs(j1 - j0), si = i0 < i1 ? 1 : -1, sj = j0 < j1 ? 1 : -1;
      let err = di + dj;
      for (let guard = 0; guard < 4 * (W + H); guard++) {
        put(i0, j0, rgb);
        if (i0 === i1 && j0 === j1) break;
        const e2 = 2 * err;
        if (e2 >= dj) { err += dj; i0 += si; }
        if (e2 <= di) { err += di; j0 += sj; }
      }
    }
  };
  const square = (x: number, y: number, half: number, rgb: readonly number[]) => {
    const i = toI(x), j = toJ(y);
    for (let b = -half; b <= half; b++) for (let a = -half; a <= half; a++) put(i + a, j + b, rgb);
  };
  if (overlay.track) line(overlay.track, [255, 255, 255]);
  if (overlay.path) line(overlay.path, [0, 210, 255]);
  if (overlay.start) square(overlay.start[0], overlay.start[1], 2, [255, 255, 255]);
  if (overlay.goal) square(overlay.goal[0], overlay.goal[1], 3, [60, 110, 255]);
  const v = overlay.vehicle;
  if (v) {
    const c = Math.cos(v.yaw), s = Math.sin(v.yaw), hl = v.length / 2, hw = v.width / 2;
    const corners = [hl, hw, -hl, hw, -hl, -hw, hl, -hw, hl, hw];
    const xy: number[] = [];
    for (let k = 0; k < corners.length; k += 2) xy.push(v.x + c * corners[k]! - s * corners[k + 1]!, v.y + s * corners[k]! + c * corners[k + 1]!);
    line(xy, [255, 60, 255]);
  }
  return { width: W, height: H, pixels: px };
}
