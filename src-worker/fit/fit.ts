/**
 * Fitting a hybrid model (and the voxel permeability model) to a drive log — docs/methods.md §1–2:
 *
 *  1. cloud     every hit to the world frame, binned into `cellSize` cells (cells.ts);
 *  2. blocks    square x-y blocks over the cells (blocks.ts);
 *  3. segment   ground / non-ground by spherical variation, block by block (segmentation.ts);
 *  4. elements  per block: ground mesh vertices (ground-surface.ts), ellipsoids by hierarchical
 *               k-means of the non-ground points (kmeans.ts), voxel Gaussians (voxels.ts);
 *  5. mesh      one Delaunay triangulation of every block's vertices, long triangles dropped;
 *  6. replay    every ray through all elements (replay.ts): hit / pass counts, σ²_ground;
 *  7. p_hit     with the priors of Table 4.1; ρ = m / (m + n); elements that never return a ray
 *               (p_hit = 0, ρ = 1) are dropped — they are transparent in simulation anyway.
 *
 * Deterministic: the only randomness is k-means seeding, from RandomStream(seed, block index).
 * Long work polls `hooks.checkCancelled()` and reports progress through `hooks.progress`.
 */
import { CellAccumulator, addCellMoments, momentsToGaussian, type CellCloud } from './cells';
import { planBlocks, marginCells, centroidsOf, type BlockPlan } from './blocks';
import { segmentPoints } from './segmentation';
import { vertexBlock, triangulateGround } from './ground-surface';
import { hierarchicalKMeans } from './kmeans';
import { voxelGaussians } from './voxels';
import { buildModelScene, type ModelScene } from './model-scene';
import { FALLOFF_BINS, falloffProbabilities } from './ellipsoid-kappa';
import { Replayer, newReplayCounts, replayMargin, hitProbability, permeability, type ReplayCounts, type ReplayOptions } from './replay';
import type { FitParams } from '../../src-common/fit-params';
import type { ModelArrays, ModelScalars } from '../../src-common/fitted-model';
import type { FitLogChunk } from './log-input';
import { RandomStream } from '../random/stream';
import { POSE_STRIDE } from '../../src-common/packets';
import { concatenated } from '../arrays/typed-arrays';
import { learnBetaPrior } from './learned-prior';

export interface FitHooks {
  progress(fraction: number, message: string): void;
  checkCancelled(): void;
}

export interface FitInput {
  chunks: readonly FitLogChunk[];
  params: FitParams;
  seed: number;
  /** The sensor's maximum range (m) from the log's profile; 0 when unknown. */
  profileMaxRange: number;
  /**
   * The sensor's minimum range (m) from the log's profile (0 when unknown): the replay counts
   * nothing on elements nearer than that, where the sensor cannot range and the simulator does
   * not look (stochastic.ts).
   */
  profileMinRange?: number;
}

/** A log that cannot be fitted (no hits, no ground, …): the message says why and what to change. */
export class FitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FitError';
  }
}

export interface FitReport {
  counts: {
    packets: number; rays: number; hits: number; misses: number;
    cells: number; groundCells: number; nonGroundCells: number; phiDefaulted: number; blocks: number;
    triangles: number; ellipsoids: number; voxels: number;
    isolatedGround: number; vertices: number; longTrianglesDropped: number; untouchedTriangles: number;
    clusters: number; refusedSplits: number; ellipsoidsFiltered: number; voxelsSparse: number; voxelsFiltered: number;
    replayedRays: number; unexplainedReturns: number; groundHitRays: number;
  };
  groundVariance: number;
  /**
   * The (hit, miss) pseudo-counts p_hit was computed with: θ's, or learned from this log;
   * `groundReturned`: the ground's from the rays that returned only (another sensor's p_hit).
   */
  hitPriors: { learned: boolean; ground: { a: number; b: number }; ellipsoid: { a: number; b: number }; groundReturned?: { a: number; b: number } };
  maxRange: number;
  replayMargin: number;
  /** Milliseconds per stage. */
  timings: Record<'cloud' | 'segmentation' | 'elements' | 'mesh' | 'replay' | 'total', number>;
  /** Sensor poses kept for the trail (the poses themselves are FitResult.trail). */
  trailPoses: number;
  bounds: { min: [number, number, number]; max: [number, number, number] } | null;
}

export interface FitResult {
  arrays: ModelArrays;
  scalars: ModelScalars;
  report: FitReport;
  /** The sensor's path, poses world ← sensor ≥ 1 m apart (7 each): simulate --trail drives along it. */
  trail: Float64Array;
}

