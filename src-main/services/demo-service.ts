/**
 * The demo project's content: the reference off-road site with its ground truth, and a training
 * and a test drive of the built-in HDL-32E through it in physics mode, stored as drive logs
 * (with hits, misses and per-ray object and class ids), each with the annotation of the objects
 * within the sensor's range; the site itself is stored as a scene (to simulate again) with the
 * annotation of every object.
 *
 * Two jobs, because the drives need the built site and a job runs one task or one parallel set:
 *  1. 'demo': the site is built in a worker (task reference-site); on success it submits …
 *  2. 'demo-drives': both drives' simulate-batch tasks on the pool at once (planSimulation, as a
 *     run would), chunks written to the two logs as they arrive. Its success stores the scene,
 *     the annotations and finishes both logs in ONE transaction; a cancel or a failure discards
 *     the logs, so an interrupted demo leaves nothing behind (a killed host's half-written logs
 *     are discarded when the project is next opened).
 * The 'demo' job's result names the second job (`drivesJob`); that job's result is a DemoResult.
 */
import type { AnnotationEntry, DemoResult, ParsedRequest } from '../api/contract';
import type { RunningJob } from '../jobs/job-runner';
import type { ProjectSession } from './project-session';
import type { ServiceContext } from './service-context';
import type { ReferenceSiteInput, ReferenceSiteOutput } from '../../src-worker/tasks/reference-site';
import type { SimulateBatchSummary } from '../../src-worker/tasks/simulate-batch';
import type { SensorProfile } from '../../src-common/sensor-profile';
import { resolveProfileForUse } from './profiles-service';
import { planSimulation, sumBatches } from './simulation-plan';
import { toShared } from './scene-store';

/** The sensor of the reference drives (thesis 004 §4.4.1: a Velodyne HDL-32E) and how it is simulated. */
export const DEMO_PROFILE_ID = 'hdl32e';
export const DEMO_MODE = 'physics' as const;
/** Packets per simulation batch: ~50 k rays, a chunk of ≈ 1.6 MB. */
export const DEMO_BATCH_PACKETS = 128;

export function startDemo(ctx: ServiceContext, req: ParsedRequest<'demo.create'>): RunningJob {
  const session = ctx.requireSession();
  const profile = resolveProfileForUse(session.store, DEMO_PROFILE_ID);
  const input: ReferenceSiteInput = { seed: req.seed, small: req.small, rangeM: profile.range.max, sensorHeightM: profile.mount[2] ?? 0 };
  let site: ReferenceSiteOutput | null = null;
  return session.runner.submit({
    kind: 'demo',
    params: { seed: req.seed, small: req.small, profileId: profile.id, mode: DEMO_MODE },
    task: 'reference-site',
    input,
    onMessage: (m) => {
      if (m.type === 'output' && m.name === 'site') site = m.value as ReferenceSiteOutput;
    },
    onSuccess: () => {
      if (!site) throw new Error('the reference site task returned no site');
      const drives = startDrives(ctx, session, req, profile, site);
      return { site: { seed: req.seed, small: req.small, objects: site.annotations.length, triangles: site.meta.triangles }, drivesJob: drives.job.id };
    },
  });
}

