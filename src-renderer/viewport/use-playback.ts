/**
 * Playback of a log or run over its accumulated cloud: the timeline (packet times, sweeps,
 * trajectory) loaded once per id, a position (a packet index), stepping by sweep or packet,
 * playing against the log's own clock at a chosen speed, and the current range's points and
 * misses fetched from the host (one request at a time; when it returns, the latest position is
 * fetched next, so a fast play skips ranges instead of queueing them).
 *
 * `overlay` is what the viewport draws over the cloud. Its parts are separate computeds, so moving
 * the sensor while playing does not rebuild the highlighted sweep.
 */
import { computed, onBeforeUnmount, ref, shallowRef, watch } from 'vue';
import type { Ref } from 'vue';
import type { CloudData, ColorMode, Timeline } from '../../src-main/api/contract';
import { api } from '../api';
import { useAppStore } from '../stores/app';
import { colorizeCloud, type Legend } from './cloud-colors';
import type { ViewportOverlay } from './playback-layers';
import { playAt, positionAt, shownRange, step as stepFrom, sweepAt, type StepUnit } from './playback';

/** Most points of one range to fetch (a sweep of an HDL-64E is ~130 k). */
const RANGE_BUDGET = 300_000;
const MISS_BUDGET = 12_000;
const MISS_LENGTH_M = 15;

export const SPEEDS = [0.1, 0.25, 0.5, 1, 2, 4] as const;

export interface PlaybackOptions {
  kind: 'log' | 'run';
  id: () => number;
  colorMode: Ref<ColorMode>;
  /** The whole cloud's legend: the highlighted range is coloured on its scale. */
  legend: () => Legend | null;
}

interface Wanted {
  id: number;
  from: number;
  to: number;
  misses: boolean;
}

