/**
 * What an evaluation measures (docs/methods.md §6): the figures of a simulated run against a real
 * log, and the per-packet series the Evaluation page charts — one definition for the evaluator,
 * the store, the API and the page.
 */

export interface ScanHistogramParams {
  azimuthBinDeg: number;
  elevationBinDeg: number;
  rangeBinM: number;
  maxRangeM: number;
}

export interface PointCloudErrorResult {
  /** True when every nearest distance is to the whole other cloud (no sampling bias). */
  exact: boolean;
  /** ½ (simToReal + realToSim), metres. */
  error: number;
  /** Mean distance from simulated points to their nearest real point (eq. 4.7 with Y real). */
  simToReal: number;
  realToSim: number;
  /** Hits offered to each side's sample, the targets kept, and the queries used. */
  realPoints: number;
  simPoints: number;
  realTargets: number;
  simTargets: number;
  realQueries: number;
  simQueries: number;
}

export interface StaticScanMetrics {
  /** −ln Σ √(p q) over (bearing × range + no-return) bins; null when the histograms share no bin. */
  bhattacharyya: number | null;
  /** Mean per-bearing histogram match (bins); null when no bearing is seen on both sides. */
  histogramMatch: number | null;
  bearings: number;
  oneSidedBearings: number;
  realRays: number;
  simRays: number;
  bins: ScanHistogramParams;
}

export interface ObservationMetrics {
  /** Packets paired (and evaluated). */
  packets: number;
  /** Mean over packets with ≥ 1 true hit of their mean ‖y − ŷ‖ (m); null when no packet has one. */
  packetError: number | null;
  precision: number | null;
  recall: number | null;
  f1: number | null;
  /** Symmetric point-cloud error (m); null when one side has no hit. */
  pointCloudError: number | null;
  /** Mean ‖y − ŷ‖ over every true hit (ray-weighted, m). */
  rayError: number | null;
  packetsWithTrueHits: number;
  trueHits: number;
  falseHits: number;
  falseMisses: number;
  trueMisses: number;
  pairedRays: number;
  /** Rays of paired packets that found no partner. */
  unpairedRays: { real: number; sim: number };
  /** Packets that found no partner in time, and their rays. */
  unpairedPackets: { real: number; sim: number; realRays: number; simRays: number };
  /** Paired packets whose rays corresponded index by index. */
  packetsPairedByIndex: number;
  /** Packets read on each side. */
  realPackets: number;
  simPackets: number;
  /** Seconds added to the run's times. */
  timeOffsetS: number;
  pointCloud: PointCloudErrorResult | null;
  /** Range-histogram distances, when both logs stand still. */
  staticScan: StaticScanMetrics | null;
  /**
   * How rays were paired: 'time' by (firing time, direction) across packet boundaries, 'index'
   * packet k with packet k, 'rays' ray for ray (a run simulated from the log's own rays).
   */
  pairing?: PairingMode;
  /** Rays read on each side, and the fraction of them that found a partner. */
  rays?: { real: number; sim: number };
  pairedFraction?: { real: number; sim: number };
  /** Firing-time spans of each side (s, the run's after the offset) and the fraction of the shorter one they share. */
  timeOverlap?: { real: [number, number]; sim: [number, number]; fraction: number };
  /** Why the figures may mislead (a run and a log that barely overlap), with the figures. */
  warnings?: string[];
  /** The region scored (its text form; 'everything' when none) and the ray pairs inside it. */
  region?: { spec: string; pairs: number; realRays: number };
  /** Per class of the real log's labels (null when the log has none). */
  perClass?: ClassMetrics[] | null;
  /** By range from the sensor (the real hit's, else the simulated hit's), `binM` wide. */
  byRange?: RangeBinMetrics[];
}

export type PairingMode = 'time' | 'index' | 'rays';

/** One class of a labelled real log (a pair takes the real ray's class, else — a false hit — the simulated ray's). */
export interface ClassMetrics {
  class: number;
  name: string;
  /** Real hits of the class that were scored. */
  realHits: number;
  trueHits: number;
  falseHits: number;
  falseMisses: number;
  recall: number | null;
  precision: number | null;
  /** Symmetric point-cloud error over the class's hits (m; a sample estimate above 50,000 points a side). */
  pointCloudError: number | null;
}

/** One range bin [fromM, toM). */
export interface RangeBinMetrics {
  fromM: number;
  toM: number;
  realHits: number;
  trueHits: number;
  falseHits: number;
  falseMisses: number;
  recall: number | null;
  precision: number | null;
  /** Median |r̂ − r| over the bin's true hits (m, to 1 mm); null without true hits. */
  rangeErrorMedianM: number | null;
}

/** The figures tables report first (the CLI's `evaluate`, the Table 4.3 experiment). */
export type HeadlineMetrics = Pick<ObservationMetrics, 'packets' | 'packetError' | 'precision' | 'recall' | 'f1' | 'pointCloudError'>;

/** An evaluation's figures as stored and served: what was measured, and the wall seconds it took. */
export interface EvaluationMetrics extends ObservationMetrics {
  seconds: number;
}

/** Per paired packet: where it is along the drive and how well it was simulated. */
export interface PerPacketSeries {
  /** Index of the real and of the simulated packet in their logs. */
  realPacket: Uint32Array<ArrayBuffer>;
  simPacket: Uint32Array<ArrayBuffer>;
  /** Real packet time (s since the log's start). */
  time: Float64Array<ArrayBuffer>;
  /** Distance the real sensor has travelled by then (m). */
  distance: Float64Array<ArrayBuffer>;
  /** Mean ‖y − ŷ‖ over the packet's true hits (m); NaN when it has none. */
  error: Float32Array<ArrayBuffer>;
  trueHits: Uint32Array<ArrayBuffer>;
  falseHits: Uint32Array<ArrayBuffer>;
  falseMisses: Uint32Array<ArrayBuffer>;
}

export const PER_PACKET_FIELDS = ['realPacket', 'simPacket', 'time', 'distance', 'error', 'trueHits', 'falseHits', 'falseMisses'] as const;
