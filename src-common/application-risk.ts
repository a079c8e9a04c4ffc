/**
 * Application-level risk as every layer sees it (docs/methods.md, "Application-level risk";
 * Tallavajhula 2018, §2.3.4): the applications, a parameter draw α, the per-α objectives on the
 * real and simulated data, and the risk.
 */
export const APPLICATIONS = ['scan-matching', 'obstacles', 'ground'] as const;
export type Application = (typeof APPLICATIONS)[number];

/** One draw of an application's tunable parameters, by name. */
export type Alpha = Record<string, number>;

export interface RiskSample {
  alpha: Alpha;
  /** J(α, D) and J(α, D̂); scan matching: the position error (m). */
  jReal: number;
  jSim: number;
  /** |J(α, D) − J(α, D̂)|. */
  loss: number;
  /** Scan matching's second objective, the rotation angle error (rad). */
  jRealAngle?: number;
  jSimAngle?: number;
  lossAngle?: number;
}

export interface RiskResult {
  application: Application;
  /** The mean loss over the α drawn. */
  risk: number;
  /** Scan matching: the risk of the angle objective (rad). */
  riskAngle?: number;
  samples: RiskSample[];
  /** α̂* = argmin over the samples of J(α, D̂): what development in simulation would pick. */
  bestAlphaSim: Alpha | null;
  jSimAtBestAlphaSim: number | null;
  /** J(α̂*, D): what α̂* does on the real data (the transfer gap: this minus jSimAtBestAlphaSim). */
  jRealAtBestAlphaSim: number | null;
  /** What each side gave the application: scan pairs, grid cells or scans (`unit`). */
  extent: { real: number; sim: number; unit: string };
}

/** A stored risk computation. */
export interface RiskInfo extends RiskResult {
  id: number;
  realLogId: number;
  runId: number;
  params: Record<string, unknown>;
  seconds: number;
  jobId: number | null;
  createdAt: string;
}
