/**
 * Observation-level evaluation of a simulation against a real log (docs/methods.md §6; thesis 004
 * §4.3.2 eq. 4.3–4.9; seed 000 Table I):
 *
 *  1. Packets are paired by time: the run's times are shifted so the first packets coincide
 *     (unless an offset is given), then a merge walk pairs a real and a simulated packet when
 *     their times agree within `timeToleranceS` and neither has a nearer partner next in line.
 *     Equal counts with equal times therefore pair index by index (packets sharing one time
 *     included); other rates pair by nearest time; leftovers are counted. `packetPairing:
 *     'index'` pairs the k-th with the k-th whatever the times.
 *  2. Rays of paired packets are paired by direction (ray-pairing.ts); leftovers are counted.
 *  3. Per ray pair: true hit (both hit), false hit (simulated hit, real miss), false miss
 *     (simulated miss, real hit), true miss.
 *  4. Packet error (eq. 4.3): per packet the mean over its true hits of ‖y − ŷ‖, y and ŷ the
 *     world points (each ray moved by its own packet's pose). The log's figure is the mean over
 *     the packets that have at least one true hit — a packet without one has no error to average
 *     (the count of such packets is reported beside it).
 *  5. Precision TH/(TH+FH), recall TH/(TH+FM), F1 = 2·TH/(2·TH+FH+FM) (the same as 2PR/(P+R)
 *     wherever both are defined, and defined when one side never hits).
 *  6. Point-cloud error (eq. 4.9) over the hits of the paired packets (point-cloud-error.ts):
 *     exact — when a side's cloud outgrows its sample, a second pass streams that side again
 *     (step() returns 'restart-real' / 'restart-sim' first) to measure the queries' nearest
 *     distances to the whole cloud.
 *  7. When both logs stand still (every pose within `staticTranslationM` and
 *     `staticRotationDeg` of the real log's first), the range-histogram distances over every ray
 *     of both (scan-distances.ts).
 *
 * Streaming: the evaluator asks for chunks one side at a time (step() says which) and holds at
 * most two chunks a side, a bit per packet (which were paired), the per-packet series (≈ 40 bytes a paired packet) and the capped
 * point samples, so a 100,000-packet log costs no more memory than a short one.
 */
import { type PacketChunk, POSE_STRIDE } from '../../src-common/packets';
import { poseRotationMatrix } from '../geometry/pose';
import { EvaluationError, PacketCursor, Peek, type EvalChunk } from './packet-cursor';
import { RayPairer } from './ray-pairing';
import { PointReservoir, planPointCloud, type PointCloudPlan } from './point-cloud-error';
import type { ObservationMetrics, PerPacketSeries, PointCloudErrorResult, StaticScanMetrics } from '../../src-common/metrics';
import { StreamedNearest } from './streamed-nearest';
import { ScanHistogram, StaticCheck, scanBhattacharyya, scanHistogramMatch } from './scan-distances';
import { PerPacketBuilder, emptySeries } from './per-packet-series';
import { resolveEvaluationOptions, type EvaluationOptions, type ResolvedEvaluationOptions } from '../../src-common/evaluation-options';

export { EvaluationError } from './packet-cursor';

export interface EvaluationResult extends ObservationMetrics {
  perPacket: PerPacketSeries;
}

export interface EvaluationHooks {
  /** Called between chunks and in long loops; throw to stop. */
  checkCancelled?: () => void;
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

export class ObservationEvaluator {
  readonly opts: ResolvedEvaluationOptions;
  readonly real = new PacketCursor('real log');
  readonly sim = new PacketCursor('simulated run');
  private offset: number | null;
  private readonly pairer: RayPairer;
  private readonly series = new PerPacketBuilder();
  private readonly realSample: PointReservoir | null;
  private readonly simSample: PointReservoir | null;
  private readonly staticCheck: StaticCheck;
  private realHist: ScanHistogram | null;
  private simHist: ScanHistogram | null;
  // Totals.
  private th = 0; private fh = 0; private fm = 0; private tm = 0;
  private paired = 0; private byIndex = 0; private withTh = 0; private pairedRays = 0;
  private packetErrorSum = 0; private rayErrorSum = 0;
  private unpairedRaysReal = 0; private unpairedRaysSim = 0;
  private unpairedReal = 0; private unpairedSim = 0; private unpairedRealRays = 0; private unpairedSimRays = 0;
  // The real sensor's path length so far.
  private travelled = 0;
  private lastPos: [number, number, number] | null = null;
  // Scratch: rotation matrices and world points of the current packets.
  private readonly rotR = new Float64Array(9);
  private readonly rotS = new Float64Array(9);
  private worldR = new Float64Array(3 * 1024);
  private worldS = new Float64Array(3 * 1024);
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
    this.pairer = new RayPairer((o.directionToleranceDeg * Math.PI) / 180);
    this.offset = o.packetPairing === 'index' ? 0 : o.timeOffsetS;
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
      const need = this.stepPairing();
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

