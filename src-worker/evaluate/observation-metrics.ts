/**
 * Observation-level evaluation of a simulation against a real log (docs/methods.md §6; thesis 004
 * §4.3.2 eq. 4.3–4.9; seed 000 Table I):
 *
 *  1. Rays are paired (`packetPairing`):
 *     - 'time' (default): by firing time and direction across packet boundaries
 *       (window-pairing.ts): the run's times are shifted so the first packets coincide (unless an
 *       offset is given); each real packet gathers the simulated packets fired within its time
 *       window (sim-window.ts) — its rays' firing times ± `timeToleranceS`, or, for a scan whose
 *       rays carry no firing times, from its time to the next scan's — and each real ray pairs
 *       with the simulated ray of its direction fired nearest in time. So a one-packet scan
 *       pairs with a simulated revolution cut into any number of packets. A simulated packet of
 *       the same time, ray count and directions pairs index by index (the fast path);
 *     - 'index': the k-th real packet with the k-th simulated one, rays by direction (ray-pairing.ts);
 *     - 'rays': ray for ray, for a run simulated from the log's own rays (simulate/log-rays.ts):
 *       the k-th first return of real packet k with the k-th ray of simulated packet k, checked
 *       (another count or direction is an error: the run was not made from this log).
 *     Rays and packets left over are counted.
 *  2. Only pairs inside the region (region-filter.ts) are scored.
 *  3. Per ray pair: true hit (both hit), false hit (simulated hit, real miss), false miss
 *     (simulated miss, real hit), true miss.
 *  4. Packet error (eq. 4.3): per real packet the mean over its true hits of ‖y − ŷ‖, y and ŷ the
 *     world points (each ray moved by its own packet's pose). The log's figure is the mean over
 *     the packets that have at least one true hit (the count of such packets is reported beside it).
 *  5. Precision TH/(TH+FH), recall TH/(TH+FM), F1 = 2·TH/(2·TH+FH+FM) (the same as 2PR/(P+R)
 *     wherever both are defined, and defined when one side never hits); the same per class of a
 *     labelled log and per range bin (breakdowns.ts).
 *  6. Point-cloud error (eq. 4.9) over the in-region hits of the packets that paired
 *     (point-cloud-error.ts): exact — when a side's cloud outgrows its sample, a second pass
 *     streams that side again (step() returns 'restart-real' / 'restart-sim' first) to measure
 *     the queries' nearest distances to the whole cloud.
 *  7. When both logs stand still (every pose within `staticTranslationM` and
 *     `staticRotationDeg` of the real log's first), the range-histogram distances over every ray
 *     of both (scan-distances.ts).
 *  8. Warnings when the run and the log barely overlap (overlap-warnings.ts).
 *
 * Streaming: the evaluator asks for chunks one side at a time (step() says which) and holds at
 * most two real chunks, the simulated packets of one time window, a bit per packet (which were
 * paired), the per-packet series (≈ 40 bytes a paired packet) and the capped point samples, so a
 * 100,000-packet log costs no more memory than a short one.
 */
import { POSE_STRIDE } from '../../src-common/packets';
import { EvaluationError, PacketCursor, Peek, type EvalChunk } from './packet-cursor';
import { RayPairer } from './ray-pairing';
import { PointReservoir, planPointCloud, type PointCloudPlan } from './point-cloud-error';
import type { ObservationMetrics, PerPacketSeries, PointCloudErrorResult, StaticScanMetrics } from '../../src-common/metrics';
import { StreamedNearest } from './streamed-nearest';
import { ScanHistogram, StaticCheck, scanBhattacharyya, scanHistogramMatch } from './scan-distances';
import { PerPacketBuilder, emptySeries } from './per-packet-series';
import { resolveEvaluationOptions, type EvaluationOptions, type ResolvedEvaluationOptions } from '../../src-common/evaluation-options';
import { formatRegion, regionProblem } from '../../src-common/evaluation-region';
import { RegionFilter } from './region-filter';
import { Breakdowns } from './breakdowns';
import { SimWindow, packetWorld, rayTimeSpan, type WindowPacket } from './sim-window';
import { WindowPairer } from './window-pairing';
import { overlapWarnings, spanOverlap } from './overlap-warnings';
import type { PacketChunk } from '../../src-common/packets';

export { EvaluationError } from './packet-cursor';

/**
 * Simulated rays held for a scan with no next scan (the log's only packet): past this, the
 * window is paired and emptied before more is read, so a short scan against a long run stays
 * bounded (its rays pair with the earliest simulated rays of their direction either way).
 * An object so a test can lower it.
 */
export const OPEN_WINDOW = { rayCap: 1_000_000 };