/** The fitted elements before replay (steps 1–5), in model order (sorted by block). */
export interface ElementArrays {
  groundPositions: Float32Array;
  groundBlock: Int32Array;
  ellipsoidMeans: Float64Array;
  ellipsoidCovariances: Float64Array;
  ellipsoidBlock: Int32Array;
  ellipsoidPoints: Uint32Array;
  voxelMeans: Float64Array;
  voxelCovariances: Float64Array;
  voxelBlock: Int32Array;
  voxelPoints: Uint32Array;
}

/** What steps 1–5 hand to the replay and to finishFit. */
export interface FittedElements {
  elements: ElementArrays;
  /** Every element in one scene (p_hit placeholders) for the replay; shared memory when asked. */
  scene: ModelScene;
  replay: ReplayOptions;
  /** Report fields known before the replay (counts of the later steps are filled by finishFit). */
  report: Omit<FitReport, 'groundVariance' | 'hitPriors'>;
  trail: Float64Array;
}

const TRAIL_SPACING_M = 1;

/** The whole fit in one thread: steps 1–5, the replay of every ray, then probabilities. */
export function fitModel(input: FitInput, hooks: FitHooks): FitResult {
  const fitted = fitElements(input, hooks);
  const t0 = performance.now();
  const counts = replayPackets({ ...fitted, sizes: elementSizes(fitted.elements) }, input.chunks, 0, Infinity, hooks, (f) => 0.5 + 0.49 * f);
  const result = finishFit(fitted, counts, input.params, performance.now() - t0);
  hooks.progress(1, 'fitted');
  return result;
}

/** Steps 1–5: cloud, blocks, segmentation, elements, ground mesh; and the replay scene. */
export function fitElements(input: FitInput, hooks: FitHooks, opts: { sharedScene?: boolean } = {}): FittedElements {
  const { params } = input;
  const t0 = performance.now();
  const timings = { cloud: 0, segmentation: 0, elements: 0, mesh: 0, replay: 0, total: 0 };
  let mark = t0;
  const lap = (k: keyof typeof timings) => {
    const now = performance.now();
    timings[k] = Math.round(now - mark);
    mark = now;
  };

  // 1. The subsampled cloud.
  const cloudPass = accumulateCloud(input.chunks, params.cellSize, hooks);
  const { cloud } = cloudPass;
  if (cloudPass.hits === 0) throw new FitError(`the log has no hits (${cloudPass.rays} rays, all misses): there is nothing to fit`);
  lap('cloud');

  // 2–3. Blocks, ground segmentation.
  const { plan, ground, groundCells, phiDefaulted } = segmentCloud(cloud, params, hooks);
  lap('segmentation');

  // 4. Elements per block.
  const el = fitBlockElements(cloud, plan, ground, input, hooks);
  lap('elements');

  // 5. The ground mesh.
  hooks.progress(0.46, 'triangulating the ground');
  const mesh = triangulateGround(el.vertices, el.vertexCount, params);
  if (mesh.count === 0) {
    throw new FitError(
      `no ground triangles: ${el.vertexCount} mesh vertices from ${groundCells} ground points gave no triangle with sides up to maxTriangleSide = ${params.maxTriangleSide} m ` +
        `(raise maxTriangleSide or isolatedDistance, or lower vertexSpacing)`,
    );
  }
  const groundBlock = triangleBlocks(mesh.positions, mesh.count, plan);
  const triOrder = sortByBlock(groundBlock);
  const groundPositions = new Float32Array(9 * mesh.count);
  const groundBlockSorted = new Int32Array(mesh.count);
  triOrder.forEach((src, i) => {
    groundPositions.set(mesh.positions.subarray(9 * src, 9 * src + 9), 9 * i);
    groundBlockSorted[i] = groundBlock[src]!;
  });

  // The replay scene: every element, p_hit placeholders (the replay never samples them), one
  // primitive per kind — one BVH over all blocks walks faster than the blocks' instance tree.
  const elements: ElementArrays = {
    groundPositions, groundBlock: groundBlockSorted,
    ellipsoidMeans: el.ellipsoidMeans, ellipsoidCovariances: el.ellipsoidCovariances, ellipsoidBlock: el.ellipsoidBlock, ellipsoidPoints: el.ellipsoidPoints,
    voxelMeans: el.voxelMeans, voxelCovariances: el.voxelCovariances, voxelBlock: el.voxelBlock, voxelPoints: el.voxelPoints,
  };
  const scene = buildModelScene(
    {
      ...elements,
      groundBlock: new Int32Array(mesh.count),
      ellipsoidBlock: new Int32Array(el.ellipsoidCount),
      voxelBlock: new Int32Array(el.voxelCount),
      groundPHit: new Float32Array(mesh.count).fill(1),
      ellipsoidPHit: new Float32Array(el.ellipsoidCount).fill(1),
      voxelPermeability: new Float32Array(el.voxelCount),
    },
    { groundVariance: 0, mahalanobisThreshold: params.mahalanobisThreshold, voxelTau: params.voxelTau },
    { ground: true, ellipsoids: true, voxels: true },
    { shared: opts.sharedScene ?? false },
  );
  lap('mesh');
  const maxRange = params.maxRange > 0 ? params.maxRange : input.profileMaxRange > 0 ? input.profileMaxRange : Math.ceil(cloudPass.maxHitRange);
  const margin = replayMargin([el.ellipsoidCovariances, el.voxelCovariances], [params.mahalanobisThreshold, params.voxelTau], params.maxResidual);
  timings.total = Math.round(performance.now() - t0);
  return {
    elements,
    scene,
    replay: { maxRange, maxResidual: params.maxResidual, mahalanobisThreshold: params.mahalanobisThreshold, voxelTau: params.voxelTau, margin, minRange: input.profileMinRange ?? 0, groundNoReturnMisses: params.groundNoReturnMisses === 1, cellGrid: params.ellipsoidCells, groundCellGrid: params.groundCells },
    report: {
      counts: {
        packets: cloudPass.packets, rays: cloudPass.rays, hits: cloudPass.hits, misses: cloudPass.rays - cloudPass.hits,
        cells: cloud.count, groundCells, nonGroundCells: cloud.count - groundCells, phiDefaulted, blocks: plan.blocks.length,
        triangles: mesh.count, ellipsoids: el.ellipsoidCount, voxels: el.voxelCount,
        isolatedGround: el.isolated, vertices: el.vertexCount, longTrianglesDropped: mesh.droppedLong, untouchedTriangles: 0,
        clusters: el.ellipsoidCount, refusedSplits: el.refused, ellipsoidsFiltered: 0, voxelsSparse: el.voxelsSparse, voxelsFiltered: 0,
        replayedRays: 0, unexplainedReturns: 0, groundHitRays: 0,
      },
      maxRange,
      replayMargin: margin,
      timings,
      trailPoses: cloudPass.trail.length / POSE_STRIDE,
      bounds: cloudPass.bounds,
    },
    trail: cloudPass.trail,
  };
}

