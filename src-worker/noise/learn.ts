/**
 * Learning a sensor noise model from repeated static scans and measuring its risk against
 * training size (Tallavajhula, 2018, §3.5.1, Figure 3.14b; docs/methods.md §8).
 *
 * Scans are split at random (seeded) into training and test scans, and cells (states) into
 * training and test cells, both by `testFraction`: a model learnt from the training cells'
 * training scans is scored on the test cells' test scans — unseen states and unseen
 * observations. The risk is reported for nested random subsets of the training cells.
 */
import type { LearnedNoiseTables, NoiseBeamTable, NoiseLearnSummary, NoiseMethod, RiskAtSize } from '../../src-common/noise-model';
import { RandomStream } from '../random/stream';
import { NOT_FIRED, type StaticCells } from './features';
import type { Bandwidth, FeatureSet } from './kernel';
import { cellParameters, predictParameters, selectPRegBandwidths, type PRegBandwidths, type PRegBeam } from './p-reg';
import { predictCdf, selectNpRegBandwidth, type NpRegBeam } from './np-reg';
import { binCount, DEFAULT_BINS, empiricalCdf, histogramMatch, parametricCdf, type NoiseBins } from './risk';

export interface LearnOptions {
  method: NoiseMethod;
  testFraction: number;
  seed: number;
  /** The profile's constant range σ (m), scored as a baseline. */
  profileSigma?: number;
  bins?: NoiseBins;
  /** Called with a fraction done. */
  progress?: (f: number) => void;
}

export interface LearnOutput {
  summary: Omit<NoiseLearnSummary, 'seconds'>;
  tables: LearnedNoiseTables;
}

interface Cell {
  index: number;
  beam: number;
  r: number;
  delta: number;
  z: Float64Array;
}

function shuffled(n: number, rng: RandomStream): Int32Array {
  const a = Int32Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    const t = a[i]!;
    a[i] = a[j]!;
    a[j] = t;
  }
  return a;
}

function observations(cells: StaticCells, i: number, scans: readonly number[]): Float64Array {
  const S = cells.scans;
  const out: number[] = [];
  for (const s of scans) {
    const v = cells.obs[i * S + s]!;
    if (v !== NOT_FIRED) out.push(v);
  }
  return Float64Array.from(out);
}

/** A beam's states sorted by nominal range. */
function sortedSet(cells: readonly Cell[]): { set: FeatureSet; order: Cell[] } {
  const order = [...cells].sort((a, b) => a.r - b.r || a.index - b.index);
  return { set: { r: Float64Array.from(order, (c) => c.r), delta: Float64Array.from(order, (c) => c.delta) }, order };
}

/** A fitted model that predicts a cumulative histogram for a beam at (r, δ). */
interface Fitted {
  predict(beam: number, r: number, delta: number, out: Float64Array): void;
  bandwidths: Record<string, Bandwidth>;
}

function fitPReg(train: readonly Cell[], beams: number, bins: NoiseBins): Fitted & { beams: (PRegBeam | null)[]; pooled: PRegBeam; bw: PRegBandwidths } {
  const build = (cs: readonly Cell[]): PRegBeam => {
    const { set, order } = sortedSet(cs);
    const ps = order.map((c) => cellParameters(c.z, c.r));
    return { set, pNull: Float64Array.from(ps, (p) => p.pNull), mu: Float64Array.from(ps, (p) => p.mu), sigma: Float64Array.from(ps, (p) => p.sigma) };
  };
  const B = binCount(bins);
  const groups = Array.from({ length: beams }, (_, b) => train.filter((c) => c.beam === b)).filter((cs) => cs.length >= 3);
  const perBeam = Array.from({ length: beams }, (_, b) => train.filter((c) => c.beam === b)).map((cs) => (cs.length >= 3 ? build(cs) : null));
  const pooled = build(train);
  // The left-out states' own histograms, in each beam's sorted order, for the bandwidths' risk.
  const cdfsOf = (cs: readonly Cell[]) => {
    const { order } = sortedSet(cs);
    const cdf = new Float64Array(order.length * B);
    order.forEach((c, i) => empiricalCdf(c.z, c.r, bins, cdf.subarray(i * B, (i + 1) * B)));
    return cdf;
  };
  const bw = groups.length
    ? selectPRegBandwidths(groups.map(build), groups.map(cdfsOf), bins)
    : selectPRegBandwidths([pooled], [cdfsOf(train)], bins);
  return {
    beams: perBeam,
    pooled,
    bw,
    bandwidths: { ...bw },
    predict(beam, r, delta, out) {
      const p = predictParameters(perBeam[beam] ?? pooled, bw, r, delta);
      parametricCdf(p.pNull, p.mu, p.sigma, bins, out);
    },
  };
}