export interface EvaluationResult extends ObservationMetrics {
  perPacket: PerPacketSeries;
}

export interface EvaluationHooks {
  /** Called between chunks and in long loops; throw to stop. */
  checkCancelled?: () => void;
  /**
   * Called for each scored pair with at least one hit, in pairing order: the two rays' world
   * points (real at `real[a..a+2]`, simulated at `sim[b..b+2]`; meaningful only where that ray
   * hit) and ranges (NaN: a miss). The per-ray range errors (ray-errors.ts) come from here.
   */
  pair?: (real: Float64Array, a: number, sim: Float64Array, b: number, realRange: number, simRange: number) => void;
}

type Side = 'real' | 'sim';
/** What the evaluator needs next: a chunk of a side; that side read again from its start; nothing. */
export type EvaluationNeed = Side | 'restart-real' | 'restart-sim' | 'done';

/** One bit per packet index, grown as needed. */
class PacketBits {
  private bits = new Uint8Array(1024);
  set(i: number): void {
    if (i >> 3 >= this.bits.length) {
      const b = new Uint8Array(Math.max(2 * this.bits.length, (i >> 3) + 1));
      b.set(this.bits);
      this.bits = b;
    }
    this.bits[i >> 3]! |= 1 << (i & 7);
  }
  has(i: number): boolean {
    return i >> 3 < this.bits.length && (this.bits[i >> 3]! & (1 << (i & 7))) !== 0;
  }
}

/** The real packet being paired (it may take several rounds and several asks for chunks). */
interface RealPacket {
  chunk: EvalChunk;
  p: number;
  index: number;
  time: number;
  r0: number;
  r1: number;
  timed: boolean;
  /** Per ray: paired. */
  taken: Uint8Array;
  world: Float64Array;
  pairs: number;
  rounds: number;
  th: number; fh: number; fm: number; tm: number; sum: number;
  /** The simulated packet of its first pair (the per-packet series' simPacket). */
  firstSim: number;
}

/** A span of times, grown as packets come. */
class Span {
  lo = Infinity;
  hi = -Infinity;
  add(a: number, b: number): void {
    if (a < this.lo) this.lo = a;
    if (b > this.hi) this.hi = b;
  }
  get value(): [number, number] {
    return this.lo <= this.hi ? [this.lo, this.hi] : [0, 0];
  }
}

export class ObservationEvaluator {
  readonly opts: ResolvedEvaluationOptions;
  readonly real = new PacketCursor('real log');
  readonly sim = new PacketCursor('simulated run');
  private offset: number | null;
  private readonly pairer: RayPairer;
  private readonly windowPairer: WindowPairer;
  private readonly window = new SimWindow();
  private readonly cosTol: number;
  private readonly region: RegionFilter;
  private readonly breakdowns: Breakdowns;
  private readonly series = new PerPacketBuilder();
  private readonly realSample: PointReservoir | null;
  private readonly simSample: PointReservoir | null;
  private readonly staticCheck: StaticCheck;
  private realHist: ScanHistogram | null;
  private simHist: ScanHistogram | null;
  private cur: RealPacket | null = null;
  private prevRealTime: number | null = null;
  // Totals.
  private th = 0; private fh = 0; private fm = 0; private tm = 0;
  private paired = 0; private byIndex = 0; private withTh = 0; private pairedRays = 0;
  private packetErrorSum = 0; private rayErrorSum = 0;
  private unpairedRaysReal = 0; private unpairedRaysSim = 0;
  private unpairedReal = 0; private unpairedSim = 0; private unpairedRealRays = 0; private unpairedSimRays = 0;
  private realRays = 0; private simRays = 0; private regionRealRays = 0; private scoredPairs = 0;
  private readonly realSpan = new Span();
  private readonly simSpan = new Span();
  // The real sensor's path length so far.
  private travelled = 0;
  private lastPos: [number, number, number] | null = null;
  private worldScratch = new Float64Array(3 * 1024);
  private realWorld: Float64Array = new Float64Array(3 * 1024);
  private realTaken = new Uint8Array(1024);
  // Phases: pairing (the first pass), then the point-cloud error's second pass where needed.
  private phase: 'pairing' | 'refine' | 'done' = 'pairing';
  private readonly pairedRealBits = new PacketBits();
  private readonly pairedSimBits = new PacketBits();
  private plan: PointCloudPlan | null = null;
  /** Sides whose clouds stream again, each into the nearest distances of the other side's queries. */
  private readonly refineQueue: { side: Side; nearest: StreamedNearest }[] = [];
  private readonly refined: Partial<Record<Side, StreamedNearest>> = {};
  private refineCursor: PacketCursor | null = null;
  private refineSkipped = false;
  /** Packets read in the second pass so far, and the sides it reads. */
  refineConsumed = 0;
  refineSides: Side[] = [];