/** Element counts by kind: what sizes a replay's counts. */
export interface ElementSizes {
  triangles: number;
  ellipsoids: number;
  voxels: number;
}

export function elementSizes(e: ElementArrays): ElementSizes {
  return { triangles: e.groundBlock.length, ellipsoids: e.ellipsoidBlock.length, voxels: e.voxelBlock.length };
}

/** What a replay batch needs: the shared scene, the options, the element counts. */
export type ReplayInput = Pick<FittedElements, 'scene' | 'replay'> & { sizes: ElementSizes };

/**
 * Step 6 for log packets [first, first + count) (clipped to the chunks given): every ray through
 * the fitted elements. `fraction` maps this batch's progress to the job's.
 */
export function replayPackets(
  fitted: ReplayInput, chunks: readonly FitLogChunk[], first: number, count: number,
  hooks: FitHooks, fraction: (f: number) => number = (f) => f,
): ReplayCounts {
  const counts = newReplayCounts(fitted.sizes.triangles, fitted.sizes.ellipsoids, fitted.sizes.voxels);
  const replayer = new Replayer(fitted.scene, counts, fitted.replay);
  const end = first + count;
  let total = 0;
  for (const c of chunks) total += Math.max(0, Math.min(end, c.packetStart + c.packetCount) - Math.max(first, c.packetStart));
  let done = 0;
  for (const c of chunks) {
    const from = Math.max(first, c.packetStart) - c.packetStart, to = Math.min(end, c.packetStart + c.packetCount) - c.packetStart;
    // Progress and cancellation every 16 packets: a packet of a dense log is a few ms.
    for (let p = from; p < to; p += 16) {
      hooks.checkCancelled();
      const q = Math.min(to, p + 16);
      replayer.replayChunk(c, p, q);
      done += q - p;
      hooks.progress(fraction(done / Math.max(1, total)), `replaying rays (${done} of ${total} packets)`);
    }
  }
  return counts;
}

