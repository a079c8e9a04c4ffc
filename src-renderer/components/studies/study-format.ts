/**
 * Pure display helpers of the Studies pages (no Vue, no DOM; unit-tested): the metrics and how
 * each reads (unit, which way is better), mount and run labels, outcomes, the list's one-line
 * result summary, which runs the study page shows first, and its ?runs= query.
 */
import type { StudyData, StudyMount, StudySensorResult, StudyState } from '../../../src-main/api/contract';
import { formatCount } from '../../format';
import { finiteOrNull } from '../../form-check';

export const MOUNT_KEYS = ['height', 'pitchDeg', 'yawDeg', 'x', 'y'] as const;
export type MountKey = (typeof MOUNT_KEYS)[number];

export const MOUNT_FIELDS: Record<MountKey, { label: string; unit: string; hint: string }> = {
  height: { label: 'Height', unit: 'm', hint: 'Sensor height above the ground' },
  pitchDeg: { label: 'Pitch', unit: '°', hint: 'Positive tilts the sensor down' },
  yawDeg: { label: 'Yaw', unit: '°', hint: 'Counter-clockwise from the vehicle’s forward axis' },
  x: { label: 'Forward', unit: 'm', hint: 'Ahead of the footprint’s centre' },
  y: { label: 'Left', unit: 'm', hint: 'Left of the footprint’s centre' },
};

export type MetricKey = 'cellsObserved' | 'pathLength' | 'timeToGoal' | 'collisions' | 'falseObstacles' | 'missedObstacles' | 'replans' | 'lethalCells' | 'points';

export interface MetricSpec {
  key: MetricKey;
  label: string;
  unit: string;
  /** Which way is better; 'none' for context counts that are neither (more lethal cells is not worse mapping). */
  better: 'higher' | 'lower' | 'none';
  digits: number;
  hint: string;
}

/** The issue's seven metrics first (the CLI's fields, in its order), then two context counts. */
export const METRICS: readonly MetricSpec[] = [
  { key: 'cellsObserved', label: 'Cells observed', unit: '', better: 'higher', digits: 0, hint: 'Cells holding at least one return at the end' },
  { key: 'pathLength', label: 'Path length', unit: 'm', better: 'lower', digits: 1, hint: 'Closed loop: metres driven. Open loop: the A* path from start to goal on the final map' },
  { key: 'timeToGoal', label: 'Time to goal', unit: 's', better: 'lower', digits: 2, hint: 'Simulated seconds until the vehicle was within the goal tolerance; — if never' },
  { key: 'collisions', label: 'Collisions', unit: '', better: 'lower', digits: 0, hint: 'Closed loop: 1 if the run ended on a solid obstacle. Open loop: solid obstacles the route touched' },
  { key: 'falseObstacles', label: 'False obstacles', unit: '', better: 'lower', digits: 0, hint: 'Lethal cells holding only vegetation lower than h_max in ground truth' },
  { key: 'missedObstacles', label: 'Missed obstacles', unit: '', better: 'lower', digits: 0, hint: 'Solid obstacles near the track from which no return reached the map' },
  { key: 'replans', label: 'Replans', unit: '', better: 'lower', digits: 0, hint: 'Times the planner switched to another route' },
  { key: 'lethalCells', label: 'Lethal cells', unit: '', better: 'none', digits: 0, hint: 'Cells at or above the lethal cost at the end' },
  { key: 'points', label: 'Points', unit: '', better: 'none', digits: 0, hint: 'Returns registered into the map' },
];

export const METRIC_BY_KEY: Readonly<Record<MetricKey, MetricSpec>> = Object.fromEntries(METRICS.map((m) => [m.key, m])) as Record<MetricKey, MetricSpec>;

export function metricValue(r: StudySensorResult, key: MetricKey): number | null {
  return finiteOrNull(r[key]);
}

/**
 * The value to rank runs by (best marks, heatmap colours): a closed-loop run's path length is the
 * distance it drove, which says "better" only for runs that reached the goal — a run that stopped
 * at a collision after 3 m did not do better than one that drove 40 m — so other runs have none.
 */
export function rankValue(r: StudySensorResult, key: MetricKey, loop: 'closed' | 'open'): number | null {
  if (key === 'pathLength' && loop === 'closed' && r.outcome !== 'goal') return null;
  return metricValue(r, key);
}

export function formatMetric(key: MetricKey, v: number | null): string {
  if (v === null) return '—';
  const spec = METRIC_BY_KEY[key];
  return spec.digits === 0 ? formatCount(v) : v.toFixed(spec.digits);
}

const signed = (v: number) => (v < 0 ? `−${+(-v).toFixed(2)}` : `${+v.toFixed(2)}`);

