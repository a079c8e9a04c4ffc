/**
 * The real-data experiment (`thicket experiment --train LOG --test LOG`): how well each simulator
 * predicts a recording it was not built from, as a sequence of ordinary jobs a user could run by
 * hand (docs/fitting-and-primitives.md, "The real-data experiment"):
 *
 *   1. fit the hybrid and voxel models to the training log;
 *   2. segment the training log automatically (Euclidean clustering with size-based class
 *      proposals) into hybrid primitives, and size the mesh baseline library to the same
 *      segments; compose the training place from those segments with mesh primitives on the
 *      model's ground;
 *   3. simulate the test log's own rays — each ray's firing time, pose and direction, misses
 *      included — with every simulator: the hybrid and voxel models, the mesh scene, and the
 *      neighbour simulator replaying the training log;
 *   4. evaluate each run against the test log (observation metrics, docs/methods.md §6), in an
 *      optional region;
 *   5. the self-check: the hybrid model re-simulating its own training log's rays, scored
 *      against that log — what a model should reproduce before it is asked to predict anything.
 *
 * The simulator rows come back in a fixed order; every run and evaluation stays in the project.
 */
import { ApiError, type ComposeResult, type DriveLogInfo, type ExtractResult } from '../api/contract';
import type { EvaluationMetrics } from '../../src-common/metrics';
import { REAL_SIMULATORS, type RealExperiment, type RealExperimentRow, type RealSimulator } from '../../src-common/experiment-results';
import { MESH_BASELINE_SIGMA, fitLog, settle, type ExperimentHost } from './experiment-service';
import { experimentRiskDefaults, scanMatchingRisk, type ExperimentRiskOptions } from './risk-service';

export type { RealExperiment, RealExperimentRow, RealSimulator };

export interface RealExperimentOptions {
  trainLogId: number;
  testLogId: number;
  seed: number;
  /** The simulated sensor; default the test log's own profile. */
  profileId?: string;
  /** Fitting parameters θ (docs/methods.md §1; default the fit's defaults). */
  fitParams?: Record<string, number>;
  /** Evaluation parameters passed to every evaluation (the region among them). */
  evaluationParams?: Record<string, unknown>;
  /** Scan-matching risk of each row (samples 0: none); a test log of one revolution gives null. */
  risk?: Partial<ExperimentRiskOptions>;
  note?: (message: string) => void;
}


export async function runRealExperiment(host: ExperimentHost, opts: RealExperimentOptions): Promise<RealExperiment> {
  const t0 = performance.now();
  const note = opts.note ?? (() => {});
  if (opts.trainLogId === opts.testLogId) {
    throw new ApiError('bad_input', `the training and test logs are the same log (${opts.trainLogId}): split a capture with 'thicket log split' to hold a part out`);
  }
  const [train, test] = await Promise.all([host.call('logs.get', { id: opts.trainLogId }), host.call('logs.get', { id: opts.testLogId })]);
  // Default: each simulated log's own sensor (the profile it was imported with, or the one its
  // calibration made), which simulate.start picks for a log's own rays.
  const profileId = opts.profileId ?? null;

  note(`fitting log ${train.id} (${train.name})…`);
  const model = await fitLog(host, train.id, opts.seed, `${train.name}: model (experiment)`, opts.fitParams);

  note('segmenting the training log into primitives, and the mesh baseline sized to its segments…');
  const extract = (await settle(host, (await host.call('primitives.extract', { modelId: model.model, autoSegment: true })).job)) as unknown as ExtractResult;
  if (extract.annotation === null) throw new ApiError('internal', 'experiment: the automatic segmentation stored no annotation');
  const mesh = await host.call('primitives.generateMesh', { seed: opts.seed, annotationId: extract.annotation });
  const composed = (await settle(host, (await host.call('scenes.compose', {
    annotationId: extract.annotation,
    library: 'mesh',
    mode: 'mesh',
    groundModelId: model.model,
    name: `${train.name}: mesh primitives (experiment)`,
  })).job)) as unknown as ComposeResult;

  const sources: Record<RealSimulator, Record<string, unknown>> = {
    hybrid: { modelId: model.model, mode: 'hybrid' },
    voxel: { modelId: model.model, mode: 'voxel' },
    mesh: { sceneId: composed.scene, mode: 'mesh', rangeNoiseSigma: MESH_BASELINE_SIGMA },
    neighbour: { neighbourLogId: train.id, mode: 'neighbour' },
  };
  const row = async (simulator: RealSimulator, log: DriveLogInfo, label: string): Promise<RealExperimentRow> => {
    note(`simulating the rays of log ${log.id} with the ${simulator} simulator and evaluating it…`);
    const sim = await settle(host, (await host.call('simulate.start', {
      ...sources[simulator],
      ...(profileId ? { profileId } : {}),
      seed: opts.seed,
      raysFromLogId: log.id, // the log's own rays, from its own poses
      name: `${label}: ${simulator} simulator`,
    })).job);
    const runId = Number(sim.run);
    const m = (await settle(host, (await host.call('evaluate.start', { realLogId: log.id, runId, params: opts.evaluationParams ?? {} })).job)) as unknown as EvaluationMetrics & { evaluation: number };
    const r = await scanMatchingRisk(host, log.id, runId, opts.seed, risk);
    return { simulator, packets: m.packets, packetError: m.packetError, precision: m.precision, recall: m.recall, f1: m.f1, pointCloudError: m.pointCloudError, run: runId, evaluation: m.evaluation, ...r };
  };
  const table: RealExperimentRow[] = [];
  const risk = { ...experimentRiskDefaults(false), ...opts.risk };
  for (const s of REAL_SIMULATORS) table.push(await row(s, test, `Experiment: ${test.name} predicted from ${train.name}`));
  const selfCheck = await row('hybrid', train, `Experiment self-check: ${train.name}`);
  return {
    table,
    selfCheck,
    model: model.model,
    primitives: { hybrid: extract.primitives, mesh: mesh.primitives.length, segments: extract.segments },
    scenes: { mesh: composed.scene },
    profileId,
    seconds: Math.round((performance.now() - t0) / 100) / 10,
  };
}
