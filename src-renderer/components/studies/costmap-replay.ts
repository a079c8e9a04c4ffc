/**
 * A run's costmap at any scan, replayed in the page from the cost rises `studies.run` returns
 * (the host's own replay in study-views.ts does the same for `studies.costmap`). Seeking forward
 * applies only the rises in between and repaints only the cells they touch, so playing four
 * panels costs a few thousand cell writes per frame instead of a round trip per panel per step;
 * seeking backward replays from the empty map (O(rises), a few ms).
 *
 * Pixels are RGBA, one per cell, north (+y) up — row 0 of the image is the grid's top row — in
 * the costmap ramp of src-common/colormaps.ts, the one the HTML report draws with.
 */
import { UNKNOWN_COST_RGB, costColour } from '../../../src-common/colormaps';
import { UNKNOWN_COST } from '../../../src-common/costmap-history';


/** 256 × RGB: costs 0 … 100 on the ramp, everything else (255 = unknown) dark. */
export function costLut(lethalCost: number): Uint8Array {
  const lut = new Uint8Array(256 * 3);
  for (let c = 0; c < 256; c++) lut.set(c <= 100 ? costColour(c, lethalCost) : UNKNOWN_COST_RGB, 3 * c);
  return lut;
}

export interface CostEvents {
  /** Frame k's rises are cell[frameStart[k] … frameStart[k+1]) (the last frame's run to the end). */
  frameStart: ArrayLike<number>;
  cell: ArrayLike<number>;
  cost: ArrayLike<number>;
}

export class CostReplay {
  readonly cost: Uint8Array;
  readonly rgba: Uint8ClampedArray;
  /** Scans replayed so far. */
  frames = 0;
  /** Cells with a cost (not unknown), and the sum of their costs: cheap fingerprints of the map. */
  known = 0;
  costSum = 0;
  lethal = 0;
  private readonly lut: Uint8Array;

  constructor(
    readonly width: number,
    readonly height: number,
    readonly lethalCost: number,
    private readonly events: CostEvents,
  ) {
    this.cost = new Uint8Array(width * height);
    this.rgba = new Uint8ClampedArray(width * height * 4);
    this.lut = costLut(lethalCost);
    this.reset();
  }

  get totalFrames(): number {
    return this.events.frameStart.length;
  }

  /** Rises of the first `frames` scans end here. */
  private eventEnd(frames: number): number {
    return frames >= this.events.frameStart.length ? this.events.cell.length : this.events.frameStart[Math.max(0, frames)]!;
  }

  private reset(): void {
    this.cost.fill(UNKNOWN_COST);
    const [r, g, b] = [this.lut[3 * UNKNOWN_COST]!, this.lut[3 * UNKNOWN_COST + 1]!, this.lut[3 * UNKNOWN_COST + 2]!];
    for (let o = 0; o < this.rgba.length; o += 4) {
      this.rgba[o] = r;
      this.rgba[o + 1] = g;
      this.rgba[o + 2] = b;
      this.rgba[o + 3] = 255;
    }
    this.frames = 0;
    this.known = 0;
    this.costSum = 0;
    this.lethal = 0;
  }

  /** Bring the map to `frames` scans (clamped); true if anything changed. */
  seek(frames: number): boolean {
    const target = Math.max(0, Math.min(Math.floor(frames), this.totalFrames));
    if (target === this.frames) return false;
    if (target < this.frames) this.reset();
    const { cell, cost } = this.events;
    const W = this.width, H = this.height, n = W * H, lethalCost = this.lethalCost;
    for (let i = this.eventEnd(this.frames), end = this.eventEnd(target); i < end; i++) {
      const c = cell[i]!;
      if (c >= n) continue; // a corrupt event must not write outside the image
      const v = cost[i]!, old = this.cost[c]!;
      if (old === UNKNOWN_COST) this.known++;
      else {
        this.costSum -= old;
        if (old >= lethalCost) this.lethal--;
      }
      this.cost[c] = v;
      this.costSum += v;
      if (v >= lethalCost) this.lethal++;
      const o = 4 * ((H - 1 - Math.floor(c / W)) * W + (c % W)), k = 3 * v;
      this.rgba[o] = this.lut[k]!;
      this.rgba[o + 1] = this.lut[k + 1]!;
      this.rgba[o + 2] = this.lut[k + 2]!;
    }
    this.frames = target;
    return true;
  }
}

/** Known cells and their cost sum of a whole costmap (as `studies.costmap` returns it), to check a replay against. */
export function costFingerprint(cost: ArrayLike<number>, lethalCost: number): { known: number; costSum: number; lethal: number } {
  let known = 0, costSum = 0, lethal = 0;
  for (let i = 0; i < cost.length; i++) {
    const v = cost[i]!;
    if (v === UNKNOWN_COST) continue;
    known++;
    costSum += v;
    if (v >= lethalCost) lethal++;
  }
  return { known, costSum, lethal };
}
