/**
 * Tuning θ (METHODS §1 step 5; thesis 004 §4.3): a derivative-free search (nelder-mead.ts) over
 * a few fitting parameters on a slice of the training log, minimising
 *
 *     J(θ) = mean packet error (m) + 2 (1 − F1)
 *
 * where one evaluation of J fits a hybrid model to the slice with θ, simulates the slice's own
 * rays from its own poses in that model (hybrid mode, simulate/log-rays.ts) and scores the
 * simulation against the slice (the `score` function: src-worker/evaluate's observation
 * metrics). Everything runs in one thread, seeded: the same slice, seed and budget give the same
 * θ and trace. A fit that fails for some θ (no ground left, say) scores +∞ and the search moves on.
 */
import type { PacketChunk } from '../../src-common/packets';
import type { SensorProfile } from '../../src-common/sensor-profile';
import { createSceneQuery } from '../scene/scene-bvh';
import { Simulator } from '../simulate/simulate';
import { logRays } from '../simulate/log-rays';
import { fitModel, FitError, type FitHooks } from './fit';
import { toFitChunk } from './log-input';
import { buildModelScene, kindsForMode } from './model-scene';
import { nelderMead, type BoxParameter, type TrialRecord } from './nelder-mead';
import { FIT_PARAM_DEFAULTS, resolveFitParams, type FitParamName, type FitParams } from '../../src-common/fit-params';

/** What the thesis tuned (segmentation threshold, cluster density, Mahalanobis limit) and the cluster floor, with search boxes around Table 4.1's values. */
export const DEFAULT_TUNED_PARAMS: readonly (BoxParameter & { name: FitParamName })[] = [
  { name: 'phiThreshold', lower: 0.03, upper: 0.2 },
  { name: 'clustersPerPoint', lower: 0.01, upper: 0.15 },
  { name: 'mahalanobisThreshold', lower: 1.5, upper: 5 },
  { name: 'minClusterPoints', lower: 3, upper: 15, integer: true },
];

/** Search boxes for other parameters a user may name (within params.ts's limits). */
const OTHER_BOXES: Partial<Record<FitParamName, [number, number, boolean?]>> = {
  phiRadius: [0.3, 2],
  phiDefault: [0, 1 / 3],
  phiMinNeighbors: [3, 30, true],
  maxGroundSlopeDeg: [15, 90],
  cellSize: [0.05, 0.3],
  vertexSpacing: [0.25, 2],
  surfaceRadius: [0.3, 5],
  maxResidual: [0.1, 2],
  voxelSize: [0.1, 1],
  voxelTau: [1, 4],
  // The (hit, miss) priors of p_hit (Table 4.1: triangles (1, 2), ellipsoids (0, 1)): they decide
  // how far a lightly observed element is trusted, which moves recall.
  groundHitPrior: [0, 20],
  groundMissPrior: [0.1, 5],
  ellipsoidHitPrior: [0, 5],
  ellipsoidMissPrior: [0.1, 5],
};

/** The search box of each named parameter (the defaults above, else OTHER_BOXES); throws on a name with no box. */
export function tuningBoxes(names: readonly string[] | undefined): BoxParameter[] {
  if (!names || names.length === 0) return DEFAULT_TUNED_PARAMS.map((p) => ({ ...p }));
  return names.map((name) => {
    const d = DEFAULT_TUNED_PARAMS.find((p) => p.name === name);
    if (d) return { ...d };
    const o = OTHER_BOXES[name as FitParamName];
    if (!o) {
      const known = [...DEFAULT_TUNED_PARAMS.map((p) => p.name), ...Object.keys(OTHER_BOXES)];
      throw new Error(`fit parameter "${name}" cannot be tuned (tunable: ${known.join(', ')})`);
    }
    return { name, lower: o[0], upper: o[1], ...(o[2] ? { integer: true } : {}) };
  });
}

/** The observation metrics J needs (of the whole slice). */
export interface SliceScore {
  packetError: number;
  f1: number;
}

export interface TuneInput {
  /** The slice, packets numbered from 0 (formats/chunk-slice.ts). */
  chunks: readonly PacketChunk[];
  /** θ everywhere except the tuned names, which start here too. */
  params: FitParams;
  boxes: readonly BoxParameter[];
  seed: number;
  /** The log's sensor: range limits and noise of the simulation, and the fit's max range. */
  profile: SensorProfile;
  maxEvaluations: number;
}