/** Step 7: p_hit with the priors, ρ, σ²_ground, the elements that never return a ray dropped; the report completed. */
export function finishFit(fitted: Pick<FittedElements, 'elements' | 'report' | 'trail'>, counts: ReplayCounts, params: FitParams, replayMs: number): FitResult {
  const e = fitted.elements;
  const groundVariance = counts.residualCount > 0 ? counts.residualSum / counts.residualCount : 0;
  const priors = hitPriors(counts, params);
  const arrays = assemble(e, counts, priors, params);
  let untouched = 0;
  for (let i = 0; i < counts.groundHits.length; i++) if (counts.groundHits[i]! + counts.groundMisses[i]! === 0) untouched++;
  const r = fitted.report;
  const timings = { ...r.timings, replay: Math.round(replayMs), total: Math.round(r.timings.total + replayMs) };
  const report: FitReport = {
    ...r,
    counts: {
      ...r.counts,
      triangles: arrays.groundPHit.length, ellipsoids: arrays.ellipsoidPHit.length, voxels: arrays.voxelPermeability.length,
      untouchedTriangles: untouched,
      ellipsoidsFiltered: e.ellipsoidBlock.length - arrays.ellipsoidPHit.length,
      voxelsFiltered: e.voxelBlock.length - arrays.voxelPermeability.length,
      replayedRays: counts.rays, unexplainedReturns: counts.unexplained, groundHitRays: counts.residualCount,
    },
    groundVariance,
    hitPriors: priors,
    timings,
  };
  const scalars = {
    groundVariance, mahalanobisThreshold: params.mahalanobisThreshold, voxelTau: params.voxelTau, ellipsoidHitFalloff: params.ellipsoidHitFalloff === 1,
    hitCells: { ellipsoidGrid: params.ellipsoidCells, groundGrid: params.groundCells, prior: params.hitCellPrior },
  };
  return { arrays, scalars, report, trail: fitted.trail };
}

export interface Segmentation {
  plan: BlockPlan;
  /** 1 = ground, per cell of the cloud. */
  ground: Uint8Array;
  groundCells: number;
  phiDefaulted: number;
}

/** Steps 2–3: blocks, then every block's cells labelled ground or not (throws when almost none is ground). */
export function segmentCloud(cloud: CellCloud, params: FitParams, hooks: FitHooks): Segmentation {
  const plan = planBlocks(cloud, params.blockSize);
  const ground = new Uint8Array(cloud.count);
  let phiDefaulted = 0;
  const segMargin = params.phiRadius + params.smoothRadius;
  plan.blocks.forEach((blk, b) => {
    hooks.checkCancelled();
    const margin = marginCells(plan, cloud, b, segMargin);
    const xyz = centroidsOf(cloud, blk.cells, margin);
    const labels = new Uint8Array(blk.cells.length);
    const s = segmentPoints(xyz, blk.cells.length + margin.length, blk.cells.length, params, labels, hooks.checkCancelled);
    phiDefaulted += s.defaulted;
    for (let i = 0; i < blk.cells.length; i++) ground[blk.cells[i]!] = labels[i]!;
    hooks.progress(0.1 + (0.2 * (b + 1)) / plan.blocks.length, `segmenting ground (block ${b + 1} of ${plan.blocks.length})`);
  });
  let groundCells = 0;
  for (let c = 0; c < cloud.count; c++) groundCells += ground[c]!;
  if (groundCells < 3) {
    throw new FitError(
      `too few ground points: ${groundCells} of ${cloud.count} subsampled points have spherical variation below phiThreshold = ${params.phiThreshold} ` +
        `(raise phiThreshold or phiRadius, or lower phiMinNeighbors)`,
    );
  }
  return { plan, ground, groundCells, phiDefaulted };
}

export interface CloudPass {
  cloud: CellCloud;
  packets: number;
  rays: number;
  hits: number;
  maxHitRange: number;
  /** Sensor poses ≥ 1 m apart, 7 each. */
  trail: Float64Array;
  bounds: FitReport['bounds'];
}

