/**
 * Procedural off-road scenes for the benchmarks.
 *
 *   buildOffroadBenchScene(opts: { seed, sizeM = 200, targetTriangles = 1_500_000, shared? }): OffroadBenchScene
 *     A sizeM × sizeM square (x, y in [0, sizeM]) of terrain with a trail along +x, trees with
 *     leaves, shrubs, grass clumps (thin stems) and rocks; all plants are instances of a few
 *     unique meshes. About `targetTriangles` placed triangles (counted honestly: Σ over instances).
 *     Returns the built scene, its stats (unique and instanced triangles) and 10 sensor poses
 *     along the trail (1.8 m above the ground, heading along the trail) for an HDL-64E sweep.
 *
 *   buildComposedHybridScene(opts: { seed, lengthM = 200, widthM = 60, shared? }): ComposedHybridScene
 *     A lengthM strip along +x (y in [−widthM/2, widthM/2], trail near y = 0) composed of
 *     hybrid primitives — ground triangles with p_hit (0.92) and σ²_ground (0.03² m²), trees of
 *     ≈ 300 ellipsoids (thesis Table 4.2), shrubs and grass patches as ellipsoid sets, all
 *     placed as instances — plus the same scene as meshes (same poses, same object ids) for
 *     the physics and mesh modes. Also a trajectory hint: poses along the trail every metre.
 *
 * Both are deterministic in the seed.
 */
import { RandomStream } from '../random/stream';
import { SceneBuilder } from '../scene/scene-builder';
import { sceneStats, type SceneStats } from '../scene/scene-data';
import { type SceneData } from '../../src-common/scene-data';
import { SiteClass } from '../../src-common/classes';
import { buildTerrain, type Terrain } from './terrain';
import {
  grassClumpEllipsoids, grassClumpMesh, rockEllipsoids, rockMesh, shrubEllipsoids, shrubMesh, shrubSpec, treeEllipsoids, treeMesh, treeSpec,
  type ShrubSize, type Soup, type TreeSize,
} from './vegetation';
import { GENERATED_TRAIL_SENSOR_HEIGHT_M } from '../../src-common/scene-meta';

/** A pose [tx, ty, tz, qx, qy, qz, qw]. */
export type Pose7 = [number, number, number, number, number, number, number];

function yawPose(x: number, y: number, z: number, yaw: number): Pose7 {
  return [x, y, z, 0, 0, Math.sin(yaw / 2), Math.cos(yaw / 2)];
}

/** Poses along the trail, `height` above the ground, heading along it. */
export function trailPoses(terrain: Terrain, xs: readonly number[], height: number): Pose7[] {
  return xs.map((x) => {
    const y = terrain.trailY(x);
    const yaw = Math.atan2(terrain.trailY(x + 0.5) - terrain.trailY(x - 0.5), 1);
    return yawPose(x, y, terrain.heightAt(x, y) + height, yaw);
  });
}

/** Rejection-sampled positions at least `minDist` apart, away from the trail by `trailClear` (0..1 of onTrail). */
function scatter(r: RandomStream, terrain: Terrain, n: number, x0: number, y0: number, sx: number, sy: number, minDist: number, maxTrail: number, taken: number[] = []): number[] {
  const out: number[] = [];
  const cell = Math.max(minDist, 1e-3);
  const grid = new Map<string, number[]>();
  const keyOf = (x: number, y: number) => `${Math.floor(x / cell)},${Math.floor(y / cell)}`;
  const put = (x: number, y: number) => {
    const k = keyOf(x, y);
    const list = grid.get(k);
    if (list) list.push(x, y);
    else grid.set(k, [x, y]);
  };
  for (let i = 0; i < taken.length; i += 2) put(taken[i]!, taken[i + 1]!);
  let attempts = 0;
  while (out.length < 2 * n && attempts < 30 * n + 100) {
    attempts++;
    const x = x0 + sx * r.next(), y = y0 + sy * r.next();
    if (terrain.onTrail(x, y) > maxTrail) continue;
    let ok = true;
    if (minDist > 0) {
      const cx = Math.floor(x / cell), cy = Math.floor(y / cell);
      for (let i = -1; i <= 1 && ok; i++) {
        for (let j = -1; j <= 1 && ok; j++) {
          const list = grid.get(`${cx + i},${cy + j}`);
          if (!list) continue;
          for (let k = 0; k < list.length; k += 2) if (Math.hypot(list[k]! - x, list[k + 1]! - y) < minDist) { ok = false; break; }
        }
      }
    }
    if (!ok) continue;
    out.push(x, y);
    put(x, y);
  }
  return out;
}

