/**
 * The point-cloud error of thesis 004 eq. 4.7–4.9 (docs/methods.md §6): the mean distance from each
 * simulated point to its nearest real point, the same from real to simulated, and their mean —
 * a gross measure that needs no ray pairing.
 *
 * Clouds of long logs do not fit a k-d tree whole (10⁸ points). Each side keeps a uniform random
 * sample of its points as they stream past (reservoir sampling, seeded: the same input gives the
 * same sample), at most `targetCap` points; the *queries* are a seeded random subset of that
 * sample, at most `queryCap` points, so the mean over them is an unbiased estimate. The
 * *targets* must be the whole other cloud — a thinned cloud lengthens nearest distances (on a
 * 7.5 M-point drive a 10⁶-point target sample overstates the error by ~40 %). So:
 *  - a side whose cloud fits its sample (the usual case below 10⁶ hits) is its own exact target set;
 *  - for a side that overflowed, its sample only gives each query an upper bound, and a second
 *    pass streams that whole cloud again through streamed-nearest.ts to make the distances exact.
 * pointCloudError() below is the one-pass figure (exact when both clouds fit their samples).
 */
import { KdTree } from '../fit/kd-tree';
import { RandomStream } from '../random/stream';
import type { PointCloudErrorResult } from '../../src-common/metrics';
import { DEFAULT_QUERY_CAP } from '../../src-common/evaluation-options';


/** A uniform sample of at most `cap` 3-D points from a stream (Vitter's algorithm R). */
export class PointReservoir {
  /** x, y, z per kept point (the first `count`). */
  points: Float64Array;
  /** Points kept (min(seen, cap)). */
  count = 0;
  /** Points offered. */
  seen = 0;
  private readonly rng: RandomStream;

  constructor(
    readonly cap: number,
    seed: number,
    stream: number,
  ) {
    if (!(Number.isInteger(cap) && cap >= 1)) throw new Error(`point sample: cap ${cap} is not a whole number ≥ 1`);
    this.rng = new RandomStream(seed, stream);
    this.points = new Float64Array(3 * Math.min(cap, 4096));
  }

  add(x: number, y: number, z: number): void {
    const n = this.seen++;
    let slot: number;
    if (n < this.cap) {
      slot = n;
      if (3 * (slot + 1) > this.points.length) this.grow();
      this.count++;
    } else {
      // Keep the new point with probability cap / (n + 1), in a uniformly chosen slot.
      slot = Math.floor(this.rng.next() * (n + 1));
      if (slot >= this.cap) return;
    }
    this.points[3 * slot] = x;
    this.points[3 * slot + 1] = y;
    this.points[3 * slot + 2] = z;
  }

  private grow(): void {
    const bigger = new Float64Array(Math.min(3 * this.cap, 2 * this.points.length));
    bigger.set(this.points);
    this.points = bigger;
  }
}


/**
 * The symmetric error between two samples; null when either is empty (no hits on one side: the
 * error is undefined, not zero). `check` is called every few thousand queries (cancellation).
 */
export function pointCloudError(real: PointReservoir, sim: PointReservoir, opts: { queryCap?: number; seed?: number; check?: () => void } = {}): PointCloudErrorResult | null {
  const plan = planPointCloud(real, sim, opts);
  return plan ? plan.result(plan.simToReal2, plan.realToSim2) : null;
}

/**
 * Queries of both sides and their squared nearest distances to the other side's sample (exact
 * where that sample is the whole cloud, else upper bounds); null when a side has no point.
 * `refineReal`: the real cloud overflowed its sample, so the sim queries' distances need the
 * second pass over the real points (and `refineSim` likewise).
 */
export function planPointCloud(real: PointReservoir, sim: PointReservoir, opts: { queryCap?: number; seed?: number; check?: () => void } = {}) {
  if (real.count === 0 || sim.count === 0) return null;
  const queryCap = opts.queryCap ?? DEFAULT_QUERY_CAP;
  const seed = opts.seed ?? 1;
  const check = opts.check ?? (() => {});
  const simQueries = queryPoints(sim, queryCap, new RandomStream(seed, 3));
  const realQueries = queryPoints(real, queryCap, new RandomStream(seed, 4));
  const realTree = new KdTree(real.points.subarray(0, 3 * real.count), 3);
  check();
  const simToReal2 = nearestSquared(simQueries, realTree, check);
  const simTree = new KdTree(sim.points.subarray(0, 3 * sim.count), 3);
  check();
  const realToSim2 = nearestSquared(realQueries, simTree, check);
  const refineReal = real.seen > real.count, refineSim = sim.seen > sim.count;
  return {
    simQueries,
    realQueries,
    simToReal2,
    realToSim2,
    refineReal,
    refineSim,
    /** The figure from squared distances (the plan's, or refined ones). */
    result(s2r: Float64Array, r2s: Float64Array, refined = false): PointCloudErrorResult {
      const simToReal = meanSqrt(s2r), realToSim = meanSqrt(r2s);
      return {
        exact: refined || (!refineReal && !refineSim),
        error: 0.5 * (simToReal + realToSim),
        simToReal,
        realToSim,
        realPoints: real.seen,
        simPoints: sim.seen,
        realTargets: refined && refineReal ? real.seen : real.count,
        simTargets: refined && refineSim ? sim.seen : sim.count,
        realQueries: realQueries.length / 3,
        simQueries: simQueries.length / 3,
      };
    },
  };
}

export type PointCloudPlan = NonNullable<ReturnType<typeof planPointCloud>>;

/** Coordinates of a seeded uniform subset (≤ cap) of a sample's points. */
export function queryPoints(r: PointReservoir, cap: number, rng: RandomStream): Float64Array {
  const idx = queryIndices(r.count, cap, rng);
  const out = new Float64Array(3 * idx.length);
  for (let i = 0; i < idx.length; i++) out.set(r.points.subarray(3 * idx[i]!, 3 * idx[i]! + 3), 3 * i);
  return out;
}

/** A seeded uniform subset of [0, n) of size min(n, cap) (partial Fisher–Yates), ascending. */
export function queryIndices(n: number, cap: number, rng: RandomStream): Uint32Array {
  const idx = new Uint32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  if (n <= cap) return idx;
  for (let i = 0; i < cap; i++) {
    const j = i + Math.floor(rng.next() * (n - i));
    const t = idx[i]!;
    idx[i] = idx[j]!;
    idx[j] = t;
  }
  // Ascending: queries then walk the sample in stream order (neighbouring points, warm tree paths).
  return idx.slice(0, cap).sort();
}

function nearestSquared(queries: Float64Array, tree: KdTree, check: () => void): Float64Array {
  const n = queries.length / 3;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if ((i & 8191) === 0) check();
    tree.nearest(queries[3 * i]!, queries[3 * i + 1]!, queries[3 * i + 2]!);
    out[i] = tree.nearestD2;
  }
  return out;
}

function meanSqrt(d2: Float64Array): number {
  let s = 0;
  for (let i = 0; i < d2.length; i++) s += Math.sqrt(d2[i]!);
  return s / d2.length;
}
