/**
 * Constructed scenes for the study tests: flat ground (z = 0) with boxes placed as objects of a
 * given class, the matching ground-truth objects, and cheap sensors (the LMS-291 and a coarse
 * 4-laser spinning sensor derived from the VLP-16) so a closed loop runs in a second or two.
 */
import { SceneBuilder } from '../../../src-worker/scene/scene-builder';
import { createSceneQuery } from '../../../src-worker/scene/scene-bvh';
import type { SceneData } from '../../../src-common/scene-data';
import { MeshWriter } from '../../../src-worker/site/mesh-writer';
import { SiteClass } from '../../../src-common/classes';
import { builtinProfile } from '../../../src-common/builtin-profiles';
import type { SensorProfile } from '../../../src-common/sensor-profile';
import { groundFromScene } from '../../../src-worker/plan/ground-height';
import type { TruthObject } from '../../../src-worker/plan/ground-truth';
import type { StudyRunSpec } from '../../../src-worker/plan/study-types';

export interface Box {
  cls: number;
  /** x0, y0, x1, y1, height (m). */
  at: [number, number, number, number, number];
}

export function tinyScene(boxes: readonly Box[], extent = { x0: -10, y0: -15, x1: 40, y1: 15 }) {
  const b = new SceneBuilder();
  const g = new MeshWriter();
  for (let x = extent.x0; x < extent.x1; x++) for (let y = extent.y0; y < extent.y1; y++) g.quad([x, y, 0], [x + 1, y, 0], [x + 1, y + 1, 0], [x, y + 1, 0], 0.3);
  const ground = g.finish();
  b.addInstance(b.addMesh(ground.positions, ground.values), undefined, 1, SiteClass.ground);
  const objects: TruthObject[] = [];
  boxes.forEach((box, k) => {
    const [x0, y0, x1, y1, h] = box.at;
    const w = new MeshWriter();
    w.box(x0, y0, 0, x1, y1, h, 0.4);
    const m = w.finish();
    const id = k + 2;
    b.addInstance(b.addMesh(m.positions, m.values), undefined, id, box.cls);
    objects.push({ id, class: box.cls, pose: [(x0 + x1) / 2, (y0 + y1) / 2, 0, 0, 0, 0, 1], box: { center: [(x0 + x1) / 2, (y0 + y1) / 2, h / 2], size: [x1 - x0, y1 - y0, h], yaw: 0 } });
  });
  const data: SceneData = b.build();
  const grid = { originX: -15, originY: -25, cellM: 0.5, width: 120, height: 100 };
  const ground2 = groundFromScene(data, { x0: grid.originX - 2, y0: grid.originY - 2, x1: grid.originX + 62, y1: grid.originY + 52 }, 0.25);
  return { data, query: createSceneQuery(data), ground: ground2, objects, grid };
}

/** The VLP-16 with 4 of its lasers (−15°, −9°, −5°, +1°…) and 1° azimuth steps: 1,440 pulses a revolution. */
export function coarseSpinner(): SensorProfile {
  const p = builtinProfile('vlp16')!;
  const group = p.groups[0]!;
  const keep = group.lasers.filter((l) => [-15, -9, -5, 1].some((e) => Math.abs((l.elevation * 180) / Math.PI - e) < 0.5));
  return { ...p, id: 'coarse4', groups: [{ ...group, lasers: keep, firingPeriod: group.firingPeriod * 5 }] };
}

export function lms(): SensorProfile {
  return builtinProfile('lms291-180-1')!;
}

export function runSpec(grid: { originX: number; originY: number; cellM: number; width: number; height: number }, over: Partial<StudyRunSpec> = {}): StudyRunSpec {
  return {
    seq: 0,
    loop: 'closed',
    simulation: 'physics',
    seconds: 20,
    seed: 1,
    vehicle: { speed: 2, length: 2.5, width: 1.5, maxYawRate: Math.PI / 3, clearanceM: 0.3 },
    mount: { height: 2, pitchDeg: 0, yawDeg: 0, x: 0, y: 0 },
    start: [0, 0],
    startYaw: 0,
    goal: [22, 0],
    route: null,
    grid: { ...grid, hMax: 1.5, lethalCost: 50, unknownCost: 10 },
    planner: { costWeight: 4, inflationM: 1, inflationPenalty: 10, replanPeriodS: 1, minReplanIntervalS: 0.2, goalToleranceM: 1.5, relevanceM: 15 },
    cloudBudget: 5000,
    ...over,
  };
}
