/**
 * The top-down view the study panels share: a centre in world metres and the span (m) that fits
 * the panel's shorter side, north (+y) up. Sharing the span rather than a pixel scale keeps panels
 * of any size showing the same ground, so zooming or panning one moves them all.
 */

export interface PanelView {
  cx: number;
  cy: number;
  /** Metres across the panel's shorter side. */
  span: number;
}

export const MIN_SPAN_M = 2;
export const MAX_SPAN_M = 5000;

const clampSpan = (s: number) => Math.max(MIN_SPAN_M, Math.min(MAX_SPAN_M, s));

/** Pixels per metre in a w × h panel. */
export function pxPerMetre(view: PanelView, w: number, h: number): number {
  return Math.max(1, Math.min(w, h)) / view.span;
}

export function worldToScreen(view: PanelView, w: number, h: number, x: number, y: number): [number, number] {
  const s = pxPerMetre(view, w, h);
  return [w / 2 + (x - view.cx) * s, h / 2 - (y - view.cy) * s];
}

export function screenToWorld(view: PanelView, w: number, h: number, sx: number, sy: number): [number, number] {
  const s = pxPerMetre(view, w, h);
  return [view.cx + (sx - w / 2) / s, view.cy - (sy - h / 2) / s];
}

/** Zoom by `factor` (< 1 zooms in) keeping the world point under (sx, sy) where it is. */
export function zoomAt(view: PanelView, w: number, h: number, sx: number, sy: number, factor: number): PanelView {
  const span = clampSpan(view.span * factor);
  const f = span / view.span;
  const [px, py] = screenToWorld(view, w, h, sx, sy);
  return { cx: px - (px - view.cx) * f, cy: py - (py - view.cy) * f, span };
}

/** Drag the ground by (dx, dy) pixels. */
export function panBy(view: PanelView, w: number, h: number, dx: number, dy: number): PanelView {
  const s = pxPerMetre(view, w, h);
  return { cx: view.cx - dx / s, cy: view.cy + dy / s, span: view.span };
}

/** The view holding every x y pair of `xy` with `marginM` around them (a 20 m square when there is nothing to hold). */
export function fitView(xy: ArrayLike<number>, marginM: number): PanelView {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let k = 0; k + 1 < xy.length; k += 2) {
    const x = xy[k]!, y = xy[k + 1]!;
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    x0 = Math.min(x0, x); x1 = Math.max(x1, x);
    y0 = Math.min(y0, y); y1 = Math.max(y1, y);
  }
  if (!(x1 >= x0)) return { cx: 0, cy: 0, span: 20 };
  return { cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, span: clampSpan(Math.max(x1 - x0, y1 - y0) + 2 * marginM) };
}

/** The grid cell (ix, iy) holding world point (x, y), or null outside the grid. */
export function cellAt(grid: { originX: number; originY: number; cellM: number; width: number; height: number }, x: number, y: number): { ix: number; iy: number; index: number } | null {
  const ix = Math.floor((x - grid.originX) / grid.cellM), iy = Math.floor((y - grid.originY) / grid.cellM);
  if (ix < 0 || iy < 0 || ix >= grid.width || iy >= grid.height) return null;
  return { ix, iy, index: iy * grid.width + ix };
}
