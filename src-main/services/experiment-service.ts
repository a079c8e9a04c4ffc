/**
 * The thesis's Table 4.3 experiment (Tallavajhula 2018 §4.4) on a demo project's reference
 * drives, as a sequence of ordinary jobs — everything it does a user can do by hand:
 *
 *   1. fit a model to the training drive, and one to the test drive (whose ground the test
 *      scenes stand on: the thesis built test scenes from the test drive's annotation);
 *   2. extract primitives from the training model with the training drive's annotation
 *      (LEARNED_CLASSES), and the mesh baseline library sized to the same training boxes;
 *   3. scenes: training — the training model itself (hybrid, voxel), the training annotation
 *      filled with mesh primitives, the training log (neighbour); test — the test annotation
 *      filled with training primitives only (hybrid, voxel) or mesh primitives (mesh);
 *   4. simulate each along its drive's own poses with the drive's sensor, and evaluate it
 *      against the drive (observation-level metrics, docs/methods.md §6).
 *
 * The neighbour simulator replays the training log, so it only has a training row (as in the
 * thesis: "limited to simulation in the training scene"), held out (neighbourLeaveOutS).
 * Rows come back in a fixed order.
 */
import { DEMO_PROFILE_ID } from './demo-service';
import { ReferenceClass, SHRUB_CLASSES, TREE_CLASSES } from '../../src-common/classes';
import { ApiError, type ComposeResult, type DemoResult, type ExtractResult, type FitResultInfo, type JobInfo, type Method, type ParsedRequest, type Response } from '../api/contract';
import type { EvaluationMetrics, HeadlineMetrics } from '../../src-common/metrics';
import type { SimulationMode } from '../../src-common/modes';
import { experimentRiskDefaults, scanMatchingRisk, type ExperimentRiskOptions } from './risk-service';

/** What the experiment needs of the services: API calls and waiting for jobs. */
export interface ExperimentHost {
  call<M extends Method>(method: M, request: ParsedRequest<M> | Record<string, unknown>): Promise<Response<M>>;
  whenJobSettled(id: number): Promise<JobInfo>;
}

export type Table43Simulator = 'hybrid' | 'voxel' | 'mesh' | 'neighbour';

export interface Table43Row extends HeadlineMetrics {
  scene: 'training' | 'test';
  simulator: Table43Simulator;
  /** The stored run and evaluation (open them in the app). */
  run: number;
  evaluation: number;
  /** Scan-matching risk against the drive (docs/methods.md, "Application-level risk"): position (m) and angle (rad); null when not computed. */
  risk: number | null;
  riskAngle: number | null;
}

export interface Table43 {
  table: Table43Row[];
  models: { training: number; test: number };
  primitives: { hybrid: number; mesh: number };
  scenes: Record<string, number>;
  seconds: number;
}

/**
 * The neighbour simulator replays the training log along the training drive's own poses; left
 * to itself it would return each ray's own logged hit (a copy, not a simulation). It leaves out
 * the hits logged within ±1 s of the ray (2.4 m of travel at the demo's speed; a fifth of a drive
 * shorter than 5 s) and answers from what the log saw from elsewhere on the drive — the
 * thesis's held-out use of a log as a simulator.
 */
export function neighbourLeaveOutS(driveSeconds: number): number {
  return Math.min(1, driveSeconds / 5);
}

/**
 * What the hybrid library learns from the training drive: the thesis's shrub and tree sizes, and
 * grass stands, rocks and fallen logs — terrain a lidar sees and a mesh library has no model of
 * (the baseline's library, like the thesis's TurboSquid one, has trees and shrubs only). Rocks
 * usually give none: their points fall within the ground surface's clearance.
 */
export const LEARNED_CLASSES = [...SHRUB_CLASSES, ...TREE_CLASSES, ReferenceClass.grass, ReferenceClass.rock, ReferenceClass.log] as const;

/** σ of the mesh baseline's range noise (000 §V-C: 5 mm on a planar target). */
export const MESH_BASELINE_SIGMA = 0.005;

/** Waits for a job and returns its result; a job that did not finish is an error naming it. */
export async function settle(host: ExperimentHost, job: JobInfo): Promise<Record<string, unknown>> {
  const final = await host.whenJobSettled(job.id);
  if (final.state !== 'done') throw new ApiError('internal', `experiment: ${final.kind} job ${final.id} ${final.state}${final.error ? `: ${final.error}` : ''}`);
  return final.result ?? {};
}

/** Fits a log (the fit job, then its replay job) and returns the stored model's summary. */
export async function fitLog(host: ExperimentHost, logId: number, seed: number, name: string, params: Record<string, number> = {}): Promise<FitResultInfo> {
  const { job } = await host.call('fit.start', { logId, seed, name, params });
  const first = await settle(host, job);
  const replay = await host.whenJobSettled(Number(first.replayJob));
  if (replay.state !== 'done') throw new ApiError('internal', `experiment: fitting log ${logId} ${replay.state}${replay.error ? `: ${replay.error}` : ''}`);
  return replay.result as unknown as FitResultInfo;
}

