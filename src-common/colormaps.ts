/**
 * Colour maps, as pure functions shared by the pages and the worker's reports (unit-tested in
 * Node): point clouds by scalar or class, and the costmap ramp.
 *
 * Scalars (height, intensity, time) use perceptual maps: turbo for height (a terrain
 * convention with more distinguishable steps), viridis for intensity and time (monotone
 * lightness, so brighter reads as more). Ranges are robust (2nd–98th percentile) so a few
 * stray returns (a bird, a multipath ghost) do not squash the rest of the cloud into one colour.
 * Classes use a categorical palette; class 0 (unlabeled) is a neutral grey.
 */

export type Rgb = [number, number, number];
export type ScalarMapName = 'turbo' | 'viridis';

const clamp01 = (x: number) => (x < 0 ? 0 : x > 1 ? 1 : x);

/** Turbo, polynomial fit by A. Mikhailov / R. Du (Google, 2019); input clamped to [0,1]. */
export function turbo(t: number): Rgb {
  const x = clamp01(t);
  const x2 = x * x;
  const x3 = x2 * x;
  const x4 = x2 * x2;
  const x5 = x4 * x;
  return [
    clamp01(0.13572138 + 4.6153926 * x - 42.66032258 * x2 + 132.13108234 * x3 - 152.94239396 * x4 + 59.28637943 * x5),
    clamp01(0.09140261 + 2.19418839 * x + 4.84296658 * x2 - 14.18503333 * x3 + 4.27729857 * x4 + 2.82956604 * x5),
    clamp01(0.1066733 + 12.64194608 * x - 60.58204836 * x2 + 110.36276771 * x3 - 89.90310912 * x4 + 27.34824973 * x5),
  ];
}

/** Viridis, 6th-order polynomial fit (after mattz, Shadertoy WlfXRN); input clamped to [0,1]. */
export function viridis(t: number): Rgb {
  const x = clamp01(t);
  const c = (c0: number, c1: number, c2: number, c3: number, c4: number, c5: number, c6: number) =>
    clamp01(c0 + x * (c1 + x * (c2 + x * (c3 + x * (c4 + x * (c5 + x * c6))))));
  return [
    c(0.2777273272234177, 0.1050930431085774, -0.3308618287255563, -4.634230498983486, 6.228269936347081, 4.776384997670288, -5.435455855934631),
    c(0.005407344544966578, 1.404613529898575, 0.214847559468213, -5.799100973351585, 14.17993336680509, -13.74514537774601, 4.645852612178535),
    c(0.3340998053353061, 1.384590162594685, 0.09509516302823659, -19.33244095627987, 56.69055260068105, -65.35303263337234, 26.3124352495832),
  ];
}

const MAPS: Record<ScalarMapName, (t: number) => Rgb> = { turbo, viridis };

/** 256-entry RGB lookup table (flat, 0..1), so colouring millions of points costs no polynomial per point. */
export function buildLut(name: ScalarMapName, size = 256): Float32Array {
  const lut = new Float32Array(size * 3);
  for (let i = 0; i < size; i++) lut.set(MAPS[name](i / (size - 1)), i * 3);
  return lut;
}

export interface ScalarRange {
  min: number;
  max: number;
}

/**
 * Robust [lo, hi] quantile range of the finite values, from an evenly strided sample of at
 * most `maxSamples` values (sorting millions of floats would stall the UI for no visible gain).
 * Empty input gives [0, 1]; a constant input is widened by ±0.5 so it still maps to one colour.
 */
export function percentileRange(
  values: ArrayLike<number>,
  lo = 0.02,
  hi = 0.98,
  maxSamples = 65_536,
): ScalarRange {
  const n = values.length;
  const stride = Math.max(1, Math.floor(n / maxSamples));
  const sample: number[] = [];
  for (let i = 0; i < n; i += stride) {
    const v = values[i]!;
    if (Number.isFinite(v)) sample.push(v);
  }
  if (sample.length === 0) return { min: 0, max: 1 };
  const sorted = Float64Array.from(sample).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]!;
  let min = at(lo);
  let max = at(hi);
  if (!(max > min)) {
    min -= 0.5;
    max += 0.5;
  }
  return { min, max };
}

