/**
 * Sensor studies (Goodin et al. 2018 §3.5.3, docs/methods.md §7) as a parallel job: one study-run task per sensor and
 * mount, all reading the scene from shared memory, each a whole closed-loop (or open-loop) run
 * on one worker. A run is deterministic in the study's seed, so results do not depend on the
 * number of workers. The definition is stored first; the results (metrics and every run's history)
 * are stored in one transaction when the job succeeds, replacing earlier ones.
 *
 * Scans are simulated in physics mode by default — 003's own simulator (the 9-ray beam stencil,
 * the first/strongest-return processing that makes mixed pixels, the LMS-291's wide spot that
 * does not get into vegetation) — because sensor realism is the point of the study; hybrid mode
 * (about twice as fast on mesh scenes) is the option when many mounts are swept.
 */
import { ApiError, StudyDefinition, type ParsedRequest, type StudyData, type StudyInfo, type StudyLayout, type StudySensorResult } from '../api/contract';
import type { RunningJob } from '../jobs/job-runner';
import type { StudyRunInput, StudyRunOutput } from '../../src-worker/tasks/study-run';
import type { ServiceContext } from './service-context';
import type { ProjectSession } from './project-session';
import { resolveProfileForUse } from './profiles-service';
import { learnedNoiseFor } from './noise-service';
import { shareScene } from './scene-store';
import { resolveStudyLayout } from './study-layout';
import type { SceneData } from '../../src-common/scene-data';

type StudyRunSpec = StudyRunInput['spec'];
type TruthObject = NonNullable<StudyRunInput['objects']>[number];

/** What a study row's params hold. */
interface StudyParams {
  definition: StudyDefinition;
  layout: StudyLayout;
}

export function studyParams(params: Record<string, unknown>): StudyParams {
  return { definition: StudyDefinition.parse(params.definition), layout: params.layout as StudyLayout };
}

/**
 * A study job's progress for a person: which sensor × mount reported, how far it is, and how many
 * runs are done ("Run 3 of 8 · vlp16 at 1.5 m, pitch 5°: 0.7 of 1.5 s — 2 of 8 runs done").
 * `message` is the run's own (`<profile>: …`).
 */
export function studyProgressMessage(def: Pick<StudyDefinition, 'sensors'>, fractions: ArrayLike<number>, k: number, message: string): string {
  const n = fractions.length;
  let done = 0;
  for (let i = 0; i < n; i++) if (fractions[i]! >= 1) done++;
  const sensor = def.sensors[k];
  const what = sensor ? `${sensor.profileId} at ${+sensor.mount.height.toFixed(2)} m, pitch ${+sensor.mount.pitchDeg.toFixed(1)}°` : `run ${k + 1}`;
  const detail = sensor && message.startsWith(`${sensor.profileId}: `) ? message.slice(sensor.profileId.length + 2) : message;
  return `Run ${k + 1} of ${n} · ${what}: ${detail} — ${done} of ${n} ${n === 1 ? 'run' : 'runs'} done`;
}

/** The run specs of a study, in sensor order (the task index is the run's seq). */
export function studyRunSpecs(def: StudyDefinition, layout: StudyLayout): StudyRunSpec[] {
  const v = def.vehicle, p = def.planner;
  return def.sensors.map((s, seq) => ({
    seq,
    loop: def.loop,
    simulation: def.simulation,
    seconds: def.seconds,
    seed: def.seed,
    vehicle: { speed: v.speed, length: v.length, width: v.width, maxYawRate: (v.maxYawRateDeg * Math.PI) / 180, clearanceM: v.clearance },
    mount: { ...s.mount },
    start: layout.start,
    startYaw: (layout.startHeadingDeg * Math.PI) / 180,
    goal: layout.goal,
    route: layout.route,
    grid: layout.grid,
    planner: {
      costWeight: p.costWeight,
      inflationM: p.inflationM ?? v.width / 2 + 0.25,
      inflationPenalty: p.inflationPenalty,
      replanPeriodS: p.replanPeriodS,
      minReplanIntervalS: p.minReplanIntervalS,
      goalToleranceM: p.goalToleranceM,
      relevanceM: p.relevanceM,
    },
    cloudBudget: def.cloudBudget,
  }));
}

function sceneObjects(session: ProjectSession, meta: Record<string, unknown>): TruthObject[] | null {
  const id = typeof meta.annotation === 'number' ? meta.annotation : null;
  if (id === null) return null;
  return session.store.annotations.read(id)?.entries ?? null;
}

/** What a study's runs need before they are submitted: the resolved layout and one study-run task per sensor. */
export interface PreparedStudy {
  def: StudyDefinition;
  layout: StudyLayout;
  sceneName: string;
  profileIds: string[];
  tasks: { task: 'study-run'; input: StudyRunInput }[];
}

