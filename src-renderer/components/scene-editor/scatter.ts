/**
 * Scatter (pure; unit-tested): primitives of a class dropped at a density (per m²) inside a
 * polygon drawn on the ground. Seeded with the same generator as the rest of Thicket
 * (src-common/random-stream.ts), so one seed always gives the same placements: the count is
 * round(density × area), positions are drawn uniformly in the polygon's bounding box and kept
 * inside the polygon (and on the terrain), each with a primitive drawn from the candidates, a
 * yaw drawn uniformly, and scale 1 clamped into the primitive's class range.
 */
import { RandomStream } from '../../../src-common/random-stream';
import { clampScale } from '../../../src-common/class-sizes';
import type { PlaceablePrimitive } from '../../../src-common/scene-authoring';

export type Xy = readonly [number, number];

/** Area of a simple polygon (m², shoelace; either winding). */
export function polygonArea(poly: readonly Xy[]): number {
  let a = 0;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) a += poly[j]![0] * poly[i]![1] - poly[i]![0] * poly[j]![1];
  return Math.abs(a) / 2;
}

/** Whether (x, y) is inside the polygon (even-odd crossings). */
export function insidePolygon(poly: readonly Xy[], x: number, y: number): boolean {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i]!, [xj, yj] = poly[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

export interface ScatterOptions {
  polygon: readonly Xy[];
  /** Objects per m². */
  density: number;
  seed: number;
  /** The primitives to draw from (one class, filtered by size). */
  candidates: readonly PlaceablePrimitive[];
  /** Also required of every position (the terrain's coverage); default everywhere. */
  onTerrain?: (x: number, y: number) => boolean;
}

export interface ScatteredPlacement {
  primitiveId: number;
  x: number;
  y: number;
  yaw: number;
  scale: number;
}

/** Most scattered at once (the request's placement limit is 20,000). */
export const MAX_SCATTER = 5_000;

/** The placements of one scatter; throws with the reason when there is nothing to scatter. */
export function scatter(opts: ScatterOptions): ScatteredPlacement[] {
  const { polygon, candidates } = opts;
  if (polygon.length < 3) throw new Error('draw a polygon of at least 3 corners on the ground');
  if (!candidates.length) throw new Error('no primitive of the chosen class and size to scatter');
  if (!(opts.density > 0)) throw new Error(`density ${opts.density} per m² must be above 0`);
  const area = polygonArea(polygon);
  const count = Math.round(opts.density * area);
  if (count > MAX_SCATTER) throw new Error(`${count} objects (${opts.density} per m² over ${area.toFixed(0)} m²) is more than ${MAX_SCATTER} at once: lower the density or draw a smaller polygon`);
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of polygon) {
    x0 = Math.min(x0, x); x1 = Math.max(x1, x);
    y0 = Math.min(y0, y); y1 = Math.max(y1, y);
  }
  const r = new RandomStream(Math.max(0, Math.trunc(opts.seed)));
  const out: ScatteredPlacement[] = [];
  const onTerrain = opts.onTerrain ?? (() => true);
  // Rejection sampling; the attempt cap only bites for a polygon mostly off the terrain.
  for (let attempts = 0; out.length < count && attempts < 100 * count + 100; attempts++) {
    const x = x0 + r.next() * (x1 - x0), y = y0 + r.next() * (y1 - y0);
    const pick = candidates[Math.min(candidates.length - 1, Math.floor(r.next() * candidates.length))]!;
    const yaw = r.next() * 2 * Math.PI;
    if (!insidePolygon(polygon, x, y) || !onTerrain(x, y)) continue;
    out.push({ primitiveId: pick.id, x, y, yaw, scale: clampScale(1, pick.class, pick.extents[2]) });
  }
  return out;
}