const TREE_VARIANTS: TreeSize[] = ['small', 'medium', 'large', 'medium', 'small', 'large'];
const TREE_CLASS: Record<TreeSize, number> = { small: SiteClass.smallTree, medium: SiteClass.mediumTree, large: SiteClass.largeTree };
const SHRUB_VARIANTS: ShrubSize[] = ['low', 'small', 'medium', 'large'];
const SHRUB_CLASS: Record<ShrubSize, number> = { low: SiteClass.lowShrub, small: SiteClass.smallShrub, medium: SiteClass.mediumShrub, large: SiteClass.largeShrub };

export interface OffroadBenchOptions {
  seed: number;
  /** Side of the square area (m); default 200. */
  sizeM?: number;
  /** Placed triangles to aim for; default 1,500,000. */
  targetTriangles?: number;
  shared?: boolean;
}

export interface OffroadBenchScene {
  data: SceneData;
  stats: SceneStats;
  counts: { terrainTriangles: number; trees: number; shrubs: number; grassClumps: number; rocks: number };
  /** 10 sensor poses along the trail. */
  poses: Pose7[];
  terrain: Terrain;
}

export function buildOffroadBenchScene(opts: OffroadBenchOptions): OffroadBenchScene {
  const size = opts.sizeM ?? 200;
  const target = opts.targetTriangles ?? 1_500_000;
  const r = new RandomStream(opts.seed, 0x0ff);
  // Terrain: at most a quarter of the budget, cells no smaller than 0.5 m.
  const cell = Math.max(0.5, size / Math.sqrt((0.25 * target) / 2));
  const terrain = buildTerrain({ seed: opts.seed, x0: 0, y0: 0, sizeX: size, sizeY: size, cell });
  const b = new SceneBuilder();
  const ground = b.addMesh(terrain.positions, terrain.values);
  b.addInstance(ground, undefined, 1, SiteClass.ground);
  let objectId = 2;
  const rest = Math.max(0, target - terrain.triangles);

  const trees = TREE_VARIANTS.map((s) => {
    const spec = treeSpec(r, s);
    return { size: s, mesh: treeMesh(spec, r) };
  });
  const shrubs = SHRUB_VARIANTS.map((s) => ({ size: s, mesh: shrubMesh(shrubSpec(r, s), r) }));
  const grass = [0, 1, 2, 3].map(() => grassClumpMesh(r));
  const rocks = [0.3, 0.6, 1.0].map((rad) => rockMesh(r, rad));
  const mean = (list: Soup[]) => list.reduce((s, m) => s + m.values.length, 0) / list.length;
  const nTrees = Math.round((0.6 * rest) / mean(trees.map((t) => t.mesh)));
  const nShrubs = Math.round((0.08 * rest) / mean(shrubs.map((t) => t.mesh)));
  const nGrass = Math.round((0.3 * rest) / mean(grass));
  const nRocks = Math.round((0.02 * rest) / mean(rocks));

  const treeIds = trees.map((t) => b.addMesh(t.mesh.positions, t.mesh.values));
  const shrubIds = shrubs.map((t) => b.addMesh(t.mesh.positions, t.mesh.values));
  const grassIds = grass.map((m) => b.addMesh(m.positions, m.values));
  const rockIds = rocks.map((m) => b.addMesh(m.positions, m.values));

  const place = (xy: number[], ids: number[], cls: (k: number) => number, sink: number) => {
    for (let i = 0; i < xy.length; i += 2) {
      const k = Math.floor(r.next() * ids.length);
      const x = xy[i]!, y = xy[i + 1]!;
      b.addInstance(ids[k]!, yawPose(x, y, terrain.heightAt(x, y) - sink, 2 * Math.PI * r.next()), objectId++, cls(k));
    }
    return xy.length / 2;
  };
  const treeXY = scatter(r, terrain, nTrees, 0, 0, size, size, 3, 0.05);
  const placedTrees = place(treeXY, treeIds, (k) => TREE_CLASS[trees[k]!.size], 0);
  const shrubXY = scatter(r, terrain, nShrubs, 0, 0, size, size, 1.5, 0.2, treeXY);
  const placedShrubs = place(shrubXY, shrubIds, (k) => SHRUB_CLASS[shrubs[k]!.size], 0);
  const grassXY = scatter(r, terrain, nGrass, 0, 0, size, size, 0, 0.6);
  const placedGrass = place(grassXY, grassIds, () => SiteClass.grass, 0);
  const rockXY = scatter(r, terrain, nRocks, 0, 0, size, size, 1, 0.3);
  const placedRocks = place(rockXY, rockIds, () => SiteClass.rock, 0);

  const data = b.build({ shared: opts.shared ?? false });
  const xs = Array.from({ length: 10 }, (_, i) => size * (0.1 + (0.8 * i) / 9));
  return {
    data,
    stats: sceneStats(data),
    counts: { terrainTriangles: terrain.triangles, trees: placedTrees, shrubs: placedShrubs, grassClumps: placedGrass, rocks: placedRocks },
    poses: trailPoses(terrain, xs, GENERATED_TRAIL_SENSOR_HEIGHT_M),
    terrain,
  };
}

