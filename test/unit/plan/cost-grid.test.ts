import { describe, expect, it } from 'vitest';
import { CostGrid, UNKNOWN, pointCost } from '../../../src-worker/plan/cost-grid';
import { replayCostmap } from '../../../src-common/costmap-history';
import { PlanningMap } from '../../../src-worker/plan/planning-map';

const spec = { originX: -5, originY: -5, cellM: 0.5, width: 20, height: 20 };

describe('cost rule: c = min(100 h / h_max, 100) (docs/methods.md §7, h_max 1.5 m)', () => {
  it('gives the rule\'s numbers', () => {
    expect(pointCost(0, 1.5)).toBe(0);
    expect(pointCost(-0.3, 1.5)).toBe(0); // below the ground (noise): free
    expect(pointCost(0.15, 1.5)).toBe(10);
    expect(pointCost(0.3, 1.5)).toBe(20);
    expect(pointCost(0.75, 1.5)).toBe(50);
    expect(pointCost(1.2, 1.5)).toBe(80);
    expect(pointCost(1.5, 1.5)).toBe(100);
    expect(pointCost(12, 1.5)).toBe(100); // capped: the paper's "max" is a typo
    expect(pointCost(0.5, 1)).toBe(50);
  });
});

describe('CostGrid', () => {
  it('places points in row-major cells from the lower-left corner and keeps the worst cost per cell', () => {
    const g = new CostGrid(spec);
    expect(g.cellOf(-5, -5)).toBe(0);
    expect(g.cellOf(-4.6, -5)).toBe(0);
    expect(g.cellOf(-4.5, -4.5)).toBe(21);
    expect(g.cellOf(5, 0)).toBe(-1); // x = 5 is the far edge
    expect(g.centreX(21)).toBeCloseTo(-4.25, 12);
    expect(g.cost[21]).toBe(UNKNOWN);
    expect(g.raise(21, 0)).toBe(true); // a ground point: observed, free
    expect(g.raise(21, 40)).toBe(true);
    expect(g.raise(21, 30)).toBe(false);
    expect(g.cost[21]).toBe(40);
    expect(g.raise(5, 100)).toBe(true);
    expect([...g.takeChanges()]).toEqual([21, 5]); // each once, in order of first rise
    expect(g.takeChanges().length).toBe(0);
    expect(g.observedCount()).toBe(2);
  });

  it('replays recorded rises into the grid at any frame', () => {
    const g = new CostGrid(spec);
    const cells: number[] = [], costs: number[] = [], starts: number[] = [];
    const frames: [number, number][][] = [[[3, 10], [4, 0]], [[3, 60], [9, 100]], [[4, 20]]];
    const snapshots: Uint8Array[] = [];
    for (const f of frames) {
      for (const [c, v] of f) g.raise(c, v);
      starts.push(cells.length);
      for (const c of g.takeChanges()) {
        cells.push(c);
        costs.push(g.cost[c]!);
      }
      snapshots.push(g.cost.slice());
    }
    for (let k = 0; k <= frames.length; k++) {
      const r = replayCostmap(g.cells, cells, costs, starts, k);
      expect([...r]).toEqual(k === 0 ? new Array(g.cells).fill(UNKNOWN) : [...snapshots[k - 1]!]);
    }
  });
});

describe('PlanningMap multipliers (the worst known cost under the vehicle body, radius 1 m)', () => {
  const params = { lethalCost: 50, unknownCost: 10, costWeight: 4, inflationM: 1, inflationPenalty: 10 };
  it('unknown 1 + 4·0.1; body cost b: 1 + 4·b/100; a lethal cell blocked; a lethal cell under the body (1 + 4)·10', () => {
    const g = new CostGrid(spec);
    const m = new PlanningMap(g, params);
    expect(m.mult[0]).toBeCloseTo(1.4, 6);
    const free = g.cellOf(-3.9, 3.1), grass = g.cellOf(-3, -3), rock = g.cellOf(3.1, 3.1);
    g.raise(free, 0);
    g.raise(grass, 25);
    g.raise(rock, 50);
    const rises: number[] = [];
    m.update(g.takeChanges(), (c) => rises.push(c));
    expect(m.mult[free]).toBe(1);
    expect(m.mult[free + 2]).toBe(1); // 1 m away: the body still covers the free cell only
    expect(m.mult[free + 3]).toBeCloseTo(1.4, 6);
    expect(m.mult[grass]).toBeCloseTo(2, 6);
    expect(m.mult[grass - spec.width - 1]).toBeCloseTo(2, 6); // 0.71 m: the body is on the grass
    expect(m.mult[rock]).toBe(Infinity);
    const next = rock + 1, twoAway = rock + 2, diagonal = rock + spec.width + 1, outside = rock + 3;
    for (const c of [next, twoAway, diagonal]) expect(m.mult[c]).toBeCloseTo(50, 5);
    expect(m.mult[outside]).toBeCloseTo(1.4, 6); // 1.5 m
    expect(rises).toContain(rock);
    expect(rises).toContain(next);
    expect(rises).toContain(grass);
    expect(rises).not.toContain(free); // 1.4 → 1: a fall, not a rise
    // costs only rise: a later, lower cost changes nothing
    g.raise(grass, 25);
    m.update(g.takeChanges(), null);
    expect(m.mult[grass]).toBeCloseTo(2, 6);
  });
});