export function usePlayback(opts: PlaybackOptions) {
  const app = useAppStore();
  const timeline = shallowRef<Timeline | null>(null);
  const packet = ref(0);
  const unit = ref<StepUnit>(sessionStorage.getItem('thicket.playbackUnit') === 'packet' ? 'packet' : 'sweep');
  const playing = ref(false);
  const speed = ref(1);
  const highlight = ref(true);
  const misses = ref(sessionStorage.getItem('thicket.showMisses') === '1');
  const rangeCloud = shallowRef<CloudData | null>(null);
  const fetching = ref(false);
  // Declared before the watchers below run (some run immediately).
  let have: Wanted | null = null;
  let inFlight = false;
  let raf = 0;
  let anchor = { wall: 0, time: 0 };
  let tseq = 0;

  watch(unit, (u) => sessionStorage.setItem('thicket.playbackUnit', u));
  watch(misses, (m) => sessionStorage.setItem('thicket.showMisses', m ? '1' : '0'));

  const packets = computed(() => timeline.value?.packets ?? 0);
  const sweeps = computed(() => timeline.value?.sweepStart.length ?? 0);
  const sweep = computed(() => (timeline.value ? sweepAt(timeline.value, packet.value) : 0));
  const time = computed(() => timeline.value?.packetTime[packet.value] ?? 0);
  const duration = computed(() => (timeline.value && packets.value ? timeline.value.packetTime[packets.value - 1]! : 0));
  const range = computed(() => (timeline.value && packets.value ? shownRange(timeline.value, packet.value, unit.value) : null));

  // ---------- the timeline ----------

  async function loadTimeline(): Promise<void> {
    const mine = ++tseq;
    pause();
    timeline.value = null;
    rangeCloud.value = null;
    have = null;
    packet.value = 0;
    try {
      const t = await api.call(opts.kind === 'log' ? 'logs.timeline' : 'runs.timeline', { id: opts.id() });
      if (mine === tseq) timeline.value = t;
    } catch (e) {
      // A missing log is shown by the page itself (useCloudSource).
      if (mine === tseq && (e as { code?: string }).code !== 'not_found') app.reportError('Cannot load the timeline', e);
    }
  }
  watch(opts.id, loadTimeline, { immediate: true });

  // ---------- the current range's points and misses ----------

  function wanted(): Wanted | null {
    const r = range.value;
    if (!r || (!highlight.value && !misses.value)) return null;
    return { id: opts.id(), from: r.from, to: r.to, misses: misses.value };
  }

  const same = (a: Wanted | null, b: Wanted | null) => !!a && !!b && a.id === b.id && a.from === b.from && a.to === b.to && a.misses === b.misses;

  async function pump(): Promise<void> {
    if (inFlight) return;
    const want = wanted();
    if (!want) {
      rangeCloud.value = null;
      have = null;
      return;
    }
    if (same(want, have)) return;
    inFlight = true;
    fetching.value = true;
    try {
      const request = { id: want.id, budget: RANGE_BUDGET, packets: { from: want.from, to: want.to }, misses: want.misses, missBudget: MISS_BUDGET, missLengthM: MISS_LENGTH_M };
      const c = await api.call(opts.kind === 'log' ? 'logs.cloud' : 'runs.cloud', request);
      if (want.id === opts.id()) rangeCloud.value = c;
    } catch (e) {
      pause();
      if ((e as { code?: string }).code !== 'not_found') app.reportError('Cannot load the sweep', e);
    } finally {
      // Also after a failure: the same range is not asked again until the position moves.
      have = want;
      inFlight = false;
      fetching.value = false;
    }
    void pump();
  }
  watch([range, highlight, misses, () => opts.id()], () => void pump(), { immediate: true });

  // ---------- moving ----------

  function tick(): void {
    const t = timeline.value;
    if (!playing.value || !t) return;
    const now = anchor.time + ((performance.now() - anchor.wall) / 1000) * speed.value;
    const at = playAt(t, now, unit.value);
    packet.value = at.packet;
    if (at.ended) playing.value = false;
    else raf = requestAnimationFrame(tick);
  }

  function play(): void {
    const t = timeline.value;
    if (!t || t.packets <= 1) return;
    // At the end, play again from the start.
    if (packet.value >= t.packets - 1 || (unit.value === 'sweep' && sweep.value === sweeps.value - 1)) packet.value = 0;
    anchor = { wall: performance.now(), time: t.packetTime[packet.value]! };
    playing.value = true;
    cancelAnimationFrame(raf);
    raf = requestAnimationFrame(tick);
  }

  function pause(): void {
    playing.value = false;
    cancelAnimationFrame(raf);
  }

  function toggle(): void {
    if (playing.value) pause();
    else play();
  }

  /** Step `count` times in the current unit (pauses playing). */
  function step(dir: 1 | -1, count = 1): void {
    const t = timeline.value;
    if (!t) return;
    pause();
    let p = packet.value;
    for (let i = 0; i < count; i++) p = stepFrom(t, p, unit.value, dir);
    packet.value = p;
  }

  function seek(p: number): void {
    if (!timeline.value) return;
    pause();
    packet.value = Math.min(Math.max(0, Math.round(p)), Math.max(0, packets.value - 1));
  }

  function setUnit(u: StepUnit): void {
    unit.value = u;
    // Sweep steps land on sweep starts; re-anchor a running play on the new unit's clock.
    if (playing.value) play();
  }

  function setSpeed(s: number): void {
    speed.value = s;
    if (playing.value) play();
  }

  const setHighlight = (on: boolean) => void (highlight.value = on);
  const setMisses = (on: boolean) => void (misses.value = on);

  onBeforeUnmount(() => {
    tseq++;
    pause();
  });

  // ---------- what the viewport draws ----------

  const highlightPoints = computed(() => {
    const c = rangeCloud.value;
    if (!highlight.value || !c) return null;
    const legend = opts.legend();
    const scale = legend?.kind === 'scalar' && legend.mode === opts.colorMode.value ? legend.range : undefined;
    return { positions: c.positions, colors: colorizeCloud(c, opts.colorMode.value, undefined, scale).colors };
  });
  const missRays = computed(() => (misses.value ? (rangeCloud.value?.misses?.segments ?? null) : null));
  const trajectory = computed(() => timeline.value?.trajectory.position ?? null);
  const sensor = computed(() => (timeline.value ? positionAt(timeline.value.trajectory, packet.value) : null));

  const overlay = computed<ViewportOverlay>(() => ({
    trajectory: trajectory.value,
    sensor: sensor.value,
    highlight: highlightPoints.value,
    misses: missRays.value,
  }));

  return {
    timeline,
    packet,
    unit,
    playing,
    speed,
    highlight,
    misses,
    rangeCloud,
    fetching,
    packets,
    sweeps,
    sweep,
    time,
    duration,
    range,
    overlay,
    play,
    pause,
    toggle,
    step,
    seek,
    setUnit,
    setSpeed,
    setHighlight,
    setMisses,
  };
}

export type Playback = ReturnType<typeof usePlayback>;
