/**
 * Validation of the physics mode against the analytical range model for grass (003 §3.4.1).
 *
 * A single-point lidar with a 1 mrad circular beam fires along +x into a stand of randomly placed
 * vertical cylinders (λ stems per m², diameter d) 10 m wide and 5 m deep whose near edge is D
 * metres away. The physics mode traces the 9-ray stencil; the return mode is `first` with a
 * 100 m signal cutoff, as in the paper ("the signal cutoff parameter was set to a value of
 * 100 m, simply because the analytical model does not account for signal cutoff"): the cutoff
 * only acts in first-return processing, and with 100 m every sub-return of the pulse is averaged,
 * which is the time-of-flight averaging over the spot the gamma law models. No range noise or
 * quantisation (the analytical model has none).
 *
 * Each sample is a fresh stand (its own random stream) and one pulse. The penetrations r − D of
 * the pulses that return are histogrammed over the stand depth [0, 5 m] and compared with:
 * - the gamma law p(r) = (r−D)^(α−1) (αλd)^α e^{−αλd(r−D)} / Γ(α), α fitted by maximum
 *   likelihood on the binned penetrations with the rate tied to αλd as written (so the law's
 *   mean stays 1/(λd)), the law truncated to the window (distributions.ts);
 * - the exponential law of Macedo et al., p(r) = λd e^{−λd(r−D)}, truncated the same way;
 * by the Bhattacharyya distance −ln Σ √(p q) over the bins.
 *
 * Mean penetration: the free path of a thin ray in the stand is exponential with mean 1/(λd)
 * (`expectedMeanPenetration`). A 5 m deep stand stops it at 5 m, and a sub-ray that crosses the
 * stand returns nothing (no background, as in the paper), so the mean of the returns estimates
 * the truncated mean E[X | X < depth] = 1/(λd) − depth·e^{−λd·depth}/(1 − e^{−λd·depth})
 * (`expectedTruncatedMeanPenetration`): equal to 1/(λd) within 3.5% when λd ≥ 1 m⁻¹, but
 * 1.55 m instead of 2 m for λ = 50, d = 10 mm. A pulse is a miss only when all 9 sub-rays cross
 * the stand (`passThroughFraction`), so censoring at the pulse level cannot undo this; run with
 * a deeper `standDepth` to measure the untruncated mean.
 *
 * Cost: only stems whose centre lies within `corridor` of the beam line can meet a sub-ray (the
 * beam is 35 mm wide at 35 m); all stems are drawn, so the random stand is exactly the paper's,
 * but only the corridor's go into the scene.
 */
import { RandomStream } from '../random/stream';
import type { SceneQuery } from '../scene/scene-query';
import type { SensorProfile } from '../../src-common/sensor-profile';
import { staticTrajectory } from '../geometry/trajectory';
import { simulatePackets } from '../simulate/simulate';
import type { PacketRays, SimulationContext } from '../simulate/types';
import { bhattacharyyaDistance, binProbabilities, histogram1d } from '../evaluate/histogram';
import { exponentialCdf, fitGammaShapeBinned, grassGammaCdf } from '../evaluate/distributions';
import { AnalyticScene, type VerticalCylinder } from './analytic-scene';

export interface GrassOptions {
  seed?: number;
  /** Pulses (fresh stands) per case (default 2000). */
  samples?: number;
  lambdas?: number[];
  diameters?: number[];
  distances?: number[];
  /** Stand size across and along the beam (m); paper: 10 × 5. */
  standWidth?: number;
  standDepth?: number;
  /** Full-angle beam divergence (rad); paper: 1 mrad. */
  divergence?: number;
  /** Histogram bin width (m). */
  binWidth?: number;
  /** Physics-mode stencil placement override (see simulate/stencil.ts). */
  stencilScale?: number;
  /** Build the scene of one stand (default: the analytic cylinders). */
  sceneOf?: (stems: VerticalCylinder[]) => SceneQuery;
}

export interface GrassCase {
  lambda: number;
  d: number;
  D: number;
  /** Pulses fired (one per stand). */
  samples: number;
  /** Pulses that returned. */
  returns: number;
  /** Mean of r − D over the returns. */
  meanPenetration: number;
  /** 1/(λd): the mean free path of a thin ray in an unbounded stand. */
  expectedMeanPenetration: number;
  /** Mean of an exponential(λd) free path truncated at the stand depth (see the header). */
  expectedTruncatedMeanPenetration: number;
  /** Pulses whose 9 sub-rays all crossed the whole stand (no return). */
  passThroughFraction: number;
  /** Fitted gamma shape. */
  alpha: number;
  bhattacharyyaGamma: number;
  bhattacharyyaExponential: number;
}

export interface GrassReport {
  cases: GrassCase[];
  settings: {
    seed: number; samples: number; standWidth: number; standDepth: number; divergence: number; binWidth: number;
    returnMode: 'first'; signalCutoff: number; fit: string;
  };
}

