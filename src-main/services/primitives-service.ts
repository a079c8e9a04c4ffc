/**
 * Primitives and composed scenes (docs/methods.md §3; src-worker/primitives):
 *
 *  - extraction (job 'extract-primitives'): a fitted model's log thinned into a cloud, its
 *    non-ground points split into labelled segments — by an annotation (default: the log's own;
 *    the rays' object ids where the log has them) or by clustering when there is none (the
 *    clusters are then stored as the log's annotation "Auto segments", so the log is labelled) —
 *    and every segment's elements stored as a primitive, all in one transaction;
 *  - the mesh baseline library, generated in a worker (task mesh-library) and stored likewise;
 *  - composition (job 'compose-scene'): an annotation's entries filled with the library's
 *    primitives of the nearest extents, on a fitted model's ground or a flat one; the built
 *    scene is stored like a generated one and simulated with `simulate.start {sceneId}`.
 */
import { ApiError, type AnnotationData, type AnnotationEntry, type ComposeResult, type ExtractResult, type ParsedRequest, type PrimitiveInfo } from '../api/contract';
import type { SimulationMode, ComposeMode } from '../../src-common/modes';
import type { RunningJob } from '../jobs/job-runner';
import type { ServiceContext } from './service-context';
import type { MessagePort } from 'node:worker_threads';
import { readInTurns, runFed } from './chunk-server';
import { transferList } from '../../src-common/shared-memory';
import type { LogArraysInput, LogArraysOutput } from '../../src-worker/tasks/log-arrays';
import { FIT_PARAM_DEFAULTS } from '../../src-common/fit-params';
import type { ExtractPrimitivesInput, ExtractPrimitivesOutput } from '../../src-worker/tasks/extract-primitives';
import { countByClass, type Primitive } from '../../src-common/primitive';
import type { ComposeSceneInput, ComposeSceneOutput } from '../../src-worker/tasks/compose-scene';
import type { MeshLibraryInput } from '../../src-worker/tasks/mesh-library';
import { referenceClassName } from '../../src-common/classes';

/** What extraction reads of a chunk: the rays' world points and their ground truth. */
const EXTRACT_FIELDS = ['packetCount', 'packetPose', 'rayStart', 'rayDir', 'rayRange', 'rayObject', 'rayClass'] as const;

export async function startExtraction(ctx: ServiceContext, req: ParsedRequest<'primitives.extract'>): Promise<RunningJob> {
  const session = ctx.requireSession();
  const { store } = session;
  const model = store.models.get(req.modelId);
  if (!model) throw new ApiError('not_found', `no fitted model ${req.modelId} in this project`);
  const logId = model.sourceLogId;
  if (logId === null || !store.logs.get(logId)) throw new ApiError('bad_input', `fitted model ${model.id} (${model.name}) no longer has its drive log: primitives are cut from the log's points`);
  let annotationId: number | null = null;
  let entries: AnnotationEntry[] | null = null;
  let labelVersion: number | null = null;
  if (!req.autoSegment) {
    // A labelled log's objects are its newest label version's (docs/labeling.md), whose object
    // ids its rays carry; else the log's own annotation.
    const labelled = req.annotationId === undefined ? store.labels.latest(logId) : null;
    if (labelled && labelled.objects > 0) {
      labelVersion = labelled.version;
      entries = store.labels.read(logId, labelled.version)!.entries;
    }
    annotationId = labelVersion !== null ? null : req.annotationId ?? store.annotations.list(logId)[0]?.id ?? null;
    if (annotationId !== null) {
      const a = store.annotations.read(annotationId);
      if (!a) throw new ApiError('not_found', `no annotation ${annotationId} in this project`);
      entries = a.entries;
    }
  }
  const arrays = await store.models.arraysInTurns(model.id);
  // The log's rays, read in a worker as the host feeds it the chunks (task log-arrays).
  const read = (feed: MessagePort): LogArraysInput => ({ feed, fields: EXTRACT_FIELDS });
  const { result } = await runFed(session, 'log-arrays', () => store.logs.chunks(logId), `drive log ${logId}`, read);
  const input: ExtractPrimitivesInput = {
    chunks: (result as LogArraysOutput).chunks as ExtractPrimitivesInput['chunks'],
    model: {
      groundPositions: arrays.groundPositions,
      ellipsoidMeans: arrays.ellipsoidMeans,
      ellipsoidCovariances: arrays.ellipsoidCovariances,
      ellipsoidPHit: arrays.ellipsoidPHit,
      voxelMeans: arrays.voxelMeans,
      voxelCovariances: arrays.voxelCovariances,
      voxelPermeability: arrays.voxelPermeability,
    },
    entries,
    patchCell: req.patchCell,
    ...(req.classes ? { classes: req.classes } : {}),
  };
  return session.runner.submit({
    kind: 'extract-primitives',
    params: { modelId: model.id, logId, annotationId, labelVersion, autoSegment: req.autoSegment, patchCell: req.patchCell, classes: req.classes ?? null },
    task: 'extract-primitives',
    input,
    // The model's arrays move to the worker (the log's chunks are shared): nothing is copied here.
    transfer: transferList(input.model),
    onSuccess: async (output, job) => {
      const out = output as ExtractPrimitivesOutput;
      if (out.primitives.length === 0) {
        throw new Error(`no primitive could be extracted (${out.segments} segments; ${out.skipped.map((s) => `segment ${s.segment}: ${s.reason}`).slice(0, 5).join('; ') || 'no shrub or tree segment in the log'})`);
      }
      // The primitives' arrays are written a chunk per turn of the event loop under hidden rows;
      // one transaction then stores the auto labels and makes the primitives visible, so a
      // failure leaves neither.
      const staged = await store.primitives.stageMany(
        out.primitives.map((p) => ({ primitive: p, library: 'hybrid' as const, modelId: model.id, sourceLogId: logId, origin: { annotationId, ...(labelVersion !== null ? { labelVersion } : {}) } })),
        job.id,
      );
      let published: { infos: PrimitiveInfo[]; autoAnnotation: number | null };
      try {
        published = store.transaction(() => {
          const autoAnnotation = out.autoEntries
            ? store.annotations.create(`Auto segments of ${store.logs.get(logId)!.name}`, logId, out.autoEntries.map((e) => ({ ...e, label: e.label })) as AnnotationEntry[]).id
            : null;
          return { infos: store.primitives.publishMany(staged, annotationId === null ? autoAnnotation : null), autoAnnotation };
        });
      } catch (e) {
        store.primitives.discardMany(staged);
        throw e;
      }
      const { infos, autoAnnotation } = published;
      ctx.events.emit({ type: 'project', entity: 'primitives', id: infos[0]!.id });
      if (autoAnnotation !== null) ctx.events.emit({ type: 'project', entity: 'annotations', id: autoAnnotation });
      const result: ExtractResult = {
        model: model.id,
        log: logId,
        annotation: annotationId ?? autoAnnotation,
        labels: out.labels,
        segments: out.segments,
        primitives: infos.length,
        byClass: countByClass(out.primitives),
        skipped: out.skipped,
        ids: infos.map((i) => i.id),
      };
      return result as unknown as Record<string, unknown>;
    },
  });
}

