/**
 * Simulation as a parallel job: the packets of a drive are cut into fixed-size batches (the
 * batch size is part of the request, never derived from the worker count), each batch is a
 * task on the pool reading the scene from shared memory, and each batch's packets are stored as
 * one chunk keyed by the batch index. Every packet draws from its own random stream (seed,
 * packet index), so the stored run is bit-identical whatever the number of workers.
 */
import { ApiError, type ParsedRequest } from '../api/contract';
import type { SimulationMode } from '../../src-common/modes';
import type { SensorProfile } from '../../src-common/sensor-profile';
import type { RunningJob } from '../jobs/job-runner';
import type { SimulateBatchInput, SimulateBatchSummary } from '../../src-worker/tasks/simulate-batch';
import { planSimulation, sumBatches, type SimulationBase } from './simulation-plan';
import { packetDurationOf } from '../../src-common/profile-timing';
import type { ServiceContext } from './service-context';
import { shareScene, toShared } from './scene-store';
import { modelScene } from './fit-service';
import type { ProjectSession } from './project-session';
import { buildTrajectory, type Trajectory } from './trajectories';
import { resolveProfileForUse } from './profiles-service';
import { learnedNoiseFor } from './noise-service';
import { neighbourSource } from './neighbour-source';
import type { SceneData } from '../../src-common/scene-data';
import { resolveMount } from './mount-request';
import { raysFromLog, raysProfile, startLogRaySimulation } from './log-ray-simulation';

export type NeighbourSource = NonNullable<SimulateBatchInput['neighbour']>;
export type SimulationScene = { data: SceneData | null; meta: Record<string, unknown>; name: string };

/**
 * The scene (or the neighbour index) and the trajectory are made in workers before the job is
 * submitted — laying out a scene, building a model's scene or a log's hit index, reading a log's
 * poses all grow with the scene or the log — so the host only reads rows and submits.
 */
export async function startSimulation(ctx: ServiceContext, req: ParsedRequest<'simulate.start'>): Promise<RunningJob> {
  const session = ctx.requireSession();
  const mode: SimulationMode = req.mode ?? (req.neighbourLogId !== undefined ? 'neighbour' : 'hybrid');
  // A log's own rays: the log is checked before a scene or an index is built for it.
  const raysInfo = req.raysFromLogId !== undefined ? raysFromLog(session, req.raysFromLogId) : null;
  const raysLog = raysInfo ? { info: raysInfo, profile: raysProfile(session, req, raysInfo) } : null;
  // The sensor on the vehicle, checked before anything is built (a bad file changes nothing).
  const mount = resolveMount(req);
  const { scene, neighbour } = await simulationSource(ctx, session, req, mode, raysLog?.profile.id ?? req.profileId);
  if (raysLog) return startLogRaySimulation(ctx, session, req, mode, raysLog, { scene, neighbour, extra: sourceRecord(req, neighbour, scene.meta) });
  const profile: SensorProfile = resolveProfileForUse(session.store, req.profileId!);
  const spec = req.trajectory!;
  // With a mount the trajectory is the vehicle's: a log's own mount is undone (trajectories.ts).
  const trajectory: Trajectory = await buildTrajectory(session, spec, scene.meta, { vehicle: mount !== null });
  // A log's n packets cover n periods; its stamps are rounded (a Velodyne's to 1 µs), so 1 % of a
  // packet is allowed before the last one is lost.
  const last = trajectory.coverS !== undefined
    ? trajectory.coverS + 0.01 * packetDurationOf(profile)
    : trajectory.times[trajectory.times.length - 1]! - trajectory.times[0]!;
  const seconds = spec.seconds !== undefined ? Math.min(spec.seconds, last) : last;
  const sharedScene = scene.data;
  const sharedTrajectory = toShared(trajectory);
  const name = req.name ?? `${profile.name} ${mode} in ${scene.name}`;
  const base: SimulationBase = {
    scene: sharedScene,
    ...(neighbour ? { neighbour } : {}),
    ...(req.rangeNoiseSigma !== undefined ? { noiseSigma: req.rangeNoiseSigma } : {}),
    profile,
    ...learnedNoiseFor(session.store, profile),
    trajectory: sharedTrajectory,
    mountOverride: mount ? [...mount.pose] : trajectory.sensorPoses ? [0, 0, 0, 0, 0, 0, 1] : null,
    mode,
    seed: req.seed,
    rangeSampler: req.rangeSampler,
  };
  const extra = { ...sourceRecord(req, neighbour, scene.meta), ...(mount ? { mount: mount.pose, mountSource: mount.source } : {}) };
  const { packets, durationS, tasks } = planSimulation(base, seconds, req.batchPackets);
  const batches = tasks.length;

  let runId = 0;
  const running = session.runner.submit({
    kind: 'simulate',
    params: { sceneId: req.sceneId ?? null, modelId: req.modelId ?? null, ...(neighbour ? { neighbourLogId: req.neighbourLogId } : {}), profileId: req.profileId, mode, seed: req.seed, packets, batches, trajectory: spec, name },
    tasks,
    onMessage: (m, _job, batch) => {
      if (m.type !== 'chunk') return;
      session.store.runs.appendChunk(runId, batch, m.chunk);
    },
    onSuccess: (outputs) => {
      const sums = sumBatches(outputs as SimulateBatchSummary[]);
      const info = session.store.runs.finish(runId, {
        packets,
        points: sums.hits,
        hits: sums.hits,
        misses: sums.misses,
        durationS,
        bounds: sums.bounds, // each batch's, from its worker
      });
      ctx.events.emit({ type: 'project', entity: 'runs', id: runId });
      return { run: info.id, packets, rays: sums.rays, hits: sums.hits, misses: sums.misses, skippedNaN: sums.skipped, durationS: info.durationS };
    },
    onAbort: () => {
      if (runId) session.store.runs.discard(runId);
    },
  });
  // Synchronous right after submit: no batch message can be handled before the row exists.
  runId = session.store.runs.begin({
    name,
    sceneId: req.sceneId ?? null,
    profileId: profile.id,
    mode,
    seed: req.seed,
    trajectory: spec,
    params: { profile, batchPackets: req.batchPackets, rangeSampler: req.rangeSampler, ...extra },
    jobId: running.job.id,
  });
  return running;
}

