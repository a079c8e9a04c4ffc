/**
 * Screen-space selection over every point of a labelled cloud (not only the decimated ones drawn).
 *
 * A shape (box, lasso polygon, brush stroke) is first rasterised into a coverage mask at screen
 * resolution; then one tight loop projects each point with the camera's view-projection matrix
 * and looks its pixel up in the mask. The cost is one pass over the points plus one over the
 * shape's pixels, whatever the polygon's vertex count: 2 M points answer in tens of milliseconds
 * (`thicket bench --only label-select`, src-main/services/bench-label-select.ts, prints the figure).
 * It lives in src-common so that the page and that benchmark run the same code.
 *
 * Frames (docs/design.md, Renderer): points are Thicket world x, y, z relative to the cloud's
 * origin; the view draws them re-centred on `centre` with (x, y, z) → (x, z, y). The matrix is
 * Babylon's view × projection (row vectors, translation in m[12..14]).
 */

export type Point2 = readonly [number, number];

export type SelectShape =
  | { kind: 'box'; x0: number; y0: number; x1: number; y1: number }
  | { kind: 'lasso'; points: readonly Point2[] }
  | { kind: 'brush'; points: readonly Point2[]; radius: number };

/** How a new selection combines with the current one: replace it, add to it (Shift) or subtract from it (Ctrl / Alt). */
export type SelectMode = 'replace' | 'add' | 'subtract';

export function modeFromModifiers(e: { shiftKey: boolean; ctrlKey: boolean; altKey: boolean; metaKey?: boolean }): SelectMode {
  if (e.ctrlKey || e.altKey || e.metaKey) return 'subtract';
  if (e.shiftKey) return 'add';
  return 'replace';
}

export interface ScreenView {
  /** View × projection, 16 numbers in Babylon's order. */
  matrix: ArrayLike<number>;
  /** Canvas size in CSS pixels (the shapes' units). */
  width: number;
  height: number;
  /** Subtracted from the positions before the axis swap (the view's re-centring). */
  centre: readonly [number, number, number];
}

/** Even-odd (crossing number) test of a point in a polygon. */
export function pointInPolygon(x: number, y: number, poly: readonly Point2[]): boolean {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i]!;
    const [xj, yj] = poly[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Coverage of a shape on a w × h pixel grid: 1 where pixel (px, py)'s centre is inside. */
export function rasterize(shape: SelectShape, w: number, h: number): Uint8Array {
  const mask = new Uint8Array(w * h);
  if (shape.kind === 'box') {
    const x0 = Math.max(0, Math.ceil(Math.min(shape.x0, shape.x1) - 0.5));
    const x1 = Math.min(w - 1, Math.floor(Math.max(shape.x0, shape.x1) - 0.5));
    const y0 = Math.max(0, Math.ceil(Math.min(shape.y0, shape.y1) - 0.5));
    const y1 = Math.min(h - 1, Math.floor(Math.max(shape.y0, shape.y1) - 0.5));
    for (let y = y0; y <= y1; y++) mask.fill(1, y * w + x0, y * w + x1 + 1);
  } else if (shape.kind === 'lasso') {
    fillPolygon(shape.points, w, h, mask);
  } else {
    for (const [cx, cy] of shape.points) fillDisc(cx, cy, shape.radius, w, h, mask);
    // Join consecutive dabs so a fast stroke leaves no gaps.
    for (let i = 1; i < shape.points.length; i++) {
      const [ax, ay] = shape.points[i - 1]!;
      const [bx, by] = shape.points[i]!;
      const d = Math.hypot(bx - ax, by - ay);
      const steps = Math.floor(d / Math.max(1, shape.radius / 2));
      for (let s = 1; s < steps; s++) fillDisc(ax + ((bx - ax) * s) / steps, ay + ((by - ay) * s) / steps, shape.radius, w, h, mask);
    }
  }
  return mask;
}

function fillDisc(cx: number, cy: number, r: number, w: number, h: number, mask: Uint8Array): void {
  const y0 = Math.max(0, Math.ceil(cy - r - 0.5));
  const y1 = Math.min(h - 1, Math.floor(cy + r - 0.5));
  for (let y = y0; y <= y1; y++) {
    const dy = y + 0.5 - cy;
    const half = Math.sqrt(Math.max(0, r * r - dy * dy));
    const x0 = Math.max(0, Math.ceil(cx - half - 0.5));
    const x1 = Math.min(w - 1, Math.floor(cx + half - 0.5));
    if (x1 >= x0) mask.fill(1, y * w + x0, y * w + x1 + 1);
  }
}

/** Scanline even-odd fill at pixel centres: the same answer as pointInPolygon at (x + 0.5, y + 0.5). */
function fillPolygon(poly: readonly Point2[], w: number, h: number, mask: Uint8Array): void {
  if (poly.length < 3) return;
  const xs: number[] = [];
  for (let y = 0; y < h; y++) {
    const sy = y + 0.5;
    xs.length = 0;
    for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
      const [xi, yi] = poly[i]!;
      const [xj, yj] = poly[j]!;
      if (yi > sy !== yj > sy) xs.push(((xj - xi) * (sy - yi)) / (yj - yi) + xi);
    }
    if (xs.length < 2) continue;
    xs.sort((a, b) => a - b);
    for (let k = 0; k + 1 < xs.length; k += 2) {
      // Pixel centres x + 0.5 with xs[k] ≤ … < xs[k + 1]; strictly "x < crossing" as pointInPolygon.
      const x0 = Math.max(0, Math.ceil(xs[k]! - 0.5));
      const x1 = Math.min(w - 1, Math.ceil(xs[k + 1]! - 0.5) - 1);
      if (x1 >= x0) mask.fill(1, y * w + x0, y * w + x1 + 1);
    }
  }
}