/** Pass 1: every hit to the world frame (the packet's pose applied to r·d) into the cell grid. */
export function accumulateCloud(chunks: readonly FitLogChunk[], cellSize: number, hooks: FitHooks): CloudPass {
  const acc = new CellAccumulator(cellSize);
  let packets = 0, rays = 0, hits = 0, maxHitRange = 0;
  const trail: number[] = [];
  let lx = NaN, ly = NaN, lz = NaN;
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  let totalPackets = 0;
  for (const c of chunks) totalPackets += c.packetCount;
  for (const c of chunks) {
    hooks.checkCancelled();
    const pose = c.packetPose, dir = c.rayDir, range = c.rayRange, start = c.rayStart;
    for (let p = 0; p < c.packetCount; p++) {
      const o = p * POSE_STRIDE;
      const ox = pose[o]!, oy = pose[o + 1]!, oz = pose[o + 2]!;
      const qx = pose[o + 3]!, qy = pose[o + 4]!, qz = pose[o + 5]!, qw = pose[o + 6]!;
      if (!(Math.hypot(ox - lx, oy - ly, oz - lz) < TRAIL_SPACING_M)) {
        for (let k = 0; k < POSE_STRIDE; k++) trail.push(pose[o + k]!);
        lx = ox; ly = oy; lz = oz;
      }
      for (let i = start[p]!; i < start[p + 1]!; i++) {
        rays++;
        const r = range[i]!;
        if (r !== r) continue;
        const x = dir[3 * i]! * r, y = dir[3 * i + 1]! * r, z = dir[3 * i + 2]! * r;
        const tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
        const wx = x + qw * tx + (qy * tz - qz * ty) + ox;
        const wy = y + qw * ty + (qz * tx - qx * tz) + oy;
        const wz = z + qw * tz + (qx * ty - qy * tx) + oz;
        if (!(Number.isFinite(wx) && Number.isFinite(wy) && Number.isFinite(wz))) continue;
        hits++;
        if (r > maxHitRange) maxHitRange = r;
        if (wx < lo[0]!) lo[0] = wx; if (wx > hi[0]!) hi[0] = wx;
        if (wy < lo[1]!) lo[1] = wy; if (wy > hi[1]!) hi[1] = wy;
        if (wz < lo[2]!) lo[2] = wz; if (wz > hi[2]!) hi[2] = wz;
        acc.add(wx, wy, wz);
      }
    }
    packets += c.packetCount;
    hooks.progress((0.1 * packets) / Math.max(1, totalPackets), `binning hits (${packets} of ${totalPackets} packets)`);
  }
  // The last pose too, so the trail reaches the end of the drive.
  const lastChunk = chunks[chunks.length - 1];
  if (lastChunk && lastChunk.packetCount > 0) {
    const o = (lastChunk.packetCount - 1) * POSE_STRIDE;
    const end = Array.from(lastChunk.packetPose.subarray(o, o + POSE_STRIDE));
    const prev = trail.slice(trail.length - POSE_STRIDE);
    if (end.some((v, k) => v !== prev[k])) trail.push(...end);
  }
  const bounds: FitReport['bounds'] = hits > 0 ? { min: [lo[0]!, lo[1]!, lo[2]!], max: [hi[0]!, hi[1]!, hi[2]!] } : null;
  return { cloud: acc.finish(), packets, rays, hits, maxHitRange, trail: Float64Array.from(trail), bounds };
}

interface BlockElements {
  vertices: Float64Array;
  vertexCount: number;
  isolated: number;
  ellipsoidCount: number;
  ellipsoidMeans: Float64Array;
  ellipsoidCovariances: Float64Array;
  ellipsoidBlock: Int32Array;
  ellipsoidPoints: Uint32Array;
  refused: number;
  voxelCount: number;
  voxelMeans: Float64Array;
  voxelCovariances: Float64Array;
  voxelBlock: Int32Array;
  voxelPoints: Uint32Array;
  voxelsSparse: number;
}