/**
 * What is simulated: a stored scene, a fitted model built into one (fit-service.ts), or — neighbour
 * mode — a training log's hits (neighbour-source.ts).
 */
async function simulationSource(
  ctx: ServiceContext, session: ProjectSession, req: ParsedRequest<'simulate.start'>, mode: SimulationMode, profileId: string | undefined,
): Promise<{ scene: SimulationScene; neighbour: NeighbourSource | null }> {
  if (req.neighbourLogId !== undefined) {
    const replay = await neighbourSource(session, req.neighbourLogId, req.neighbourRadius);
    const neighbour = req.neighbourLeaveOutS ? { ...replay.source, leaveOutS: req.neighbourLeaveOutS } : replay.source;
    return { scene: { data: null, meta: {}, name: replay.name }, neighbour };
  }
  if (mode === 'neighbour') throw new ApiError('bad_input', "mode 'neighbour' replays a drive log: give neighbourLogId");
  const scene = req.modelId !== undefined ? await modelScene(session, req.modelId, mode, profileId) : await storedScene(ctx, session, req.sceneId!);
  return { scene, neighbour: null };
}

/** What a run records of its source and overrides besides the scene id. */
function sourceRecord(req: ParsedRequest<'simulate.start'>, neighbour: NeighbourSource | null, meta: Record<string, unknown>): Record<string, unknown> {
  return {
    ...(req.modelId !== undefined ? { modelId: req.modelId } : {}),
    // A model simulated with another sensor than its training log's reads no-return rays as that sensor's (fit-service.ts).
    ...(meta.otherSensor === true ? { modelAsOtherSensor: true } : {}),
    ...(neighbour ? { neighbourLogId: req.neighbourLogId, neighbourRadius: neighbour.radius, ...(neighbour.leaveOutS ? { neighbourLeaveOutS: neighbour.leaveOutS } : {}) } : {}),
    ...(req.rangeNoiseSigma !== undefined ? { rangeNoiseSigma: req.rangeNoiseSigma } : {}),
  };
}

/** A stored scene (SceneData written by scene generation or the demo) in shared memory, laid out for the kernel. */
async function storedScene(ctx: ServiceContext, session: ProjectSession, id: number): Promise<{ data: SceneData; meta: Record<string, unknown>; name: string }> {
  const scene = await session.store.scenes.readInTurns(id);
  if (!scene) throw new ApiError('not_found', `no scene ${id} in this project`);
  return { data: await shareScene(ctx.pool, scene.data as unknown as SceneData), meta: scene.info.meta, name: scene.info.name };
}