const SIGNAL_CUTOFF = 100;
const BEAM_HEIGHT = 0.5;

/** A single-point lidar: one laser along +x, the given circular divergence, first return. */
export function singlePointProfile(divergence: number): SensorProfile {
  return {
    id: 'single-point',
    name: 'Single-point lidar',
    description: '003 §3.4.1: one beam, 1 mrad, first return with a 100 m cutoff',
    builtin: false,
    kind: 'planar',
    groups: [{ name: 'beam', firingPeriod: 1e-3, lasers: [{ elevation: 0, azimuthOffset: 0, timeOffset: 0, rangeOffset: 0, verticalOffset: 0, horizontalOffset: 0 }] }],
    rotationHz: 1,
    azimuthStart: 0,
    azimuthEnd: 0,
    range: { min: 0, max: 200, resolution: 0, noiseSigma: 0 },
    beam: { shape: 'circular', divergenceH: divergence, divergenceV: divergence },
    returns: { mode: 'first', signalCutoff: SIGNAL_CUTOFF },
    intensity: { model: 'lambertian', scale: 1, rangeFalloff: false },
    mount: [0, 0, 0, 0, 0, 0, 1],
    sequencesPerPacket: 1,
    source: '003 §3.4.1',
  };
}

export function validateGrass(opts: GrassOptions = {}): GrassReport {
  const seed = opts.seed ?? 1;
  const samples = opts.samples ?? 2000;
  const width = opts.standWidth ?? 10;
  const depth = opts.standDepth ?? 5;
  const divergence = opts.divergence ?? 1e-3;
  const binWidth = opts.binWidth ?? 0.05;
  const bins = Math.max(1, Math.round(depth / binWidth));
  const profile = singlePointProfile(divergence);
  const ray: PacketRays = { startTime: 0, count: 1, dir: [1, 0, 0], time: [0], ring: [0] };
  const trajectory = staticTrajectory([0, 0, BEAM_HEIGHT, 0, 0, 0, 1]);
  const sceneOf = opts.sceneOf ?? ((stems: VerticalCylinder[]) => new AnalyticScene(stems));

  const cases: GrassCase[] = [];
  let caseIndex = 0;
  for (const lambda of opts.lambdas ?? [50, 100]) {
    for (const d of opts.diameters ?? [0.01, 0.02]) {
      for (const D of opts.distances ?? [20, 30]) {
        const stems = Math.round(lambda * width * depth);
        const corridor = d / 2 + Math.tan(divergence / 2) * (D + depth) * 1.5 + 0.01;
        const penetrations: number[] = [];
        for (let i = 0; i < samples; i++) {
          const rng = new RandomStream(seed, (caseIndex + 1) * 2 ** 32 + i);
          const kept: VerticalCylinder[] = [];
          for (let s = 0; s < stems; s++) {
            const x = D + depth * rng.next();
            const y = width * (rng.next() - 0.5);
            if (Math.abs(y) <= corridor) kept.push({ x, y, radius: d / 2, z0: 0, z1: 1, reflectance: 0.5, objectId: s + 1, classId: 1 });
          }
          const ctx: SimulationContext = {
            scene: sceneOf(kept),
            profile,
            rays: () => ray,
            trajectory,
            seed,
            mode: 'physics',
            options: opts.stencilScale !== undefined ? { stencilScale: opts.stencilScale } : {},
          };
          const r = simulatePackets(ctx, i, 1).rayRange[0]!;
          if (!Number.isNaN(r)) penetrations.push(r - D);
        }
        const returns = penetrations.length;
        const through = samples - returns;
        const sum = penetrations.reduce((s, x) => s + x, 0);
        const ld = lambda * d;
        const hist = histogram1d(penetrations, 0, depth, bins, { clamp: true });
        const { alpha } = fitGammaShapeBinned(hist.counts, 0, depth, ld);
        const pGamma = binProbabilities((x) => grassGammaCdf(x, alpha, ld), 0, depth, bins);
        const pExp = binProbabilities((x) => exponentialCdf(x, ld), 0, depth, bins);
        const e = Math.exp(-ld * depth);
        cases.push({
          lambda,
          d,
          D,
          samples,
          returns,
          meanPenetration: returns > 0 ? sum / returns : NaN,
          expectedMeanPenetration: 1 / ld,
          expectedTruncatedMeanPenetration: 1 / ld - (depth * e) / (1 - e),
          passThroughFraction: through / samples,
          alpha,
          bhattacharyyaGamma: bhattacharyyaDistance(hist.counts, pGamma),
          bhattacharyyaExponential: bhattacharyyaDistance(hist.counts, pExp),
        });
        caseIndex++;
      }
    }
  }
  return {
    cases,
    settings: {
      seed, samples, standWidth: width, standDepth: depth, divergence, binWidth,
      returnMode: 'first', signalCutoff: SIGNAL_CUTOFF,
      fit: 'gamma shape by binned maximum likelihood, rate tied to αλd, law truncated to the stand depth',
    },
  };
}