  constructor(options: EvaluationOptions = {}, private readonly hooks: EvaluationHooks = {}) {
    const o = (this.opts = resolveEvaluationOptions(options));
    if (!(o.directionToleranceDeg > 0) || !(o.timeToleranceS >= 0) || (o.timeOffsetS !== null && !Number.isFinite(o.timeOffsetS))) {
      throw new EvaluationError(`evaluation: bad options (direction tolerance ${o.directionToleranceDeg}°, time tolerance ${o.timeToleranceS} s, offset ${String(o.timeOffsetS)})`);
    }
    if (!(o.rangeBreakdownBinM > 0) || !(o.minOverlap >= 0 && o.minOverlap <= 1)) {
      throw new EvaluationError(`evaluation: bad options (range bin ${o.rangeBreakdownBinM} m must be > 0, minimum overlap ${o.minOverlap} within 0…1)`);
    }
    const problem = o.region ? regionProblem(o.region) : null;
    if (problem) throw new EvaluationError(`evaluation: region ${problem.where}: ${problem.reason}`);
    const tolRad = (o.directionToleranceDeg * Math.PI) / 180;
    this.pairer = new RayPairer(tolRad);
    this.windowPairer = new WindowPairer(tolRad);
    this.cosTol = Math.cos(tolRad);
    this.region = new RegionFilter(o.region);
    this.breakdowns = new Breakdowns(o.rangeBreakdownBinM, o.seed);
    this.offset = o.packetPairing === 'time' ? o.timeOffsetS : 0;
    this.realSample = o.pointCloud ? new PointReservoir(o.targetCap, o.seed, 1) : null;
    this.simSample = o.pointCloud ? new PointReservoir(o.targetCap, o.seed, 2) : null;
    this.staticCheck = new StaticCheck(o.staticTranslationM, o.staticRotationDeg);
    this.realHist = new ScanHistogram(o.scanHistogram);
    this.simHist = new ScanHistogram(o.scanHistogram);
  }

  /** Feeds the next chunk of one side (null: that side has ended). */
  feed(side: Side, chunk: EvalChunk | null): void {
    if (this.phase === 'refine') this.refineCursor!.push(chunk);
    else (side === 'real' ? this.real : this.sim).push(chunk);
  }

  get currentPhase(): 'pairing' | 'refine' | 'done' {
    return this.phase;
  }

  /**
   * Evaluates as far as the chunks fed allow; returns what it needs next: a chunk of a side, that
   * side read again from its first chunk (the point-cloud error's second pass), or nothing.
   */
  step(): EvaluationNeed {
    if (this.phase === 'pairing') {
      const need = this.opts.packetPairing === 'time' ? this.stepByTime() : this.stepByIndex();
      if (need !== 'done') return need;
      this.endPairing();
    }
    if (this.phase === 'refine') return this.stepRefine();
    return 'done';
  }

  /**
   * The side last asked to restart cannot be read again (a one-shot stream): its direction of the
   * point-cloud error stays the sample-based estimate (reported as not exact).
   */
  cannotRestart(): void {
    this.refineQueue.shift();
    this.refineCursor = null;
    this.refineSkipped = true;
  }

