/**
 * Simulating exactly a drive log's rays (`simulate.start {raysFromLogId}`, `thicket simulate
 * --rays-from LOG`; docs/simulation.md, *Simulating a log's own rays*): one task per stored chunk
 * of the log, each fed its chunk by the host (chunk-server.ts) when it starts, so the host never
 * reads the log in one go (docs/design.md, *Jobs and workers*); each task stores one run chunk
 * with the log's packets (src-worker/tasks/simulate-log-rays.ts). The run records `raysFromLogId`,
 * by which the evaluator pairs it with that log ray by ray.
 */
import { ApiError, type DriveLogInfo, type ParsedRequest } from '../api/contract';
import type { SimulationMode } from '../../src-common/modes';
import type { RunningJob } from '../jobs/job-runner';
import type { SimulateLogRaysInput, SimulateLogRaysSummary } from '../../src-worker/tasks/simulate-log-rays';
import { sumBatches } from './simulation-plan';
import type { ServiceContext } from './service-context';
import type { ProjectSession } from './project-session';
import { serveChunks } from './chunk-server';
import { learnedNoiseFor } from './noise-service';
import { resolveProfileForUse } from './profiles-service';
import type { NeighbourSource, SimulationScene } from './simulation';
import type { SensorProfile } from '../../src-common/sensor-profile';

/** The log whose rays are fired: it must exist, be imported and have packets. */
export function raysFromLog(session: ProjectSession, id: number): DriveLogInfo {
  const log = session.store.logs.get(id);
  if (!log) throw new ApiError('not_found', `no drive log ${id} in this project`);
  if (log.packets === 0) throw new ApiError('bad_input', `drive log ${id} (${log.name}) has no packets whose rays could be simulated`);
  return log;
}

/** The simulated sensor: the log's own profile unless another is named (its range limits, noise and beam decide the returns). */
export function raysProfile(session: ProjectSession, req: ParsedRequest<'simulate.start'>, log: DriveLogInfo): SensorProfile {
  const profileId = req.profileId ?? log.profileId;
  if (!profileId) throw new ApiError('bad_input', `drive log ${log.id} (${log.name}) was imported without a sensor profile: give profileId (--profile) for the simulated sensor's range, noise and beam`);
  return resolveProfileForUse(session.store, profileId);
}

export function startLogRaySimulation(
  ctx: ServiceContext,
  session: ProjectSession,
  req: ParsedRequest<'simulate.start'>,
  mode: SimulationMode,
  fired: { info: DriveLogInfo; profile: SensorProfile },
  source: { scene: SimulationScene; neighbour: NeighbourSource | null; extra: Record<string, unknown> },
): RunningJob {
  const { store } = session;
  const { info: log, profile } = fired;
  const chunks = store.logs.chunkCount(log.id);
  const where = `drive log ${log.id}`;
  // One feed per task, answered only when its task starts and asks: chunk k of the log.
  const feeds = Array.from({ length: chunks }, (_, seq) =>
    serveChunks(() => {
      const chunk = store.logs.chunkAt(log.id, seq);
      if (!chunk) throw new Error(`chunk ${seq} is missing`);
      return [chunk];
    }, where),
  );
  const closeFeeds = () => feeds.forEach((f) => f.close());
  const base: Omit<SimulateLogRaysInput, 'feed'> = {
    scene: source.scene.data,
    ...(source.neighbour ? { neighbour: source.neighbour } : {}),
    ...(req.rangeNoiseSigma !== undefined ? { noiseSigma: req.rangeNoiseSigma } : {}),
    profile,
    ...learnedNoiseFor(store, profile),
    mode,
    seed: req.seed,
    rangeSampler: req.rangeSampler,
  };
  const tasks = feeds.map((f) => ({
    task: 'simulate-log-rays' as const,
    input: { ...base, feed: f.port } satisfies SimulateLogRaysInput,
    // A MessagePort is transferable like a buffer: it moves to the worker with the input.
    transfer: [f.port as unknown as ArrayBuffer],
  }));
  const name = req.name ?? `${profile.name} ${mode} in ${source.scene.name}: the rays of ${log.name}`;
  const trajectory = { kind: 'log' as const, logId: log.id };
  let runId = 0;
  const running = session.runner.submit({
    kind: 'simulate',
    params: { sceneId: req.sceneId ?? null, modelId: req.modelId ?? null, ...(source.neighbour ? { neighbourLogId: req.neighbourLogId } : {}), raysFromLogId: log.id, profileId: profile.id, mode, seed: req.seed, packets: log.packets, batches: chunks, trajectory, name },
    tasks,
    onMessage: (m, _job, task) => {
      if (m.type !== 'chunk') return;
      store.runs.appendChunk(runId, task, m.chunk);
    },
    onSuccess: (outputs) => {
      const out = outputs as SimulateLogRaysSummary[];
      const sums = sumBatches(out);
      const packets = out.reduce((a, o) => a + o.packets, 0);
      const pulses = out.reduce((a, o) => a + o.pulses, 0);
      const info = store.runs.finish(runId, { packets, points: sums.hits, hits: sums.hits, misses: sums.misses, durationS: log.durationS, bounds: sums.bounds });
      ctx.events.emit({ type: 'project', entity: 'runs', id: runId });
      return { run: info.id, packets, rays: sums.rays, pulses, hits: sums.hits, misses: sums.misses, skippedNaN: sums.skipped, durationS: info.durationS, raysFromLogId: log.id };
    },
    onAbort: () => {
      if (runId) store.runs.discard(runId);
    },
  });
  void running.done.finally(closeFeeds);
  // Synchronous right after submit: no task message can be handled before the row exists.
  runId = store.runs.begin({
    name,
    sceneId: req.sceneId ?? null,
    profileId: profile.id,
    mode,
    seed: req.seed,
    trajectory,
    params: { profile, rangeSampler: req.rangeSampler, raysFromLogId: log.id, ...source.extra },
    jobId: running.job.id,
  });
  return running;
}