/**
 * Writes RGBA (0..1) for each value into `out` (length 4·n): value → LUT index over `range`,
 * clamped at both ends; non-finite values get mid grey.
 */
export function scalarColors(values: ArrayLike<number>, range: ScalarRange, lut: Float32Array, out: Float32Array): Float32Array {
  const size = lut.length / 3;
  const scale = (size - 1) / (range.max - range.min);
  for (let i = 0, n = values.length; i < n; i++) {
    const v = values[i]!;
    const o = i * 4;
    if (!Number.isFinite(v)) {
      out[o] = out[o + 1] = out[o + 2] = 0.5;
    } else {
      let k = Math.round((v - range.min) * scale);
      k = k < 0 ? 0 : k >= size ? size - 1 : k;
      out[o] = lut[k * 3]!;
      out[o + 1] = lut[k * 3 + 1]!;
      out[o + 2] = lut[k * 3 + 2]!;
    }
    out[o + 3] = 1;
  }
  return out;
}

/** Categorical palette (Tableau 10, distinguishable on a dark background); index 0 is unlabeled grey. */
const CLASS_PALETTE: Rgb[] = [
  [0.55, 0.57, 0.6],
  [0.306, 0.475, 0.655],
  [0.949, 0.557, 0.169],
  [0.882, 0.341, 0.349],
  [0.463, 0.718, 0.698],
  [0.349, 0.631, 0.31],
  [0.929, 0.788, 0.282],
  [0.69, 0.478, 0.631],
  [1.0, 0.616, 0.655],
  [0.612, 0.459, 0.373],
  [0.729, 0.69, 0.675],
];

/** Colour of a class id: 0 is grey; 1..255 cycle through the ten categorical colours. */
export function classColor(id: number): Rgb {
  if (id <= 0) return CLASS_PALETTE[0]!;
  return CLASS_PALETTE[1 + ((id - 1) % (CLASS_PALETTE.length - 1))]!;
}

export function classColors(ids: ArrayLike<number>, out: Float32Array): Float32Array {
  const table = new Float32Array(256 * 3);
  for (let i = 0; i < 256; i++) table.set(classColor(i), i * 3);
  for (let i = 0, n = ids.length; i < n; i++) {
    const k = (ids[i]! & 255) * 3;
    const o = i * 4;
    out[o] = table[k]!;
    out[o + 1] = table[k + 1]!;
    out[o + 2] = table[k + 2]!;
    out[o + 3] = 1;
  }
  return out;
}

export function rgbCss([r, g, b]: Rgb): string {
  return `rgb(${Math.round(r * 255)}, ${Math.round(g * 255)}, ${Math.round(b * 255)})`;
}

/** CSS left-to-right gradient of a map, for the legend bar. */
export function cssGradient(name: ScalarMapName, stops = 16): string {
  const parts: string[] = [];
  for (let i = 0; i <= stops; i++) parts.push(`${rgbCss(MAPS[name](i / stops))} ${((i / stops) * 100).toFixed(1)}%`);
  return `linear-gradient(to right, ${parts.join(', ')})`;
}

// ---------- costmaps ----------

/** The colour of an unknown costmap cell (0–255 RGB). */
export const UNKNOWN_COST_RGB = [28, 28, 34] as const;

/**
 * The costmap ramp (0–255 RGB) of a cost 0 … 100: green (0) through yellow (50) to red (100);
 * ≥ lethalCost lethal red. Cost is a traffic light for a driver — green drivable, red lethal,
 * the lethal threshold a hard edge — so it uses this ramp rather than turbo or viridis. The
 * study report's PNGs and the Studies page both draw with it, so they read the same.
 */
export function costColour(c: number, lethalCost: number): [number, number, number] {
  if (c >= lethalCost) return [230, 40, 40];
  const t = Math.max(0, Math.min(100, c)) / 100;
  if (t < 0.5) {
    const u = t / 0.5;
    return [Math.round(40 + 200 * u), Math.round(130 + 70 * u), Math.round(50 - 10 * u)];
  }
  const u = (t - 0.5) / 0.5;
  return [Math.round(240 - 40 * u), Math.round(200 - 150 * u), Math.round(40 - 10 * u)];
}
