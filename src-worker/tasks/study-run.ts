/**
 * One run of a sensor study on the pool: a sensor with one mount, closed or open loop
 * (src-worker/plan/study-loop.ts). The scene arrives in SharedArrayBuffers; its query object,
 * its ground height field and (for scenes without an annotation) its instance boxes are cached
 * per worker, so the study's other runs on this worker skip them. The run's history and its
 * final costmap as a PNG (the grid within 30 m of start, goal and route) go back through the port (transferred); the return value is the metrics.
 */
import type { TaskContext } from './task-context';
import type { SceneData } from '../../src-common/scene-data';
import { createSceneQuery, type BvhSceneQuery } from '../scene/scene-bvh';
import type { SensorProfile } from '../../src-common/sensor-profile';
import type { LearnedNoiseTables } from '../../src-common/noise-model';
import { groundFromScene, type GroundField } from '../plan/ground-height';
import { objectsFromInstances, type TruthObject } from '../plan/ground-truth';
import { runStudyLoop } from '../plan/study-loop';
import type { StudyMetrics, StudyRunResult, StudyRunSpec } from '../plan/study-types';
import type { StudyLiveFrame } from '../../src-common/study-results';
import { pointsWindow, renderCostmap } from '../plan/costmap-image';
import { encodePng } from './study-png';

export interface StudyRunInput {
  scene: SceneData;
  profile: SensorProfile;
  /** The learned noise model the profile names (range.noiseModel), read from the project by the host. */
  learnedNoise?: LearnedNoiseTables | null;
  /** The scene's annotation entries, or null to take objects from its instances. */
  objects: TruthObject[] | null;
  spec: StudyRunSpec;
  /** A live drive: post every scan's frame ('study-frame' outputs) as it is simulated. */
  live?: boolean;
}

export interface StudyRunOutput extends StudyRunResult {
  /** The final costmap with track, last plan, start, goal and vehicle (PNG). */
  png: Uint8Array;
}

/** Ground nodes every half cell, over the grid and a margin (points just outside still find their ground). */
const GROUND_MARGIN_M = 5;
/** The report's pictures: the grid within this distance of the start, the goal and the route. */
const IMAGE_MARGIN_M = 30;

const queries = new WeakMap<object, BvhSceneQuery>();
const grounds = new WeakMap<object, Map<string, GroundField>>();
const instanceObjects = new WeakMap<object, TruthObject[]>();

function cached<T>(map: WeakMap<object, T>, key: object, make: () => T): T {
  let v = map.get(key);
  if (v === undefined) {
    v = make();
    map.set(key, v);
  }
  return v;
}

export function studyRunTask(input: StudyRunInput, ctx: TaskContext): StudyMetrics {
  const { scene, spec } = input;
  const key = scene.nodeBounds.buffer;
  ctx.progress(0, `${input.profile.id}: preparing the scene`, true);
  const query = cached(queries, key, () => createSceneQuery(scene));
  const g = spec.grid;
  const area = { x0: g.originX - GROUND_MARGIN_M, y0: g.originY - GROUND_MARGIN_M, x1: g.originX + g.width * g.cellM + GROUND_MARGIN_M, y1: g.originY + g.height * g.cellM + GROUND_MARGIN_M };
  const res = g.cellM / 2;
  const byArea = cached(grounds, key, () => new Map<string, GroundField>());
  const areaKey = `${area.x0},${area.y0},${area.x1},${area.y1},${res}`;
  let ground = byArea.get(areaKey);
  if (!ground) {
    ground = groundFromScene(scene, area, res);
    byArea.set(areaKey, ground);
  }
  const objects = input.objects ?? cached(instanceObjects, key, () => objectsFromInstances(scene));
  ctx.checkCancelled();
  const result = runStudyLoop(spec, {
    scene: query,
    ground,
    profile: input.profile,
    learnedNoise: input.learnedNoise ?? null,
    objects,
    checkCancelled: () => ctx.checkCancelled(),
    progress: (f, m) => ctx.progress(f, m, f >= 1),
    ...(input.live
      ? {
          onFrame: (frame: StudyLiveFrame) => {
            const transfer = [frame.poseStart, frame.poseEnd, frame.riseCell, frame.riseCost, frame.xyz, frame.classId, ...frame.plans.map((p) => p.xy)].map((a) => a.buffer as ArrayBuffer);
            ctx.post({ type: 'output', name: 'study-frame', value: frame }, transfer);
          },
        }
      : {}),
  });
  // A closed loop ends early at the goal or a collision: the run is then done, whatever share of its seconds it used.
  const m = result.metrics;
  const ending = m.outcome === 'goal' ? `reached the goal at ${m.endTime.toFixed(1)} s` : m.outcome === 'collision' ? `collided at ${m.endTime.toFixed(1)} s` : `all ${m.endTime.toFixed(1)} s simulated`;
  ctx.progress(1, `${input.profile.id}: ${ending}`, true);
  const a = result.arrays;
  const lastPlan = a.planStart.length >= 2 ? a.planXY.subarray(2 * a.planStart[a.planStart.length - 2]!, 2 * a.planStart[a.planStart.length - 1]!) : null;
  const track = new Float64Array((a.poses.length / 5) * 2);
  for (let i = 0; i < track.length / 2; i++) {
    track[2 * i] = a.poses[5 * i + 1]!;
    track[2 * i + 1] = a.poses[5 * i + 2]!;
  }
  const end = a.poses.length - 5;
  const image = renderCostmap(a.finalCost, g, g.lethalCost, {
    track,
    path: lastPlan,
    start: spec.start,
    goal: spec.goal,
    vehicle: { x: a.poses[end + 1]!, y: a.poses[end + 2]!, yaw: a.poses[end + 4]!, length: spec.vehicle.length, width: spec.vehicle.width },
  }, pointsWindow(g, [...spec.start, ...spec.goal, ...(spec.route ?? [])], Math.round(IMAGE_MARGIN_M / g.cellM)));
  const png = encodePng(image.width, image.height, image.pixels);
  const output: StudyRunOutput = { ...result, png };
  const transfer = [...Object.values(a).map((x) => (x as Uint8Array).buffer as ArrayBuffer), png.buffer];
  ctx.post({ type: 'output', name: 'study-run', value: output }, transfer);
  return result.metrics;
}