/** The mesh baseline library, stored (one transaction). */
export async function generateMeshLibrary(ctx: ServiceContext, req: ParsedRequest<'primitives.generateMesh'>): Promise<{ primitives: PrimitiveInfo[] }> {
  const session = ctx.requireSession();
  let input: MeshLibraryInput;
  let sizedTo: AnnotationData | null = null;
  if (req.annotationId !== undefined) {
    sizedTo = session.store.annotations.read(req.annotationId);
    if (!sizedTo) throw new ApiError('not_found', `no annotation ${req.annotationId} in this project`);
    input = { seed: req.seed, boxes: sizedTo.entries.map((e) => ({ class: e.class, extents: e.box.size })) };
  } else {
    input = { seed: req.seed, variantsPerClass: req.variants };
  }
  // Built in a worker: every mesh is made triangle by triangle.
  const prims = (await session.runner.runTransient('mesh-library', input)).outputs.get('library') as Primitive[];
  if (sizedTo && prims.length === 0) throw new ApiError('bad_input', `annotation ${sizedTo.id} (${sizedTo.name}) has no shrub or tree entries to size meshes from`);
  // Written a chunk per turn of the event loop under hidden rows, then made visible in one step.
  const store = session.store;
  const staged = await store.primitives.stageMany(
    prims.map((p) => ({ primitive: p, library: 'mesh' as const, modelId: null, sourceLogId: null, origin: { seed: req.seed, ...(req.annotationId !== undefined ? { annotationId: req.annotationId } : {}) } })),
    null,
  );
  let infos: PrimitiveInfo[];
  try {
    infos = store.transaction(() => store.primitives.publishMany(staged));
  } catch (e) {
    store.primitives.discardMany(staged);
    throw e;
  }
  ctx.events.emit({ type: 'project', entity: 'primitives', id: infos[0]!.id });
  return { primitives: infos };
}

/** [x, y, z, yaw] of a yaw-only pose [tx, ty, tz, qx, qy, qz, qw]. */
function footAndYaw(pose: ArrayLike<number>): [number, number, number, number] {
  return [pose[0]!, pose[1]!, pose[2]!, 2 * Math.atan2(pose[5]!, pose[6]!)];
}

