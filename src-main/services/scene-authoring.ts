/**
 * Scenes authored in the scene editor (docs/design.md, *Scene editor*): the host checks the
 * request against the project (the primitives exist and have the mode's elements, their scales
 * keep them in their class's size range, they stand on a flat or noise terrain), reads the
 * library's primitives and a model's ground a chunk per turn, and submits the 'author-scene' job;
 * its scene is staged and published as every job's scene is (scenes-repository.ts,
 * createInTurns). A model ground's coverage is checked by the worker, which has the ground.
 */
import { ApiError, type AuthorResult, type ParsedRequest, type PrimitiveInfo } from '../api/contract';
import type { RunningJob } from '../jobs/job-runner';
import type { ServiceContext } from './service-context';
import type { ProjectSession } from './project-session';
import { readInTurns } from './chunk-server';
import { transferList } from '../../src-common/shared-memory';
import { FIT_PARAM_DEFAULTS } from '../../src-common/fit-params';
import type { ComposeMode } from '../../src-common/modes';
import { inExtent, placementProblem, type TerrainGrid, type TerrainSpec } from '../../src-common/scene-authoring';
import type { AuthorSceneInput, AuthorSceneOutput, EditorTerrainInput } from '../../src-worker/tasks/author-scene';

type ModelGround = NonNullable<EditorTerrainInput['model']>;

/** A fitted model's ground arrays and σ²_ground, read a chunk per turn. */
async function modelGround(session: ProjectSession, modelId: number): Promise<ModelGround> {
  const m = session.store.models.get(modelId);
  if (!m) throw new ApiError('not_found', `terrain: no fitted model ${modelId} in this project`);
  if (m.counts.triangles === 0) throw new ApiError('bad_input', `terrain: fitted model ${modelId} (${m.name}) has no ground triangles`);
  const a = await session.store.models.arraysInTurns(m.id);
  return { model: { groundPositions: a.groundPositions, groundPHit: a.groundPHit, voxelMeans: a.voxelMeans, voxelCovariances: a.voxelCovariances, voxelPermeability: a.voxelPermeability }, variance: m.groundVariance };
}

/** The height grid the editor draws and snaps to (task 'editor-terrain'). */
export async function editorTerrain(ctx: ServiceContext, terrain: TerrainSpec): Promise<TerrainGrid> {
  const session = ctx.requireSession();
  const input: EditorTerrainInput = { terrain, ...(terrain.kind === 'model' ? { model: await modelGround(session, terrain.modelId) } : {}) };
  const { outputs } = await session.runner.runTransient('editor-terrain', input, transferList(input.model ?? {}));
  return outputs.get('grid') as TerrainGrid;
}

const MODE_ELEMENTS: Record<ComposeMode, string> = { hybrid: 'ellipsoids', voxel: 'voxel Gaussians', mesh: 'triangles', physics: 'triangles' };

/** Refuses the request's first bad placement (before anything is read or written). */
function checkRequest(session: ProjectSession, req: ParsedRequest<'scenes.author'>): Map<number, PrimitiveInfo> {
  const { store } = session;
  if (req.editedFrom !== undefined && !store.scenes.get(req.editedFrom)) throw new ApiError('not_found', `editedFrom: no scene ${req.editedFrom} in this project`);
  const library = new Map(store.primitives.list().map((p) => [p.id, p]));
  const t = req.terrain;
  const inside = t.kind === 'model' ? () => true : (x: number, y: number) => inExtent(t.extent, x, y);
  const where = t.kind === 'model' ? `fitted model ${t.modelId}` : `[${t.extent.x0}, ${t.extent.x1}] × [${t.extent.y0}, ${t.extent.y1}]`;
  const problem = placementProblem(req.placements, library, inside, where);
  if (problem) throw new ApiError('bad_input', problem);
  req.placements.forEach((p, k) => {
    const info = library.get(p.primitiveId)!;
    const c = info.counts;
    const has = req.mode === 'hybrid' ? c.ellipsoids > 0 : req.mode === 'voxel' ? c.voxels > 0 : c.triangles > 0;
    if (!has) throw new ApiError('bad_input', `placement ${k + 1}: primitive ${info.id} (${info.label}, ${info.library} library) has no ${MODE_ELEMENTS[req.mode]} for the ${req.mode} mode`);
  });
  return library;
}

