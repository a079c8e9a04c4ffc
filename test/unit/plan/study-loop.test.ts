import { describe, expect, it } from 'vitest';
import { runStudyLoop } from '../../../src-worker/plan/study-loop';
import { UNKNOWN } from '../../../src-worker/plan/cost-grid';
import { replayCostmap } from '../../../src-common/costmap-history';
import { SiteClass } from '../../../src-common/classes';
import { coarseSpinner, lms, runSpec, tinyScene } from './tiny-scene';

describe('closed loop on constructed scenes (physics mode)', () => {
  it('drives around a wall it sees to the goal 22 m away: no collision, a longer path, re-plans', () => {
    const s = tinyScene([{ cls: SiteClass.wall, at: [10, -4, 11, 4, 2.5] }]);
    for (const profile of [lms(), coarseSpinner()]) {
      const r = runStudyLoop(runSpec(s.grid), { scene: s.query, ground: s.ground, profile, objects: s.objects });
      const m = r.metrics;
      expect(m.outcome, profile.id).toBe('goal');
      expect(m.collisions).toBe(0);
      expect(m.timeToGoal!).toBeGreaterThan((22 - 1.5) / 2); // 2 m/s at best
      expect(m.timeToGoal!).toBeLessThan(16);
      expect(m.pathLength!).toBeGreaterThan(22.5); // the detour round the 8 m wall
      expect(m.pathLength!).toBeLessThan(28);
      expect(m.replans).toBeGreaterThan(0);
      expect(m.missedObstacles).toBe(0);
      expect(m.obstacles).toBe(1);
      // the vehicle never stood within half its width of the wall
      const p = r.arrays.poses;
      for (let i = 0; i < p.length; i += 5) {
        const dx = Math.max(10 - p[i + 1]!, 0, p[i + 1]! - 11), dy = Math.max(-4 - p[i + 2]!, 0, p[i + 2]! - 4);
        expect(Math.hypot(dx, dy)).toBeGreaterThan(0.75);
      }
    }
  });

  it('hits a 0.5 m rock the LMS-291 (a horizontal plane 2 m up) cannot see, and stops there; the 4-laser spinner sees it and drives round', () => {
    const s = tinyScene([{ cls: SiteClass.rock, at: [8, -0.6, 9, 0.6, 0.5] }]);
    const blind = runStudyLoop(runSpec(s.grid), { scene: s.query, ground: s.ground, profile: lms(), objects: s.objects }).metrics;
    expect(blind.outcome).toBe('collision');
    expect(blind.collisions).toBe(1);
    expect(blind.collidedWith).toBe(2);
    expect(blind.timeToGoal).toBeNull();
    expect(blind.missedObstacles).toBe(1);
    // stopped when the front (1.25 m ahead of the centre) reached the rock at x = 8, at 2 m/s
    expect(blind.pathLength!).toBeGreaterThan(8 - 1.25 - 0.1);
    expect(blind.pathLength!).toBeLessThan(8 - 1.25 + 0.1);
    expect(blind.endTime).toBeLessThan(4);
    const seeing = runStudyLoop(runSpec(s.grid), { scene: s.query, ground: s.ground, profile: coarseSpinner(), objects: s.objects }).metrics;
    expect(seeing.outcome).toBe('goal');
    expect(seeing.missedObstacles).toBe(0);
    expect(seeing.collisions).toBe(0);
  });

  it('counts a 1.4 m "grass" block beside the route as false obstacles: its lethal cells, and only those', () => {
    const s = tinyScene([{ cls: SiteClass.grass, at: [7, 3, 9, 5, 1.4] }]);
    const r = runStudyLoop(runSpec(s.grid), { scene: s.query, ground: s.ground, profile: coarseSpinner(), objects: s.objects });
    const { finalCost } = r.arrays;
    let inBlock = 0;
    for (let c = 0; c < finalCost.length; c++) {
      if (finalCost[c] === UNKNOWN || finalCost[c]! < 50) continue;
      const x = s.grid.originX + ((c % s.grid.width) + 0.5) * 0.5, y = s.grid.originY + (Math.floor(c / s.grid.width) + 0.5) * 0.5;
      if (x >= 7 && x <= 9 && y >= 3 && y <= 5) inBlock++;
    }
    expect(inBlock).toBeGreaterThan(3);
    expect(r.metrics.falseObstacles).toBe(inBlock);
    expect(r.metrics.outcome).toBe('goal');
  });

  it('is deterministic, and its recorded rises replay to the final map', () => {
    const s = tinyScene([{ cls: SiteClass.wall, at: [10, -4, 11, 4, 2.5] }]);
    const spec = runSpec(s.grid, { seconds: 3 });
    const a = runStudyLoop(spec, { scene: s.query, ground: s.ground, profile: coarseSpinner(), objects: s.objects });
    const b = runStudyLoop(spec, { scene: s.query, ground: s.ground, profile: coarseSpinner(), objects: s.objects });
    expect(b.metrics).toEqual(a.metrics);
    for (const k of Object.keys(a.arrays) as (keyof typeof a.arrays)[]) expect(Buffer.from(b.arrays[k].buffer).equals(Buffer.from(a.arrays[k].buffer)), k).toBe(true);
    const { eventCell, eventCost, frameStart, finalCost, frameTime, poses } = a.arrays;
    expect(frameTime.length).toBe(a.metrics.scans);
    expect(poses.length).toBe(5 * (a.metrics.scans + 1));
    expect(Buffer.from(replayCostmap(finalCost.length, eventCell, eventCost, frameStart, frameStart.length).buffer).equals(Buffer.from(finalCost.buffer))).toBe(true);
    const half = replayCostmap(finalCost.length, eventCell, eventCost, frameStart, 10);
    let known = 0;
    for (const v of half) if (v !== UNKNOWN) known++;
    expect(known).toBeGreaterThan(0);
    expect(known).toBeLessThan(a.metrics.cellsObserved);
  });

  it('open loop: drives the fixed route for the given seconds, then plans start → goal on the map it made', () => {
    const s = tinyScene([{ cls: SiteClass.wall, at: [10, -4, 11, 4, 2.5] }]);
    const r = runStudyLoop(runSpec(s.grid, { loop: 'open', seconds: 2, route: [0, 0, 4, 6, 22, 6, 22, 0] }), { scene: s.query, ground: s.ground, profile: coarseSpinner(), objects: s.objects });
    expect(r.metrics.scans).toBe(20);
    expect(r.metrics.replans).toBe(0);
    expect(r.metrics.collisions).toBe(0);
    expect(r.metrics.timeToGoal).toBeNull();
    // one plan, from the start round the seen wall to the goal
    expect(r.arrays.planStart.length).toBe(2);
    expect(r.metrics.pathLength!).toBeGreaterThan(22);
    const end = r.arrays.poses.length - 5;
    expect(Math.hypot(r.arrays.poses[end + 1]!, r.arrays.poses[end + 2]!)).toBeGreaterThan(3); // it drove
  });
});

describe('pathChanged (what counts as a re-plan)', () => {
  it('is false for the rest of the same route, even from a cell off it, and true for another route', async () => {
    const { pathChanged } = await import('../../../src-worker/plan/study-loop');
    const prev = Int32Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(pathChanged(prev, Int32Array.from([4, 5, 6, 7, 8]))).toBe(false);
    expect(pathChanged(prev, Int32Array.from([40, 41, 6, 7, 8]), 2)).toBe(false); // rejoins 2 cells on
    expect(pathChanged(prev, Int32Array.from([40, 41, 6, 7, 8]))).toBe(true);
    expect(pathChanged(prev, Int32Array.from([4, 5, 16, 17, 8]), 1)).toBe(true);
    expect(pathChanged(prev, null)).toBe(true);
    expect(pathChanged(null, null)).toBe(false);
  });
});
