/**
 * Tuning θ (docs/methods.md §1 step 5; Tallavajhula 2018 §4.3): a derivative-free search
 * (nelder-mead.ts) over a few fitting parameters on a slice of the training log, minimising
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

// Which parameters may be tuned, and their search boxes, are fitting vocabulary: the host checks
// a request against them before it starts a job.
export { DEFAULT_TUNED_PARAMS, tuningBoxes } from '../../src-common/fit-tuning';

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
  const fit = fitModel({ chunks: input.chunks.map(toFitChunk), params, seed: input.seed, profileMaxRange: input.profile.range.max, profileMinRange: input.profile.range.min }, fitHooks);
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
