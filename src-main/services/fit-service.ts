/**
 * Fitting a model to a drive log (docs/methods.md §1–2; src-worker/fit/), as two jobs on the pool —
 * three when θ is tuned first ('fit-tune': src-worker/fit/tuning.ts on a slice of the log, whose
 * success starts the fit with the best θ and whose result names it as `fitJob`):
 *
 *  1. 'fit' (one task, fit-model stage 'elements'): cloud, segmentation, ground mesh,
 *     ellipsoids, voxels, and the replay scene in shared memory. On success it submits …
 *  2. 'fit-replay' (parallel fit-model 'replay' tasks over fixed batches of packets): every
 *     training ray through the elements; each batch's counts are kept as they arrive. Its
 *     success adds them and computes p_hit, ρ and σ²_ground in a worker (task finish-fit) and
 *     stores the model (row + arrays, one transaction); its result is a FitResultInfo.
 * The first job's result names the second (`replayJob`), as the demo's jobs do. Nothing is
 * stored before the end, so a cancel or a failure of either job leaves nothing behind.
 *
 * The log's chunks are read once (task log-arrays: the host feeds it the chunks one at a time)
 * and copied into SharedArrayBuffers (16 bytes a ray: pose, direction, range), so the first
 * stage and every replay batch read the same memory. Batches
 * are fixed by the log's size, never by the worker count, and the replay counts are integers
 * (σ²_ground's sum is added in batch order): a model is the same whatever the pool's size.
 */
import type { MessagePort } from 'node:worker_threads';
import { ApiError, type FitResultInfo, type FitTuningSummary, type JobInfo, type ParsedRequest } from '../api/contract';
import type { SceneSimulationMode } from '../../src-common/modes';
import type { SensorProfile } from '../../src-common/sensor-profile';
import type { RunningJob } from '../jobs/job-runner';
import type { ServiceContext } from './service-context';
import type { ProjectSession } from './project-session';
import { resolveProfileForUse } from './profiles-service';
import { runFed } from './chunk-server';
import { resolveFitParams } from '../../src-common/fit-params';
import { tuningBoxes } from '../../src-common/fit-tuning';
import type { FitModelInput, FitModelSummary, FittedElements } from '../../src-worker/tasks/fit-model';
import type { FinishFitInput, FinishFitOutput } from '../../src-worker/tasks/finish-fit';
import type { LogArraysInput, LogArraysOutput } from '../../src-worker/tasks/log-arrays';
import type { ModelSceneInput, ModelSceneOutput } from '../../src-worker/tasks/model-scene';
import type { TuneModelInput, tuneModelTask } from '../../src-worker/tasks/tune-model';
import { transferList } from '../../src-common/shared-memory';
import type { SceneData } from '../../src-common/scene-data';

type FitParams = FinishFitInput['params'];
type FitLogChunk = Extract<FitModelInput, { stage: 'replay' }>['chunks'][number];
type ReplayCounts = FinishFitInput['batches'][number];
type TuneResult = ReturnType<typeof tuneModelTask>;
type BoxParameter = TuneModelInput['boxes'][number];

/** What fitting reads of a chunk (src-worker/fit/log-input.ts): 16 bytes a ray. */
const FIT_FIELDS = ['packetStart', 'packetCount', 'rayCount', 'packetPose', 'rayStart', 'rayDir', 'rayRange'] as const;

/** At most this many replay batches (and at least REPLAY_MIN_PACKETS packets each). */
export const REPLAY_BATCHES = 16;
const REPLAY_MIN_PACKETS = 64;

export async function startFit(ctx: ServiceContext, req: ParsedRequest<'fit.start'>): Promise<RunningJob> {
  const session = ctx.requireSession();
  const log = session.store.logs.get(req.logId);
  if (!log) throw new ApiError('not_found', `no drive log ${req.logId} in this project`);
  let params: FitParams;
  try {
    params = resolveFitParams(req.params);
  } catch (e) {
    throw new ApiError('bad_input', (e as Error).message);
  }
  if (log.hits === 0) throw new ApiError('bad_input', `drive log ${log.id} (${log.name}) has no hits (${log.misses} misses): there is nothing to fit`);
  let profile: SensorProfile | null = null;
  if (log.profileId) {
    try {
      profile = resolveProfileForUse(session.store, log.profileId);
    } catch {
      profile = null; // an unknown profile: the farthest return bounds the misses instead
    }
  }
  const name = req.name ?? `Model of ${log.name}`;
  const plan: FitPlan = { logId: log.id, logName: log.name, name, seed: req.seed, params, requested: req.params, profileMaxRange: profile?.range.max ?? 0, profileMinRange: profile?.range.min ?? 0, t0: performance.now() };
  if (req.tune) return startTuning(ctx, session, plan, req.tune, profile);
  return startElements(ctx, session, plan, null);
}

interface FitPlan {
  logId: number;
  logName: string;
  name: string;
  seed: number;
  params: FitParams;
  /** θ overrides as requested (the job's params). */
  requested: Record<string, number>;
  profileMaxRange: number;
  profileMinRange: number;
  t0: number;
}