  /** Pairing by (firing time, direction) across packet boundaries. */
  private stepByTime(): Side | 'done' {
    const { real, sim, window } = this;
    const tol = this.opts.timeToleranceS;
    const leave = (w: WindowPacket) => this.leave(w);
    for (;;) {
      this.hooks.checkCancelled?.();
      const r = real.peek(0);
      if (r === Peek.Need) return 'real';
      if (this.offset === null) {
        const s = sim.peek(0);
        if (s === Peek.Need) return 'sim';
        const o = r === Peek.Packet && s === Peek.Packet ? real.timeAt(0) - sim.timeAt(0) : 0;
        this.offset = Number.isFinite(o) ? o : 0;
      }
      if (r === Peek.End) {
        // The rest of the run has no real packet to pair with: count it.
        const s = sim.peek(0);
        if (s === Peek.Need) return 'sim';
        if (s === Peek.Packet) {
          this.takeSim();
          window.evictBefore(Infinity, leave);
          continue;
        }
        window.evictBefore(Infinity, leave);
        return 'done';
      }
      const c = real.chunkAt(0), p = real.packetAt(0), t = c.packetTime[p]!;
      const [lo, hi] = rayTimeSpan(c, p);
      const rays = c.rayStart[p + 1]! - c.rayStart[p]!;
      const timed = rays <= 1 || hi > lo;
      let a: number, b: number;
      if (timed) {
        a = t + lo - tol;
        b = t + hi + tol;
      } else {
        // A scan without firing times: it fired from its time until the next scan's.
        const r1 = real.peek(1);
        if (r1 === Peek.Need) return 'real';
        let d = r1 === Peek.Packet ? real.timeAt(1) - t : this.prevRealTime !== null ? t - this.prevRealTime : Infinity;
        if (!(d >= 0)) d = 0;
        a = t - tol;
        b = d === Infinity ? Infinity : t + Math.max(d - tol, tol);
      }
      if (!Number.isFinite(t)) {
        this.beginReal(timed);
        this.finishReal();
        continue;
      }
      const cur = this.cur ?? this.beginReal(timed);
      window.evictBefore(a, leave);
      let more = false;
      for (;;) {
        const s = sim.peek(0);
        if (s === Peek.Need) return 'sim';
        if (s === Peek.End) break;
        const ts = sim.timeAt(0) + this.offset;
        if (!Number.isFinite(ts)) {
          this.takeSim(); // counted as unpaired when it leaves: its rays fire at no time
          continue;
        }
        if (ts > b) break;
        if (b === Infinity && window.rays >= OPEN_WINDOW.rayCap) {
          more = true;
          break;
        }
        this.takeSim();
      }
      this.pairRound(cur, a, b);
      if (more && cur.pairs < cur.r1 - cur.r0) {
        window.evictBefore(Infinity, leave);
        continue;
      }
      this.finishReal();
    }
  }

  /** One round of pairing the current real packet with the window (the fast path first). */
  private pairRound(cur: RealPacket, a: number, b: number): void {
    const first = cur.rounds++ === 0;
    if (first && this.pairSameLayout(cur)) return;
    const wp = this.windowPairer, packets = this.window.packets;
    const n = wp.pair(cur.chunk, cur.p, cur.time, cur.timed, this.opts.timeToleranceS, a, b, cur.taken, packets);
    for (let k = 0; k < n; k++) this.score(cur, wp.real[k]!, packets[wp.slot[k]!]!, wp.sim[k]!);
  }

  /**
   * The fast path: the untouched simulated packet of (nearly) the same time with as many rays,
   * pointing the same ways in the same order, pairs index by index — a run along the log's poses
   * with its profile, or from its rays.
   */
  private pairSameLayout(cur: RealPacket): boolean {
    const n = cur.r1 - cur.r0, tol = this.opts.timeToleranceS;
    let best: WindowPacket | null = null;
    for (const w of this.window.packets) {
      const dt = Math.abs(w.time - cur.time);
      if (w.pairs === 0 && dt <= tol && w.r1 - w.r0 === n && (!best || dt < Math.abs(best.time - cur.time))) best = w;
    }
    if (!best || n === 0) return false;
    const rc = cur.chunk, sc = best.chunk, rd = rc.pairDir ?? rc.rayDir, sd = sc.pairDir ?? sc.rayDir;
    for (let i = 0; i < n; i++) {
      const a = 3 * (cur.r0 + i), b = 3 * (best.r0 + i);
      const dot = rd[a]! * sd[b]! + rd[a + 1]! * sd[b + 1]! + rd[a + 2]! * sd[b + 2]!;
      if (!(dot >= this.cosTol) || rc.rayReturn[cur.r0 + i] !== sc.rayReturn[best.r0 + i]) return false;
    }
    for (let i = 0; i < n; i++) {
      cur.taken[i] = 1;
      best.used[i] = 1;
      best.pairs++;
      this.score(cur, cur.r0 + i, best, best.r0 + i);
    }
    this.byIndex++;
    return true;
  }

  /** Pairing packet k with packet k ('index': rays by direction; 'rays': ray for ray, checked). */
  private stepByIndex(): Side | 'done' {
    const { real, sim, window } = this;
    const leave = (w: WindowPacket) => this.leave(w);
    for (;;) {
      this.hooks.checkCancelled?.();
      const r = real.peek(0), s = sim.peek(0);
      if (r === Peek.Need) return 'real';
      if (s === Peek.Need) return 'sim';
      if (r === Peek.End && s === Peek.End) return 'done';
      if (r === Peek.End) {
        this.takeSim();
        window.evictBefore(Infinity, leave);
        continue;
      }
      const cur = this.beginReal(true);
      if (s === Peek.End) {
        this.finishReal();
        continue;
      }
      const w = this.takeSim();
      if (this.opts.packetPairing === 'rays') this.pairRayForRay(cur, w);
      else {
        const pr = this.pairer;
        const n = pr.pair(cur.chunk, cur.p, w.chunk, w.p);
        if (pr.byIndex) this.byIndex++;
        for (let k = 0; k < n; k++) {
          const i = pr.real[k]!, j = pr.sim[k]!;
          cur.taken[i - cur.r0] = 1;
          w.used[j - w.r0] = 1;
          w.pairs++;
          this.score(cur, i, w, j);
        }
      }
      this.finishReal();
      window.evictBefore(Infinity, leave);
    }
  }

