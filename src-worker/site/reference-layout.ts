/**
 * Where the reference site's objects stand: rejection sampling over a rectangle with a
 * footprint per object, so that objects of every kind keep apart from each other (two
 * footprints may overlap by a quarter: crowns touch, trunks do not) and keep a chosen gap to the
 * trail's edge (rocks and logs right beside it, trees further off).
 *
 *   const layout = new SiteLayout(terrain, { x0, x1, y0, y1 }, rng);
 *   const xy = layout.place(footprint, { minEdge: 0.3, maxEdge: 6 });   // [x, y] or null
 */
import type { RandomStream } from '../random/stream';
import type { Terrain } from './terrain';

export interface LayoutArea {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

export interface PlaceOptions {
  /** Least distance between the footprint's edge and the trail's edge (m; may be negative: a crown over the trail). */
  minEdge: number;
  /** Largest such distance (default: anywhere). */
  maxEdge?: number;
  /** Tries before giving up (default 400). */
  attempts?: number;
}

/** Footprints may overlap by this fraction of the sum of their radii. */
const OVERLAP = 0.25;
const CELL = 8;

export class SiteLayout {
  private readonly grid = new Map<number, number[]>();
  private maxFootprint = 0;
  /** Placed objects: x, y, footprint. */
  readonly placed: number[] = [];

  constructor(
    private readonly terrain: Terrain,
    private readonly area: LayoutArea,
    private readonly r: RandomStream,
  ) {}

  /** Distance from (x, y) to the trail's edge (negative on the trail). */
  edgeDistance(x: number, y: number): number {
    return Math.abs(y - this.terrain.trailY(x)) - this.terrain.trailHalfWidth;
  }

  place(footprint: number, opts: PlaceOptions): [number, number] | null {
    const { x0, x1, y0, y1 } = this.area;
    const attempts = opts.attempts ?? 400;
    const maxEdge = opts.maxEdge ?? Infinity;
    for (let a = 0; a < attempts; a++) {
      let x: number, y: number;
      if (Number.isFinite(maxEdge)) {
        // Sample beside the trail directly: a band that rejection over the whole area rarely hits.
        x = x0 + footprint + (x1 - x0 - 2 * footprint) * this.r.next();
        const side = this.r.next() < 0.5 ? -1 : 1;
        const gap = opts.minEdge + (maxEdge - opts.minEdge) * this.r.next();
        y = this.terrain.trailY(x) + side * (this.terrain.trailHalfWidth + footprint + gap);
      } else {
        x = x0 + footprint + (x1 - x0 - 2 * footprint) * this.r.next();
        y = y0 + footprint + (y1 - y0 - 2 * footprint) * this.r.next();
      }
      if (y - footprint < y0 || y + footprint > y1) continue;
      const edge = this.edgeDistance(x, y) - footprint;
      if (edge < opts.minEdge || edge > maxEdge) continue;
      if (!this.isFree(x, y, footprint)) continue;
      this.add(x, y, footprint);
      return [x, y];
    }
    return null;
  }

  private key(cx: number, cy: number): number {
    return (cx + 32768) * 65536 + (cy + 32768);
  }

  private isFree(x: number, y: number, f: number): boolean {
    const reach = (1 - OVERLAP) * (f + this.maxFootprint);
    const cx0 = Math.floor((x - reach) / CELL), cx1 = Math.floor((x + reach) / CELL);
    const cy0 = Math.floor((y - reach) / CELL), cy1 = Math.floor((y + reach) / CELL);
    for (let cx = cx0; cx <= cx1; cx++) {
      for (let cy = cy0; cy <= cy1; cy++) {
        const list = this.grid.get(this.key(cx, cy));
        if (!list) continue;
        for (let k = 0; k < list.length; k += 3) {
          if (Math.hypot(list[k]! - x, list[k + 1]! - y) < (1 - OVERLAP) * (f + list[k + 2]!)) return false;
        }
      }
    }
    return true;
  }

  private add(x: number, y: number, f: number): void {
    const k = this.key(Math.floor(x / CELL), Math.floor(y / CELL));
    const list = this.grid.get(k);
    if (list) list.push(x, y, f);
    else this.grid.set(k, [x, y, f]);
    this.maxFootprint = Math.max(this.maxFootprint, f);
    this.placed.push(x, y, f);
  }
}
