/**
 * Application-level risk (docs/methods.md, "Application-level risk"; Tallavajhula 2018, §2.3.4
 * eq. 2.3–2.5 and Figure 2.8): for α drawn from p(α), the loss l(α) = |J(α, D) − J(α, D̂)| of an
 * application's objective on the real data D and the simulated D̂; the empirical risk is its mean.
 * Also the transfer gap: α̂* = argmin J(α, D̂), the α development in simulation would pick, and
 * J(α̂*, D) — what it does in reality.
 */
import { sampleAlphas } from './alpha-sampling';
import type { Alpha, Application, RiskResult, RiskSample } from '../../src-common/application-risk';
import { scanInOwnFrame, spreadScans, type LogPoints, type Scan } from './log-points';
import { scanMatchingObjective } from './scan-matching';
import { obstacleGrid, obstaclesObjective, type ObstacleGrid } from './obstacles';
import { groundClouds, groundObjective, type GroundCloud } from './ground-app';

export type { RiskResult, RiskSample };

/** Risk, and α̂* (first of equals), from the samples. */
export function summariseRisk(application: Application, samples: RiskSample[], extent: RiskResult['extent']): RiskResult {
  const mean = (f: (s: RiskSample) => number) => (samples.length ? samples.reduce((a, s) => a + f(s), 0) / samples.length : 0);
  let best: RiskSample | null = null;
  for (const s of samples) if (!best || s.jSim < best.jSim) best = s;
  const out: RiskResult = {
    application,
    risk: mean((s) => s.loss),
    samples,
    bestAlphaSim: best?.alpha ?? null,
    jSimAtBestAlphaSim: best?.jSim ?? null,
    jRealAtBestAlphaSim: best?.jReal ?? null,
    extent,
  };
  if (application === 'scan-matching') out.riskAngle = mean((s) => s.lossAngle ?? 0);
  return out;
}

export interface RiskOptions {
  samples: number;
  seed: number;
  /** Scan matching: consecutive pairs matched per side at most. */
  maxPairs: number;
  /** Scan matching: points kept per scan before filtering. */
  pointsPerScan: number;
}

export const DEFAULT_RISK_OPTIONS: RiskOptions = { samples: 50, seed: 1, maxPairs: 10, pointsPerScan: 30_000 };

/** What an application reads of one side, prepared once for every α. */
type Prepared =
  | { kind: 'scan-matching'; scans: Scan[]; pairs: number[] }
  | { kind: 'obstacles'; grid: ObstacleGrid }
  | { kind: 'ground'; clouds: GroundCloud[] };

export class RiskInputError extends Error {}

function prepare(app: Application, d: LogPoints, opts: RiskOptions, side: string): Prepared {
  if (app === 'scan-matching') {
    const scans = d.scanStarts.length;
    if (scans < 2) throw new RiskInputError(`${side} has ${scans} scan(s): scan matching needs at least two consecutive revolutions`);
    const first = spreadScans(scans, opts.maxPairs, 1);
    const index = new Map<number, number>();
    const list: Scan[] = [];
    const at = (k: number) => {
      let i = index.get(k);
      if (i === undefined) {
        i = list.length;
        index.set(k, i);
        list.push(scanInOwnFrame(d, k, opts.pointsPerScan));
      }
      return i;
    };
    const pairs: number[] = [];
    // Each pair as two adjacent entries of the list (a scan shared by two pairs is read twice: rare).
    const ordered: Scan[] = [];
    for (const k of first) {
      pairs.push(ordered.length);
      ordered.push(list[at(k)]!, list[at(k + 1)]!);
    }
    return { kind: 'scan-matching', scans: ordered, pairs };
  }
  if (app === 'obstacles') {
    const grid = obstacleGrid(d);
    if (!grid.truth.some((v) => v) && !d.cls.some((c) => c !== 0)) throw new RiskInputError(`${side} has no ray classes: obstacle detection needs the classes as its truth`);
    return { kind: 'obstacles', grid };
  }
  const clouds = groundClouds(d);
  if (!clouds.some((c) => c.truth.some((t) => t !== 255))) throw new RiskInputError(`${side} has no ray classes: ground segmentation needs them as its truth`);
  return { kind: 'ground', clouds };
}

function objective(p: Prepared, alpha: Alpha, seed: number, check: () => void): { j: number; angle?: number } {
  if (p.kind === 'scan-matching') {
    const r = scanMatchingObjective(p.scans, p.pairs, alpha, seed, check);
    return { j: r.position, angle: r.angle };
  }
  if (p.kind === 'obstacles') return { j: obstaclesObjective(p.grid, alpha).j };
  return { j: groundObjective(p.clouds, alpha, check) };
}

function extentOf(p: Prepared): number {
  return p.kind === 'scan-matching' ? p.pairs.length : p.kind === 'obstacles' ? p.grid.width * p.grid.height : p.clouds.length;
}

/** The risk of `app` between the real and simulated data, over opts.samples draws of α. */
export function applicationRisk(
  app: Application, real: LogPoints, sim: LogPoints, opts: RiskOptions,
  hooks: { progress?: (fraction: number) => void; checkCancelled?: () => void; names?: { real: string; sim: string } } = {},
): RiskResult {
  const check = hooks.checkCancelled ?? (() => {});
  const pr = prepare(app, real, opts, hooks.names?.real ?? 'the real log');
  const ps = prepare(app, sim, opts, hooks.names?.sim ?? 'the simulated run');
  const alphas = sampleAlphas(app, opts.samples, opts.seed);
  const samples: RiskSample[] = [];
  alphas.forEach((alpha, k) => {
    check();
    const r = objective(pr, alpha, opts.seed, check);
    const s = objective(ps, alpha, opts.seed, check);
    const sample: RiskSample = { alpha, jReal: r.j, jSim: s.j, loss: Math.abs(r.j - s.j) };
    if (r.angle !== undefined && s.angle !== undefined) {
      sample.jRealAngle = r.angle;
      sample.jSimAngle = s.angle;
      sample.lossAngle = Math.abs(r.angle - s.angle);
    }
    samples.push(sample);
    hooks.progress?.((k + 1) / alphas.length);
  });
  const unit = app === 'scan-matching' ? 'scan pairs' : app === 'obstacles' ? 'grid cells' : 'scans';
  return summariseRisk(app, samples, { real: extentOf(pr), sim: extentOf(ps), unit });
}
