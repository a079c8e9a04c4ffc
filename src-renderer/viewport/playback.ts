/**
 * Playback over a log's timeline, as pure functions (no Vue, no DOM; unit-tested): which sweep a
 * packet is in, the packets to show for a position, stepping by packet or by sweep, the packet at
 * a playback time, and the sensor position at a packet on the decimated trajectory.
 */
import type { Timeline } from '../../src-main/api/contract';

export type StepUnit = 'sweep' | 'packet';

type Sweeps = Pick<Timeline, 'packets' | 'sweepStart'>;

/** Index of the last element ≤ v in an ascending array (−1 when every element is greater). */
export function lastAtOrBelow(sorted: ArrayLike<number>, v: number): number {
  let lo = 0;
  let hi = sorted.length; // answer + 1 lies in [lo, hi]
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

export function sweepCount(t: Sweeps): number {
  return t.sweepStart.length;
}

/** The sweep holding `packet`. */
export function sweepAt(t: Sweeps, packet: number): number {
  return Math.max(0, lastAtOrBelow(t.sweepStart, packet));
}

/** Packets of sweep `s`: [from, to). */
export function sweepRange(t: Sweeps, s: number): { from: number; to: number } {
  const k = Math.min(Math.max(0, s), t.sweepStart.length - 1);
  return { from: t.sweepStart[k]!, to: k + 1 < t.sweepStart.length ? t.sweepStart[k + 1]! : t.packets };
}

/**
 * The packets to highlight at `packet`: stepping by sweep, the whole sweep; stepping by packet,
 * the sweep so far (its start up to and including `packet`), so the scan is seen building up.
 */
export function shownRange(t: Sweeps, packet: number, unit: StepUnit): { from: number; to: number } {
  const r = sweepRange(t, sweepAt(t, packet));
  return unit === 'sweep' ? r : { from: r.from, to: Math.min(r.to, packet + 1) };
}

/** One step (dir = ±1) from `packet`: to the neighbouring packet, or to the start of the neighbouring sweep. */
export function step(t: Sweeps, packet: number, unit: StepUnit, dir: 1 | -1): number {
  if (t.packets <= 0) return 0;
  if (unit === 'packet') return Math.min(t.packets - 1, Math.max(0, packet + dir));
  const s = sweepAt(t, packet);
  const start = t.sweepStart[s]!;
  // Stepping back from inside a sweep goes to its own start first.
  if (dir < 0 && packet > start) return start;
  return sweepRange(t, s + dir).from;
}

/** The packet playing at time `time` (seconds since the log's start): the last one fired by then. */
export function packetAtTime(packetTime: Float64Array, time: number): number {
  return Math.max(0, lastAtOrBelow(packetTime, time));
}

/**
 * Where playback is at log time `time` (seconds since the log's start): by packet, the last packet
 * fired by then; by sweep, the start of the sweep playing by then. `ended` once past the last packet.
 */
export function playAt(t: Pick<Timeline, 'packets' | 'sweepStart' | 'packetTime'>, time: number, unit: StepUnit): { packet: number; ended: boolean } {
  if (t.packets <= 0) return { packet: 0, ended: true };
  const last = t.packets - 1;
  const p = Math.min(last, packetAtTime(t.packetTime, time));
  const ended = time >= t.packetTime[last]!;
  return { packet: unit === 'packet' ? p : t.sweepStart[sweepAt(t, p)]!, ended };
}

/** Sensor position at `packet`, linearly interpolated between the kept trajectory poses; null without poses. */
export function positionAt(traj: Timeline['trajectory'], packet: number): [number, number, number] | null {
  const n = traj.packet.length;
  if (n === 0) return null;
  const i = lastAtOrBelow(traj.packet, packet);
  const at = (k: number): [number, number, number] => [traj.position[3 * k]!, traj.position[3 * k + 1]!, traj.position[3 * k + 2]!];
  if (i < 0) return at(0);
  if (i >= n - 1) return at(n - 1);
  const a = traj.packet[i]!;
  const b = traj.packet[i + 1]!;
  const f = (packet - a) / (b - a);
  const p = at(i);
  const q = at(i + 1);
  return [p[0] + f * (q[0] - p[0]), p[1] + f * (q[1] - p[1]), p[2] + f * (q[2] - p[2])];
}

type KeyTarget = { tagName?: string; isContentEditable?: boolean; closest?: (selector: string) => unknown };

/** Controls that use space or the arrows themselves: sliders and Naive's select boxes. */
const OWN_KEYS = '[role="slider"], .n-slider, .n-base-selection';

/** Whether a key press belongs to a text field or a control that uses those keys (playback must leave it alone). */
export function isTypingTarget(el: KeyTarget | null): boolean {
  if (!el) return false;
  const tag = (el.tagName ?? '').toLowerCase();
  if (tag === 'input' || tag === 'textarea' || tag === 'select' || el.isContentEditable === true) return true;
  return typeof el.closest === 'function' && el.closest(OWN_KEYS) !== null;
}

/**
 * The playback key bindings: space plays or pauses; ←/→ step back/forward (with Shift ten at a
 * time); Home and End go to the first and the last packet.
 */
export function playbackKey(
  key: string,
  shift: boolean,
): { action: 'toggle' } | { action: 'step'; dir: 1 | -1; count: number } | { action: 'seek'; to: 'first' | 'last' } | null {
  if (key === ' ' || key === 'Spacebar') return { action: 'toggle' };
  if (key === 'Home') return { action: 'seek', to: 'first' };
  if (key === 'End') return { action: 'seek', to: 'last' };
  if (key === 'ArrowRight') return { action: 'step', dir: 1, count: shift ? 10 : 1 };
  if (key === 'ArrowLeft') return { action: 'step', dir: -1, count: shift ? 10 : 1 };
  return null;
}