/** Step 4, block by block: mesh vertices, ellipsoids, voxel Gaussians. */
function fitBlockElements(cloud: CellCloud, plan: BlockPlan, ground: Uint8Array, input: FitInput, hooks: FitHooks): BlockElements {
  const { params } = input;
  const verts: Float64Array[] = [];
  let vertexCount = 0, isolated = 0, refused = 0, voxelsSparse = 0;
  const eMeans: Float64Array[] = [], eCovs: Float64Array[] = [], eBlock: number[] = [], ePoints: number[] = [];
  const vMeans: Float64Array[] = [], vCovs: Float64Array[] = [], vBlock: number[] = [], vPoints: Uint32Array[] = [];
  const groundMargin = Math.max(params.surfaceRadius, params.isolatedDistance);
  const vs = params.voxelSize, B = plan.size;
  // A voxel belongs to the block holding its centre, so no voxel is split at a block border.
  const voxelBlockKey = (c: number) => {
    const cx = (Math.floor(cloud.centroid[3 * c]! / vs) + 0.5) * vs, cy = (Math.floor(cloud.centroid[3 * c + 1]! / vs) + 0.5) * vs;
    return plan.byKey.get(`${Math.floor(cx / B)},${Math.floor(cy / B)}`) ?? -1;
  };
  const acc = new Float64Array(10);
  plan.blocks.forEach((blk, b) => {
    hooks.checkCancelled();
    const coreG: number[] = [], coreN: number[] = [];
    for (const c of blk.cells) (ground[c] ? coreG : coreN).push(c);

    // Ground mesh vertices.
    const margG = marginCells(plan, cloud, b, groundMargin, (c) => ground[c] === 1);
    const gv = vertexBlock(centroidsOf(cloud, coreG, margG), coreG.length + margG.length, coreG.length, params);
    verts.push(gv.xyz);
    vertexCount += gv.count;
    isolated += gv.isolated;

    // Ellipsoids: hierarchical k-means of the non-ground points, Gaussians from the cells' moments.
    if (coreN.length >= params.minClusterPoints) {
      const target = Math.max(1, Math.round(params.clustersPerPoint * coreN.length));
      const km = hierarchicalKMeans(
        centroidsOf(cloud, coreN), coreN.length,
        { target, branching: params.branching, iterations: params.kmeansIterations, minPoints: params.minClusterPoints },
        new RandomStream(input.seed, b), hooks.checkCancelled,
      );
      refused += km.refused;
      const members: number[][] = Array.from({ length: km.count }, () => []);
      for (let i = 0; i < coreN.length; i++) members[km.assign[i]!]!.push(coreN[i]!);
      const means = new Float64Array(3 * km.count), covs = new Float64Array(6 * km.count);
      members.forEach((list, k) => {
        const r = list[0]!;
        const rx = cloud.centroid[3 * r]!, ry = cloud.centroid[3 * r + 1]!, rz = cloud.centroid[3 * r + 2]!;
        acc.fill(0);
        for (const c of list) addCellMoments(cloud, c, rx, ry, rz, acc);
        momentsToGaussian(acc, rx, ry, rz, true, means, 3 * k, covs, 6 * k);
        eBlock.push(b);
        ePoints.push(acc[0]!);
      });
      eMeans.push(means);
      eCovs.push(covs);
    }

    // Voxel Gaussians of every point whose voxel centre lies in this block.
    const vcells: number[] = [];
    for (const c of blk.cells) if (voxelBlockKey(c) === b) vcells.push(c);
    for (const c of marginCells(plan, cloud, b, vs, (c) => voxelBlockKey(c) === b)) vcells.push(c);
    const vx = voxelGaussians(cloud, vcells, vs, params.voxelMinPoints);
    voxelsSparse += vx.sparse;
    vMeans.push(vx.means);
    vCovs.push(vx.covariances);
    vPoints.push(vx.points);
    for (let i = 0; i < vx.count; i++) vBlock.push(b);
    hooks.progress(0.3 + (0.15 * (b + 1)) / plan.blocks.length, `fitting elements (block ${b + 1} of ${plan.blocks.length})`);
  });
  return {
    vertices: concatenated(Float64Array, verts), vertexCount, isolated,
    ellipsoidCount: eBlock.length, ellipsoidMeans: concatenated(Float64Array, eMeans), ellipsoidCovariances: concatenated(Float64Array, eCovs),
    ellipsoidBlock: Int32Array.from(eBlock), ellipsoidPoints: Uint32Array.from(ePoints), refused,
    voxelCount: vBlock.length, voxelMeans: concatenated(Float64Array, vMeans), voxelCovariances: concatenated(Float64Array, vCovs),
    voxelBlock: Int32Array.from(vBlock), voxelPoints: concatenated(Uint32Array, vPoints), voxelsSparse,
  };
}

/**
 * Block of each triangle: the block holding its centroid, else (a long triangle over an empty
 * block) its first vertex's — a vertex lies in the block whose points made it.
 */
function triangleBlocks(pos: Float32Array, n: number, plan: BlockPlan): Int32Array {
  const out = new Int32Array(n);
  const B = plan.size;
  for (let t = 0; t < n; t++) {
    const cx = (pos[9 * t]! + pos[9 * t + 3]! + pos[9 * t + 6]!) / 3, cy = (pos[9 * t + 1]! + pos[9 * t + 4]! + pos[9 * t + 7]!) / 3;
    let b = plan.byKey.get(`${Math.floor(cx / B)},${Math.floor(cy / B)}`);
    if (b === undefined) b = plan.byKey.get(`${Math.floor(pos[9 * t]! / B)},${Math.floor(pos[9 * t + 1]! / B)}`) ?? 0;
    out[t] = b;
  }
  return out;
}

/** Stable order of indices sorted by block. */
function sortByBlock(block: Int32Array): Int32Array {
  const idx = new Int32Array(block.length);
  for (let i = 0; i < idx.length; i++) idx[i] = i;
  return idx.sort((a, b) => block[a]! - block[b]! || a - b);
}