/** What building a request's scene needs: the terrain's model ground, the library's primitives used, and the thresholds they were fitted with. */
export type AuthoredSceneSpec = Omit<AuthorSceneInput, 'placements' | 'terrain' | 'mode'>;

/**
 * Checks a scenes.author-shaped request against the project and reads what its scene is built
 * from (the editor's sensor preview builds the same scene unsaved, sensor-preview.ts).
 */
export async function authoredSceneSpec(ctx: ServiceContext, req: ParsedRequest<'scenes.author'>): Promise<AuthoredSceneSpec> {
  const session = ctx.requireSession();
  const { store } = session;
  const infos = checkRequest(session, req);
  const model = req.terrain.kind === 'model' ? await modelGround(session, req.terrain.modelId) : undefined;
  // Each primitive used is read once, one per turn of the event loop.
  const used = [...new Set(req.placements.map((p) => p.primitiveId))];
  const library = await readInTurns((function* () {
    for (const id of used) yield store.primitives.primitive(id)!;
  })());
  // Hybrid primitives meet rays as in the model they were fitted in (its θ), as composition does.
  const scalars: { mahalanobisThreshold: number; voxelTau: number; ellipsoidHitFalloff: boolean } = { mahalanobisThreshold: FIT_PARAM_DEFAULTS.mahalanobisThreshold, voxelTau: FIT_PARAM_DEFAULTS.voxelTau, ellipsoidHitFalloff: false };
  const sourceModelId = used.map((id) => infos.get(id)!.modelId).find((id) => id !== null) ?? (req.terrain.kind === 'model' ? req.terrain.modelId : null);
  const sourceModel = sourceModelId !== null && sourceModelId !== undefined ? store.models.get(sourceModelId) : null;
  if (sourceModel) {
    if (typeof sourceModel.params.mahalanobisThreshold === 'number') scalars.mahalanobisThreshold = sourceModel.params.mahalanobisThreshold;
    if (typeof sourceModel.params.voxelTau === 'number') scalars.voxelTau = sourceModel.params.voxelTau;
    scalars.ellipsoidHitFalloff = sourceModel.params.ellipsoidHitFalloff === 1;
  }
  return { ...(model ? { model } : {}), library, ...scalars };
}

export async function startAuthoring(ctx: ServiceContext, req: ParsedRequest<'scenes.author'>): Promise<RunningJob> {
  const session = ctx.requireSession();
  const { store } = session;
  const spec = await authoredSceneSpec(ctx, req);
  const input: AuthorSceneInput = { terrain: req.terrain, placements: req.placements, mode: req.mode, ...spec };
  const name = req.name ?? (req.editedFrom !== undefined ? `${store.scenes.get(req.editedFrom)!.name} (edited)` : `Authored scene (${req.placements.length} placements)`);
  return session.runner.submit({
    kind: 'author-scene',
    params: { name, mode: req.mode, terrain: req.terrain, placements: req.placements.length, editedFrom: req.editedFrom ?? null },
    task: 'author-scene',
    input,
    transfer: transferList([input.library, input.model ?? {}]),
    onSuccess: async (output, job) => {
      const out = output as AuthorSceneOutput;
      const meta = {
        kind: 'authored',
        mode: req.mode,
        terrain: req.terrain,
        ground: out.ground,
        editedFrom: req.editedFrom ?? null,
        objects: req.placements.length,
        triangles: out.stats.triangles,
        ellipsoids: out.stats.ellipsoids,
        voxels: out.stats.voxels,
        uniquePrimitives: out.uniquePrimitives,
        memoryBytes: out.stats.memoryBytes,
        buildMs: out.stats.buildMs,
        bounds: out.bounds,
        // What the editor reopens: every placement as given (z only where it was given).
        placements: req.placements,
      };
      const info = await store.scenes.createInTurns(name, meta, out.data as unknown as Record<string, unknown>, job.id);
      ctx.events.emit({ type: 'project', entity: 'scenes', id: info.id });
      const result: AuthorResult = { scene: info.id, mode: req.mode, placements: req.placements.length, primitivesUsed: out.uniquePrimitives, editedFrom: req.editedFrom ?? null, memoryBytes: out.stats.memoryBytes };
      return result as unknown as Record<string, unknown>;
    },
  });
}
