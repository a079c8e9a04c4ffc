/**
 * The difference colouring of the Evaluation page (docs/methods.md §6, *Per-ray range error*):
 * each paired ray coloured by its range error e = r̂ − r (simulated minus real range, metres) on a
 * diverging scale symmetric about 0 — blue where the simulated ray stopped short, white where the
 * two agree, red where it went further (after K. Moreland, "Diverging Color Maps for Scientific
 * Visualization", 2009) — and the pairs where only one ray hit in colours of their own: a false
 * hit (simulated hit, real miss) magenta, a false miss (real hit, simulated miss) green.
 *
 * Overlay: one point per pair, at the real hit (the simulated hit for a false hit). Side by side:
 * the real view shows the pairs whose real ray hit, at the real points; the simulated view those
 * whose simulated ray hit, at the simulated points; a true hit has the same colour in both.
 * Pure, unit-tested.
 */
import type { Bounds, CloudData, EvaluationRayErrors } from '../../../src-main/api/contract';
import { rgbCss, type Rgb } from '../../../src-common/colormaps';
import type { Legend, LegendEntry } from '../../viewport/cloud-colors';
import { unionBounds, type ShownCloud } from './overlay';
import { formatCount } from '../../format';

/** Moreland's cool-warm end points and a light grey middle. */
const COOL: Rgb = [0.23, 0.299, 0.754];
const MID: Rgb = [0.865, 0.865, 0.865];
const WARM: Rgb = [0.706, 0.016, 0.15];
export const FALSE_HIT_COLOR: Rgb = [0.93, 0.3, 0.93];
export const FALSE_MISS_COLOR: Rgb = [0.3, 0.85, 0.35];

/** The colour of an error e on the scale ±`scale` m (clamped at the ends). */
export function divergingColor(e: number, scale: number): Rgb {
  const t = Math.max(-1, Math.min(1, e / scale));
  const [a, b, u] = t < 0 ? [MID, COOL, -t] : [MID, WARM, t];
  return [a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u, a[2] + (b[2] - a[2]) * u];
}

/** CSS gradient of the scale from −scale (left) to +scale (right). */
export function divergingGradient(stops = 9): string {
  const cols = Array.from({ length: stops }, (_, i) => rgbCss(divergingColor((2 * i) / (stops - 1) - 1, 1)));
  return `linear-gradient(to right, ${cols.join(', ')})`;
}

/** 1, 2 or 5 × 10^k, the smallest not below x. */
function niceCeil(x: number): number {
  const p = 10 ** Math.floor(Math.log10(x));
  for (const m of [1, 2, 5, 10]) if (m * p >= x * (1 - 1e-12)) return m * p;
  return 10 * p;
}

/**
 * The scale's half-width: the 98th percentile of |e| over the true hits (a few gross errors
 * would wash the rest out to white), rounded up to 1, 2 or 5 × 10^k m, at least 1 cm.
 */
export function errorScale(error: Float32Array): number {
  const abs: number[] = [];
  const stride = Math.max(1, Math.floor(error.length / 65_536));
  for (let i = 0; i < error.length; i += stride) if (Number.isFinite(error[i]!)) abs.push(Math.abs(error[i]!));
  if (abs.length === 0) return 0.01;
  abs.sort((a, b) => a - b);
  const q = abs[Math.min(abs.length - 1, Math.round(0.98 * (abs.length - 1)))]!;
  return niceCeil(Math.max(0.01, q));
}

export type PairKind = 'true-hit' | 'false-hit' | 'false-miss';

function kindOf(r: EvaluationRayErrors, k: number): PairKind {
  const realHit = Number.isFinite(r.real[3 * k]!), simHit = Number.isFinite(r.sim[3 * k]!);
  return realHit && simHit ? 'true-hit' : realHit ? 'false-miss' : 'false-hit';
}

/** Bounds of the points, NaN coordinates (a miss) left out (a NaN compares false); null when none is left. */
function boundsOf(positions: Float32Array): Bounds | null {
  const min: [number, number, number] = [Infinity, Infinity, Infinity], max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i += 3) {
    for (let a = 0; a < 3; a++) {
      const v = positions[i + a]!;
      if (v < min[a]!) min[a] = v;
      if (v > max[a]!) max[a] = v;
    }
  }
  return min[0] <= max[0] ? { min, max } : null;
}

/** A cloud of the chosen pairs at the chosen points, coloured by error or kind. */
function build(r: EvaluationRayErrors, pick: (k: number) => Float32Array | null, scale: number, bounds: Bounds | null, side: 'real' | 'sim' | 'both'): ShownCloud & { counts: Record<PairKind, number> } {
  const n = r.error.length;
  const idx: number[] = [];
  const from: Float32Array[] = [];
  for (let k = 0; k < n; k++) {
    const src = pick(k);
    if (src) {
      idx.push(k);
      from.push(src);
    }
  }
  const m = idx.length;
  const positions = new Float32Array(3 * m), colors = new Float32Array(4 * m);
  const counts: Record<PairKind, number> = { 'true-hit': 0, 'false-hit': 0, 'false-miss': 0 };
  for (let j = 0; j < m; j++) {
    const k = idx[j]!;
    positions.set(from[j]!.subarray(3 * k, 3 * k + 3), 3 * j);
    const kind = kindOf(r, k);
    counts[kind]++;
    const c = kind === 'true-hit' ? divergingColor(r.error[k]!, scale) : kind === 'false-hit' ? FALSE_HIT_COLOR : FALSE_MISS_COLOR;
    colors.set(c, 4 * j);
    colors[4 * j + 3] = 1;
  }
  const entries: LegendEntry[] = [];
  if (side !== 'sim') entries.push({ id: 1, name: 'real hit, simulated miss', color: rgbCss(FALSE_MISS_COLOR), count: counts['false-miss'] });
  if (side !== 'real') entries.push({ id: 2, name: 'simulated hit, real miss', color: rgbCss(FALSE_HIT_COLOR), count: counts['false-hit'] });
  const legend: Legend = {
    kind: 'scalar',
    mode: 'range-error',
    label: 'Range error, simulated − real range',
    unit: 'm',
    gradient: divergingGradient(),
    range: { min: -scale, max: scale },
    note: `${formatCount(counts['true-hit'])} true hits`,
    entries,
  };
  const cloud: CloudData = {
    source: { kind: side === 'sim' ? 'run' : 'log', id: r.id },
    totalPoints: m,
    positions,
    intensity: new Float32Array(m),
    time: new Float32Array(m),
    classId: new Uint8Array(m),
    ring: new Uint16Array(m),
    bounds: bounds ?? boundsOf(positions),
    packets: null,
    misses: null,
  };
  return { cloud, colors, legend, counts };
}

/** Overlay: one point per pair, at its real hit or (a false hit) its simulated hit. */
export function errorOverlay(r: EvaluationRayErrors, scale = errorScale(r.error)): ShownCloud & { counts: Record<PairKind, number> } {
  return build(r, (k) => (Number.isFinite(r.real[3 * k]!) ? r.real : r.sim), scale, null, 'both');
}

/** Side by side: the real hits (left) and the simulated hits (right), on one scale and in one frame. */
export function errorSides(r: EvaluationRayErrors, scale = errorScale(r.error)): { real: ShownCloud; sim: ShownCloud } {
  const both = unionBounds(boundsOf(r.real), boundsOf(r.sim));
  return {
    real: build(r, (k) => (Number.isFinite(r.real[3 * k]!) ? r.real : null), scale, both, 'real'),
    sim: build(r, (k) => (Number.isFinite(r.sim[3 * k]!) ? r.sim : null), scale, both, 'sim'),
  };
}