  /** Ray for ray: the k-th first return of the real packet with the k-th simulated ray. */
  private pairRayForRay(cur: RealPacket, w: WindowPacket): void {
    const rc = cur.chunk, sc = w.chunk;
    let pulses = 0;
    for (let i = cur.r0; i < cur.r1; i++) if (rc.rayReturn[i] === 0) pulses++;
    const where = `ray-for-ray pairing, real packet ${cur.index} (time ${cur.time.toFixed(6)} s)`;
    if (pulses !== w.r1 - w.r0) {
      throw new EvaluationError(`${where}: ${pulses} pulses but simulated packet ${w.index} has ${w.r1 - w.r0} rays: the run was not simulated from this log's rays`);
    }
    let j = w.r0;
    const rd = rc.pairDir ?? rc.rayDir, sd = sc.pairDir ?? sc.rayDir;
    for (let i = cur.r0; i < cur.r1; i++) {
      if (rc.rayReturn[i] !== 0) continue;
      const dot = rd[3 * i]! * sd[3 * j]! + rd[3 * i + 1]! * sd[3 * j + 1]! + rd[3 * i + 2]! * sd[3 * j + 2]!;
      if (!(dot >= this.cosTol)) {
        const deg = (Math.acos(Math.max(-1, Math.min(1, dot))) * 180) / Math.PI;
        throw new EvaluationError(`${where}: ray ${i - cur.r0} points ${Number.isFinite(deg) ? deg.toFixed(3) : 'NaN'}° away from simulated ray ${j - w.r0} (tolerance ${this.opts.directionToleranceDeg}°): the run was not simulated from this log's rays`);
      }
      cur.taken[i - cur.r0] = 1;
      w.used[j - w.r0] = 1;
      w.pairs++;
      this.score(cur, i, w, j);
      j++;
    }
    this.byIndex++;
  }

  /** The real cursor's current packet becomes the one being paired. */
  private beginReal(timed: boolean): RealPacket {
    const c = this.real.chunkAt(0), p = this.real.packetAt(0);
    const r0 = c.rayStart[p]!, r1 = c.rayStart[p + 1]!, t = c.packetTime[p]!;
    this.observe('real', c, p);
    // One real packet is paired at a time: its buffers are reused from packet to packet.
    const world = (this.realWorld = packetWorld(c, p, this.realWorld));
    if (this.realTaken.length < r1 - r0) this.realTaken = new Uint8Array(Math.max(r1 - r0, 2 * this.realTaken.length));
    else this.realTaken.fill(0, 0, r1 - r0);
    this.realRays += r1 - r0;
    const [lo, hi] = rayTimeSpan(c, p);
    if (Number.isFinite(t)) this.realSpan.add(t + lo, t + hi);
    if (this.region.active) {
      for (let r = r0; r < r1; r++) if (this.region.ray(c.rayDir[3 * r]!, c.rayDir[3 * r + 1]!, c.rayDir[3 * r + 2]!, c.rayRange[r]!, world[3 * (r - r0)]!, world[3 * (r - r0) + 1]!, world[3 * (r - r0) + 2]!)) this.regionRealRays++;
    } else this.regionRealRays += r1 - r0;
    return (this.cur = {
      chunk: c, p, index: this.real.consumed, time: t, r0, r1, timed,
      taken: this.realTaken, world, pairs: 0, rounds: 0,
      th: 0, fh: 0, fm: 0, tm: 0, sum: 0, firstSim: -1,
    });
  }

