/**
 * Hit probabilities by replaying every training ray through the fitted elements (docs/methods.md
 * §1.4, §2; Tallavajhula et al. 2018 §IV; Deschaud et al. 2012 §III). The elements go into one
 * SceneData (model-scene.ts) and each ray walks its BVH with the simulator's own intersection
 * tests (the scene query's unordered collect walk: the WebAssembly kernel's ray-collect.c, or the
 * reference walk), so "the ray meets this element" means exactly what it will mean in simulation.
 *
 * A ray with a return at range r, for each element it meets:
 * - ground triangle at distance t: t < r − maxResidual → passed through (a miss);
 *   |r − t| ≤ maxResidual → it may be where the ray returned (a candidate);
 * - ellipsoid / voxel Gaussian met at t* with minimum Mahalanobis distance m: along the ray the
 *   distance is d(s)² = m² + (s − t*)² / σ_t², below the threshold k over |s − t*| ≤ h,
 *   h = σ_t √(k² − m²). t* + h < r → passed through; |r − t*| ≤ h → the return lies inside it.
 * Elements beyond the return are not reached and count nothing. Of the hybrid candidates (ground
 * and ellipsoids) the one the return fits best — smallest |r − t| / maxResidual or d(r) / k —
 * counts the ray's hit (one hit per ray); a voxel counts every return inside it (n in Deschaud et
 * al. 2012).
 * A ray without a return counts a miss at every element it meets within max range (at ground
 * triangles only with θ's groundNoReturnMisses = 1).
 * Then p_hit = (hits + a) / (hits + misses + a + b) and ρ = m / (m + n).
 * Each ellipsoid hit and pass is also counted in one of FALLOFF_BINS bins of m² (the ray's
 * minimum Mahalanobis distance), for the hit-probability falloff's κ (ellipsoid-kappa.ts), and,
 * with cells, in the hit cell where the ray passes closest to its centre (scene/ellipsoid-cells.ts).
 *
 * σ²_ground = the mean of (r − t)² over the rays whose hit went to a triangle.
 */
import { createSceneQuery, type BvhSceneQuery, type SceneElementHit } from '../scene/scene-bvh';
import type { KernelSink } from '../scene/kernel/kernel-module';
import { PRIM_INTS } from '../scene/scene-data';
import { ElementKind, type ElementHit } from '../scene/scene-query';
import { POSE_STRIDE } from '../../src-common/packets';
import type { FitLogChunk } from './log-input';
import type { ModelScene } from './model-scene';
import { FALLOFF_BINS, falloffBin } from './ellipsoid-kappa';
import { gaussCell, triangleCell } from '../scene/hit-cells';

/** Rays gathered from one packet (one laser's, at neighbouring azimuths) before they are walked and counted. */
const MAX_BUNDLE = 32;

export interface ReplayCounts {
  groundHits: Uint32Array;
  groundMisses: Uint32Array;
  /**
   * Rays without a return that crossed the triangle (counted whatever θ says; in groundMisses too
   * when ReplayOptions.groundNoReturnMisses): the training sensor's dropouts, if the ground is there.
   */
  groundNoReturns: Uint32Array;
  ellipsoidHits: Uint32Array;
  ellipsoidMisses: Uint32Array;
  /** Per ellipsoid, FALLOFF_BINS counts of hits (and of passes) by the ray's weight exp(−m²/2). */
  ellipsoidHitBins: Uint32Array;
  ellipsoidPassBins: Uint32Array;
  /** Of those passes, the rays without a return (the training sensor's: another may return there), by the same bins. */
  ellipsoidNoReturnBins: Uint32Array;
  voxelEnds: Uint32Array;
  voxelPasses: Uint32Array;
  /**
   * Hit cells (ReplayOptions.cellGrid > 0): hits and passes by key e·G³ + cell, e the model
   * ellipsoid; only cells some ray reached.
   */
  cellHits: Map<number, number>;
  cellPasses: Map<number, number>;
  cellNoReturns: Map<number, number>;
  /** The same for ground triangles (ReplayOptions.groundCellGrid > 0): key t·G² + cell. */
  groundCellHits: Map<number, number>;
  groundCellPasses: Map<number, number>;
  groundCellNoReturns: Map<number, number>;
  /** Σ (r − t)² and the number of rays whose hit went to a triangle. */
  residualSum: number;
  residualCount: number;
  rays: number;
  hitRays: number;
  missRays: number;
  /** Returns that fell in no element (between elements, or in a filtered-out region). */
  unexplained: number;
}

