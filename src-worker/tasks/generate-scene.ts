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

export type GeneratedSceneKind = 'offroad' | 'hybrid-strip' | 'cylinder-stand' | 'rod-bench';

export interface GenerateSceneInput {
  kind: GeneratedSceneKind;
  seed: number;
  params: Record<string, number>;
}

export interface GeneratedScene {
  data: SceneData;
  meta: Record<string, unknown>;
}

const KNOWN: Record<GeneratedSceneKind, readonly string[]> = {
  offroad: ['sizeM', 'targetTriangles'],
  // mesh=1: the same strip as opaque meshes (for the physics and mesh modes)
  'hybrid-strip': ['lengthM', 'widthM', 'mesh'],
  'cylinder-stand': ['lambda', 'diameter', 'distance', 'width', 'depth'],
  'rod-bench': ['backgroundOffset'],
};

function checkParams(kind: GeneratedSceneKind, params: Record<string, number>): void {
  for (const [k, v] of Object.entries(params)) {
    if (!KNOWN[kind].includes(k)) throw new Error(`scene ${kind}: unknown parameter "${k}" (known: ${KNOWN[kind].join(', ')})`);
    if (!(v > 0)) throw new Error(`scene ${kind}: parameter ${k} must be positive, got ${v}`);
  }
  if (kind === 'offroad' && (params.targetTriangles ?? 0) > 20_000_000) throw new Error('scene offroad: targetTriangles above 20,000,000 would not fit in memory comfortably');
}

export function generateScene(input: GenerateSceneInput, ctx: TaskContext): { kind: string } {
  const { kind, seed, params } = input;
  checkParams(kind, params);
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