export interface ComposedHybridOptions {
  seed: number;
  /** Strip length along +x (m); default 200. */
  lengthM?: number;
  /** Strip width (m); default 60. */
  widthM?: number;
  shared?: boolean;
  /** Mahalanobis threshold the ellipsoid sizes assume (default 3.5). */
  mahalanobisThreshold?: number;
}

export interface ComposedHybridScene {
  /** Ground triangles (p_hit, σ²_ground) + ellipsoid instances: for the hybrid mode. */
  hybrid: SceneData;
  /** The same terrain and objects as meshes: for the physics and mesh modes. */
  mesh: SceneData;
  hybridStats: SceneStats;
  meshStats: SceneStats;
  counts: { trees: number; shrubs: number; grassPatches: number; rocks: number; groundTriangles: number };
  /** Poses along the trail every metre, 1.8 m above the ground (a vehicle's roof sensor). */
  trail: Pose7[];
  terrain: Terrain;
}

export function buildComposedHybridScene(opts: ComposedHybridOptions): ComposedHybridScene {
  const length = opts.lengthM ?? 200;
  const width = opts.widthM ?? 60;
  const thr = opts.mahalanobisThreshold ?? 3.5;
  const r = new RandomStream(opts.seed, 0x4b7);
  const terrain = buildTerrain({ seed: opts.seed, x0: -10, y0: -width / 2, sizeX: length + 20, sizeY: width, cell: 1 });
  // Re-centre the trail's meander on y = 0 is implicit: the terrain's middle is y = 0.
  const hb = new SceneBuilder(), mb = new SceneBuilder();
  hb.addInstance(hb.addGround(terrain.positions, 0.92, 0.03 * 0.03, 0.3), undefined, 1, SiteClass.ground);
  mb.addInstance(mb.addMesh(terrain.positions, terrain.values), undefined, 1, SiteClass.ground);

  interface Variant { h: number; m: number; cls: number }
  const variants = (make: (k: number) => { h: ReturnType<typeof treeEllipsoids>; m: Soup; cls: number }, n: number): Variant[] =>
    Array.from({ length: n }, (_, k) => {
      const v = make(k);
      return { h: hb.addEllipsoids(v.h.means, v.h.covariances, v.h.values), m: mb.addMesh(v.m.positions, v.m.values), cls: v.cls };
    });
  const treeV = variants((k) => {
    const size = TREE_VARIANTS[k % TREE_VARIANTS.length]!;
    const spec = treeSpec(r, size);
    return { h: treeEllipsoids(spec, thr), m: treeMesh(spec, r), cls: TREE_CLASS[size] };
  }, 6);
  const shrubV = variants((k) => {
    const size = SHRUB_VARIANTS[k % 4]!;
    const spec = shrubSpec(r, size);
    return { h: shrubEllipsoids(spec, thr), m: shrubMesh(spec, r), cls: SHRUB_CLASS[size] };
  }, 8);
  const grassV = variants(() => {
    const seed = r.nextUint32();
    // A patch: a few clumps side by side, same random draws for both forms.
    return { h: patch(new RandomStream(seed, 1), true), m: patch(new RandomStream(seed, 1), false), cls: SiteClass.grass };
  }, 4);
  const rockV = variants((k) => {
    const rad = [0.3, 0.6, 1.0][k]!, seed = r.nextUint32();
    return { h: rockEllipsoids(new RandomStream(seed, 0), rad, thr), m: rockMesh(new RandomStream(seed, 0), rad), cls: SiteClass.rock };
  }, 3);

  let objectId = 2;
  const place = (xy: number[], list: Variant[]) => {
    for (let i = 0; i < xy.length; i += 2) {
      const v = list[Math.floor(r.next() * list.length)]!;
      const x = xy[i]!, y = xy[i + 1]!;
      const pose = yawPose(x, y, terrain.heightAt(x, y), 2 * Math.PI * r.next());
      hb.addInstance(v.h, pose, objectId, v.cls);
      mb.addInstance(v.m, pose, objectId, v.cls);
      objectId++;
    }
    return xy.length / 2;
  };
  const area = length * width;
  const y0 = -width / 2;
  const treeXY = scatter(r, terrain, Math.round(area / 300), 0, y0, length, width, 4, 0.02);
  const shrubXY = scatter(r, terrain, Math.round(area / 80), 0, y0, length, width, 1.5, 0.15, treeXY);
  const grassXY = scatter(r, terrain, Math.round(area / 25), 0, y0, length, width, 0.8, 0.5);
  const rockXY = scatter(r, terrain, Math.round(area / 400), 0, y0, length, width, 1, 0.3);
  const counts = {
    trees: place(treeXY, treeV),
    shrubs: place(shrubXY, shrubV),
    grassPatches: place(grassXY, grassV),
    rocks: place(rockXY, rockV),
    groundTriangles: terrain.triangles,
  };
  const buildOpts = { shared: opts.shared ?? false, mahalanobisThreshold: thr };
  const hybrid = hb.build(buildOpts), mesh = mb.build(buildOpts);
  const xs = Array.from({ length: Math.floor(length) + 1 }, (_, i) => i);
  return { hybrid, mesh, hybridStats: sceneStats(hybrid), meshStats: sceneStats(mesh), counts, trail: trailPoses(terrain, xs, GENERATED_TRAIL_SENSOR_HEIGHT_M), terrain };
}