/** What tuning found, carried into the stored model's report and the fit's result. */
type TuningOutcome = FitTuningSummary & { trace: TuneResult['trace']; names: string[] };

/**
 * Job 'fit-tune': one tune-model task on the log's slice; its success starts the fit with the
 * best θ. The slice is read here (a few seconds of packets) and shared with the worker.
 */
async function startTuning(ctx: ServiceContext, session: ProjectSession, plan: FitPlan, tune: NonNullable<ParsedRequest<'fit.start'>['tune']>, profile: SensorProfile | null): Promise<RunningJob> {
  if (!profile) throw new ApiError('bad_input', `tuning simulates the log's sensor: drive log ${plan.logId} (${plan.logName}) has no usable sensor profile`);
  let boxes: BoxParameter[];
  try {
    boxes = tuningBoxes(tune.params);
  } catch (e) {
    throw new ApiError('bad_input', (e as Error).message);
  }
  const slice = await readLog(session, plan.logId, { window: { startS: tune.startS, seconds: tune.seconds } });
  const packets = slice.packets;
  if (packets === 0) throw new ApiError('bad_input', `drive log ${plan.logId} has no packets between ${tune.startS} s and ${tune.startS + tune.seconds} s from its start`);
  if (tune.evaluations < boxes.length + 1) throw new ApiError('bad_input', `tuning ${boxes.length} parameters needs at least ${boxes.length + 1} evaluations (got ${tune.evaluations})`);
  const first = slice.firstTime;
  const from = first + tune.startS, to = from + tune.seconds;
  const input: TuneModelInput = { chunks: slice.chunks as TuneModelInput['chunks'], params: plan.params, boxes, seed: plan.seed, profile, maxEvaluations: tune.evaluations };
  return session.runner.submit({
    kind: 'fit-tune',
    params: { logId: plan.logId, seed: plan.seed, params: plan.requested, name: plan.name, tune },
    task: 'tune-model',
    input,
    onSuccess: async (output) => {
      const r = output as TuneResult;
      const outcome: TuningOutcome = {
        best: r.best,
        objective: r.objective,
        startObjective: r.startObjective,
        evaluations: r.trace.length,
        stopped: r.stopped,
        slice: { packets, from: from - first, to: to - first },
        seconds: Math.round((performance.now() - plan.t0) / 10) / 100,
        trace: r.trace,
        names: boxes.map((b) => b.name),
      };
      const fit = await startElements(ctx, session, { ...plan, params: r.params }, outcome);
      return { fitJob: fit.job.id, tuning: summaryOf(outcome) };
    },
  });
}

/** The log's chunks in shared memory (task log-arrays), as the host feeds them from the store. */
async function readLog(session: ProjectSession, logId: number, opts: Omit<LogArraysInput, 'feed'>): Promise<LogArraysOutput> {
  const input = (feed: MessagePort): LogArraysInput => ({ feed, ...opts });
  return (await runFed(session, 'log-arrays', () => session.store.logs.chunks(logId), `drive log ${logId}`, input)).result as LogArraysOutput;
}

function summaryOf(t: TuningOutcome): FitTuningSummary {
  return { best: t.best, objective: t.objective, startObjective: t.startObjective, evaluations: t.evaluations, stopped: t.stopped, slice: t.slice, seconds: t.seconds };
}

/** Job 'fit': steps 1–5 on the pool; its success starts the replay job. */
async function startElements(ctx: ServiceContext, session: ProjectSession, plan: FitPlan, tuning: TuningOutcome | null): Promise<RunningJob> {
  // Read once into shared memory: the elements stage and every replay batch read these bytes.
  const chunks = (await readLog(session, plan.logId, { fields: FIT_FIELDS })).chunks as FitLogChunk[];
  const input: FitModelInput = { stage: 'elements', chunks, params: plan.params, seed: plan.seed, profileMaxRange: plan.profileMaxRange, profileMinRange: plan.profileMinRange };
  let fitted: FittedElements | null = null;
  return session.runner.submit({
    kind: 'fit',
    params: { logId: plan.logId, seed: plan.seed, params: tuning ? { ...plan.requested, ...tuning.best } : plan.requested, name: plan.name },
    task: 'fit-model',
    input,
    onMessage: (m) => {
      if (m.type === 'output' && m.name === 'elements') fitted = m.value as FittedElements;
    },
    onSuccess: (output) => {
      if (!fitted) throw new Error('the fit task returned no elements');
      const replay = startReplay(ctx, session, { logId: plan.logId, name: plan.name, seed: plan.seed, params: plan.params, chunks, fitted, t0: plan.t0, tuning });
      const summary = output as FitModelSummary;
      return { replayJob: replay.job.id, rays: summary.rays, ...summary.elements };
    },
  });
}

interface ReplayPlan {
  logId: number;
  name: string;
  seed: number;
  params: FitParams;
  chunks: FitLogChunk[];
  fitted: FittedElements;
  t0: number;
  tuning: TuningOutcome | null;
}

