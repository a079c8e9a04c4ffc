/**
 * Shrub patches (thesis 004 §4.3.1.3, Figure 4.12): an extended shrub region is divided into
 * uniform cells; in training each cell's model is a primitive, and a test patch is refilled cell
 * by cell. The same division serves both, so cells are alike on both sides:
 *
 *   patchCells(box, cellSize)   cells of a box: n = max(1, round(side / cellSize)) per horizontal
 *                               side, each side/n long (so ≈ cellSize, never a sliver); a cell box
 *                               has the patch's yaw, its footprint, and the patch's full height.
 */
import type { AnnotationBox } from '../site/reference-annotations';

export interface PatchCell {
  /** Cell column along the box length and row across it. */
  i: number;
  j: number;
  box: AnnotationBox;
}

/** Cells per side for a side length. */
export function cellsAlong(side: number, cellSize: number): number {
  return Math.max(1, Math.round(side / cellSize));
}

export function patchCells(box: AnnotationBox, cellSize: number): PatchCell[] {
  if (!(cellSize > 0)) throw new Error(`patch cells: cell size ${cellSize} must be > 0`);
  const [l, w, h] = box.size;
  const nl = cellsAlong(l, cellSize), nw = cellsAlong(w, cellSize);
  const cl = l / nl, cw = w / nw;
  const c = Math.cos(box.yaw), s = Math.sin(box.yaw);
  const cells: PatchCell[] = [];
  for (let i = 0; i < nl; i++) {
    for (let j = 0; j < nw; j++) {
      const u = -l / 2 + (i + 0.5) * cl, v = -w / 2 + (j + 0.5) * cw;
      cells.push({
        i, j,
        box: { center: [box.center[0] + c * u - s * v, box.center[1] + s * u + c * v, box.center[2]], size: [cl, cw, h], yaw: box.yaw },
      });
    }
  }
  return cells;
}

/** Which cell of `patchCells(box, cellSize)` a point falls in (its index in that list), −1 outside the footprint. */
export function patchCellIndex(box: AnnotationBox, cellSize: number, x: number, y: number): number {
  const [l, w] = box.size;
  const nl = cellsAlong(l, cellSize), nw = cellsAlong(w, cellSize);
  const c = Math.cos(box.yaw), s = Math.sin(box.yaw);
  const dx = x - box.center[0], dy = y - box.center[1];
  const u = c * dx + s * dy + l / 2, v = -s * dx + c * dy + w / 2;
  // The far faces belong to the last cell (a tight box has points exactly on them).
  const i = Math.min(nl - 1, Math.floor((u / (l || 1)) * nl)), j = Math.min(nw - 1, Math.floor((v / (w || 1)) * nw));
  if (!(u >= -1e-9 && v >= -1e-9 && u <= l + 1e-9 && v <= w + 1e-9)) return -1;
  return Math.max(0, i) * nw + Math.max(0, j);
}