  private stepPairing(): Side | 'done' {
    const { real, sim } = this;
    for (;;) {
      const r = real.peek(0), s = sim.peek(0);
      if (r === Peek.Need) return 'real';
      if (s === Peek.Need) return 'sim';
      if (r === Peek.End && s === Peek.End) return 'done';
      if (r === Peek.End) {
        this.skip('sim');
        continue;
      }
      if (s === Peek.End) {
        this.skip('real');
        continue;
      }
      if (this.offset === null) {
        const o = real.timeAt(0) - sim.timeAt(0);
        this.offset = Number.isFinite(o) ? o : 0;
      }
      if (this.opts.packetPairing === 'index') {
        this.pairCurrent();
        continue;
      }
      const tol = this.opts.timeToleranceS;
      const tr = real.timeAt(0), ts = sim.timeAt(0) + this.offset;
      if (!Number.isFinite(tr)) {
        this.skip('real');
        continue;
      }
      if (!Number.isFinite(ts)) {
        this.skip('sim');
        continue;
      }
      if (ts < tr - tol) {
        this.skip('sim');
        continue;
      }
      if (tr < ts - tol) {
        this.skip('real');
        continue;
      }
      // Within tolerance; pair unless the next packet on either side is strictly nearer (ties pair
      // in order, so equal times pair index by index). At most one of the two can be nearer.
      const s1 = sim.peek(1);
      if (s1 === Peek.Need) return 'sim';
      if (s1 === Peek.Packet && Math.abs(sim.timeAt(1) + this.offset - tr) < Math.abs(ts - tr)) {
        this.skip('sim');
        continue;
      }
      const r1 = real.peek(1);
      if (r1 === Peek.Need) return 'real';
      if (r1 === Peek.Packet && Math.abs(real.timeAt(1) - ts) < Math.abs(tr - ts)) {
        this.skip('real');
        continue;
      }
      this.pairCurrent();
    }
  }