/** A grass patch of 3–5 clumps in a ~1 m disc: meshes or ellipsoids from the same draws. */
function patch(r: RandomStream, ellipsoids: true): ReturnType<typeof grassClumpEllipsoids>;
function patch(r: RandomStream, ellipsoids: false): Soup;
function patch(r: RandomStream, ellipsoids: boolean): Soup | ReturnType<typeof grassClumpEllipsoids> {
  const n = 3 + Math.floor(r.next() * 3);
  const parts: { dx: number; dy: number; seed: number }[] = [];
  for (let k = 0; k < n; k++) parts.push({ dx: (r.next() - 0.5) * 1.2, dy: (r.next() - 0.5) * 1.2, seed: r.nextUint32() });
  if (ellipsoids) {
    const means: number[] = [], covs: number[] = [], values: number[] = [];
    for (const p of parts) {
      const g = grassClumpEllipsoids(new RandomStream(p.seed, 0));
      for (let i = 0; i < g.values.length; i++) {
        means.push(g.means[3 * i]! + p.dx, g.means[3 * i + 1]! + p.dy, g.means[3 * i + 2]!);
        for (let k = 0; k < 6; k++) covs.push(g.covariances[6 * i + k]!);
        values.push(g.values[i]!);
      }
    }
    return { means: Float64Array.from(means), covariances: Float64Array.from(covs), values: Float32Array.from(values) };
  }
  const soups = parts.map((p) => ({ p, m: grassClumpMesh(new RandomStream(p.seed, 0)) }));
  const total = soups.reduce((s, x) => s + x.m.values.length, 0);
  const positions = new Float32Array(9 * total), values = new Float32Array(total);
  let t = 0;
  for (const { p, m } of soups) {
    for (let i = 0; i < m.values.length; i++, t++) {
      for (let v = 0; v < 3; v++) {
        positions[9 * t + 3 * v] = m.positions[9 * i + 3 * v]! + p.dx;
        positions[9 * t + 3 * v + 1] = m.positions[9 * i + 3 * v + 1]! + p.dy;
        positions[9 * t + 3 * v + 2] = m.positions[9 * i + 3 * v + 2]!;
      }
      values[t] = m.values[i]!;
    }
  }
  return { positions, values };
}
