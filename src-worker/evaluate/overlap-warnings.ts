/**
 * Warnings for a run and a log that barely overlap (docs/methods.md §6, *Overlap*): figures over a
 * sliver of either side look as plausible as figures over the whole, so the result says, with
 * the numbers, when few rays of a side found a partner or the two time spans hardly meet.
 */

/** Fraction of the shorter span that the two share; a span of one instant counts 1 inside the other, else 0. */
export function spanOverlap(a: [number, number], b: [number, number]): number {
  const lo = Math.max(a[0], b[0]), hi = Math.min(a[1], b[1]);
  const shorter = Math.min(a[1] - a[0], b[1] - b[0]);
  if (!(shorter > 0)) return hi >= lo ? 1 : 0;
  return Math.max(0, hi - lo) / shorter;
}

export interface OverlapFigures {
  rays: { real: number; sim: number };
  paired: number;
  pairedFraction: { real: number; sim: number };
  timeOverlap: { real: [number, number]; sim: [number, number]; fraction: number };
  pairing: 'time' | 'index' | 'rays';
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const span = ([a, b]: [number, number]) => `${a.toFixed(3)}…${b.toFixed(3)} s`;

export function overlapWarnings(f: OverlapFigures, min: number): string[] {
  const out: string[] = [];
  if (f.pairedFraction.real < min) {
    out.push(`only ${pct(f.pairedFraction.real)} of the real log's rays paired (${f.paired} of ${f.rays.real}): the figures describe that part only`);
  }
  if (f.pairedFraction.sim < min) {
    out.push(`only ${pct(f.pairedFraction.sim)} of the simulated run's rays paired (${f.paired} of ${f.rays.sim}): the figures describe that part only`);
  }
  // Index and ray-for-ray pairing ignore the times, so their spans need not meet.
  if (f.pairing === 'time' && f.timeOverlap.fraction < min) {
    out.push(`the run's and the log's times overlap for ${pct(f.timeOverlap.fraction)} of the shorter (log ${span(f.timeOverlap.real)}, run ${span(f.timeOverlap.sim)} after the offset)`);
  }
  return out;
}