/** "2 m · pitch 5°", plus yaw and position when set. */
export function mountLabel(m: StudyMount): string {
  const parts = [`${+m.height.toFixed(2)} m`, `pitch ${signed(m.pitchDeg)}°`];
  if (m.yawDeg) parts.push(`yaw ${signed(m.yawDeg)}°`);
  if (m.x || m.y) parts.push(`at (${signed(m.x)}, ${signed(m.y)}) m`);
  return parts.join(' · ');
}

export function runLabel(r: Pick<StudySensorResult, 'seq' | 'profile' | 'mount'>): string {
  return `#${r.seq} ${r.profile} · ${mountLabel(r.mount)}`;
}

/** "goal in 64.2 s", "collision at 12.0 s", "timeout at 90.0 s". */
export function outcomeText(r: Pick<StudySensorResult, 'outcome' | 'timeToGoal' | 'endTime'>): string {
  if (r.outcome === 'goal') return `goal in ${(r.timeToGoal ?? r.endTime).toFixed(1)} s`;
  return `${r.outcome} at ${r.endTime.toFixed(1)} s`;
}

export function stateTagType(state: StudyState): 'success' | 'info' | 'error' | 'warning' | 'default' {
  if (state === 'done') return 'success';
  if (state === 'running' || state === 'queued') return 'info';
  if (state === 'failed') return 'error';
  if (state === 'cancelled' || state === 'interrupted') return 'warning';
  return 'default';
}

/** Distinct profiles in first-seen order, and the number of mounts each runs with (the largest). */
export function studySensors(data: Pick<StudyData, 'definition'>): { profiles: string[]; mounts: number } {
  const count = new Map<string, number>();
  for (const s of data.definition.sensors) count.set(s.profileId, (count.get(s.profileId) ?? 0) + 1);
  return { profiles: [...count.keys()], mounts: Math.max(0, ...count.values()) };
}

/** The list's result line: outcomes counted, the fastest run to the goal, the range of false obstacles. */
export function resultSummary(results: readonly StudySensorResult[] | null): string {
  if (!results || !results.length) return '';
  const n = (o: string) => results.filter((r) => r.outcome === o).length;
  const parts = [`${n('goal')}/${results.length} reached the goal`];
  if (n('collision')) parts.push(`${n('collision')} collided`);
  const best = results.filter((r) => r.timeToGoal !== null).sort((a, b) => a.timeToGoal! - b.timeToGoal!)[0];
  if (best) parts.push(`fastest ${best.profile} ${best.timeToGoal!.toFixed(1)} s`);
  const fo = results.map((r) => r.falseObstacles);
  const lo = Math.min(...fo), hi = Math.max(...fo);
  parts.push(`false obstacles ${lo === hi ? formatCount(lo) : `${formatCount(lo)}–${formatCount(hi)}`}`);
  return parts.join(' · ');
}

export const MAX_PANELS = 4;

/**
 * The runs the study page opens with: the first mount of each profile (up to four), so sensors
 * compare side by side; a one-profile sweep shows its first four mounts instead.
 */
export function defaultPanels(results: readonly Pick<StudySensorResult, 'seq' | 'profile'>[]): number[] {
  const seen = new Set<string>();
  const firsts: number[] = [];
  for (const r of results) {
    if (seen.has(r.profile)) continue;
    seen.add(r.profile);
    firsts.push(r.seq);
  }
  if (firsts.length >= 2) return firsts.slice(0, MAX_PANELS);
  return results.slice(0, MAX_PANELS).map((r) => r.seq);
}

/** `?runs=0,3,5` → the valid, distinct run seqs in order (at most four); null if absent or none valid. */
export function parseRunsQuery(q: unknown, valid: ReadonlySet<number>): number[] | null {
  if (typeof q !== 'string' || !q) return null;
  const out: number[] = [];
  for (const part of q.split(',')) {
    const v = Number(part);
    if (Number.isInteger(v) && valid.has(v) && !out.includes(v)) out.push(v);
  }
  return out.length ? out.slice(0, MAX_PANELS) : null;
}

/**
 * Show run `seq` in a panel: nothing changes if it is shown; otherwise it is added, or, with four
 * panels up, it takes the place of `replace` (default: the last panel).
 */
export function openRun(panels: readonly number[], seq: number, replace = panels.length - 1): number[] {
  if (panels.includes(seq)) return [...panels];
  if (panels.length < MAX_PANELS) return [...panels, seq];
  const out = [...panels];
  out[Math.max(0, Math.min(out.length - 1, replace))] = seq;
  return out;
}

/** File name of the saved report: "study-7-vlp16-vs-hdl64e.html". */
export function reportFileName(id: number, name: string): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60);
  return `study-${id}${slug ? `-${slug}` : ''}.html`;
}
