/**
 * The settings of an evaluation (docs/methods.md §6) and their defaults: what the API accepts,
 * the CLI prints and the evaluator runs with.
 */
import type { ScanHistogramParams } from './metrics';

/** Point-cloud error samples per side: nearest-neighbour targets kept, and queries. */
export const DEFAULT_TARGET_CAP = 1_000_000;
export const DEFAULT_QUERY_CAP = 200_000;

export const DEFAULT_SCAN_HISTOGRAM: ScanHistogramParams = { azimuthBinDeg: 0.5, elevationBinDeg: 0.5, rangeBinM: 0.05, maxRangeM: 200 };

export interface EvaluationOptions {
  /** Largest angle between paired rays (degrees); default 0.2. */
  directionToleranceDeg?: number;
  /** 'time' (default): by time as above; 'index': the k-th real packet with the k-th simulated one. */
  packetPairing?: 'time' | 'index';
  /** Largest time difference of paired packets (s); default 2.5e-4 (half a Velodyne HDL-32E packet). */
  timeToleranceS?: number;
  /** Seconds added to the run's packet times; default (null): whatever makes the first packets coincide. */
  timeOffsetS?: number | null;
  /** Point-cloud samples: nearest-neighbour targets and queries per side (defaults 10⁶ and 2·10⁵). */
  targetCap?: number;
  queryCap?: number;
  /** Seed of the point sampling. */
  seed?: number;
  /** Keep the per-packet series (default true; model tuning needs only the figures). */
  perPacket?: boolean;
  /** Compute the point-cloud error (default true). */
  pointCloud?: boolean;
  /** Make it exact with a second pass over a cloud larger than targetCap (default true). */
  exactPointCloud?: boolean;
  /** A log counts as standing still within these of the real log's first pose (defaults 0.05 m, 0.5°). */
  staticTranslationM?: number;
  staticRotationDeg?: number;
  /** Bins of the static-scan histograms. */
  scanHistogram?: Partial<ScanHistogramParams>;
}

export type ResolvedEvaluationOptions = Required<Omit<EvaluationOptions, 'scanHistogram' | 'timeOffsetS'>> & {
  timeOffsetS: number | null;
  scanHistogram: ScanHistogramParams;
};

export const EVALUATION_DEFAULTS: ResolvedEvaluationOptions = {
  directionToleranceDeg: 0.2,
  packetPairing: 'time',
  timeToleranceS: 2.5e-4,
  timeOffsetS: null,
  targetCap: DEFAULT_TARGET_CAP,
  queryCap: DEFAULT_QUERY_CAP,
  seed: 1,
  perPacket: true,
  pointCloud: true,
  exactPointCloud: true,
  staticTranslationM: 0.05,
  staticRotationDeg: 0.5,
  scanHistogram: DEFAULT_SCAN_HISTOGRAM,
};

export function resolveEvaluationOptions(o: EvaluationOptions = {}): ResolvedEvaluationOptions {
  const defined = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as EvaluationOptions;
  return {
    ...EVALUATION_DEFAULTS,
    ...defined,
    timeOffsetS: o.timeOffsetS ?? null,
    scanHistogram: { ...DEFAULT_SCAN_HISTOGRAM, ...Object.fromEntries(Object.entries(o.scanHistogram ?? {}).filter(([, v]) => v !== undefined)) },
  };
}