  /** Scores one ray pair (if inside the region). */
  private score(cur: RealPacket, i: number, w: WindowPacket, j: number): void {
    cur.pairs++;
    this.pairedRays++;
    if (cur.firstSim < 0) cur.firstSim = w.index;
    const rc = cur.chunk, sc = w.chunk;
    const rr = rc.rayRange[i]!, sr = sc.rayRange[j]!;
    const a = 3 * (i - cur.r0), b = 3 * (j - w.r0);
    const rw = cur.world, sw = w.world;
    const hitR = Number.isFinite(rr), hitS = Number.isFinite(sr);
    if (this.region.active) {
      const inside = hitR || !hitS
        ? this.region.ray(rc.rayDir[3 * i]!, rc.rayDir[3 * i + 1]!, rc.rayDir[3 * i + 2]!, rr, rw[a]!, rw[a + 1]!, rw[a + 2]!)
        : this.region.ray(sc.rayDir[3 * j]!, sc.rayDir[3 * j + 1]!, sc.rayDir[3 * j + 2]!, sr, sw[b]!, sw[b + 1]!, sw[b + 2]!);
      if (!inside) return;
    }
    this.scoredPairs++;
    if (hitR && hitS) {
      const dx = rw[a]! - sw[b]!, dy = rw[a + 1]! - sw[b + 1]!, dz = rw[a + 2]! - sw[b + 2]!;
      const d = Math.sqrt(dx * dx + dy * dy + dz * dz); // Math.hypot is several times slower in V8
      // A non-finite pose makes a NaN distance: leave the pair out of the error.
      if (!Number.isFinite(d)) return;
      cur.th++;
      cur.sum += d;
    } else if (hitS) cur.fh++;
    else if (hitR) cur.fm++;
    else cur.tm++;
    if ((hitR || hitS) && this.hooks.pair) this.hooks.pair(rw, a, sw, b, rr, sr);
    this.breakdowns.add(rr, sr, rc.rayClass ? rc.rayClass[i]! : 0, sc.rayClass ? sc.rayClass[j]! : 0, rw, a, sw, b);
  }

  /** The current real packet is done: its totals, its series point, its hits into the sample. */
  private finishReal(): void {
    const cur = this.cur!;
    const rays = cur.r1 - cur.r0;
    if (cur.pairs > 0) {
      this.paired++;
      this.pairedRealBits.set(cur.index);
      this.unpairedRaysReal += rays - cur.pairs;
      const error = cur.th > 0 ? cur.sum / cur.th : NaN;
      if (cur.th > 0) {
        this.withTh++;
        this.packetErrorSum += error;
      }
      this.th += cur.th;
      this.fh += cur.fh;
      this.fm += cur.fm;
      this.tm += cur.tm;
      this.rayErrorSum += cur.sum;
      if (this.opts.perPacket) this.series.push(cur.index, cur.firstSim, cur.time, this.travelled, error, cur.th, cur.fh, cur.fm);
      if (this.realSample) addHits(cur.chunk, cur.p, cur.world, this.region, this.realSample);
    } else {
      this.unpairedReal++;
      this.unpairedRealRays += rays;
    }
    if (Number.isFinite(cur.time)) this.prevRealTime = cur.time;
    this.cur = null;
    this.real.advance();
  }

  /** The simulated cursor's current packet into the window. */
  private takeSim(): WindowPacket {
    const c = this.sim.chunkAt(0), p = this.sim.packetAt(0);
    this.observe('sim', c, p);
    const w = this.window.push(c, p, this.sim.consumed, this.offset ?? 0);
    this.simRays += w.r1 - w.r0;
    if (Number.isFinite(w.time)) this.simSpan.add(w.t0, w.t1);
    this.sim.advance();
    return w;
  }

  /** A simulated packet leaves the window: count it, and its hits into the sample if it paired. */
  private leave(w: WindowPacket): void {
    const rays = w.r1 - w.r0;
    if (w.pairs > 0) {
      this.pairedSimBits.set(w.index);
      this.unpairedRaysSim += rays - w.pairs;
      if (this.simSample) addHits(w.chunk, w.p, w.world, this.region, this.simSample);
    } else {
      this.unpairedSim++;
      this.unpairedSimRays += rays;
    }
  }

  /** End of the first pass: nothing paired (or nothing in the region) is an error; plan the second pass. */
  private endPairing(): void {
    if (this.paired === 0) {
      throw new EvaluationError(
        `no packet of the simulated run pairs with one of the real log (${this.real.consumed} real and ${this.sim.consumed} simulated packets; ` +
          (this.real.consumed === 0 || this.sim.consumed === 0
            ? 'one side has no packets)'
            : `no ray within ${this.opts.directionToleranceDeg}° and ${this.opts.timeToleranceS} s of a real one after shifting the run by ${(this.offset ?? 0).toFixed(6)} s): is the run simulated along this log's poses?`),
      );
    }
    if (this.region.active && this.scoredPairs === 0) {
      throw new EvaluationError(
        `the region ${formatRegion(this.opts.region!)} leaves nothing to score: ${this.regionRealRays} of the real log's ${this.realRays} rays are inside it, and none of the ${this.pairedRays} paired rays`,
      );
    }
    this.phase = 'done';
    if (!this.realSample || !this.simSample) return;
    this.plan = planPointCloud(this.realSample, this.simSample, { queryCap: this.opts.queryCap, seed: this.opts.seed, ...(this.hooks.checkCancelled ? { check: this.hooks.checkCancelled } : {}) });
    // The samples' points are no longer needed (the plan holds the queries): free them before the second pass.
    this.realSample.points = new Float64Array(0);
    this.simSample.points = new Float64Array(0);
    if (!this.plan || !this.opts.exactPointCloud) return;
    if (this.plan.refineReal) this.refineQueue.push({ side: 'real', nearest: new StreamedNearest(this.plan.simQueries, this.plan.simToReal2) });
    if (this.plan.refineSim) this.refineQueue.push({ side: 'sim', nearest: new StreamedNearest(this.plan.realQueries, this.plan.realToSim2) });
    this.refineSides = this.refineQueue.map((q) => q.side);
    if (this.refineQueue.length > 0) this.phase = 'refine';
  }

