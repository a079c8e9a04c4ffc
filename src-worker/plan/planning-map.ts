/**
 * What A* sees of the cost grid: a step multiplier per cell (astar.ts), for a vehicle that is a
 * body, not a point. The planner plans the vehicle's centre; standing on cell c its body covers
 * the disc of radius `inflationM` (half its width plus a margin) around c, so c costs what the
 * worst known cell under that disc costs (bodyCost):
 *
 *   c itself lethal (cost ≥ lethalCost)       Infinity (never entered)
 *   nothing known under the body              1 + costWeight · unknownCost / 100   (a small default)
 *   a lethal cell under the body               (1 + costWeight) · inflationPenalty
 *   otherwise (bodyCost b)                     1 + costWeight · b / 100
 *
 * A lethal cell under the body is a heavy penalty rather than a wall so that a vehicle already
 * close to an obstacle (a tree seen late) can still plan its way out. Every multiplier is ≥ 1, so
 * A*'s octile heuristic stays admissible.
 *
 * Updated incrementally from the cells whose cost rose in a scan: costs only rise, so the worst
 * cost under each body disc only rises too, and one pass over each risen cell's disc keeps it.
 */
import { UNKNOWN, type CostGrid } from './cost-grid';

export interface PlanningParams {
  /** Cells of cost ≥ this are lethal (0 … 100). */
  lethalCost: number;
  /** Cost assumed where nothing under the body is known. */
  unknownCost: number;
  /** How much cost lengthens a step (multiplier 1 + costWeight · c / 100). */
  costWeight: number;
  /** Radius of the vehicle's body disc (m): half its width plus a margin. */
  inflationM: number;
  /** Step multiplier of a cell with a lethal cell under the body, over the dearest non-lethal one. */
  inflationPenalty: number;
}

export class PlanningMap {
  readonly mult: Float32Array;
  /** Worst known cost within the body disc of each cell (UNKNOWN: none known). */
  readonly bodyCost: Uint8Array;
  private readonly disc: Int32Array;
  private readonly unknownMult: number;

  constructor(
    private readonly grid: CostGrid,
    readonly params: PlanningParams,
  ) {
    const n = grid.cells;
    this.unknownMult = 1 + (params.costWeight * params.unknownCost) / 100;
    this.mult = new Float32Array(n).fill(this.unknownMult);
    this.bodyCost = new Uint8Array(n).fill(UNKNOWN);
    const r = Math.max(0, params.inflationM) / grid.spec.cellM;
    const k = Math.floor(r);
    const offs: number[] = [];
    for (let dy = -k; dy <= k; dy++) for (let dx = -k; dx <= k; dx++) if (dx * dx + dy * dy <= r * r) offs.push(dx, dy);
    this.disc = Int32Array.from(offs);
    const known: number[] = [];
    for (let c = 0; c < n; c++) if (grid.cost[c] !== UNKNOWN) known.push(c);
    this.update(known, null);
  }

  /** Applies the cells whose cost rose; `onRise(cell)` hears every cell whose multiplier went up. */
  update(changed: ArrayLike<number>, onRise: ((cell: number) => void) | null): void {
    const { width, height } = this.grid.spec;
    const d = this.disc, body = this.bodyCost, cost = this.grid.cost;
    for (let i = 0; i < changed.length; i++) {
      const c = changed[i]!;
      const v = cost[c]!;
      const cx = c % width, cy = (c - cx) / width;
      for (let k = 0; k < d.length; k += 2) {
        const x = cx + d[k]!, y = cy + d[k + 1]!;
        if (x < 0 || y < 0 || x >= width || y >= height) continue;
        const nb = y * width + x;
        const old = body[nb]!;
        if (old !== UNKNOWN && old >= v && nb !== c) continue;
        if (old === UNKNOWN || v > old) body[nb] = v;
        const before = this.mult[nb]!;
        this.mult[nb] = this.multiplier(nb);
        if (onRise && this.mult[nb]! > before) onRise(nb);
      }
    }
  }

  private multiplier(c: number): number {
    const p = this.params;
    const own = this.grid.cost[c]!;
    if (own !== UNKNOWN && own >= p.lethalCost) return Infinity;
    const b = this.bodyCost[c]!;
    if (b === UNKNOWN) return this.unknownMult;
    if (b >= p.lethalCost) return (1 + p.costWeight) * p.inflationPenalty;
    return 1 + (p.costWeight * b) / 100;
  }
}
