/**
 * The cost grid of 003 §3.5.3 (docs/methods.md §7): square cells (0.5 m, 400 × 400 by default) filled
 * from registered scans. Each returned point costs
 *
 *   c = min(100 · h / h_max, 100)        (the paper prints `max`, a typo: docs/methods.md §7)
 *
 * with h its height above the ground (negative heights cost 0). A cell keeps the largest cost
 * of the points that fell in it (a cell is as bad as the worst thing seen in it), so costs only
 * rise over time — which is what lets a run's whole history be stored as a list of rises.
 * UNKNOWN (255) marks cells no point has fallen in yet.
 *
 * Cells are indexed row-major: cell = iy · width + ix, ix along +x from originX.
 */
import { UNKNOWN_COST } from '../../src-common/costmap-history';
import { grown } from '../arrays/typed-arrays';

export const UNKNOWN = UNKNOWN_COST;

export interface GridSpec {
  /** World x, y of the grid's lower-left corner (m). */
  originX: number;
  originY: number;
  cellM: number;
  width: number;
  height: number;
}

/** The cost of one point h metres above the ground (an integer 0 … 100). */
export function pointCost(h: number, hMax: number): number {
  if (!(h > 0)) return 0;
  return Math.min(100, Math.round((100 * h) / hMax));
}

export class CostGrid {
  readonly cost: Uint8Array;
  /** Cells whose cost rose since the last takeChanges(), each once. */
  private changed: Int32Array;
  private changedCount = 0;
  private readonly pending: Uint8Array;

  constructor(readonly spec: GridSpec) {
    if (!(spec.width > 0 && spec.height > 0 && spec.cellM > 0)) throw new Error('cost grid: width, height and cell size must be positive');
    const n = spec.width * spec.height;
    this.cost = new Uint8Array(n).fill(UNKNOWN);
    this.pending = new Uint8Array(n);
    this.changed = new Int32Array(1024);
  }

  get cells(): number {
    return this.cost.length;
  }

  /** Index of the cell holding (x, y), or −1 outside the grid. */
  cellOf(x: number, y: number): number {
    const s = this.spec;
    const ix = Math.floor((x - s.originX) / s.cellM), iy = Math.floor((y - s.originY) / s.cellM);
    if (ix < 0 || iy < 0 || ix >= s.width || iy >= s.height) return -1;
    return iy * s.width + ix;
  }

  /** World x, y of a cell's centre. */
  centreX(cell: number): number {
    return this.spec.originX + ((cell % this.spec.width) + 0.5) * this.spec.cellM;
  }

  centreY(cell: number): number {
    return this.spec.originY + (Math.floor(cell / this.spec.width) + 0.5) * this.spec.cellM;
  }

  /** Registers a cost in a cell: the cell keeps the larger; true when it rose (or was unknown). */
  raise(cell: number, c: number): boolean {
    const old = this.cost[cell]!;
    if (old !== UNKNOWN && old >= c) return false;
    this.cost[cell] = c;
    if (!this.pending[cell]) {
      this.pending[cell] = 1;
      if (this.changedCount === this.changed.length) {
        this.changed = grown(this.changed, this.changed.length * 2);
      }
      this.changed[this.changedCount++] = cell;
    }
    return true;
  }

  /** The cells that rose since the last call, in the order they first rose (a view, valid until the next raise). */
  takeChanges(): Int32Array {
    const out = this.changed.subarray(0, this.changedCount);
    for (let i = 0; i < this.changedCount; i++) this.pending[out[i]!] = 0;
    this.changedCount = 0;
    return out;
  }

  /** Cells with at least one point. */
  observedCount(): number {
    let n = 0;
    for (let i = 0; i < this.cost.length; i++) if (this.cost[i] !== UNKNOWN) n++;
    return n;
  }
}