export async function runTable43(host: ExperimentHost, demo: DemoResult, opts: { seed: number; note?: (m: string) => void; risk?: Partial<ExperimentRiskOptions> }): Promise<Table43> {
  const t0 = performance.now();
  const note = opts.note ?? (() => {});
  const [train, test] = demo.logs;
  if (!train || !test || train.annotation === undefined || test.annotation === undefined) {
    throw new ApiError('bad_input', 'the experiment needs the demo\'s training and test drives with their annotations');
  }
  note('fitting the training and test drives…');
  const trainModel = await fitLog(host, train.log, opts.seed, 'Training drive model');
  const testModel = await fitLog(host, test.log, opts.seed, 'Test drive model (ground of the test scenes)');

  note('extracting primitives from the training drive…');
  const extract = (await settle(host, (await host.call('primitives.extract', { modelId: trainModel.model, annotationId: train.annotation, classes: [...LEARNED_CLASSES] })).job)) as unknown as ExtractResult;
  const mesh = await host.call('primitives.generateMesh', { seed: opts.seed, annotationId: train.annotation });

  note('composing the scenes…');
  const compose = async (annotationId: number, library: 'hybrid' | 'mesh', mode: SimulationMode, groundModelId: number, name: string) => {
    const req = { annotationId, library, mode, groundModelId, name, ...(library === 'hybrid' ? { fromModels: [trainModel.model] } : {}) };
    return ((await settle(host, (await host.call('scenes.compose', req)).job)) as unknown as ComposeResult).scene;
  };
  const scenes = {
    trainingMesh: await compose(train.annotation, 'mesh', 'mesh', trainModel.model, 'Training scene, mesh primitives'),
    testHybrid: await compose(test.annotation, 'hybrid', 'hybrid', testModel.model, 'Test scene, training primitives (hybrid)'),
    testVoxel: await compose(test.annotation, 'hybrid', 'voxel', testModel.model, 'Test scene, training primitives (voxel)'),
    testMesh: await compose(test.annotation, 'mesh', 'mesh', testModel.model, 'Test scene, mesh primitives'),
  };

  const logs = { training: train.log, test: test.log };
  const profileId = DEMO_PROFILE_ID;
  const cases: { scene: 'training' | 'test'; simulator: Table43Simulator; source: Record<string, unknown> }[] = [
    { scene: 'training', simulator: 'hybrid', source: { modelId: trainModel.model, mode: 'hybrid' } },
    { scene: 'training', simulator: 'voxel', source: { modelId: trainModel.model, mode: 'voxel' } },
    { scene: 'training', simulator: 'mesh', source: { sceneId: scenes.trainingMesh, mode: 'mesh', rangeNoiseSigma: MESH_BASELINE_SIGMA } },
    { scene: 'training', simulator: 'neighbour', source: { neighbourLogId: train.log, mode: 'neighbour', neighbourLeaveOutS: neighbourLeaveOutS(train.durationS) } },
    { scene: 'test', simulator: 'hybrid', source: { sceneId: scenes.testHybrid, mode: 'hybrid' } },
    { scene: 'test', simulator: 'voxel', source: { sceneId: scenes.testVoxel, mode: 'voxel' } },
    { scene: 'test', simulator: 'mesh', source: { sceneId: scenes.testMesh, mode: 'mesh', rangeNoiseSigma: MESH_BASELINE_SIGMA } },
  ];
  const risk = { ...experimentRiskDefaults(demo.site.small), ...opts.risk };
  const table: Table43Row[] = [];
  for (const c of cases) {
    note(`simulating the ${c.scene} drive with the ${c.simulator} simulator and evaluating it…`);
    const logId = logs[c.scene];
    const sim = await settle(host, (await host.call('simulate.start', {
      ...c.source,
      profileId,
      seed: opts.seed,
      trajectory: { kind: 'log', logId },
      name: `Table 4.3: ${c.scene} drive, ${c.simulator} simulator`,
    })).job);
    const runId = Number(sim.run);
    const m = (await settle(host, (await host.call('evaluate.start', { realLogId: logId, runId })).job)) as unknown as EvaluationMetrics & { evaluation: number };
    if (risk.samples > 0) note(`scan-matching risk of the ${c.scene} drive's ${c.simulator} run (${risk.samples} α samples)…`);
    const r = await scanMatchingRisk(host, logId, runId, opts.seed, risk);
    table.push({
      scene: c.scene,
      simulator: c.simulator,
      packets: m.packets,
      packetError: m.packetError,
      precision: m.precision,
      recall: m.recall,
      f1: m.f1,
      pointCloudError: m.pointCloudError,
      run: runId,
      evaluation: m.evaluation,
      ...r,
    });
  }
  return {
    table,
    models: { training: trainModel.model, test: testModel.model },
    primitives: { hybrid: extract.primitives, mesh: mesh.primitives.length },
    scenes,
    seconds: Math.round((performance.now() - t0) / 100) / 10,
  };
}
