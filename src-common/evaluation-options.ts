/**
 * The settings of an evaluation (docs/methods.md §6) and their defaults: what the API accepts,
 * the CLI prints and the evaluator runs with.
 */
import type { ScanHistogramParams } from './metrics';
import type { EvaluationRegion } from './evaluation-region';

/** Point-cloud error samples per side: nearest-neighbour targets kept, and queries. */
export const DEFAULT_TARGET_CAP = 1_000_000;
export const DEFAULT_QUERY_CAP = 200_000;

export const DEFAULT_SCAN_HISTOGRAM: ScanHistogramParams = { azimuthBinDeg: 0.5, elevationBinDeg: 0.5, rangeBinM: 0.05, maxRangeM: 200 };

export interface EvaluationOptions {
  /** Largest angle between paired rays (degrees); default 0.2. */
  directionToleranceDeg?: number;
  /**
   * 'time' (default): each real ray with the simulated ray of its direction fired nearest in time,
   * across packet boundaries; 'index': the k-th real packet with the k-th simulated one; 'rays':
   * ray for ray, for a run simulated from the log's own rays (checked: a mismatch is an error).
   */
  packetPairing?: 'time' | 'index' | 'rays';
  /** Largest difference of paired rays' firing times (s); default 2.5e-4 (half a Velodyne HDL-32E packet). */
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
  /** Only real rays (and their partners) inside it are scored (src-common/evaluation-region.ts); default: everything. */
  region?: EvaluationRegion | null;
  /** Width of the by-range breakdown's bins (m); default 10. */
  rangeBreakdownBinM?: number;
  /** A warning when less than this fraction of either side's rays pair, or of the shorter time span overlaps; default 0.5. */
  minOverlap?: number;
}

export type ResolvedEvaluationOptions = Required<Omit<EvaluationOptions, 'scanHistogram' | 'timeOffsetS' | 'region'>> & {
  timeOffsetS: number | null;
  region: EvaluationRegion | null;
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
  region: null,
  rangeBreakdownBinM: 10,
  minOverlap: 0.5,
};

export function resolveEvaluationOptions(o: EvaluationOptions = {}): ResolvedEvaluationOptions {
  const defined = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as EvaluationOptions;
  return {
    ...EVALUATION_DEFAULTS,
    ...defined,
    timeOffsetS: o.timeOffsetS ?? null,
    region: o.region ?? null,
    scanHistogram: { ...DEFAULT_SCAN_HISTOGRAM, ...Object.fromEntries(Object.entries(o.scanHistogram ?? {}).filter(([, v]) => v !== undefined)) },
  };
}
