/**
 * Fitting benchmark (the goal: a training log of 100,000 packets × 1,024 rays fitted in at
 * most 5 minutes). The log: an HDL-64E whose packets carry 24 upper + 8 lower firings
 * (1,024 rays) driving the composed 200 m off-road strip's trail at 2.4 m/s, simulated in mesh
 * mode on the pool and stored as a drive log in a temporary project — then `fit.start` is timed
 * through both of its jobs (reading the log from the store, every stage, storing the model).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppServices } from './app-services';
import type { FitResultInfo, ModelInfo } from '../api/contract';
import { runTransient } from '../jobs/job-runner';
import type { GeneratedScene } from '../../src-worker/tasks/generate-scene';
import type { SimulateBatchSummary } from '../../src-worker/tasks/simulate-batch';
import type { SensorProfile } from '../../src-common/sensor-profile';
import { builtinProfile } from '../../src-common/builtin-profiles';
import { packetDurationOf } from '../../src-common/profile-timing';
import { shareScene, toShared } from './scene-store';
import { trailTrajectory } from './trajectories';
import { planSimulation, sumBatches } from './simulation-plan';

export interface FitBench {
  packets: number;
  rays: number;
  raysPerPacket: number;
  hits: number;
  workers: number;
  /** Making the log (simulation + store), not part of the figure. */
  logSeconds: number;
  /** fit.start until the model is stored: the figure. */
  fitSeconds: number;
  raysPerSecond: number;
  /** The fit report's stage timings (ms) and counts. */
  timings: Record<string, number>;
  model: { triangles: number; ellipsoids: number; voxels: number; groundVariance: number };
}

/** The HDL-64E with 24 upper-block sequences per packet: 24 × 32 + 8 × 32 = 1,024 rays. */
function benchProfile(): SensorProfile {
  const base = builtinProfile('hdl64e');
  if (!base) throw new Error('bench: the built-in hdl64e profile is missing');
  return { ...base, id: 'bench-hdl64e-1024', name: 'HDL-64E, 1,024-ray packets', builtin: false, sequencesPerPacket: 24 };
}

export async function benchFit(services: AppServices, opts: { packets?: number }, progress: (m: string) => void): Promise<FitBench> {
  const packetsWanted = opts.packets ?? 100_000;
  const dir = mkdtempSync(join(tmpdir(), 'thicket-bench-fit-'));
  try {
    await services.call('project.create', { path: join(dir, 'bench-fit.thicket') });
    const session = services.requireSession();
    const t0 = performance.now();
    progress('fit: building the composed 200 m strip (meshes)');
    const { outputs } = await runTransient(services.pool, 'generate-scene', { kind: 'hybrid-strip', seed: 1, params: { lengthM: 200, mesh: 1 } });
    const scene = outputs.get('scene') as GeneratedScene;
    const profile = benchProfile();
    const trajectory = trailTrajectory(scene.meta.trail as number[][], 2.4);
    const seconds = packetsWanted * packetDurationOf(profile);
    const available = trajectory.times[trajectory.times.length - 1]!;
    if (seconds > available) throw new Error(`bench: ${packetsWanted} packets need ${seconds.toFixed(1)} s of driving; the strip's trail has ${available.toFixed(1)} s`);
    const plan = planSimulation(
      { scene: await shareScene(services.pool, scene.data), profile, trajectory: toShared(trajectory), mountOverride: [0, 0, 0, 0, 0, 0, 1], mode: 'mesh', seed: 1, rangeSampler: 'along-ray' },
      seconds,
      128,
    );
    progress(`fit: simulating the log (${plan.packets} packets, mesh mode) into the project`);
    let logId = 0;
    const sim = session.runner.submit({
      kind: 'bench-fit-log',
      params: { packets: plan.packets },
      tasks: plan.tasks,
      onMessage: (m, _job, batch) => {
        if (m.type !== 'chunk') return;
        session.store.logs.appendChunk(logId, batch, m.chunk);
      },
      onSuccess: (out) => {
        const sums = sumBatches(out as SimulateBatchSummary[]);
        session.store.logs.finishImport(logId, { format: 'simulated', packets: plan.packets, points: sums.hits, hits: sums.hits, misses: sums.misses, durationS: plan.durationS, bounds: sums.bounds });
        return sums;
      },
      onAbort: () => session.store.logs.discard(logId),
    });
    logId = session.store.logs.beginImport({ name: 'bench: HDL-64E on the composed strip', format: 'simulated', sourcePath: null, profileId: null, jobId: sim.job.id });
    const simDone = await sim.done;
    if (simDone.state !== 'done') throw new Error(`bench: simulating the log ${simDone.state}: ${simDone.error}`);
    const sums = simDone.result as { rays: number; hits: number };
    const logSeconds = (performance.now() - t0) / 1000;

    progress(`fit: fitting ${sums.rays} rays (${services.options.workers} worker(s))`);
    const t1 = performance.now();
    const { job } = await services.call('fit.start', { logId, params: { maxRange: profile.range.max } });
    const first = await services.whenJobSettled(job.id);
    if (first.state !== 'done') throw new Error(`bench: fit ${first.state}: ${first.error}`);
    const second = await services.whenJobSettled(Number(first.result!.replayJob));
    if (second.state !== 'done') throw new Error(`bench: fit replay ${second.state}: ${second.error}`);
    const fitSeconds = (performance.now() - t1) / 1000;
    const r = second.result as unknown as FitResultInfo;
    const model: ModelInfo = await services.call('models.get', { id: r.model });
    await services.call('project.close', {});
    return {
      packets: plan.packets,
      rays: sums.rays,
      raysPerPacket: Math.round(sums.rays / plan.packets),
      hits: sums.hits,
      workers: services.options.workers,
      logSeconds: Math.round(logSeconds * 10) / 10,
      fitSeconds: Math.round(fitSeconds * 10) / 10,
      raysPerSecond: Math.round(sums.rays / fitSeconds),
      timings: (model.report?.timings ?? {}) as Record<string, number>,
      model: { ...model.counts, groundVariance: model.groundVariance },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
