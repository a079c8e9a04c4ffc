/** Histogram binning for the small chart beside the viewport (pure, unit-tested). */

export interface Histogram {
  /** bins + 1 edges, ascending. */
  edges: number[];
  counts: number[];
  /** Values below min / above max, counted into the first / last bin (matching the colour clamp). */
  clampedLow: number;
  clampedHigh: number;
}

export function histogram(values: ArrayLike<number>, min: number, max: number, bins = 40): Histogram {
  const counts = new Array<number>(bins).fill(0);
  const width = (max - min) / bins;
  let clampedLow = 0;
  let clampedHigh = 0;
  for (let i = 0, n = values.length; i < n; i++) {
    const v = values[i]!;
    if (!Number.isFinite(v)) continue;
    let k = Math.floor((v - min) / width);
    if (v < min) {
      clampedLow++;
      k = 0;
    } else if (v > max) {
      clampedHigh++;
      k = bins - 1;
    } else if (k >= bins) k = bins - 1; // v === max
    counts[k]!++;
  }
  const edges = Array.from({ length: bins + 1 }, (_, i) => min + i * width);
  return { edges, counts, clampedLow, clampedHigh };
}