export interface TuneTrial {
  evaluation: number;
  params: Record<string, number>;
  objective: number;
  packetError: number | null;
  f1: number | null;
  /** Why an evaluation scored +∞ (a failed fit). */
  error?: string;
  seconds: number;
}

export interface TuneResult {
  /** θ with the tuned names at their best values. */
  params: FitParams;
  best: Record<string, number>;
  objective: number;
  /** J at the starting θ (the first trial). */
  startObjective: number;
  trace: TuneTrial[];
  stopped: 'budget' | 'converged';
  packets: number;
}

/** Packets simulated per chunk (between cancel checks). */
const SIM_BATCH = 256;

/** J(θ): fit the slice, re-simulate its rays in hybrid mode, score. Exported for tests. */
export function sliceObjective(
  input: Pick<TuneInput, 'chunks' | 'seed' | 'profile'>,
  params: FitParams,
  score: (real: readonly PacketChunk[], sim: readonly PacketChunk[]) => SliceScore,
  hooks: Pick<FitHooks, 'checkCancelled'>,
): SliceScore & { objective: number } {
  const fitHooks: FitHooks = { progress: () => {}, checkCancelled: hooks.checkCancelled };
  const fit = fitModel({ chunks: input.chunks.map(toFitChunk), params, seed: input.seed, profileMaxRange: input.profile.range.max }, fitHooks);
  const { data } = buildModelScene(fit.arrays, fit.scalars, kindsForMode('hybrid'));
  const source = logRays(input.chunks);
  const sim = new Simulator({
    scene: createSceneQuery(data),
    profile: input.profile,
    rays: source.rays,
    trajectory: source.trajectory,
    mount: [0, 0, 0, 0, 0, 0, 1],
    seed: input.seed,
    mode: 'hybrid',
  });
  const out: PacketChunk[] = [];
  for (let first = 0; first < source.packets; first += SIM_BATCH) {
    hooks.checkCancelled();
    out.push(sim.simulatePackets(first, Math.min(SIM_BATCH, source.packets - first)));
  }
  const s = score(input.chunks, out);
  return { ...s, objective: s.packetError + 2 * (1 - s.f1) };
}

export function tuneFit(
  input: TuneInput,
  score: (real: readonly PacketChunk[], sim: readonly PacketChunk[]) => SliceScore,
  hooks: FitHooks,
): TuneResult {
  const trace: TuneTrial[] = [];
  const start: Record<string, number> = {};
  for (const b of input.boxes) {
    const v = input.params[b.name as FitParamName];
    start[b.name] = Math.min(b.upper, Math.max(b.lower, v ?? FIT_PARAM_DEFAULTS[b.name as FitParamName]));
  }
  let pending: TuneTrial | null = null;
  const objective = (x: Record<string, number>): number => {
    hooks.checkCancelled();
    const t0 = performance.now();
    const theta = resolveFitParams({ ...paramsRecord(input.params), ...x });
    try {
      const s = sliceObjective(input, theta, score, hooks);
      pending = { evaluation: 0, params: x, objective: s.objective, packetError: s.packetError, f1: s.f1, seconds: (performance.now() - t0) / 1000 };
      return s.objective;
    } catch (e) {
      if (!(e instanceof FitError)) throw e; // cancel and bugs end the search
      pending = { evaluation: 0, params: x, objective: Number.POSITIVE_INFINITY, packetError: null, f1: null, error: e.message, seconds: (performance.now() - t0) / 1000 };
      return NaN;
    }
  };
  const onEvaluation = (rec: TrialRecord) => {
    const t = pending!;
    t.evaluation = rec.evaluation;
    trace.push(t);
    hooks.progress(rec.evaluation / input.maxEvaluations, `tuning: ${rec.evaluation}/${input.maxEvaluations}, J = ${Number.isFinite(t.objective) ? t.objective.toFixed(4) : '∞'}`);
  };
  const r = nelderMead(input.boxes, start, objective, { maxEvaluations: input.maxEvaluations, onEvaluation });
  const params = resolveFitParams({ ...paramsRecord(input.params), ...r.best });
  const packets = input.chunks.reduce((a, c) => a + c.packetCount, 0);
  return { params, best: r.best, objective: r.value, startObjective: trace[0]!.objective, trace, stopped: r.stopped, packets };
}

function paramsRecord(p: FitParams): Record<string, number> {
  return { ...p };
}
