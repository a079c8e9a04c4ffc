/**
 * Live drives (docs/studies.md, "Live drives"): a study's closed-loop runs whose scans reach the
 * pages as they are simulated, so the vehicle can be watched driving, its costmap filling and its
 * plan changing, sensor beside sensor on one clock. The runs are the study's own (study-run tasks
 * with `live`), so a drive saved as a study is bit for bit the study the same definition gives.
 *
 * Nothing is stored while the drive runs: its outputs are held in memory for the session, the
 * newest MAX_HELD drives, until `drive.save` stores one as a study (the same rows a study job
 * writes) — a drive the user does not keep leaves nothing in the project.
 */
import { ApiError, type ApiEvent, type ParsedRequest, type StudyInfo, type StudyLayout, type StudyMount } from '../api/contract';
import type { RunningJob } from '../jobs/job-runner';
import type { StudyRunOutput } from '../../src-worker/tasks/study-run';
import type { StudyLiveFrame } from '../../src-common/study-results';
import type { ServiceContext } from './service-context';
import type { ProjectSession } from './project-session';
import { prepareStudy, sensorResult, storeStudyResults, studyName, studyProgressMessage, type PreparedStudy } from './study-service';

/** Finished drives kept per session for drive.save. */
const MAX_HELD = 4;

interface HeldDrive {
  prepared: PreparedStudy;
  outputs: (StudyRunOutput | null)[];
  done: boolean;
  /** The study it was saved as. */
  study: number | null;
}

const held = new WeakMap<ProjectSession, Map<number, HeldDrive>>();

function drivesOf(session: ProjectSession): Map<number, HeldDrive> {
  let m = held.get(session);
  if (!m) held.set(session, (m = new Map()));
  return m;
}

export interface DriveStart {
  job: RunningJob;
  layout: StudyLayout;
  runs: { seq: number; profileId: string; mount: StudyMount }[];
}

export async function startDrive(ctx: ServiceContext, req: ParsedRequest<'drive.start'>): Promise<DriveStart> {
  const session = ctx.requireSession();
  const def = req.definition;
  if (def.loop !== 'closed') throw new ApiError('invalid_request', 'definition.loop: a live drive is a closed loop (the vehicle plans as it maps)');
  const prepared = await prepareStudy(ctx, def, true);
  const outputs: (StudyRunOutput | null)[] = prepared.tasks.map(() => null);
  const drives = drivesOf(session);
  let jobId = 0;
  const running = session.runner.submit({
    kind: 'drive',
    params: { sceneId: def.sceneId, simulation: def.simulation, seconds: def.seconds, seed: def.seed, runs: prepared.tasks.length },
    tasks: prepared.tasks,
    progressMessage: (fractions, k, message) => studyProgressMessage(def, fractions, k, message),
    onMessage: (m, _job, task) => {
      if (m.type !== 'output') return;
      if (m.name === 'study-run') outputs[task] = m.value as StudyRunOutput;
      else if (m.name === 'study-frame') ctx.events.emit({ type: 'drive', job: jobId, seq: task, frame: m.value as StudyLiveFrame } satisfies ApiEvent);
    },
    onSuccess: () => {
      const drive = drives.get(jobId);
      if (drive) drive.done = true;
      return { sensors: outputs.map((o, k) => (o ? sensorResult(o, def) : missingRun(k))) };
    },
  });
  jobId = running.job.id;
  drives.set(jobId, { prepared, outputs, done: false, study: null });
  // Keep the newest drives only (a Map iterates in insertion order).
  for (const id of drives.keys()) if (drives.size > MAX_HELD) drives.delete(id);
  return { job: running, layout: prepared.layout, runs: prepared.def.sensors.map((s, seq) => ({ seq, profileId: prepared.profileIds[seq]!, mount: s.mount })) };
}

function missingRun(k: number): never {
  throw new Error(`drive run ${k} returned no result`);
}

/** Stores a finished drive as a study (once; saving it again answers the same study). */
export function saveDrive(ctx: ServiceContext, req: ParsedRequest<'drive.save'>): { study: StudyInfo } {
  const session = ctx.requireSession();
  const drive = drivesOf(session).get(req.job);
  if (!drive) throw new ApiError('not_found', `no live drive of job ${req.job} to save (only the newest ${MAX_HELD} drives of this session are kept)`);
  const { store } = session;
  if (!drive.done) {
    const state = store.jobs.get(req.job)?.state;
    const why = state === 'cancelled' || state === 'failed' || state === 'interrupted' ? `was ${state}: only a drive that ran to its end can be saved` : 'has not finished: wait for it to end';
    throw new ApiError('conflict', `the drive of job ${req.job} ${why}`);
  }
  if (drive.study !== null && store.studies.read(drive.study)) return { study: store.studies.read(drive.study)!.info };
  const def = req.name ? { ...drive.prepared.def, name: req.name } : drive.prepared.def;
  const params = { definition: def, layout: drive.prepared.layout };
  const id = store.studies.create(studyName({ ...drive.prepared, def }), def.sceneId, params as unknown as Record<string, unknown>).info.id;
  store.studies.setJob(id, req.job);
  storeStudyResults(ctx, id, def, drive.outputs);
  drive.study = id;
  return { study: store.studies.read(id)!.info };
}
