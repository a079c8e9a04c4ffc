/**
 * A learned sensor noise model as every layer holds it (docs/methods.md §8): what `thicket noise
 * learn` reports, what the project stores, and the tables a simulation draws ranges and nulls
 * from when a sensor profile names the model (`range.noiseModel`).
 */

export const NOISE_METHODS = ['p-reg', 'np-reg'] as const;
export type NoiseMethod = (typeof NOISE_METHODS)[number];

/** The residual histogram's bins (src-worker/noise/risk.ts): `width` (m) across [−span, span). */
export interface NoiseModelBins {
  width: number;
  span: number;
}

/**
 * One beam's model tabulated on a grid of the features — nominal range r (m) × incidence δ (rad)
 * — node (i, j) at index i · delta.length + j; a simulation interpolates bilinearly and clamps to
 * the grid.
 */
export interface NoiseBeamTable {
  /** The beam's ring id (0 for a planar scanner). */
  ring: number;
  r: number[];
  delta: number[];
  /** P-Reg: per node P_null, range bias μ (m) and σ (m). */
  pNull?: number[];
  mu?: number[];
  sigma?: number[];
  /** NP-Reg: per node the cumulative residual histogram (bins of NoiseModelBins, the null bin last). */
  cdf?: number[];
}

export interface LearnedNoiseTables {
  method: NoiseMethod;
  bins: NoiseModelBins;
  beams: NoiseBeamTable[];
  /** Incidence used where a simulator knows no surface normal (neighbour mode): the training median. */
  defaultIncidence: number;
}

export interface RiskAtSize {
  /** Training states (cells) used. */
  n: number;
  risk: number;
}

/** What learning reports (and the stored row's summary). */
export interface NoiseLearnSummary {
  method: NoiseMethod;
  beams: number;
  trainScans: number;
  testScans: number;
  trainCells: number;
  testCells: number;
  /** Mean histogram match (m) of the test cells' test scans against the model's prediction. */
  risk: number;
  riskByTrainingSize: RiskAtSize[];
  /** Chosen kernel bandwidths: P-Reg per component, NP-Reg one. */
  bandwidths: Record<string, { r: number; delta: number }>;
  /** The same risk for physics-based Gaussian noise with no nulls: σ² = K r² / cos δ (K fitted), and a constant σ. */
  baselines: { physics: { k: number; risk: number }; constant: { sigma: number; risk: number } };
  azimuthStepDeg: number;
  /** The residual histogram's bins the risk was measured on (fitted to the sensor's spread). */
  bins: NoiseModelBins;
  seconds: number;
}

export interface NoiseModelInfo {
  id: number;
  name: string;
  logId: number;
  method: NoiseMethod;
  createdAt: string;
  summary: NoiseLearnSummary;
}