/** Step 7: probabilities, and the stored arrays without the elements that never return a ray. */
/** The (hit, miss) priors of both kinds: θ's fixed ones, or learned from the replay counts. */
function hitPriors(counts: ReplayCounts, params: FitParams): FitReport['hitPriors'] {
  const ground = { a: params.groundHitPrior, b: params.groundMissPrior };
  const ellipsoid = { a: params.ellipsoidHitPrior, b: params.ellipsoidMissPrior };
  const returnedOnly = params.groundNoReturnMisses === 1 ? returnedMisses(counts) : null;
  if (params.learnHitPriors !== 1) return { learned: false, ground, ellipsoid, ...(returnedOnly ? { groundReturned: ground } : {}) };
  const g = learnBetaPrior(counts.groundHits, counts.groundMisses, ground);
  const e = learnBetaPrior(counts.ellipsoidHits, counts.ellipsoidMisses, ellipsoid);
  const r = returnedOnly ? learnBetaPrior(counts.groundHits, returnedOnly, ground) : null;
  return { learned: true, ground: { a: g.a, b: g.b }, ellipsoid: { a: e.a, b: e.b }, ...(r ? { groundReturned: { a: r.a, b: r.b } } : {}) };
}

/** Per triangle, the passes of rays that returned (from behind it): its misses less the no-return rays. */
function returnedMisses(counts: ReplayCounts): Uint32Array {
  return counts.groundMisses.map((m, i) => m - counts.groundNoReturns[i]!);
}

function assemble(elements: ElementArrays, counts: ReplayCounts, priors: FitReport['hitPriors'], params: FitParams): ModelArrays {
  const groundPHit = hitProbability(counts.groundHits, counts.groundMisses, priors.ground.a, priors.ground.b);
  const ePHit = params.ellipsoidHitFalloff === 1
    ? falloffProbabilities(counts.ellipsoidHitBins, counts.ellipsoidPassBins, priors.ellipsoid.a, priors.ellipsoid.b, params.mahalanobisThreshold)
    : hitProbability(counts.ellipsoidHits, counts.ellipsoidMisses, priors.ellipsoid.a, priors.ellipsoid.b);
  const rho = permeability(counts.voxelEnds, counts.voxelPasses);
  // An ellipsoid no ray returned from is dropped: with Table 4.1's prior (0, 1) its p_hit is 0;
  // a learned prior would give it the prior's small mean, but nothing in the log returned there.
  const keepE: number[] = [];
  for (let i = 0; i < ePHit.length; i++) if (ePHit[i]! > 0 && (!priors.learned || counts.ellipsoidHits[i]! > 0)) keepE.push(i);
  const keepV: number[] = [];
  for (let i = 0; i < rho.length; i++) if (rho[i]! < 1) keepV.push(i);
  const g = params.ellipsoidCells, gt = params.groundCells;
  const eCells = g > 0 ? hitCellRows(counts.cellHits, counts.cellPasses, keepE, g * g * g) : null;
  const allTriangles = Array.from(groundPHit, (_, i) => i);
  const gCells = gt > 0 ? hitCellRows(counts.groundCellHits, counts.groundCellPasses, allTriangles, gt * gt) : null;
  // Another sensor's view of the ground (model-scene.ts): p_hit from the rays that returned, and
  // per cell the no-return passes to take back out — the training sensor's dropouts are its own.
  const returned = priors.groundReturned
    ? {
      groundPHitReturned: hitProbability(counts.groundHits, returnedMisses(counts), priors.groundReturned.a, priors.groundReturned.b),
      ...(gCells ? { groundCellNoReturns: cellValues(counts.groundCellNoReturns, gCells, gt * gt, allTriangles) } : {}),
    }
    : {};
  // The same for the ellipsoids: passes proven by a return behind them, without the rays that
  // returned nothing (into the open, or the training sensor's dropouts in sparse foliage).
  const ePHitReturned = returnedEllipsoidProbabilities(counts, priors, params);
  const eReturned = {
    ellipsoidPHitReturned: pick(ePHitReturned, keepE, 1),
    ...(eCells ? { ellipsoidCellNoReturns: cellValues(counts.cellNoReturns, eCells, g * g * g, keepE) } : {}),
  };
  return {
    groundPositions: elements.groundPositions,
    groundPHit,
    groundBlock: elements.groundBlock,
    groundHits: counts.groundHits,
    groundMisses: counts.groundMisses,
    ellipsoidMeans: pick(elements.ellipsoidMeans, keepE, 3),
    ellipsoidCovariances: pick(elements.ellipsoidCovariances, keepE, 6),
    ellipsoidPHit: pick(ePHit, keepE, 1),
    ellipsoidBlock: pick(elements.ellipsoidBlock, keepE, 1),
    ellipsoidPoints: pick(elements.ellipsoidPoints, keepE, 1),
    ellipsoidHits: pick(counts.ellipsoidHits, keepE, 1),
    ellipsoidMisses: pick(counts.ellipsoidMisses, keepE, 1),
    voxelMeans: pick(elements.voxelMeans, keepV, 3),
    voxelCovariances: pick(elements.voxelCovariances, keepV, 6),
    voxelPermeability: pick(rho, keepV, 1),
    voxelBlock: pick(elements.voxelBlock, keepV, 1),
    voxelPoints: pick(elements.voxelPoints, keepV, 1),
    voxelEnds: pick(counts.voxelEnds, keepV, 1),
    voxelPasses: pick(counts.voxelPasses, keepV, 1),
    ...(eCells ? { ellipsoidCellStart: eCells.start, ellipsoidCellKey: eCells.key, ellipsoidCellHits: eCells.hits, ellipsoidCellPasses: eCells.passes } : {}),
    ...(gCells ? { groundCellStart: gCells.start, groundCellKey: gCells.key, groundCellHits: gCells.hits, groundCellPasses: gCells.passes } : {}),
    ...returned,
    ...eReturned,
  };
}

