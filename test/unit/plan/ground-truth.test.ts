import { describe, expect, it } from 'vitest';
import { CostGrid } from '../../../src-worker/plan/cost-grid';
import { LOW_VEGETATION, OTHER, cellTruth, countFalseObstacles, footprintHits, obstacleDistance, solidObstacles, type TruthObject } from '../../../src-worker/plan/ground-truth';
import { SiteClass } from '../../../src-common/classes';

const obj = (id: number, cls: number, cx: number, cy: number, l: number, w: number, h: number, yaw = 0): TruthObject => ({
  id, class: cls, pose: [cx, cy, 0, 0, 0, Math.sin(yaw / 2), Math.cos(yaw / 2)], box: { center: [cx, cy, h / 2], size: [l, w, h], yaw },
});

describe('solid obstacles from ground truth', () => {
  it('keeps rocks, logs and walls as boxes and trees as trunk discs (0.025 × height), drops vegetation and low objects', () => {
    const o = solidObstacles(
      [obj(1, SiteClass.ground, 0, 0, 100, 100, 2), obj(2, SiteClass.rock, 5, 0, 1, 1, 0.6), obj(3, SiteClass.rock, 9, 0, 1, 1, 0.2), obj(4, SiteClass.largeTree, 0, 8, 9, 9, 12), obj(5, SiteClass.grass, 3, 3, 2, 2, 1), obj(6, SiteClass.fallenLog, 0, -5, 6, 0.5, 0.45, 0.5)],
      0.3,
    );
    expect(o.map((x) => [x.id, x.shape])).toEqual([[2, 'box'], [4, 'disc'], [6, 'box']]);
    expect(o[1]!.a).toBeCloseTo(0.3, 12);
    expect(obstacleDistance(o[1]!, 0, 8)).toBe(0);
    expect(obstacleDistance(o[1]!, 1, 8)).toBeCloseTo(0.7, 12);
    expect(obstacleDistance(o[0]!, 7, 0)).toBeCloseTo(1.5, 12);
  });

  it('detects the vehicle rectangle touching a box or a disc, rotated, to the centimetre', () => {
    const [rock, trunk] = solidObstacles([obj(2, SiteClass.rock, 0, 0, 2, 1, 1, Math.PI / 4), obj(3, SiteClass.smallTree, 0, 10, 6, 6, 4)], 0.3);
    const hl = 1.25, hw = 0.75;
    // heading +x, the rock's corner reaches √2·(1 + 0.5)/2 = 1.06 m along x: the front (1.25 m) touches from 2.30 m
    expect(footprintHits(rock!, -2.29, 0, 0, hl, hw)).toBe(true);
    expect(footprintHits(rock!, -2.33, 0, 0, hl, hw)).toBe(false);
    // the trunk (r = 0.1 m) beside the vehicle: overlap while the side (0.75 m) is within 0.1 m of its centre
    expect(footprintHits(trunk!, 0, 10 - 0.84, 0, hl, hw)).toBe(true);
    expect(footprintHits(trunk!, 0, 10 - 0.86, 0, hl, hw)).toBe(false);
    // turned 90°: now the 1.25 m half length faces the trunk
    expect(footprintHits(trunk!, 0, 10 - 1.3, Math.PI / 2, hl, hw)).toBe(true);
  });
});

describe('false obstacles: lethal cells holding only vegetation lower than h_max', () => {
  it('counts a constructed case exactly', () => {
    const grid = new CostGrid({ originX: 0, originY: 0, cellM: 1, width: 10, height: 10 });
    const objects = [
      obj(2, SiteClass.grass, 2.5, 2.5, 3, 3, 1.0), // cells x, y ∈ {1, 2, 3}: 9 cells
      obj(3, SiteClass.mediumShrub, 2.5, 4.0, 1, 1, 2.0), // taller than h_max: cells (2, 3) and (2, 4)
      obj(4, SiteClass.rock, 7.5, 7.5, 1, 1, 0.5),
      obj(5, SiteClass.lowShrub, 7.5, 2.5, 1, 1, 1.2), // low: cell (7, 2)
    ];
    const flags = cellTruth(grid, objects, 1.5);
    expect(flags[2 * 10 + 2]).toBe(LOW_VEGETATION);
    expect(flags[3 * 10 + 2]).toBe(LOW_VEGETATION | OTHER);
    expect(flags[7 * 10 + 7]).toBe(OTHER);
    const lethal = (x: number, y: number, c = 80) => grid.raise(y * 10 + x, c);
    for (let x = 1; x <= 3; x++) for (let y = 1; y <= 3; y++) lethal(x, y);
    lethal(7, 7); // the rock: a true obstacle
    lethal(5, 5); // bare ground: not vegetation, not counted
    lethal(7, 2); // the low shrub
    expect(countFalseObstacles(grid, flags, 50)).toBe(9 - 1 + 1); // (2, 3) also holds the tall shrub
    grid.cost[1 * 10 + 1] = 49; // below the threshold: not lethal
    expect(countFalseObstacles(grid, flags, 50)).toBe(8);
    expect(countFalseObstacles(grid, flags, 90)).toBe(0);
  });
});