export function newReplayCounts(triangles: number, ellipsoids: number, voxels: number): ReplayCounts {
  return {
    groundHits: new Uint32Array(triangles), groundMisses: new Uint32Array(triangles), groundNoReturns: new Uint32Array(triangles),
    ellipsoidHits: new Uint32Array(ellipsoids), ellipsoidMisses: new Uint32Array(ellipsoids),
    ellipsoidHitBins: new Uint32Array(ellipsoids * FALLOFF_BINS), ellipsoidPassBins: new Uint32Array(ellipsoids * FALLOFF_BINS),
    ellipsoidNoReturnBins: new Uint32Array(ellipsoids * FALLOFF_BINS),
    voxelEnds: new Uint32Array(voxels), voxelPasses: new Uint32Array(voxels),
    cellHits: new Map(), cellPasses: new Map(), cellNoReturns: new Map(), groundCellHits: new Map(), groundCellPasses: new Map(), groundCellNoReturns: new Map(),
    residualSum: 0, residualCount: 0, rays: 0, hitRays: 0, missRays: 0, unexplained: 0,
  };
}

/** Adds b's counts into a (parallel replay batches, summed in batch order). */
export function addReplayCounts(a: ReplayCounts, b: ReplayCounts): void {
  for (const k of ['groundHits', 'groundMisses', 'groundNoReturns', 'ellipsoidHits', 'ellipsoidMisses', 'ellipsoidHitBins', 'ellipsoidPassBins', 'ellipsoidNoReturnBins', 'voxelEnds', 'voxelPasses'] as const) {
    const x = a[k], y = b[k];
    for (let i = 0; i < x.length; i++) x[i] = x[i]! + y[i]!;
  }
  for (const k of ['cellHits', 'cellPasses', 'cellNoReturns', 'groundCellHits', 'groundCellPasses', 'groundCellNoReturns'] as const) for (const [key, n] of b[k]) a[k].set(key, (a[k].get(key) ?? 0) + n);
  a.residualSum += b.residualSum;
  a.residualCount += b.residualCount;
  a.rays += b.rays;
  a.hitRays += b.hitRays;
  a.missRays += b.missRays;
  a.unexplained += b.unexplained;
}

export interface ReplayOptions {
  maxRange: number;
  maxResidual: number;
  mahalanobisThreshold: number;
  voxelTau: number;
  /** How far past a return the walk goes to find elements that contain it (m). */
  margin: number;
  /** Elements nearer than this to the sensor count nothing (its minimum range, m; 0: none). */
  minRange?: number;
  /** A ray without a return counts a miss at the ground triangles it crosses (θ's groundNoReturnMisses). */
  groundNoReturnMisses: boolean;
  /** Hit cells per axis of each ellipsoid (θ's ellipsoidCells); 0: none counted. */
  cellGrid: number;
  /** Hit cells per side of each ground triangle (θ's groundCells); 0 or absent: none counted. */
  groundCellGrid?: number;
}

const K_NONE = -1;
/** Elevation buckets of the per-packet ray order (sensor-frame z in [−1, 1]: ~0.2° near the horizon). */
const ELEVATION_BUCKETS = 1024;

export class Replayer {
  private readonly query: BvhSceneQuery;
  private readonly sink: KernelSink;
  private readonly visit: (hit: ElementHit) => boolean;
  // Per ray of the bundle being replayed: its range (NaN: a miss) and best hybrid candidate.
  private readonly range = new Float64Array(MAX_BUNDLE);
  private readonly bestKind = new Int32Array(MAX_BUNDLE);
  private readonly bestIndex = new Int32Array(MAX_BUNDLE);
  private readonly bestScore = new Float64Array(MAX_BUNDLE);
  private readonly bestResidual = new Float64Array(MAX_BUNDLE);
  /** m² of the ray with its best ellipsoid candidate (the hit's falloff weight). */
  private readonly bestM2 = new Float64Array(MAX_BUNDLE);
  /** The hit cell of the ray's best ellipsoid candidate (−1: none counted). */
  private readonly bestCell = new Int32Array(MAX_BUNDLE);
  /** Origin of the bundle being walked (every ray of a bundle shares its packet's). */
  private ox = 0;
  private oy = 0;
  private oz = 0;
  private readonly cells: number;
  private readonly groundCells: number;
  private readonly dirs = new Float64Array(3 * MAX_BUNDLE);
  private readonly tmaxs = new Float64Array(MAX_BUNDLE);
  private readonly thr2: number;
  /** The ray of the bundle that traverse() is walking ('traverse' mode). */
  private visitRay = 0;
  private readonly tau2: number;
  private order = new Int32Array(1024);
  private bucketOf = new Uint16Array(1024);
  private readonly hist = new Int32Array(ELEVATION_BUCKETS + 1);