  /** End of the first pass: nothing paired is an error; plan the point-cloud error's second pass. */
  private endPairing(): void {
    if (this.paired === 0) {
      throw new EvaluationError(
        `no packet of the simulated run pairs with one of the real log (${this.real.consumed} real and ${this.sim.consumed} simulated packets; ` +
          (this.real.consumed === 0 || this.sim.consumed === 0
            ? 'one side has no packets)'
            : `none within ${this.opts.timeToleranceS} s of each other after shifting the run by ${(this.offset ?? 0).toFixed(6)} s): is the run simulated along this log's poses?`),
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

  /** The second pass: each queued side's paired packets again, their hits into the nearest distances. */
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
      if (bits.has(cur.consumed)) this.worldR = worldPoints(cur.chunkAt(0), cur.packetAt(0), this.rotR, this.worldR, nearest);
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

  /** The current packet of one side has no partner: count it and move on. */
  private skip(side: Side): void {
    const cur = side === 'real' ? this.real : this.sim;
    const c = cur.chunkAt(0), p = cur.packetAt(0);
    const rays = c.rayStart[p + 1]! - c.rayStart[p]!;
    this.observe(side, c, p);
    if (side === 'real') {
      this.unpairedReal++;
      this.unpairedRealRays += rays;
    } else {
      this.unpairedSim++;
      this.unpairedSimRays += rays;
    }
    cur.advance();
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

  private pairCurrent(): void {
    const rc = this.real.chunkAt(0), rp = this.real.packetAt(0);
    const sc = this.sim.chunkAt(0), sp = this.sim.packetAt(0);
    this.observe('real', rc, rp);
    this.observe('sim', sc, sp);
    const pairer = this.pairer;
    const n = pairer.pair(rc, rp, sc, sp);
    if (pairer.byIndex) this.byIndex++;
    this.pairedRays += n;
    this.unpairedRaysReal += pairer.realUnpaired;
    this.unpairedRaysSim += pairer.simUnpaired;
    const r0 = rc.rayStart[rp]!, s0 = sc.rayStart[sp]!;
    this.worldR = worldPoints(rc, rp, this.rotR, this.worldR, this.realSample);
    this.worldS = worldPoints(sc, sp, this.rotS, this.worldS, this.simSample);
    const wr = this.worldR, ws = this.worldS, rr = rc.rayRange, sr = sc.rayRange;
    let th = 0, fh = 0, fm = 0, tm = 0, sum = 0;
    for (let k = 0; k < n; k++) {
      const i = pairer.real[k]!, j = pairer.sim[k]!;
      const hitR = Number.isFinite(rr[i]!), hitS = Number.isFinite(sr[j]!);
      if (hitR && hitS) {
        const a = 3 * (i - r0), b = 3 * (j - s0);
        const d = Math.hypot(wr[a]! - ws[b]!, wr[a + 1]! - ws[b + 1]!, wr[a + 2]! - ws[b + 2]!);
        // A non-finite pose makes a NaN distance: count the hit, leave the error out.
        if (Number.isFinite(d)) {
          th++;
          sum += d;
        }
      } else if (hitS) fh++;
      else if (hitR) fm++;
      else tm++;
    }
    this.th += th;
    this.fh += fh;
    this.fm += fm;
    this.tm += tm;
    this.rayErrorSum += sum;
    const error = th > 0 ? sum / th : NaN;
    if (th > 0) {
      this.withTh++;
      this.packetErrorSum += error;
    }
    this.paired++;
    this.pairedRealBits.set(this.real.consumed);
    this.pairedSimBits.set(this.sim.consumed);
    if (this.opts.perPacket) this.series.push(this.real.consumed, this.sim.consumed, rc.packetTime[rp]!, this.travelled, error, th, fh, fm);
    this.real.advance();
    this.sim.advance();
  }
}

/** Where a packet's world hits go: a point sample, or the second pass's nearest distances. */
interface PointSink {
  add(x: number, y: number, z: number): void;
}

/**
 * World points of a packet's rays into `out` (grown as needed; NaN for misses), and its hits
 * offered to the sink. Returns the (possibly new) buffer.
 */
function worldPoints(c: EvalChunk, p: number, rot: Float64Array, out: Float64Array<ArrayBuffer>, sample: PointSink | null): Float64Array<ArrayBuffer> {
  const a = c.rayStart[p]!, b = c.rayStart[p + 1]!;
  if (out.length < 3 * (b - a)) out = new Float64Array(3 * (b - a) * 2);
  const o = p * POSE_STRIDE, pose = c.packetPose;
  poseRotationMatrix(pose, o, rot, 0);
  const tx = pose[o]!, ty = pose[o + 1]!, tz = pose[o + 2]!;
  const d = c.rayDir, range = c.rayRange;
  for (let r = a; r < b; r++) {
    const k = 3 * (r - a), rg = range[r]!;
    if (!Number.isFinite(rg)) {
      out[k] = out[k + 1] = out[k + 2] = NaN;
      continue;
    }
    const x = d[3 * r]! * rg, y = d[3 * r + 1]! * rg, z = d[3 * r + 2]! * rg;
    const wx = rot[0]! * x + rot[1]! * y + rot[2]! * z + tx;
    const wy = rot[3]! * x + rot[4]! * y + rot[5]! * z + ty;
    const wz = rot[6]! * x + rot[7]! * y + rot[8]! * z + tz;
    out[k] = wx;
    out[k + 1] = wy;
    out[k + 2] = wz;
    if (sample && Number.isFinite(wx) && Number.isFinite(wy) && Number.isFinite(wz)) sample.add(wx, wy, wz);
  }
  return out;
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
