/**
 * Procedural scenes, built (with their BVHs) in a worker and handed back by transfer:
 *  - offroad: terrain, trees with leaves, shrubs, grass stems, rocks as meshes (physics / mesh modes)
 *  - hybrid-strip: a 200 m off-road strip as ground triangles + ellipsoid primitives (hybrid mode)
 *  - cylinder-stand, rod-bench: the validation fixtures of seed 003 §3.4
 */
import type { TaskContext } from './task-context';
import type { SceneData } from '../../src-common/scene-data';
import { sceneStats } from '../scene/scene-data';
import { buildOffroadBenchScene, buildComposedHybridScene } from '../site/offroad';
import { buildCylinderStand, buildRodBench } from '../site/fixtures';
import { checkSceneParams, type GeneratedSceneKind } from '../../src-common/scene-params';

export type { GeneratedSceneKind };

export interface GenerateSceneInput {
  kind: GeneratedSceneKind;
  seed: number;
  params: Record<string, number>;
}

export interface GeneratedScene {
  data: SceneData;
  meta: Record<string, unknown>;
}

export function generateScene(input: GenerateSceneInput, ctx: TaskContext): { kind: string } {
  const { kind, seed, params } = input;
  checkSceneParams(kind, params);
  ctx.progress(0.05, `building ${kind}`, true);
  let data: SceneData;
  let extra: Record<string, unknown>;
  if (kind === 'offroad') {
    const s = buildOffroadBenchScene({ seed, sizeM: params.sizeM, targetTriangles: params.targetTriangles });
    data = s.data;
    extra = { counts: s.counts, trail: s.poses };
  } else if (kind === 'hybrid-strip') {
    const s = buildComposedHybridScene({ seed, lengthM: params.lengthM, widthM: params.widthM });
    data = params.mesh ? s.mesh : s.hybrid;
    extra = { counts: s.counts, variant: params.mesh ? 'mesh' : 'hybrid', trail: s.trail };
  } else if (kind === 'cylinder-stand') {
    const s = buildCylinderStand({ seed, lambda: params.lambda ?? 50, diameter: params.diameter ?? 0.01, distance: params.distance ?? 20, width: params.width, depth: params.depth });
    data = s.data;
    extra = { stems: s.count };
  } else {
    const s = buildRodBench({ seed, backgroundOffset: params.backgroundOffset ?? 0.6 });
    data = s.data;
    extra = { wallX: s.wallX, rods: s.rodCentres.length / 2 };
  }
  ctx.checkCancelled();
  const stats = sceneStats(data);
  const b = data.bounds;
  const meta = {
    ...extra,
    triangles: stats.instancedTriangles,
    uniqueTriangles: stats.uniqueTriangles,
    ellipsoids: stats.instancedEllipsoids,
    instances: stats.instances,
    memoryBytes: stats.memoryBytes,
    buildMs: Math.round(data.buildMs),
    bounds: { min: [b[0], b[1], b[2]], max: [b[3], b[4], b[5]] },
  };
  ctx.progress(0.95, 'handing over', true);
  const buffers = Object.values(data).filter((v): v is ArrayBufferView => ArrayBuffer.isView(v)).map((v) => v.buffer as ArrayBuffer);
  ctx.post({ type: 'output', name: 'scene', value: { data, meta } satisfies GeneratedScene }, [...new Set(buffers)].filter((buf) => buf instanceof ArrayBuffer));
  return { kind };
}