function fitNpReg(train: readonly Cell[], beams: number, bins: NoiseBins): Fitted & { beams: (NpRegBeam | null)[]; pooled: NpRegBeam; bw: Bandwidth } {
  const B = binCount(bins);
  const build = (cs: readonly Cell[]): NpRegBeam => {
    const { set, order } = sortedSet(cs);
    const cdf = new Float64Array(order.length * B);
    order.forEach((c, i) => empiricalCdf(c.z, c.r, bins, cdf.subarray(i * B, (i + 1) * B)));
    return { set, cdf, B };
  };
  const perBeam = Array.from({ length: beams }, (_, b) => train.filter((c) => c.beam === b)).map((cs) => (cs.length >= 3 ? build(cs) : null));
  const pooled = build(train);
  const usable = perBeam.filter((b): b is NpRegBeam => b !== null);
  const bw = selectNpRegBandwidth(usable.length ? usable : [pooled], bins);
  return {
    beams: perBeam,
    pooled,
    bw,
    bandwidths: { histogram: bw },
    predict(beam, r, delta, out) {
      predictCdf(perBeam[beam] ?? pooled, bw, r, delta, out);
    },
  };
}

/** Mean histogram match of `predict` over the test cells. */
function riskOf(test: readonly Cell[], bins: NoiseBins, predict: (c: Cell, out: Float64Array) => void): number {
  const B = binCount(bins);
  const want = new Float64Array(B), got = new Float64Array(B);
  let sum = 0, n = 0;
  for (const c of test) {
    if (!empiricalCdf(c.z, c.r, bins, want)) continue;
    predict(c, got);
    sum += histogramMatch(got, want, bins.width);
    n++;
  }
  return n ? sum / n : NaN;
}

/**
 * Bins fitted to the sensor: a third of the median spread of the training cells' returns, in
 * whole millimetres from 1 mm to 1 cm, across ±40 widths — so a SICK scanner's few-millimetre
 * noise and a Velodyne's centimetres both span some 80 bins.
 */
export function binsFor(train: readonly Cell[]): NoiseBins {
  const sigmas = train.map((c) => cellParameters(c.z, c.r).sigma).filter((s) => Number.isFinite(s)).sort((a, b) => a - b);
  if (sigmas.length === 0) return DEFAULT_BINS;
  const width = Math.min(0.01, Math.max(0.001, Math.round((sigmas[sigmas.length >> 1]! / 3) * 1000) / 1000));
  return { width, span: Number((40 * width).toFixed(3)) };
}

/** Training sizes: halvings of the training cells down to about eight states a beam. */
function trainingSizes(n: number, beams: number): number[] {
  const sizes: number[] = [];
  for (let m = n; m >= Math.max(16, 8 * beams) && sizes.length < 7; m = Math.floor(m / 2)) sizes.unshift(m);
  if (sizes.length === 0) sizes.push(n);
  return sizes;
}