/** Fixed batches of packets [first, first + count): at most REPLAY_BATCHES, whatever the pool size. */
export function replayBatches(packets: number): { first: number; count: number }[] {
  const size = Math.max(REPLAY_MIN_PACKETS, Math.ceil(packets / REPLAY_BATCHES));
  const out: { first: number; count: number }[] = [];
  for (let first = 0; first < packets; first += size) out.push({ first, count: Math.min(size, packets - first) });
  return out;
}

function startReplay(ctx: ServiceContext, session: ProjectSession, plan: ReplayPlan): RunningJob {
  const { fitted, chunks } = plan;
  const e = fitted.elements;
  const packets = fitted.report.counts.packets;
  const batches = replayBatches(packets);
  const sizes = { triangles: e.groundBlock.length, ellipsoids: e.ellipsoidBlock.length, voxels: e.voxelBlock.length };
  const shared = { scene: fitted.scene, replay: fitted.replay, sizes };
  const tasks = batches.map((b) => ({
    task: 'fit-model' as const,
    input: {
      stage: 'replay',
      fitted: shared,
      chunks: chunks.filter((c) => c.packetStart < b.first + b.count && c.packetStart + c.packetCount > b.first),
      firstPacket: b.first,
      packetCount: b.count,
    } satisfies FitModelInput,
  }));
  // Every batch's counts, added in batch order by finish-fit (σ²_ground's sum is floating point).
  const counts: (ReplayCounts | null)[] = batches.map(() => null);
  const t1 = performance.now();
  return session.runner.submit({
    kind: 'fit-replay',
    params: { logId: plan.logId, seed: plan.seed, batches: batches.length, packets, name: plan.name },
    tasks,
    onMessage: (m, _job, task) => {
      if (m.type !== 'output' || m.name !== 'counts') return;
      counts[task] = m.value as ReplayCounts;
    },
    onSuccess: async (_outputs, job: JobInfo) => {
      if (counts.some((c) => c === null)) throw new Error('a replay batch returned no counts');
      const input: FinishFitInput = { fitted: { elements: e, report: fitted.report, trail: fitted.trail }, batches: counts as ReplayCounts[], params: plan.params, replayMs: performance.now() - t1 };
      const { outputs } = await session.runner.runTransient('finish-fit', input, transferList([input.fitted, input.batches]));
      const result = outputs.get('model') as FinishFitOutput;
      const seconds = (performance.now() - plan.t0) / 1000;
      // Written a storage chunk per turn of the event loop: a long drive's model is tens of MB.
      const info = await session.store.models.createInTurns(
        {
          name: plan.name,
          kind: 'hybrid',
          sourceLogId: plan.logId,
          params: { ...plan.params, seed: plan.seed },
          report: { ...result.report, seconds, scalars: result.scalars, ...(plan.tuning ? { tuning: plan.tuning } : {}) },
          jobId: job.id,
        },
        result.arrays,
        result.trail,
      );
      ctx.events.emit({ type: 'project', entity: 'models', id: info.id });
      const out: FitResultInfo = {
        model: info.id,
        ellipsoids: info.counts.ellipsoids,
        triangles: info.counts.triangles,
        voxels: info.counts.voxels,
        groundVariance: result.report.groundVariance,
        seconds: Math.round(seconds * 1000) / 1000,
        ...(plan.tuning ? { tuning: summaryOf(plan.tuning) } : {}),
      };
      return out as unknown as Record<string, unknown>;
    },
  });
}

/**
 * A fitted model as the scene a simulation runs (a geo-specific scene): its elements built into
 * a SceneData in shared memory — ground + ellipsoids for hybrid mode, the voxel Gaussians for
 * voxel mode, the ground triangles (as surfaces) for physics and mesh modes — with the sensor's
 * trail as the scene's, so `--trail` drives the logged path again.
 */
export async function modelScene(session: ProjectSession, id: number, mode: SceneSimulationMode, profileId?: string): Promise<{ data: SceneData; meta: Record<string, unknown>; name: string }> {
  const info = session.store.models.get(id);
  if (!info) throw new ApiError('not_found', `no fitted model ${id} in this project`);
  const arrays = await session.store.models.arraysInTurns(id);
  const trail = session.store.models.trail(id);
  // Another sensor than the one whose log the model was fitted to does not share its dropouts.
  const trainedWith = info.sourceLogId !== null ? session.store.logs.get(info.sourceLogId)?.profileId ?? null : null;
  const otherSensor = profileId !== undefined && trainedWith !== null && profileId !== trainedWith;
  const input: ModelSceneInput = { arrays, params: info.params, groundVariance: info.groundVariance, mode, trail, otherSensor };
  const out = (await session.runner.runTransient('model-scene', input, transferList(input))).result as ModelSceneOutput;
  if ('missing' in out) throw new ApiError('bad_input', `fitted model ${id} has ${out.missing}`);
  return { data: out.data, meta: { kind: 'fitted-model', model: id, trail: out.trail, ...(otherSensor ? { otherSensor: true } : {}) }, name: info.name };
}
