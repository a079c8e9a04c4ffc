/**
 * A* on a grid, 8-connected (003 §3.5.3 uses A* [24] on the cost grid).
 *
 *   const planner = new GridAStar(width, height);
 *   planner.plan(mult, start, goal, cellM) → { cells, cost, expanded } | null
 *
 * Entering cell c from a neighbour costs cellM · (1 or √2) · mult[c]; mult[c] = Infinity blocks
 * the cell (the start cell is always allowed: the vehicle is in it). A diagonal step needs both
 * cells beside it open, so a path never squeezes between two blocked corners.
 *
 * Heuristic: the octile distance cellM · (max(dx, dy) + (√2 − 1) · min(dx, dy)), the length of
 * the shortest 8-connected path on an empty grid. With every mult ≥ 1 it never overestimates
 * (admissible) and, being a distance on the move graph, is consistent, so the first time a cell
 * is expanded its cost is final and the path returned is optimal. `heuristicWeight` 0 turns A*
 * into Dijkstra (the tests' oracle). Ties in f go to the smaller h, then the smaller cell index,
 * so the path is deterministic.
 *
 * Scratch arrays are kept between calls and invalidated by a generation stamp, not cleared.
 */

export const SQRT2 = Math.SQRT2;

/** Octile distance in cells between (dx, dy) apart. */
export function octile(dx: number, dy: number): number {
  const ax = Math.abs(dx), ay = Math.abs(dy);
  return Math.max(ax, ay) + (SQRT2 - 1) * Math.min(ax, ay);
}

export interface AStarResult {
  /** Cell indices from start to goal inclusive. */
  cells: Int32Array;
  /** Sum of the step costs (m, weighted by the cells' multipliers). */
  cost: number;
  /** Cells expanded (popped and closed). */
  expanded: number;
}

const DX = [1, -1, 0, 0, 1, 1, -1, -1];
const DY = [0, 0, 1, -1, 1, -1, 1, -1];

export class GridAStar {
  private readonly g: Float64Array;
  private readonly parent: Int32Array;
  private readonly seen: Uint32Array;
  private readonly closed: Uint32Array;
  private generation = 0;
  private heapCell: Int32Array;
  private heapF: Float64Array;
  private heapH: Float64Array;
  private heapSize = 0;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    const n = width * height;
    this.g = new Float64Array(n);
    this.parent = new Int32Array(n);
    this.seen = new Uint32Array(n);
    this.closed = new Uint32Array(n);
    this.heapCell = new Int32Array(1024);
    this.heapF = new Float64Array(1024);
    this.heapH = new Float64Array(1024);
  }

  plan(mult: ArrayLike<number>, start: number, goal: number, cellM = 1, heuristicWeight = 1): AStarResult | null {
    const n = this.width * this.height;
    if (!(start >= 0 && start < n && goal >= 0 && goal < n)) return null;
    if (start !== goal && !(mult[goal]! < Infinity)) return null;
    const gen = ++this.generation;
    if (gen === 0xffffffff) {
      this.seen.fill(0);
      this.closed.fill(0);
      this.generation = 1;
    }
    const stamp = this.generation;
    const W = this.width, H = this.height;
    const gx = goal % W, gy = (goal - gx) / W;
    const hOf = (c: number) => {
      const x = c % W;
      return heuristicWeight * cellM * octile(x - gx, (c - x) / W - gy);
    };
    const { g, parent, seen, closed } = this;
    this.heapSize = 0;
    g[start] = 0;
    parent[start] = -1;
    seen[start] = stamp;
    this.push(start, hOf(start), hOf(start));
    let expanded = 0;
    while (this.heapSize > 0) {
      const c = this.pop();
      if (closed[c] === stamp) continue;
      closed[c] = stamp;
      expanded++;
      if (c === goal) return { cells: this.trace(goal), cost: g[goal]!, expanded };
      const cx = c % W, cy = (c - cx) / W;
      const gc = g[c]!;
      for (let k = 0; k < 8; k++) {
        const nx = cx + DX[k]!, ny = cy + DY[k]!;
        if (nx < 0 || ny < 0 || nx >= W || ny >= H) continue;
        const nb = ny * W + nx;
        if (closed[nb] === stamp) continue;
        const m = mult[nb]!;
        if (!(m < Infinity)) continue;
        let len = 1;
        if (k >= 4) {
          // no corner cutting: both orthogonal cells beside the diagonal must be open
          if (!(mult[cy * W + nx]! < Infinity) || !(mult[ny * W + cx]! < Infinity)) continue;
          len = SQRT2;
        }
        const ng = gc + cellM * len * m;
        if (seen[nb] === stamp && ng >= g[nb]!) continue;
        seen[nb] = stamp;
        g[nb] = ng;
        parent[nb] = c;
        const h = hOf(nb);
        this.push(nb, ng + h, h);
      }
    }
    return null;
  }

  private trace(goal: number): Int32Array {
    let len = 0;
    for (let c = goal; c !== -1; c = this.parent[c]!) len++;
    const out = new Int32Array(len);
    for (let c = goal, i = len - 1; c !== -1; c = this.parent[c]!) out[i--] = c;
    return out;
  }

  private less(i: number, j: number): boolean {
    const fi = this.heapF[i]!, fj = this.heapF[j]!;
    if (fi !== fj) return fi < fj;
    const hi = this.heapH[i]!, hj = this.heapH[j]!;
    if (hi !== hj) return hi < hj;
    return this.heapCell[i]! < this.heapCell[j]!;
  }

  private swap(i: number, j: number): void {
    const c = this.heapCell[i]!, f = this.heapF[i]!, h = this.heapH[i]!;
    this.heapCell[i] = this.heapCell[j]!; this.heapF[i] = this.heapF[j]!; this.heapH[i] = this.heapH[j]!;
    this.heapCell[j] = c; this.heapF[j] = f; this.heapH[j] = h;
  }

  private push(cell: number, f: number, h: number): void {
    if (this.heapSize === this.heapCell.length) {
      const size = this.heapCell.length * 2;
      const c = new Int32Array(size), ff = new Float64Array(size), hh = new Float64Array(size);
      c.set(this.heapCell); ff.set(this.heapF); hh.set(this.heapH);
      this.heapCell = c; this.heapF = ff; this.heapH = hh;
    }
    let i = this.heapSize++;
    this.heapCell[i] = cell; this.heapF[i] = f; this.heapH[i] = h;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }

  private pop(): number {
    const top = this.heapCell[0]!;
    const last = --this.heapSize;
    if (last > 0) {
      this.heapCell[0] = this.heapCell[last]!; this.heapF[0] = this.heapF[last]!; this.heapH[0] = this.heapH[last]!;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < last && this.less(l, m)) m = l;
        if (r < last && this.less(r, m)) m = r;
        if (m === i) break;
        this.swap(i, m);
        i = m;
      }
    }
    return top;
  }
}
