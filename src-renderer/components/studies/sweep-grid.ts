/**
 * A mount sweep as a heatmap (pure; unit-tested): for each profile run with several mounts, the
 * mount fields that vary, a grid over two of them (rows: the y field, highest value on top;
 * columns: the x field, ascending), each cell the run at those values — the other varying fields
 * held at a chosen slice — and its metric. Colours share one scale across profiles so sensors
 * compare, with the better end bright whichever way the metric runs.
 */
import type { StudySensorResult } from '../../../src-main/api/contract';
import { viridis, type Rgb } from '../../../src-common/colormaps';
import { MOUNT_KEYS, METRIC_BY_KEY, metricValue, rankValue, type MetricKey, type MountKey } from './study-format';

export interface SweepGroup {
  profile: string;
  runs: StudySensorResult[];
  /** Mount fields taking more than one value among these runs, in MOUNT_KEYS order. */
  varying: MountKey[];
}

const distinct = (runs: readonly StudySensorResult[], k: MountKey) => [...new Set(runs.map((r) => r.mount[k]))].sort((a, b) => a - b);

/** Profiles swept over mounts (at least two runs differing in a mount field), in first-seen order. */
export function sweepGroups(results: readonly StudySensorResult[]): SweepGroup[] {
  const by = new Map<string, StudySensorResult[]>();
  for (const r of results) by.set(r.profile, [...(by.get(r.profile) ?? []), r]);
  const out: SweepGroup[] = [];
  for (const [profile, runs] of by) {
    const varying = MOUNT_KEYS.filter((k) => distinct(runs, k).length > 1);
    if (runs.length >= 2 && varying.length) out.push({ profile, runs, varying });
  }
  return out;
}

/** Mount fields that vary in any group (the axis choices). */
export function varyingKeys(groups: readonly SweepGroup[]): MountKey[] {
  return MOUNT_KEYS.filter((k) => groups.some((g) => g.varying.includes(k)));
}

/** Rows: height when it varies; columns: pitch when it varies; else the next varying fields. x is null for a one-field sweep. */
export function defaultAxes(varying: readonly MountKey[]): { y: MountKey; x: MountKey | null } {
  const y = varying.includes('height') ? 'height' : varying[0] ?? 'height';
  const rest = varying.filter((k) => k !== y);
  const x = rest.includes('pitchDeg') ? 'pitchDeg' : rest[0] ?? null;
  return { y, x };
}

export interface SweepCell {
  /** The run at this cell, or null when the sweep has none there. */
  seq: number | null;
  value: number | null;
  /** What the colour ranks by (rankValue: null where the value does not compare). */
  rank: number | null;
  xv: number | null;
  yv: number;
}

export interface SweepGrid {
  profile: string;
  xKey: MountKey | null;
  yKey: MountKey;
  /** Column values ascending ([null] for a one-field sweep). */
  xs: (number | null)[];
  /** Row values, highest first. */
  ys: number[];
  cells: SweepCell[][];
}

/**
 * The grid of `group` over yKey × xKey; runs must also match `slice` on the other fields (a field
 * absent from `slice` takes its lowest value). Where several runs share a cell, the first counts.
 */
export function sweepGrid(
  group: SweepGroup,
  yKey: MountKey,
  xKey: MountKey | null,
  metric: MetricKey,
  slice: Partial<Record<MountKey, number>> = {},
  loop: 'closed' | 'open' = 'closed',
): SweepGrid {
  const others = MOUNT_KEYS.filter((k) => k !== yKey && k !== xKey && group.varying.includes(k));
  const fixed = Object.fromEntries(others.map((k) => [k, slice[k] !== undefined && distinct(group.runs, k).includes(slice[k]!) ? slice[k]! : distinct(group.runs, k)[0]!])) as Partial<Record<MountKey, number>>;
  const runs = group.runs.filter((r) => others.every((k) => r.mount[k] === fixed[k]));
  const ys = distinct(runs, yKey).reverse();
  const xs: (number | null)[] = xKey ? distinct(runs, xKey) : [null];
  const cells = ys.map((yv) =>
    xs.map((xv): SweepCell => {
      const r = runs.find((q) => q.mount[yKey] === yv && (xKey === null || q.mount[xKey] === xv));
      return { seq: r ? r.seq : null, value: r ? metricValue(r, metric) : null, rank: r ? rankValue(r, metric, loop) : null, xv, yv };
    }),
  );
  return { profile: group.profile, xKey, yKey, xs, ys, cells };
}

/** Values of other varying fields to choose a slice from (fields not on the axes). */
export function sliceChoices(groups: readonly SweepGroup[], yKey: MountKey, xKey: MountKey | null): { key: MountKey; values: number[] }[] {
  return varyingKeys(groups)
    .filter((k) => k !== yKey && k !== xKey)
    .map((key) => ({ key, values: [...new Set(groups.flatMap((g) => g.runs.map((r) => r.mount[key])))].sort((a, b) => a - b) }));
}

/**
 * Maps a metric value to [0, 1] with 1 the better end (the higher one for a metric that is neither
 * better nor worse) over the values given; a metric whose
 * values are all equal maps to 0.5; null (e.g. never reached the goal) to null.
 */
export function metricScale(values: readonly (number | null)[], metric: MetricKey): (v: number | null) => number | null {
  const finite = values.filter((v): v is number => v !== null && Number.isFinite(v));
  const lo = Math.min(...finite), hi = Math.max(...finite);
  const higher = METRIC_BY_KEY[metric].better !== 'lower'; // 'none': brighter is simply more
  return (v) => {
    if (v === null || !Number.isFinite(v) || !finite.length) return null;
    if (!(hi > lo)) return 0.5;
    const t = (v - lo) / (hi - lo);
    return higher ? t : 1 - t;
  };
}

/** Cell colour: viridis of the scaled value (bright = better); no value: neutral dark grey. */
export function cellColour(t: number | null): Rgb {
  return t === null ? [0.22, 0.23, 0.26] : viridis(t);
}

/** Dark text on the bright end of viridis, light text on the dark end. */
export function cellTextDark(t: number | null): boolean {
  return t !== null && t > 0.55;
}
