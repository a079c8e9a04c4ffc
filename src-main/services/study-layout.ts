/**
 * Where a study drives: start, goal, initial heading, the cost grid's placement and (open loop)
 * the fixed route, resolved from the definition and the scene.
 *
 * Defaults follow 003 §3.5.3 (a goal about 130 m from the start): on a scene with a trail (the
 * reference site, generated off-road scenes) the start is on the trail 5 % of its length in
 * (at most 10 m) and the goal 130 m further along it (or 2 m before its end), heading along the
 * trail; on other scenes the start is near the south-west corner of the scene's bounds and the
 * goal toward the north-east, at most 130 m away. The grid is centred on start and goal. The open
 * loop's route is the trail between them, else the straight line.
 */
import { ApiError, type StudyDefinition, type StudyLayout } from '../api/contract';

export const DEFAULT_GOAL_DISTANCE_M = 130;

type Xy = [number, number];

export function resolveStudyLayout(def: StudyDefinition, meta: Record<string, unknown>, sceneBounds: ArrayLike<number> | null): StudyLayout {
  const trail = Array.isArray(meta.trail) ? (meta.trail as number[][]).filter((p) => Array.isArray(p) && p.length >= 2).map((p): Xy => [p[0]!, p[1]!]) : [];
  let start: Xy, goal: Xy, heading: number;
  if (trail.length >= 2) {
    const s = arcLengths(trail), total = s[s.length - 1]!;
    const startIndex = indexAt(s, Math.min(10, 0.05 * total));
    const goalIndex = Math.max(startIndex + 1, indexAt(s, Math.min(s[startIndex]! + DEFAULT_GOAL_DISTANCE_M, total - 2)));
    start = trail[startIndex]!;
    goal = trail[Math.min(goalIndex, trail.length - 1)]!;
    const next = trail[startIndex + 1]!;
    heading = Math.atan2(next[1] - start[1], next[0] - start[0]);
  } else {
    const b = sceneBounds && sceneBounds.length >= 6 ? sceneBounds : [-50, -50, 0, 50, 50, 0];
    const w = b[3]! - b[0]!, h = b[4]! - b[1]!;
    start = [b[0]! + 0.1 * w, b[1]! + 0.1 * h];
    const far: Xy = [b[0]! + 0.9 * w, b[1]! + 0.9 * h];
    const d = Math.hypot(far[0] - start[0], far[1] - start[1]);
    const f = d > DEFAULT_GOAL_DISTANCE_M ? DEFAULT_GOAL_DISTANCE_M / d : 1;
    goal = [start[0] + f * (far[0] - start[0]), start[1] + f * (far[1] - start[1])];
    heading = Math.atan2(goal[1] - start[1], goal[0] - start[0]);
  }
  const v = def.vehicle;
  if (v.start) start = v.start;
  if (v.goal) goal = v.goal;
  if (v.start || v.goal) heading = Math.atan2(goal[1] - start[1], goal[0] - start[0]);
  if (v.startHeadingDeg !== undefined) heading = (v.startHeadingDeg * Math.PI) / 180;
  if (Math.hypot(goal[0] - start[0], goal[1] - start[1]) < 1) throw new ApiError('bad_input', 'study: the goal must be at least 1 m from the start');

  const g = def.grid;
  const origin: Xy = g.origin ?? [(start[0] + goal[0]) / 2 - (g.width * g.cellM) / 2, (start[1] + goal[1]) / 2 - (g.height * g.cellM) / 2];
  const inside = (p: Xy) => p[0] >= origin[0] && p[1] >= origin[1] && p[0] < origin[0] + g.width * g.cellM && p[1] < origin[1] + g.height * g.cellM;
  if (!inside(start) || !inside(goal)) {
    throw new ApiError('bad_input', `study: start (${start.map((x) => x.toFixed(1)).join(', ')}) and goal (${goal.map((x) => x.toFixed(1)).join(', ')}) must lie in the ${g.width * g.cellM} × ${g.height * g.cellM} m grid: move them or enlarge the grid`);
  }

  let route: number[] | null = null;
  if (def.loop === 'open' && trail.length >= 2) {
    const a = nearest(trail, start), b = nearest(trail, goal);
    const step = a <= b ? 1 : -1;
    route = [...start];
    for (let i = a + step; i !== b; i += step) route.push(trail[i]![0], trail[i]![1]);
    route.push(...goal);
  }
  return {
    start,
    goal,
    startHeadingDeg: (heading * 180) / Math.PI,
    grid: { originX: origin[0], originY: origin[1], cellM: g.cellM, width: g.width, height: g.height, hMax: g.hMax, lethalCost: g.lethalCost, unknownCost: g.unknownCost },
    route,
  };
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

function nearest(p: readonly Xy[], q: Xy): number {
  let best = 0, d = Infinity;
  p.forEach((x, i) => {
    const e = Math.hypot(x[0] - q[0], x[1] - q[1]);
    if (e < d) {
      d = e;
      best = i;
    }
  });
  return best;
}