export async function startComposition(ctx: ServiceContext, req: ParsedRequest<'scenes.compose'>): Promise<RunningJob> {
  const session = ctx.requireSession();
  const { store } = session;
  const annotation = store.annotations.read(req.annotationId);
  if (!annotation) throw new ApiError('not_found', `no annotation ${req.annotationId} in this project`);
  const requested: SimulationMode = req.mode ?? (req.library === 'mesh' ? 'mesh' : 'hybrid');
  if (requested === 'neighbour') throw new ApiError('bad_input', 'the neighbour simulator replays a drive log, not a scene: simulate it with simulate.start {neighbourLogId}');
  const mode: ComposeMode = requested;
  if (req.library === 'mesh' && (mode === 'hybrid' || mode === 'voxel')) throw new ApiError('bad_input', `mesh primitives have only triangles: compose them for mesh or physics mode, not ${mode}`);
  if (req.library === 'hybrid' && (mode === 'mesh' || mode === 'physics')) throw new ApiError('bad_input', `hybrid primitives have no triangles: compose them for hybrid or voxel mode, not ${mode}`);
  const fromModels = req.fromModels ? new Set(req.fromModels) : null;
  const infos = store.primitives.list().filter((p) => p.library === req.library && (!fromModels || (p.modelId !== null && fromModels.has(p.modelId))));
  if (infos.length === 0) {
    throw new ApiError('bad_input', `no ${req.library} primitives${fromModels ? ` from models ${[...fromModels].join(', ')}` : ''} in this project: ${req.library === 'mesh' ? 'generate the mesh library' : 'extract primitives from a fitted model'} first`);
  }
  // One primitive's arrays per turn of the event loop: a large library is never read in one go.
  const library = await readInTurns((function* () {
    for (const i of infos) yield store.primitives.primitive(i.id)!;
  })());
  let ground: ComposeSceneInput['ground'];
  let scalars: { mahalanobisThreshold: number; voxelTau: number; ellipsoidHitFalloff: boolean } = { mahalanobisThreshold: FIT_PARAM_DEFAULTS.mahalanobisThreshold, voxelTau: FIT_PARAM_DEFAULTS.voxelTau, ellipsoidHitFalloff: false };
  if (req.groundModelId !== undefined) {
    const m = store.models.get(req.groundModelId);
    if (!m) throw new ApiError('not_found', `no fitted model ${req.groundModelId} in this project`);
    const a = await store.models.arraysInTurns(m.id);
    ground = { kind: 'model', model: { groundPositions: a.groundPositions, groundPHit: a.groundPHit, voxelMeans: a.voxelMeans, voxelCovariances: a.voxelCovariances, voxelPermeability: a.voxelPermeability }, variance: m.groundVariance };
    const num = (v: unknown, d: number) => (typeof v === 'number' && Number.isFinite(v) ? v : d);
    scalars = { ...scalars, mahalanobisThreshold: num(m.params.mahalanobisThreshold, scalars.mahalanobisThreshold), voxelTau: num(m.params.voxelTau, scalars.voxelTau) };
  } else {
    ground = { kind: 'flat', z: req.groundZ!, marginM: 20 };
  }
  // The hybrid primitives' own θ (the model they were fitted in) decides how near a ray meets
  // an ellipsoid or a voxel Gaussian; it overrides the ground model's.
  const sourceModel = infos.find((i) => i.modelId !== null)?.modelId ?? null;
  const m = req.library === 'hybrid' && sourceModel !== null ? store.models.get(sourceModel) : null;
  if (m) {
    if (typeof m.params.mahalanobisThreshold === 'number') scalars.mahalanobisThreshold = m.params.mahalanobisThreshold;
    if (typeof m.params.voxelTau === 'number') scalars.voxelTau = m.params.voxelTau;
    // Their ellipsoids' p_hit means what it meant in that model (src-worker/scene/ellipsoid-falloff.ts).
    scalars.ellipsoidHitFalloff = m.params.ellipsoidHitFalloff === 1;
  }
  const input: ComposeSceneInput = { entries: annotation.entries, library, mode, ground, ...scalars };
  const name = req.name ?? `${annotation.name} from ${req.library} primitives (${mode})`;
  return session.runner.submit({
    kind: 'compose-scene',
    params: { annotationId: annotation.id, library: req.library, mode, groundModelId: req.groundModelId ?? null, groundZ: req.groundZ ?? null, name },
    task: 'compose-scene',
    input,
    // The library's and the ground model's arrays move to the worker rather than being copied.
    transfer: transferList([input.library, input.ground]),
    onSuccess: async (output, job) => {
      const out = output as ComposeSceneOutput;
      const label = (c: number) => referenceClassName(c);
      const meta = {
        kind: 'composed',
        mode,
        library: req.library,
        annotation: annotation.id,
        groundModel: req.groundModelId ?? null,
        counts: out.counts,
        bounds: out.bounds,
        groundZ: req.groundZ ?? null,
        // Each placement's foot and yaw ([x, y, z, yaw], m and rad): the scene editor reopens a composed scene from them.
        placements: out.plan.placements.map((p) => ({ entry: p.entryId, primitive: p.primitiveId, fallback: p.fallback, ...(p.cell ? { cell: p.cell } : {}), at: footAndYaw(p.pose) })),
      };
      const info = await store.scenes.createInTurns(name, meta, out.data as unknown as Record<string, unknown>, job.id);
      ctx.events.emit({ type: 'project', entity: 'scenes', id: info.id });
      const result: ComposeResult = {
        scene: info.id,
        mode,
        entries: out.counts.entries,
        primitivesUsed: out.counts.uniquePrimitives,
        fallbacks: out.plan.fallbacks.map((f) => ({ entry: f.entryId, wanted: label(f.from), used: label(f.to) })),
        missing: out.plan.skipped.map((s) => ({ entry: s.entryId, class: label(s.class), reason: s.reason })),
      };
      return result as unknown as Record<string, unknown>;
    },
  });
}