export function learnNoise(cells: StaticCells, o: LearnOptions): LearnOutput {
  const S = cells.scans;
  const f = o.testFraction;
  if (!(f > 0 && f < 1)) throw new RangeError(`the test fraction must be in (0, 1), got ${f}`);
  const testScansN = Math.round(S * f);
  if (testScansN < 1 || S - testScansN < 2) throw new RangeError(`the log has ${S} scan(s): learning needs at least 2 training scans and 1 test scan (test fraction ${f}) — record a static scene many times`);
  const N = cells.range.length;
  if (N < 10) throw new RangeError(`only ${N} cells were seen in at least half the scans with 3 returns: a static scene scanned repeatedly is needed`);
  const scanOrder = shuffled(S, new RandomStream(o.seed, 1));
  const testScans = [...scanOrder.subarray(0, testScansN)].sort((a, b) => a - b);
  const trainScans = [...scanOrder.subarray(testScansN)].sort((a, b) => a - b);
  const cellOrder = shuffled(N, new RandomStream(o.seed, 2));
  const testCellsN = Math.round(N * f);
  const make = (i: number, scans: number[]): Cell => ({ index: i, beam: cells.beam[i]!, r: cells.range[i]!, delta: cells.incidence[i]!, z: observations(cells, i, scans) });
  const test = [...cellOrder.subarray(0, testCellsN)].map((i) => make(i, testScans)).filter((c) => c.z.length > 0);
  const train = [...cellOrder.subarray(testCellsN)].map((i) => make(i, trainScans)).filter((c) => c.z.length > 0);
  const bins = o.bins ?? binsFor(train);
  const beams = cells.beams.length;
  const fit = (cs: readonly Cell[]) => (o.method === 'p-reg' ? fitPReg(cs, beams, bins) : fitNpReg(cs, beams, bins));
  const B = binCount(bins);

  const sizes = trainingSizes(train.length, beams);
  const curve: RiskAtSize[] = [];
  let last: ReturnType<typeof fit> | null = null;
  sizes.forEach((n, k) => {
    const m = fit(train.slice(0, n)); // train is already in random order: nested subsets
    curve.push({ n, risk: round(riskOf(test, bins, (c, out) => m.predict(c.beam, c.r, c.delta, out))) });
    last = m;
    o.progress?.((k + 1) / (sizes.length + 1));
  });
  const model = last! as ReturnType<typeof fit>;

  // Baselines: Gaussian noise about the nominal range, no nulls.
  const physicsRisk = (k: number, cs: readonly Cell[]) => riskOf(cs, bins, (c, out) => parametricCdf(0, 0, Math.sqrt((k * c.r * c.r) / Math.max(0.05, Math.cos(c.delta))), bins, out));
  let bestK = 1e-6, bestRisk = Infinity;
  for (let e = -9; e <= -2; e += 0.25) {
    const k = 10 ** e;
    const r = physicsRisk(k, train);
    if (r < bestRisk) {
      bestRisk = r;
      bestK = k;
    }
  }
  const sigma0 = o.profileSigma ?? 0;
  const constantRisk = riskOf(test, bins, (_c, out) => parametricCdf(0, 0, Math.max(sigma0, 1e-4), bins, out));

  const tables = tabulate(model, cells, train, bins, B, o.method);
  o.progress?.(1);
  return {
    summary: {
      method: o.method,
      beams,
      trainScans: trainScans.length,
      testScans: testScans.length,
      trainCells: train.length,
      testCells: test.length,
      risk: curve[curve.length - 1]!.risk,
      riskByTrainingSize: curve,
      bandwidths: model.bandwidths,
      baselines: { physics: { k: Number(bestK.toPrecision(3)), risk: round(physicsRisk(bestK, test)) }, constant: { sigma: sigma0, risk: round(constantRisk) } },
      azimuthStepDeg: round((cells.azimuthStep * 180) / Math.PI),
      bins: { ...bins },
    },
    tables,
  };
}

const round = (v: number) => Math.round(v * 1e6) / 1e6;
const R_NODES = 32, DELTA_NODES = 8;

/** The fitted model on each beam's feature grid (what a simulation interpolates). */
function tabulate(model: { predict: (b: number, r: number, d: number, out: Float64Array) => void } & ({ bw: PRegBandwidths; beams: (PRegBeam | null)[]; pooled: PRegBeam } | { bw: Bandwidth; beams: (NpRegBeam | null)[]; pooled: NpRegBeam }), cells: StaticCells, train: readonly Cell[], bins: NoiseBins, B: number, method: NoiseMethod): LearnedNoiseTables {
  const out: NoiseBeamTable[] = [];
  const deltas = train.map((c) => c.delta).sort((a, b) => a - b);
  cells.beams.forEach((ring, b) => {
    const own = train.filter((c) => c.beam === b);
    const cs = own.length >= 3 ? own : train;
    const rMin = Math.min(...cs.map((c) => c.r)), rMax = Math.max(...cs.map((c) => c.r));
    const dMax = Math.max(...cs.map((c) => c.delta));
    const r = Array.from({ length: R_NODES }, (_, i) => round(rMin + ((rMax - rMin) * i) / (R_NODES - 1)));
    const delta = Array.from({ length: DELTA_NODES }, (_, j) => round((dMax * j) / (DELTA_NODES - 1)));
    const table: NoiseBeamTable = { ring, r, delta };
    if (method === 'p-reg') {
      const m = model as { bw: PRegBandwidths; beams: (PRegBeam | null)[]; pooled: PRegBeam };
      table.pNull = []; table.mu = []; table.sigma = [];
      for (const rv of r) for (const dv of delta) {
        const p = predictParameters(m.beams[b] ?? m.pooled, m.bw, rv, dv);
        table.pNull.push(round(p.pNull)); table.mu.push(round(p.mu)); table.sigma.push(round(p.sigma));
      }
    } else {
      const tmp = new Float64Array(B);
      table.cdf = [];
      for (const rv of r) for (const dv of delta) {
        model.predict(b, rv, dv, tmp);
        for (let k = 0; k < B; k++) table.cdf.push(round(tmp[k]!));
      }
    }
    out.push(table);
  });
  return { method, bins: { ...bins }, beams: out, defaultIncidence: deltas.length ? deltas[deltas.length >> 1]! : 0 };
}
