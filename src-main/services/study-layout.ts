/**
 * Where a study drives: start, goal, initial heading, the cost grid's placement and (open loop)
 * the fixed route, resolved from the definition and the scene. The defaults for start and goal are
 * src-common/study-defaults.ts; the grid is centred on start and goal; the open loop's route is
 * the trail between them, else the straight line.
 */
import { ApiError, type StudyDefinition, type StudyLayout } from '../api/contract';
import { defaultStudyEnds } from '../../src-common/study-defaults';
import { sceneTrail, type Xy } from '../../src-common/scene-meta';

export function resolveStudyLayout(def: StudyDefinition, meta: Record<string, unknown>, sceneBounds: ArrayLike<number> | null): StudyLayout {
  const trail = sceneTrail(meta);
  let { start, goal, heading } = defaultStudyEnds(trail, sceneBounds);
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