/** Reads the scene and profiles, lays the study out and shares the scene with the pool (a live drive's frames when `live`). */
export async function prepareStudy(ctx: ServiceContext, def: StudyDefinition, live = false): Promise<PreparedStudy> {
  const session = ctx.requireSession();
  const { store } = session;
  const scene = await store.scenes.readInTurns(def.sceneId);
  if (!scene) throw new ApiError('not_found', `no scene ${def.sceneId} in this project`);
  const profiles = def.sensors.map((s) => resolveProfileForUse(store, s.profileId));
  const data = scene.data as unknown as SceneData;
  const layout = resolveStudyLayout(def, scene.info.meta, data.bounds ?? null);
  const specs = studyRunSpecs(def, layout);
  const objects = sceneObjects(session, scene.info.meta);
  // Laid out in a worker (it grows with the scene); the stored rows are written after it.
  const shared = await shareScene(ctx.pool, data);
  const tasks = specs.map((spec, k) => {
    const input: StudyRunInput = { scene: shared, profile: profiles[k]!, ...learnedNoiseFor(store, profiles[k]!), objects, spec, ...(live ? { live } : {}) };
    return { task: 'study-run' as const, input };
  });
  return { def, layout, sceneName: scene.info.name, profileIds: profiles.map((p) => p.id), tasks };
}

/** A study's default name: its distinct profiles and its scene. */
export function studyName(prepared: PreparedStudy): string {
  return prepared.def.name ?? `${prepared.profileIds.filter((id, i, all) => all.indexOf(id) === i).join(' vs ')} in ${prepared.sceneName}`;
}

/** Stores a study's results from its runs' outputs (in one transaction) and returns the sensors' rows. */
export function storeStudyResults(ctx: ServiceContext, id: number, def: StudyDefinition, outputs: readonly (StudyRunOutput | null)[]): StudySensorResult[] {
  const results = outputs.map((o, k) => {
    if (!o) throw new Error(`study run ${k} returned no result`);
    return sensorResult(o, def);
  });
  ctx.requireSession().store.studies.storeResults(
    id,
    outputs.map((o, k) => ({ seq: k, profileId: o!.profileId, mount: def.sensors[k]!.mount, metrics: results[k]!, arrays: { ...o!.arrays, png: o!.png } })),
  );
  ctx.events.emit({ type: 'project', entity: 'studies', id });
  return results;
}

export async function startStudy(ctx: ServiceContext, req: ParsedRequest<'study.start'>): Promise<{ job: RunningJob; study: StudyInfo }> {
  const session = ctx.requireSession();
  const { store } = session;
  let def: StudyDefinition;
  let studyId: number | null = null;
  if (req.study !== undefined) {
    const stored = store.studies.read(req.study);
    if (!stored) throw new ApiError('not_found', `no study ${req.study} in this project`);
    if (stored.info.state === 'running' || stored.info.state === 'queued') throw new ApiError('conflict', `study ${req.study} is already running`);
    def = studyParams(stored.params).definition;
    studyId = req.study;
  } else {
    def = req.definition!;
  }
  const prepared = await prepareStudy(ctx, def);
  const { layout, tasks } = prepared;
  const params: StudyParams = { definition: def, layout };
  if (studyId === null) studyId = store.studies.create(studyName(prepared), def.sceneId, params as unknown as Record<string, unknown>).info.id;
  const id = studyId;

  const outputs: (StudyRunOutput | null)[] = tasks.map(() => null);
  const running = session.runner.submit({
    kind: 'study',
    params: { study: id, sceneId: def.sceneId, loop: def.loop, simulation: def.simulation, seconds: def.seconds, seed: def.seed, runs: tasks.length },
    tasks,
    progressMessage: (fractions, k, message) => studyProgressMessage(def, fractions, k, message),
    onMessage: (m, _job, task) => {
      if (m.type === 'output' && m.name === 'study-run') outputs[task] = m.value as StudyRunOutput;
    },
    onSuccess: () => ({ study: id, sensors: storeStudyResults(ctx, id, def, outputs) }),
  });
  store.studies.setJob(id, running.job.id);
  ctx.events.emit({ type: 'project', entity: 'studies', id });
  return { job: running, study: store.studies.read(id)!.info };
}

export function sensorResult(o: StudyRunOutput, def: StudyDefinition): StudySensorResult {
  const m = o.metrics;
  return {
    seq: o.seq,
    profile: o.profileId,
    mount: def.sensors[o.seq]!.mount,
    cellsObserved: m.cellsObserved,
    pathLength: m.pathLength,
    timeToGoal: m.timeToGoal,
    collisions: m.collisions,
    falseObstacles: m.falseObstacles,
    missedObstacles: m.missedObstacles,
    replans: m.replans,
    obstacles: m.obstacles,
    outcome: m.outcome,
    lethalCells: m.lethalCells,
    scans: m.scans,
    points: m.points,
    endTime: m.endTime,
    collidedWith: m.collidedWith,
  };
}

export function studyData(session: ProjectSession, id: number): StudyData {
  const s = session.store.studies.read(id);
  if (!s) throw new ApiError('not_found', `no study ${id} in this project`);
  const { definition, layout } = studyParams(s.params);
  return { ...s.info, definition, layout, results: s.results };
}
