/**
 * The scene editor's two tasks (docs/design.md, *Scene editor*; primitives/author.ts):
 *  - 'editor-terrain' (transient, interactive lane): a terrain spec's height grid, which the
 *    editor draws and snaps placements to (a model's ground is indexed triangle by triangle);
 *  - 'author-scene' (job): the placements built into a scene — BVHs over a ground of up to
 *    a few hundred thousand triangles take seconds — returned in SharedArrayBuffers to store.
 */
import type { TaskContext } from './task-context';
import type { SceneData } from '../../src-common/scene-data';
import type { Primitive } from '../../src-common/primitive';
import type { ComposeMode } from '../../src-common/modes';
import type { AuthoredPlacement, TerrainSpec } from '../../src-common/scene-authoring';
import { authoredTerrain, buildAuthoredScene, type ModelGround } from '../primitives/author';
import { sceneStats } from '../scene/scene-data';
import { transferList } from '../../src-common/shared-memory';

export interface EditorTerrainInput {
  terrain: TerrainSpec;
  model?: ModelGround;
}

export function editorTerrainTask(input: EditorTerrainInput, ctx: TaskContext): { nodes: number } {
  const t = authoredTerrain(input.terrain, input.model);
  ctx.post({ type: 'output', name: 'grid', value: t.grid }, transferList(t.grid));
  return { nodes: t.grid.z.length };
}

export interface AuthorSceneInput {
  terrain: TerrainSpec;
  model?: ModelGround;
  placements: AuthoredPlacement[];
  library: Primitive[];
  mode: ComposeMode;
  mahalanobisThreshold: number;
  voxelTau: number;
  ellipsoidHitFalloff: boolean;
}

export interface AuthorSceneOutput {
  data: SceneData;
  /** Each placement's foot height as built (m). */
  heights: number[];
  uniquePrimitives: number;
  /** The terrain in words: "flat at 0 m over [-25, 25] × [-25, 25]". */
  ground: string;
  stats: { triangles: number; ellipsoids: number; voxels: number; instances: number; memoryBytes: number; buildMs: number };
  bounds: { min: [number, number, number]; max: [number, number, number] };
}

export function authorSceneTask(input: AuthorSceneInput, ctx: TaskContext): AuthorSceneOutput {
  ctx.progress(0, 'laying the terrain', true);
  const terrain = authoredTerrain(input.terrain, input.model);
  ctx.checkCancelled();
  ctx.progress(0.2, `placing ${input.placements.length} primitives`, true);
  const scene = buildAuthoredScene(input.placements, input.library, terrain, {
    mode: input.mode,
    mahalanobisThreshold: input.mahalanobisThreshold,
    voxelTau: input.voxelTau,
    ellipsoidHitFalloff: input.ellipsoidHitFalloff,
    shared: true,
  });
  const s = sceneStats(scene.data);
  const b = scene.data.bounds;
  ctx.progress(1, `${input.placements.length} placements`, true);
  return {
    data: scene.data,
    heights: Array.from(scene.heights),
    uniquePrimitives: scene.counts.uniquePrimitives,
    ground: terrain.describe,
    stats: { triangles: s.instancedTriangles, ellipsoids: s.instancedEllipsoids, voxels: s.instancedVoxels, instances: s.instances, memoryBytes: s.memoryBytes, buildMs: Math.round(scene.data.buildMs) },
    bounds: { min: [b[0]!, b[1]!, b[2]!], max: [b[3]!, b[4]!, b[5]!] },
  };
}