  /**
   * `mode`: 'collect' walks each ray unordered (the scene query's collect: in the WebAssembly
   * kernel where the runtime has it, else the reference walk); 'reference' the same in the
   * reference walk always; 'traverse' asks the scene's ordered traverse() — the same counts every
   * way (the tests hold them to it).
   */
  constructor(private readonly scene: ModelScene, private readonly counts: ReplayCounts, private readonly opts: ReplayOptions, private readonly mode: 'collect' | 'reference' | 'traverse' = 'collect') {
    const offsets = scene.primitives.map((p) => p.offset);
    this.query = createSceneQuery(scene.data, mode === 'reference' ? 'js' : 'auto');
    // The walk names primitive and element; the counts want the kind and the model index.
    const d = scene.data, primOffset = Int32Array.from(offsets), primKind = new Int32Array(d.primitiveCount);
    for (let p = 0; p < d.primitiveCount; p++) primKind[p] = d.primInts[p * PRIM_INTS]!;
    this.cells = opts.cellGrid;
    this.groundCells = opts.groundCellGrid ?? 0;
    this.sink = (ray, p, e, t, m2, varT) => {
      const kind = primKind[p]!;
      const source = kind === ElementKind.Surface || kind === ElementKind.Ground ? d.triSource : d.gaussSource;
      this.element(ray, kind, primOffset[p]! + source[e]!, t, m2, varT, this.cellOf(kind, e, ray, t));
    };
    this.thr2 = opts.mahalanobisThreshold * opts.mahalanobisThreshold;
    this.tau2 = opts.voxelTau * opts.voxelTau;
    const prims = scene.primitives;
    this.visit = (hit) => {
      const h = hit as SceneElementHit;
      const ref = prims[h.primitive]!;
      this.element(this.visitRay, ref.kind, ref.offset + h.sourceIndex, h.t, h.mahalanobis * h.mahalanobis, h.varT, this.cellOf(ref.kind, h.element, this.visitRay, h.t));
      return false;
    };
  }

  /**
   * The hit cell where ray `ray` of the bundle passes Gaussian element `g` at t (−1: not an
   * ellipsoid, or no cells). A model scene places every primitive once at the identity, so the
   * world ray is already in the Gaussians' frame.
   */
  private cellOf(kind: number, g: number, ray: number, t: number): number {
    const d = this.dirs;
    if (kind === ElementKind.Ground) {
      return this.groundCells > 0 ? triangleCell(this.scene.data.triVerts, g, this.ox, this.oy, this.oz, d[3 * ray]!, d[3 * ray + 1]!, d[3 * ray + 2]!, t, this.groundCells) : -1;
    }
    if (this.cells <= 0 || kind !== ElementKind.Ellipsoid) return -1;
    return gaussCell(this.scene.data.gauss, g, this.ox, this.oy, this.oz, d[3 * ray]!, d[3 * ray + 1]!, d[3 * ray + 2]!, t, this.opts.mahalanobisThreshold, this.cells);
  }

  private element(ray: number, kind: number, e: number, t: number, m2: number, varT: number, cell: number): void {
    const c = this.counts;
    const r = this.range[ray]!;
    if (kind === ElementKind.Ground) {
      if (r !== r) {
        this.counts.groundNoReturns[e]!++;
        if (cell >= 0) bump(this.counts.groundCellNoReturns, e * this.groundCells * this.groundCells + cell);
        if (this.opts.groundNoReturnMisses) this.groundPass(e, cell);
        return;
      }
      const res = r - t;
      if (res > this.opts.maxResidual) {
        this.groundPass(e, cell);
      } else if (res >= -this.opts.maxResidual) {
        const score = Math.abs(res) / this.opts.maxResidual;
        if (this.better(ray, score, ElementKind.Ground, e)) {
          this.bestScore[ray] = score;
          this.bestKind[ray] = ElementKind.Ground;
          this.bestIndex[ray] = e;
          this.bestResidual[ray] = res;
          this.bestCell[ray] = cell;
        }
      }
      return;
    }
    const gauss = kind === ElementKind.Ellipsoid;
    if (r !== r) {
      if (gauss) {
        this.ellipsoidPass(e, m2, cell);
        c.ellipsoidNoReturnBins[e * FALLOFF_BINS + falloffBin(m2, this.thr2)]!++;
        if (cell >= 0) bump(c.cellNoReturns, this.cellKey(e, cell));
      } else {
        c.voxelPasses[e]!++;
      }
      return;
    }
    const k2 = gauss ? this.thr2 : this.tau2;
    const half = Math.sqrt(varT * Math.max(0, k2 - m2));
    const ds = r - t;
    if (ds > half) {
      if (gauss) this.ellipsoidPass(e, m2, cell);
      else c.voxelPasses[e]!++;
    } else if (ds >= -half) {
      if (!gauss) {
        c.voxelEnds[e]!++;
        return;
      }
      const score = Math.sqrt((m2 + (ds * ds) / varT) / k2);
      if (this.better(ray, score, ElementKind.Ellipsoid, e)) {
        this.bestScore[ray] = score;
        this.bestKind[ray] = ElementKind.Ellipsoid;
        this.bestIndex[ray] = e;
        this.bestM2[ray] = m2;
        this.bestCell[ray] = cell;
      }
    }
  }

