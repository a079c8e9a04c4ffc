/**
 * Where a sensor study drives when its definition leaves start and goal out (docs/methods.md §7):
 * following Goodin et al. (2018, §3.5.3), a goal about 130 m from the start. On a scene with a
 * trail (the reference site, generated off-road scenes) the start is on the trail 5 % of its
 * length in (at most 10 m) and the goal 130 m further along it (or 2 m before its end), heading
 * along the trail; on other scenes the start is near the south-west corner of the scene's bounds
 * and the goal toward the north-east, at most 130 m away. The study service resolves a layout
 * with it and the Studies page shows the same defaults before a study starts.
 */
import type { Xy } from './scene-meta';

export const DEFAULT_GOAL_DISTANCE_M = 130;

export interface DefaultEnds {
  start: Xy;
  goal: Xy;
  /** Initial heading (rad, counter-clockwise from +x). */
  heading: number;
  /** Where they come from. */
  from: 'trail' | 'bounds';
}

/** The default start, goal and heading on a trail, else within bounds [minx, miny, minz, maxx, maxy, maxz]. */
export function defaultStudyEnds(trail: readonly Xy[], bounds: ArrayLike<number> | null): DefaultEnds {
  if (trail.length >= 2) {
    const s = arcLengths(trail), total = s[s.length - 1]!;
    const startIndex = indexAt(s, Math.min(10, 0.05 * total));
    const goalIndex = Math.max(startIndex + 1, indexAt(s, Math.min(s[startIndex]! + DEFAULT_GOAL_DISTANCE_M, total - 2)));
    const start = trail[startIndex]!, goal = trail[Math.min(goalIndex, trail.length - 1)]!, next = trail[startIndex + 1]!;
    return { start, goal, heading: Math.atan2(next[1] - start[1], next[0] - start[0]), from: 'trail' };
  }
  const b = bounds && bounds.length >= 6 ? bounds : [-50, -50, 0, 50, 50, 0];
  const w = b[3]! - b[0]!, h = b[4]! - b[1]!;
  const start: Xy = [b[0]! + 0.1 * w, b[1]! + 0.1 * h];
  const far: Xy = [b[0]! + 0.9 * w, b[1]! + 0.9 * h];
  const d = Math.hypot(far[0] - start[0], far[1] - start[1]);
  const f = d > DEFAULT_GOAL_DISTANCE_M ? DEFAULT_GOAL_DISTANCE_M / d : 1;
  const goal: Xy = [start[0] + f * (far[0] - start[0]), start[1] + f * (far[1] - start[1])];
  return { start, goal, heading: Math.atan2(goal[1] - start[1], goal[0] - start[0]), from: 'bounds' };
}

function arcLengths(p: readonly Xy[]): number[] {
  const s = [0];
  for (let i = 1; i < p.length; i++) s.push(s[i - 1]! + Math.hypot(p[i]![0] - p[i - 1]![0], p[i]![1] - p[i - 1]![1]));
  return s;
}

/** The first index whose arc length reaches `at` (the last index if none). */
function indexAt(s: readonly number[], at: number): number {
  const i = s.findIndex((v) => v >= at - 1e-9);
  return i < 0 ? s.length - 1 : i;
}