/**
 * Points whose projection falls on the mask: hits[i] = 1. Only points in `range` (a sweep's
 * points, say) and, when `allow` is given, with allow[i] ≠ 0 are tested. Points behind the camera
 * never hit. Returns the number of hits.
 */
export function projectOntoMask(
  positions: Float32Array,
  view: ScreenView,
  mask: Uint8Array,
  hits: Uint8Array,
  range: readonly [number, number] = [0, positions.length / 3],
  allow?: Uint8Array,
): number {
  const m = view.matrix;
  const m0 = m[0]!, m1 = m[1]!, m3 = m[3]!, m4 = m[4]!, m5 = m[5]!, m7 = m[7]!;
  const m8 = m[8]!, m9 = m[9]!, m11 = m[11]!, m12 = m[12]!, m13 = m[13]!, m15 = m[15]!;
  const [c0, c1, c2] = view.centre;
  const { width: w, height: h } = view;
  const hw = w / 2;
  const hh = h / 2;
  let count = 0;
  for (let i = range[0]; i < range[1]; i++) {
    if (allow && allow[i] === 0) continue;
    const o = i * 3;
    // Thicket (x, y, z) → Babylon (x, z, y), re-centred.
    const bx = positions[o]! - c0;
    const by = positions[o + 2]! - c2;
    const bz = positions[o + 1]! - c1;
    const cw = bx * m3 + by * m7 + bz * m11 + m15;
    if (cw <= 1e-9) continue;
    const sx = ((bx * m0 + by * m4 + bz * m8 + m12) / cw + 1) * hw;
    const sy = (1 - (bx * m1 + by * m5 + bz * m9 + m13) / cw) * hh;
    if (sx < 0 || sy < 0 || sx >= w || sy >= h) continue;
    if (mask[(sy | 0) * w + (sx | 0)] === 1) {
      hits[i] = 1;
      count++;
    }
  }
  return count;
}

/** Screen position (CSS px) and clip w of one point, or null behind the camera. */
export function projectPoint(positions: Float32Array, i: number, view: ScreenView): { x: number; y: number; w: number } | null {
  const m = view.matrix;
  const o = i * 3;
  const bx = positions[o]! - view.centre[0];
  const by = positions[o + 2]! - view.centre[2];
  const bz = positions[o + 1]! - view.centre[1];
  const cw = bx * m[3]! + by * m[7]! + bz * m[11]! + m[15]!;
  if (cw <= 1e-9) return null;
  return {
    x: ((bx * m[0]! + by * m[4]! + bz * m[8]! + m[12]!) / cw + 1) * (view.width / 2),
    y: (1 - (bx * m[1]! + by * m[5]! + bz * m[9]! + m[13]!) / cw) * (view.height / 2),
    w: cw,
  };
}

/**
 * The point under the cursor: of the points projecting within `radiusPx` of (x, y), the nearest
 * to the camera (smallest clip w); -1 when none. Used by "select segment under cursor".
 */
export function pickPoint(positions: Float32Array, view: ScreenView, x: number, y: number, radiusPx = 6, range: readonly [number, number] = [0, positions.length / 3]): number {
  const r = Math.max(1, radiusPx);
  const mask = new Uint8Array(view.width * view.height);
  const hits = new Uint8Array(positions.length / 3);
  const disc = rasterize({ kind: 'brush', points: [[x, y]], radius: r }, view.width, view.height);
  mask.set(disc);
  if (projectOntoMask(positions, view, mask, hits, range) === 0) return -1;
  let best = -1;
  let bestW = Infinity;
  for (let i = range[0]; i < range[1]; i++) {
    if (!hits[i]) continue;
    const p = projectPoint(positions, i, view)!;
    if (p.w < bestW) {
      bestW = p.w;
      best = i;
    }
  }
  return best;
}

/** Combine `hits` into `selection` by mode (both one byte per point); returns the selection's new count. */
export function combineSelection(selection: Uint8Array, hits: Uint8Array, mode: SelectMode): number {
  let count = 0;
  const n = selection.length;
  if (mode === 'replace') {
    for (let i = 0; i < n; i++) count += selection[i] = hits[i]! ? 1 : 0;
  } else if (mode === 'add') {
    for (let i = 0; i < n; i++) count += selection[i] = selection[i]! | hits[i]! ? 1 : 0;
  } else {
    for (let i = 0; i < n; i++) count += selection[i] = selection[i]! && !hits[i]! ? 1 : 0;
  }
  return count;
}

/** Points at least `minHeight` above the local ground (NaN heights, with no ground near, never pass). */
export function heightMask(heightAboveGround: Float32Array, minHeight: number, out = new Uint8Array(heightAboveGround.length)): Uint8Array {
  for (let i = 0; i < heightAboveGround.length; i++) out[i] = heightAboveGround[i]! >= minHeight ? 1 : 0;
  return out;
}

/** Points of one object (instance id ≠ 0), within `range`. */
export function instanceMask(instances: Uint32Array, id: number, range: readonly [number, number] = [0, instances.length], out = new Uint8Array(instances.length)): Uint8Array {
  out.fill(0);
  if (id === 0) return out;
  for (let i = range[0]; i < range[1]; i++) if (instances[i] === id) out[i] = 1;
  return out;
}

/** A mask's set indices, ascending. */
export function maskIndices(mask: Uint8Array): Uint32Array {
  let n = 0;
  for (let i = 0; i < mask.length; i++) n += mask[i]! ? 1 : 0;
  const out = new Uint32Array(n);
  for (let i = 0, k = 0; i < mask.length; i++) if (mask[i]) out[k++] = i;
  return out;
}