  private ellipsoidPass(e: number, m2: number, cell: number): void {
    this.counts.ellipsoidMisses[e]!++;
    this.counts.ellipsoidPassBins[e * FALLOFF_BINS + falloffBin(m2, this.thr2)]!++;
    if (cell >= 0) bump(this.counts.cellPasses, this.cellKey(e, cell));
  }

  private groundPass(e: number, cell: number): void {
    this.counts.groundMisses[e]!++;
    if (cell >= 0) bump(this.counts.groundCellPasses, e * this.groundCells * this.groundCells + cell);
  }

  private cellKey(e: number, cell: number): number {
    return e * this.cells * this.cells * this.cells + cell;
  }

  /**
   * The rays [s, e) of a packet ordered by elevation (counting sort of the sensor-frame z into
   * ELEVATION_BUCKETS, stable): rays of one laser at neighbouring azimuths come together, which
   * makes coherent bundles (and, walked singly, measured ~20 % faster than the firing order).
   * Counts do not depend on the order.
   */
  private elevationOrder(dir: Float32Array, s: number, e: number): Int32Array {
    const m = e - s;
    if (this.order.length < m) {
      this.order = new Int32Array(m);
      this.bucketOf = new Uint16Array(m);
    }
    const hist = this.hist, order = this.order, bucketOf = this.bucketOf;
    hist.fill(0);
    for (let j = 0; j < m; j++) {
      const z = dir[3 * (s + j) + 2]!;
      const b = z >= -1 && z <= 1 ? Math.floor((z + 1) * 0.5 * (ELEVATION_BUCKETS - 1)) : 0;
      bucketOf[j] = b;
      hist[b + 1]!++;
    }
    for (let b = 1; b <= ELEVATION_BUCKETS; b++) hist[b] = hist[b]! + hist[b - 1]!;
    for (let j = 0; j < m; j++) order[hist[bucketOf[j]!]!++] = s + j;
    return order;
  }

  /** Candidate order (score, kind, index): a total order, so the walk order never matters. */
  private better(ray: number, score: number, kind: number, e: number): boolean {
    const bs = this.bestScore[ray]!;
    return score < bs || (score === bs && (kind < this.bestKind[ray]! || (kind === this.bestKind[ray]! && e < this.bestIndex[ray]!)));
  }

  /**
   * Replays packets [from, to) of a chunk (all by default): world rays from each packet's pose
   * (origin = the pose's translation, direction = its rotation of the ray's unit direction).
   */
  replayChunk(chunk: FitLogChunk, from = 0, to = chunk.packetCount): void {
    const pose = chunk.packetPose, dir = chunk.rayDir, range = chunk.rayRange, start = chunk.rayStart;
    const c = this.counts, maxRange = this.opts.maxRange, margin = this.opts.margin;
    const dirs = this.dirs, tmaxs = this.tmaxs;
    for (let p = from; p < to; p++) {
      const o = p * POSE_STRIDE;
      const ox = pose[o]!, oy = pose[o + 1]!, oz = pose[o + 2]!;
      const qx = pose[o + 3]!, qy = pose[o + 4]!, qz = pose[o + 5]!, qw = pose[o + 6]!;
      const order = this.elevationOrder(dir, start[p]!, start[p + 1]!);
      const m = start[p + 1]! - start[p]!;
      const buckets = this.bucketOf;
      let k = 0, lastBucket = -1;
      for (let j = 0; j <= m; j++) {
        const i = j < m ? order[j]! : -1;
        const bucket = j < m ? buckets[i - start[p]!]! : -1;
        // A bundle holds one elevation bucket (one laser) at a time, at most MAX_BUNDLE rays.
        if (k > 0 && (k === MAX_BUNDLE || j === m || bucket !== lastBucket)) {
          this.castBundle(ox, oy, oz, k);
          k = 0;
        }
        if (j === m) break;
        lastBucket = bucket;
        const x = dir[3 * i]!, y = dir[3 * i + 1]!, z = dir[3 * i + 2]!;
        // v' = v + 2w(q×v) + 2q×(q×v), then normalised (float32 directions are not exactly unit).
        const tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
        const dx = x + qw * tx + (qy * tz - qz * ty);
        const dy = y + qw * ty + (qz * tx - qx * tz);
        const dz = z + qw * tz + (qx * ty - qy * tx);
        const len = Math.sqrt(dx * dx + dy * dy + dz * dz);
        if (!(len > 0)) continue;
        const r = range[i]!;
        c.rays++;
        if (r !== r) c.missRays++;
        else c.hitRays++;
        dirs[3 * k] = dx / len; dirs[3 * k + 1] = dy / len; dirs[3 * k + 2] = dz / len;
        this.range[k] = r;
        tmaxs[k] = r !== r ? maxRange : r + margin;
        this.bestKind[k] = K_NONE;
        this.bestIndex[k] = -1;
        this.bestScore[k] = Infinity;
        this.bestCell[k] = -1;
        k++;
      }
    }
  }