  /** The second pass: each queued side's paired packets again, their in-region hits into the nearest distances. */
  private stepRefine(): EvaluationNeed {
    while (this.refineQueue.length > 0) {
      const { side, nearest } = this.refineQueue[0]!;
      if (!this.refineCursor) {
        this.refineCursor = new PacketCursor(side === 'real' ? 'real log (second pass)' : 'simulated run (second pass)');
        return side === 'real' ? 'restart-real' : 'restart-sim';
      }
      const cur = this.refineCursor;
      const p = cur.peek(0);
      if (p === Peek.Need) return side;
      if (p === Peek.End) {
        this.refined[side] = nearest;
        this.refineQueue.shift();
        this.refineCursor = null;
        continue;
      }
      const bits = side === 'real' ? this.pairedRealBits : this.pairedSimBits;
      if (bits.has(cur.consumed)) {
        const c = cur.chunkAt(0), k = cur.packetAt(0);
        this.worldScratch = packetWorld(c, k, this.worldScratch) as Float64Array<ArrayBuffer>;
        addHits(c, k, this.worldScratch, this.region, nearest);
      }
      cur.advance();
      this.refineConsumed++;
    }
    this.phase = 'done';
    return 'done';
  }

  /** The figures, once step() has returned 'done'. */
  finish(): EvaluationResult {
    if (this.phase !== 'done') throw new Error('evaluation: finish() before step() returned done');
    let pointCloud: PointCloudErrorResult | null = null;
    if (this.plan) {
      const s2r = this.refined.real?.best2 ?? this.plan.simToReal2;
      const r2s = this.refined.sim?.best2 ?? this.plan.realToSim2;
      const complete = !this.refineSkipped && (!this.plan.refineReal || !!this.refined.real) && (!this.plan.refineSim || !!this.refined.sim);
      pointCloud = this.plan.result(s2r, r2s, complete && (this.plan.refineReal || this.plan.refineSim));
    }
    const { th, fh, fm } = this;
    const rays = { real: this.realRays, sim: this.simRays };
    const pairedFraction = { real: rays.real > 0 ? this.pairedRays / rays.real : 0, sim: rays.sim > 0 ? this.pairedRays / rays.sim : 0 };
    const realSpan = this.realSpan.value, simSpan = this.simSpan.value;
    const timeOverlap = { real: realSpan, sim: simSpan, fraction: spanOverlap(realSpan, simSpan) };
    const check = this.hooks.checkCancelled;
    return {
      packets: this.paired,
      packetError: this.withTh > 0 ? this.packetErrorSum / this.withTh : null,
      precision: th + fh > 0 ? th / (th + fh) : null,
      recall: th + fm > 0 ? th / (th + fm) : null,
      f1: th + fh + fm > 0 ? (2 * th) / (2 * th + fh + fm) : null,
      pointCloudError: pointCloud ? pointCloud.error : null,
      rayError: th > 0 ? this.rayErrorSum / th : null,
      packetsWithTrueHits: this.withTh,
      trueHits: th,
      falseHits: fh,
      falseMisses: fm,
      trueMisses: this.tm,
      pairedRays: this.pairedRays,
      unpairedRays: { real: this.unpairedRaysReal, sim: this.unpairedRaysSim },
      unpairedPackets: { real: this.unpairedReal, sim: this.unpairedSim, realRays: this.unpairedRealRays, simRays: this.unpairedSimRays },
      packetsPairedByIndex: this.byIndex,
      realPackets: this.real.consumed,
      simPackets: this.sim.consumed,
      timeOffsetS: this.offset ?? 0,
      pointCloud,
      staticScan: this.staticScan(),
      pairing: this.opts.packetPairing,
      rays,
      pairedFraction,
      timeOverlap,
      warnings: overlapWarnings({ rays, paired: this.pairedRays, pairedFraction, timeOverlap, pairing: this.opts.packetPairing }, this.opts.minOverlap),
      region: { spec: this.opts.region ? formatRegion(this.opts.region) : 'everything', pairs: this.scoredPairs, realRays: this.regionRealRays },
      perClass: this.breakdowns.perClass(check),
      byRange: this.breakdowns.byRange(),
      perPacket: this.opts.perPacket ? this.series.finish() : emptySeries(),
    };
  }

