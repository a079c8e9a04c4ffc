import { describe, expect, it } from 'vitest';
import { GridAStar, octile } from '../../../src-worker/plan/astar';
import { RandomStream } from '../../../src-worker/random/stream';

const at = (W: number, x: number, y: number) => y * W + x;

/** Random multipliers in [1, 4) with `blocked` of the cells blocked (start and goal kept open). */
function randomGrid(r: RandomStream, W: number, H: number, blocked: number): Float32Array {
  const m = new Float32Array(W * H);
  for (let i = 0; i < m.length; i++) m[i] = r.next() < blocked ? Infinity : 1 + 3 * r.next();
  return m;
}

describe('A* on a grid (8-connected, octile heuristic)', () => {
  it('finds the octile distance on an empty grid: (0,0) → (9,5) costs 5√2 + 4 cells', () => {
    const W = 10, H = 10;
    const r = new GridAStar(W, H).plan(new Float32Array(W * H).fill(1), at(W, 0, 0), at(W, 9, 5), 0.5)!;
    expect(r.cost).toBeCloseTo(0.5 * (5 * Math.SQRT2 + 4), 12);
    expect(r.cells[0]).toBe(0);
    expect(r.cells[r.cells.length - 1]).toBe(at(W, 9, 5));
    expect(r.cells.length).toBe(10); // max(dx, dy) + 1 cells
  });

  it('goes through the only gap of a wall, and never cuts a blocked corner', () => {
    const W = 7, H = 7;
    const m = new Float32Array(W * H).fill(1);
    for (let y = 0; y < H; y++) if (y !== 5) m[at(W, 3, y)] = Infinity; // wall at x = 3, gap at y = 5
    const r = new GridAStar(W, H).plan(m, at(W, 0, 1), at(W, 6, 1))!;
    expect(r.cells).toContain(at(W, 3, 5));
    // hand-computed optimum: (0,1)→(2,3) 2 diagonals, up to (2,5), through the gap to (4,5) (no
    // diagonal into the gap: the wall cells beside it are blocked), down to (4,3), (4,3)→(6,1) 2 diagonals
    expect(r.cost).toBeCloseTo(4 * Math.SQRT2 + 6, 12);
    // a diagonal gap between two blocked cells is not passable
    const d = new Float32Array(4).fill(1);
    d[1] = Infinity; d[2] = Infinity;
    expect(new GridAStar(2, 2).plan(d, 0, 3)).toBeNull();
  });

  it('returns null when the goal is blocked or walled off, and a one-cell path from the goal itself', () => {
    const W = 5, H = 5;
    const m = new Float32Array(W * H).fill(1);
    m[at(W, 4, 4)] = Infinity;
    expect(new GridAStar(W, H).plan(m, 0, at(W, 4, 4))).toBeNull();
    const wall = new Float32Array(W * H).fill(1);
    for (let y = 0; y < H; y++) wall[at(W, 2, y)] = Infinity;
    expect(new GridAStar(W, H).plan(wall, 0, at(W, 4, 0))).toBeNull();
    const self = new GridAStar(W, H).plan(m, 7, 7)!;
    expect([...self.cells]).toEqual([7]);
    expect(self.cost).toBe(0);
  });

  it('is optimal: the same cost as Dijkstra (weight 0) on 200 random weighted grids, expanding no more cells', () => {
    const r = new RandomStream(7, 1);
    const W = 40, H = 30;
    const astar = new GridAStar(W, H), dijkstra = new GridAStar(W, H);
    let found = 0, fewer = 0;
    for (let k = 0; k < 200; k++) {
      const m = randomGrid(r, W, H, 0.25);
      const s = Math.floor(r.next() * W * H), g = Math.floor(r.next() * W * H);
      m[s] = 1; m[g] = 1;
      const a = astar.plan(m, s, g, 0.5), d = dijkstra.plan(m, s, g, 0.5, 0);
      expect(a === null).toBe(d === null);
      if (!a || !d) continue;
      found++;
      expect(Math.abs(a.cost - d.cost)).toBeLessThan(1e-9 * d.cost + 1e-12);
      expect(a.expanded).toBeLessThanOrEqual(d.expanded);
      if (a.expanded < d.expanded) fewer++;
      // the path's own cost adds up to the reported cost
      let sum = 0;
      for (let i = 1; i < a.cells.length; i++) {
        const p = a.cells[i - 1]!, q = a.cells[i]!;
        const diag = p % W !== q % W && Math.floor(p / W) !== Math.floor(q / W);
        sum += 0.5 * (diag ? Math.SQRT2 : 1) * m[q]!;
      }
      expect(sum).toBeCloseTo(a.cost, 9);
    }
    expect(found).toBeGreaterThan(100);
    expect(fewer).toBeGreaterThan(found / 2); // the heuristic does prune
  });

  it('has an admissible heuristic: octile distance ≤ the optimal cost from every start (multipliers ≥ 1)', () => {
    const r = new RandomStream(8, 1);
    const W = 25, H = 25;
    const planner = new GridAStar(W, H);
    const m = randomGrid(r, W, H, 0.2);
    const goal = at(W, 12, 12);
    m[goal] = 1;
    let checked = 0;
    for (let s = 0; s < W * H; s++) {
      if (!(m[s]! < Infinity)) continue;
      const d = planner.plan(m, s, goal, 1, 0);
      if (!d) continue;
      const h = octile((s % W) - 12, Math.floor(s / W) - 12);
      expect(h).toBeLessThanOrEqual(d.cost + 1e-9);
      checked++;
    }
    expect(checked).toBeGreaterThan(300);
  });
});