  /** Walks the k rays gathered in dirs/tmaxs, then counts their hits. */
  private castBundle(ox: number, oy: number, oz: number, k: number): void {
    const dirs = this.dirs, tmaxs = this.tmaxs, q = this.query;
    this.ox = ox; this.oy = oy; this.oz = oz;
    const tmin = this.opts.minRange ?? 0;
    for (let j = 0; j < k; j++) {
      if (this.mode === 'traverse') {
        this.visitRay = j;
        q.traverse(ox, oy, oz, dirs[3 * j]!, dirs[3 * j + 1]!, dirs[3 * j + 2]!, tmin, tmaxs[j]!, this.visit);
      } else {
        q.collect(ox, oy, oz, dirs[3 * j]!, dirs[3 * j + 1]!, dirs[3 * j + 2]!, tmin, tmaxs[j]!, j, this.sink);
      }
    }
    const c = this.counts;
    for (let j = 0; j < k; j++) {
      if (this.range[j]! !== this.range[j]!) continue;
      const kind = this.bestKind[j]!, e = this.bestIndex[j]!;
      if (kind === ElementKind.Ground) {
        c.groundHits[e]!++;
        if (this.bestCell[j]! >= 0) bump(c.groundCellHits, e * this.groundCells * this.groundCells + this.bestCell[j]!);
        c.residualSum += this.bestResidual[j]! * this.bestResidual[j]!;
        c.residualCount++;
      } else if (kind === ElementKind.Ellipsoid) {
        c.ellipsoidHits[e]!++;
        c.ellipsoidHitBins[e * FALLOFF_BINS + falloffBin(this.bestM2[j]!, this.thr2)]!++;
        if (this.bestCell[j]! >= 0) bump(c.cellHits, this.cellKey(e, this.bestCell[j]!));
      } else {
        c.unexplained++;
      }
    }
  }
}

function bump(m: Map<number, number>, key: number): void {
  m.set(key, (m.get(key) ?? 0) + 1);
}

/** The walk margin past a return: the largest half-extent along any ray of any Gaussian, or maxResidual, capped. */
export function replayMargin(covariances: Float64Array[], thresholds: number[], maxResidual: number, cap = 5): number {
  let m = maxResidual;
  covariances.forEach((cov, k) => {
    const thr = thresholds[k]!;
    for (let i = 0; i < cov.length; i += 6) {
      // √(largest diagonal entry of Σ) bounds the extent along the axes; the trace bounds every direction.
      const ext = thr * Math.sqrt(Math.max(0, cov[i]! + cov[i + 3]! + cov[i + 5]!));
      if (ext > m) m = ext;
    }
  });
  return Math.min(m, cap);
}

/** p_hit = (hits + a) / (hits + misses + a + b). */
export function hitProbability(hits: Uint32Array, misses: Uint32Array, a: number, b: number): Float32Array {
  const out = new Float32Array(hits.length);
  for (let i = 0; i < hits.length; i++) out[i] = (hits[i]! + a) / (hits[i]! + misses[i]! + a + b);
  return out;
}

/** ρ = m / (m + n); a voxel no ray reached is transparent (ρ = 1). */
export function permeability(ends: Uint32Array, passes: Uint32Array): Float32Array {
  const out = new Float32Array(ends.length);
  for (let i = 0; i < ends.length; i++) {
    const t = ends[i]! + passes[i]!;
    out[i] = t > 0 ? passes[i]! / t : 1;
  }
  return out;
}