/** Each ellipsoid's p_hit (θ's model: falloff or constant) from the passes of rays that returned. */
function returnedEllipsoidProbabilities(counts: ReplayCounts, priors: FitReport['hitPriors'], params: FitParams): Float32Array {
  const passBins = counts.ellipsoidPassBins.map((p, i) => p - counts.ellipsoidNoReturnBins[i]!);
  if (params.ellipsoidHitFalloff === 1) return falloffProbabilities(counts.ellipsoidHitBins, passBins, priors.ellipsoid.a, priors.ellipsoid.b, params.mahalanobisThreshold);
  const misses = new Uint32Array(counts.ellipsoidMisses.length);
  for (let i = 0; i < passBins.length; i++) misses[Math.floor(i / FALLOFF_BINS)] = misses[Math.floor(i / FALLOFF_BINS)]! + passBins[i]!;
  return hitProbability(counts.ellipsoidHits, misses, priors.ellipsoid.a, priors.ellipsoid.b);
}

/** The values of `m` at the cells of compressed rows (row j = element keep[j]): 0 where it has none. */
function cellValues(m: Map<number, number>, rows: { start: Uint32Array; key: Uint16Array }, cellsPerElement: number, keep: readonly number[]): Uint32Array {
  const out = new Uint32Array(rows.key.length);
  for (let r = 0; r + 1 < rows.start.length; r++) {
    for (let o = rows.start[r]!; o < rows.start[r + 1]!; o++) out[o] = m.get(keep[r]! * cellsPerElement + rows.key[o]!) ?? 0;
  }
  return out;
}

/**
 * Hit cells as compressed rows (ModelArrays' ellipsoidCell* and groundCell*): row j holds element
 * keep[j]'s cells in ascending order, each with its hit and pass counts; the maps' keys are
 * element · cellsPerElement + cell.
 */
export function hitCellRows(cellHits: Map<number, number>, cellPasses: Map<number, number>, keep: readonly number[], cellsPerElement: number): { start: Uint32Array; key: Uint16Array; hits: Uint32Array; passes: Uint32Array } {
  const g3 = cellsPerElement, keepE = keep;
  const keys = new Set<number>([...cellHits.keys(), ...cellPasses.keys()]);
  const byEllipsoid = new Map<number, number[]>();
  for (const key of keys) {
    const e = Math.floor(key / g3);
    const list = byEllipsoid.get(e);
    if (list) list.push(key - e * g3);
    else byEllipsoid.set(e, [key - e * g3]);
  }
  const start = new Uint32Array(keepE.length + 1);
  let total = 0;
  keepE.forEach((e, j) => {
    start[j] = total;
    total += byEllipsoid.get(e)?.length ?? 0;
  });
  start[keepE.length] = total;
  const key = new Uint16Array(total), hits = new Uint32Array(total), passes = new Uint32Array(total);
  keepE.forEach((e, j) => {
    const list = (byEllipsoid.get(e) ?? []).sort((a, b) => a - b);
    list.forEach((cell, i) => {
      const o = start[j]! + i, full = e * g3 + cell;
      key[o] = cell;
      hits[o] = cellHits.get(full) ?? 0;
      passes[o] = cellPasses.get(full) ?? 0;
    });
  });
  return { start, key, hits, passes };
}

type Typed = Float32Array | Float64Array | Int32Array | Uint32Array;

/** The records `keep` (stride numbers each) of `a`, in a fresh array of the same type. */
function pick<T extends Typed>(a: T, keep: readonly number[], stride: number): T {
  const out = new (a.constructor as new (n: number) => T)(keep.length * stride);
  keep.forEach((i, j) => {
    for (let k = 0; k < stride; k++) out[j * stride + k] = a[i * stride + k]!;
  });
  return out;
}