function startDrives(ctx: ServiceContext, session: ProjectSession, req: ParsedRequest<'demo.create'>, profile: SensorProfile, site: ReferenceSiteOutput): RunningJob {
  const { store } = session;
  // Each drive its own random streams: the same seed would repeat the training drive's noise.
  const simSeed = (k: number) => (req.seed + k) % Number.MAX_SAFE_INTEGER;
  const plans = site.drives.map((d, k) =>
    planSimulation(
      {
        scene: site.data,
        profile,
        trajectory: toShared({ times: d.times, poses: d.poses }),
        mountOverride: null, // vehicle poses: the profile's mount (2 m above the ground) applies
        mode: DEMO_MODE,
        seed: simSeed(k),
        rangeSampler: 'along-ray',
      },
      d.seconds,
      DEMO_BATCH_PACKETS,
    ),
  );
  const first = plans.map((_, k) => plans.slice(0, k).reduce((s, p) => s + p.tasks.length, 0));
  const driveOf = (task: number) => {
    let k = 0;
    while (k + 1 < plans.length && task >= first[k + 1]!) k++;
    return k;
  };
  const logIds: number[] = [];
  const siteName = `Reference site (seed ${req.seed}${req.small ? ', small' : ''})`;
  const running = session.runner.submit({
    kind: 'demo-drives',
    params: {
      seed: req.seed,
      small: req.small,
      profileId: profile.id,
      mode: DEMO_MODE,
      drives: site.drives.map((d, k) => ({ name: d.name, startX: d.startX, seconds: d.seconds, packets: plans[k]!.packets, batches: plans[k]!.tasks.length })),
    },
    tasks: plans.flatMap((p) => p.tasks),
    onMessage: (m, _job, task) => {
      if (m.type !== 'chunk') return;
      const k = driveOf(task);
      store.logs.appendChunk(logIds[k]!, task - first[k]!, m.chunk);
    },
    onSuccess: async (outputs, job) => {
      const summaries = outputs as SimulateBatchSummary[];
      // The site's arrays (hundreds of MB at full size) are written a chunk per turn of the event
      // loop under a hidden scene row; the one transaction below makes it visible with the rest.
      const siteMeta = { kind: 'reference-site', seed: req.seed, small: req.small, objects: site.annotations.length, counts: site.counts, ...site.meta, trail: site.trail, logs: logIds };
      const staged = await store.scenes.stage(siteName, siteMeta, site.data as unknown as Record<string, unknown>, job.id);
      let result: DemoResult;
      try {
        result = store.transaction((): DemoResult => {
          const all = store.annotations.create(`${siteName}: all objects`, null, site.annotations as AnnotationEntry[]);
          const scene = store.scenes.publish(staged, { ...siteMeta, annotation: all.id });
          const logs = site.drives.map((d, k) => {
            const plan = plans[k]!;
            const sums = sumBatches(summaries.slice(first[k]!, first[k]! + plan.tasks.length));
            const info = store.logs.finishImport(logIds[k]!, {
              format: 'simulated',
              packets: plan.packets,
              points: sums.hits,
              hits: sums.hits,
              misses: sums.misses,
              durationS: plan.durationS,
              bounds: sums.bounds, // each batch's, from its worker
              info: { source: 'reference-site', scene: scene.id, seed: req.seed, drive: d.name, startX: d.startX, speedMps: d.speed, mode: DEMO_MODE, simulationSeed: simSeed(k) },
            });
            const inRange = new Set(d.objectIds);
            const entries = site.annotations.filter((a) => inRange.has(a.id)) as AnnotationEntry[];
            const ann = store.annotations.create(`${info.name}: objects within ${profile.range.max} m`, info.id, entries);
            return { log: info.id, name: info.name, packets: info.packets, rays: sums.rays, hits: sums.hits, misses: sums.misses, durationS: info.durationS, annotation: ann.id };
          });
          const triangles = site.meta.triangles;
          return { site: { seed: req.seed, small: req.small, objects: site.annotations.length, triangles, scene: scene.id, annotation: all.id }, logs };
        });
      } catch (e) {
        store.scenes.discard(staged.id);
        throw e;
      }
      for (const l of result.logs) ctx.events.emit({ type: 'project', entity: 'driveLogs', id: l.log });
      ctx.events.emit({ type: 'project', entity: 'scenes', id: result.site.scene });
      ctx.events.emit({ type: 'project', entity: 'annotations' });
      return result as unknown as Record<string, unknown>;
    },
    onAbort: () => {
      for (const id of logIds) store.logs.discard(id);
    },
  });
  // Synchronously after submit: no chunk can arrive before the logs exist.
  for (const d of site.drives) {
    const name = `Reference ${d.name} drive (seed ${req.seed}${req.small ? ', small' : ''})`;
    logIds.push(store.logs.beginImport({ name, format: 'simulated', sourcePath: null, profileId: profile.id, jobId: running.job.id, mountPose: profile.mount }));
  }
  return running;
}