  private staticScan(): StaticScanMetrics | null {
    const a = this.realHist, b = this.simHist;
    if (!this.staticCheck.isStatic || !a || !b || a.overflow || b.overflow || a.rays === 0 || b.rays === 0) return null;
    const bhat = scanBhattacharyya(a, b);
    const match = scanHistogramMatch(a, b);
    return {
      bhattacharyya: Number.isFinite(bhat) ? bhat : null,
      histogramMatch: match.bearings > 0 ? match.mean : null,
      bearings: match.bearings,
      oneSidedBearings: match.oneSided,
      realRays: a.rays,
      simRays: b.rays,
      bins: this.opts.scanHistogram,
    };
  }

  /** What every packet read contributes whether paired or not: path length, stillness, histograms. */
  private observe(side: Side, c: EvalChunk, p: number): void {
    const o = p * POSE_STRIDE, pose = c.packetPose;
    if (side === 'real') {
      const x = pose[o]!, y = pose[o + 1]!, z = pose[o + 2]!;
      if (Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z)) {
        if (this.lastPos) this.travelled += Math.hypot(x - this.lastPos[0], y - this.lastPos[1], z - this.lastPos[2]);
        this.lastPos = [x, y, z];
      }
    }
    this.staticCheck.offer(pose, o);
    if (!this.staticCheck.isStatic) {
      // A moving sensor: no histogram comparison; free them at once.
      this.realHist = null;
      this.simHist = null;
      return;
    }
    const h = side === 'real' ? this.realHist : this.simHist;
    if (!h) return;
    const d = c.rayDir, range = c.rayRange;
    for (let r = c.rayStart[p]!; r < c.rayStart[p + 1]!; r++) h.add(d[3 * r]!, d[3 * r + 1]!, d[3 * r + 2]!, range[r]!);
  }
}

/** Where a packet's world hits go: a point sample, or the second pass's nearest distances. */
interface PointSink {
  add(x: number, y: number, z: number): void;
}

/** A packet's in-region hits (world points from packetWorld) into a sink. */
function addHits(c: EvalChunk, p: number, world: Float64Array, region: RegionFilter, sink: PointSink): void {
  const a = c.rayStart[p]!, b = c.rayStart[p + 1]!, d = c.rayDir, range = c.rayRange;
  for (let r = a; r < b; r++) {
    const k = 3 * (r - a);
    const x = world[k]!, y = world[k + 1]!, z = world[k + 2]!;
    if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z))) continue;
    if (region.active && !region.ray(d[3 * r]!, d[3 * r + 1]!, d[3 * r + 2]!, range[r]!, x, y, z)) continue;
    sink.add(x, y, z);
  }
}

/**
 * The whole evaluation in one call, in this thread (no store, no pool): for model tuning and
 * tests. `real` and `sim` are read chunk by chunk, in order; a side whose cloud exceeds
 * `targetCap` hits is read a second time for the exact point-cloud error (arrays can be; a
 * one-shot generator cannot, and then that figure stays the sample estimate, `exact: false`).
 *
 *   const m = evaluatePacketChunks(logChunks, runChunks, { perPacket: false });
 *   const objective = (m.packetError ?? Infinity) + 2 * (1 - (m.f1 ?? 0));
 */
export function evaluatePacketChunks(
  real: Iterable<PacketChunk | EvalChunk>,
  sim: Iterable<PacketChunk | EvalChunk>,
  opts: EvaluationOptions = {},
  hooks: EvaluationHooks = {},
): EvaluationResult {
  const ev = new ObservationEvaluator(opts, hooks);
  const sources = { real, sim };
  const its = { real: real[Symbol.iterator](), sim: sim[Symbol.iterator]() };
  for (let need = ev.step(); need !== 'done'; need = ev.step()) {
    hooks.checkCancelled?.();
    if (need === 'restart-real' || need === 'restart-sim') {
      const side = need === 'restart-real' ? 'real' : 'sim';
      const again = sources[side][Symbol.iterator]();
      if (again === its[side]) ev.cannotRestart(); // a generator returns itself: it cannot start over
      else its[side] = again;
      continue;
    }
    const next = its[need].next();
    ev.feed(need, next.done ? null : next.value);
  }
  return ev.finish();
}
