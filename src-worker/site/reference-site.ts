/**
 * The reference off-road site: a seeded procedural site with explicit fine geometry and its
 * ground truth, sized like the scenes of thesis 004 (Tables 4.5, 4.6) — the demo project and the
 * pipeline's test bed.
 *
 *   buildReferenceSite({ seed, small = false, shared = false }): ReferenceSite
 *
 * Full size: a 400 m trail through an 80 m wide strip (terrain on a 0.5 m grid, trail sunk and
 * smoothed), 80 trees (small / medium / large), 84 single shrubs and 44 shrub patches in the four
 * shrub classes, 80 grass stands (thin stems, 60–220 stems/m², 0.2–1.2 m), 24 rocks and 12 fallen
 * logs beside the trail. `small`: a 40 m stretch with one or two of each (builds in well under a
 * second, for tests). Everything is an opaque mesh (physics and mesh modes); variants are
 * instanced, so the scene stays small in memory.
 *
 * Ground truth: object id 1 is the terrain; objects are numbered from 2 in placement order. Each
 * instance (so each of its triangles, and every ray that hits it) carries its object id and
 * class; `annotations` lists every object with its class, pose and oriented box (terrain first).
 * Two drives over different stretches of the trail (training, then a longer test drive further
 * on) come with the site as vehicle poses at 100 Hz, 2.4 m/s.
 *
 * Deterministic in the seed: the same seed gives identical arrays (buildMs aside).
 */
import { RandomStream } from '../random/stream';
import { SceneBuilder } from '../scene/scene-builder';
import { sceneStats, type SceneStats } from '../scene/scene-data';
import { type SceneData } from '../../src-common/scene-data';
import { buildTerrain, type Terrain } from './terrain';
import { trailPoses, type Pose7 } from './offroad';
import { ReferenceClass, SHRUB_CLASSES, TREE_CLASSES, referenceClassName } from '../../src-common/classes';
import { SiteLayout, type PlaceOptions } from './reference-layout';
import {
  grassStandSpec, grassStandVariant, logVariant, rockVariant, shrubPatchVariant, shrubVariant, treeVariant, type ObjectVariant,
} from './reference-objects';
import { orientedBox, yawPitchPose, type ObjectAnnotation } from './reference-annotations';
import { driveTrajectory, trailPath, type DriveSpec, type DriveTrajectory } from './reference-drive';

export interface ReferenceSiteOptions {
  seed: number;
  /** A short stretch with few objects (tests). */
  small?: boolean;
  /** Scene arrays in SharedArrayBuffers (to hand to workers without copies). */
  shared?: boolean;
}

export interface ReferenceDrive extends DriveTrajectory {
  name: 'training' | 'test';
  startX: number;
  seconds: number;
  speed: number;
}

export interface ReferenceSite {
  seed: number;
  small: boolean;
  data: SceneData;
  stats: SceneStats;
  /** Every object, terrain (id 1) first; annotations[i].id === i + 1. */
  annotations: ObjectAnnotation[];
  /** Objects placed per class name (the terrain not counted). */
  counts: Record<string, number>;
  terrain: Terrain;
  /** Trail length (m, along x) and the site's y extent. */
  lengthM: number;
  widthM: number;
  /** Sensor poses every metre along the trail, 2 m above the ground (the HDL-32E's mount): a scene's `trail`. */
  trail: Pose7[];
  drives: ReferenceDrive[];
}

interface Recipe {
  lengthM: number;
  widthM: number;
  /** Objects per class id (trees, single shrubs). */
  singles: Record<number, number>;
  /** Shrub patches per shrub class id. */
  patches: Record<number, number>;
  grassStands: number;
  rocks: number;
  logs: number;
  /** Variants per kind (instanced copies share one). */
  variants: { tree: number; shrub: number; patch: number; grass: number; rock: number; log: number };
  drives: (DriveSpec & { name: 'training' | 'test' })[];
}

const C = ReferenceClass;

/**
 * Full: ~⅓ of thesis Table 4.6's instances (its three scenes together span ≈ 1,300 m of trail),
 * with more low shrubs so every class has several. Drives: 10 s and 14 s (thesis Table 4.5 has
 * 70 s and 117 s; shorter here so the demo builds in under 5 minutes on two cores: the physics
 * mode simulates the HDL-32E at ≈ 0.17× real time on one worker).
 */
const FULL: Recipe = {
  lengthM: 400,
  widthM: 80,
  singles: { [C.smallTree]: 36, [C.mediumTree]: 28, [C.largeTree]: 16, [C.lowShrub]: 16, [C.smallShrub]: 24, [C.mediumShrub]: 28, [C.largeShrub]: 16 },
  patches: { [C.lowShrub]: 4, [C.smallShrub]: 16, [C.mediumShrub]: 16, [C.largeShrub]: 8 },
  grassStands: 80,
  rocks: 24,
  logs: 12,
  variants: { tree: 3, shrub: 3, patch: 2, grass: 6, rock: 4, log: 3 },
  drives: [
    { name: 'training', startX: 30, seconds: 10 },
    { name: 'test', startX: 220, seconds: 14 },
  ],
};

const SMALL: Recipe = {
  lengthM: 40,
  widthM: 40,
  singles: { [C.smallTree]: 1, [C.mediumTree]: 1, [C.largeTree]: 1, [C.lowShrub]: 1, [C.smallShrub]: 1, [C.mediumShrub]: 1, [C.largeShrub]: 1 },
  patches: { [C.lowShrub]: 1, [C.smallShrub]: 1, [C.mediumShrub]: 1, [C.largeShrub]: 1 },
  grassStands: 4,
  rocks: 2,
  logs: 1,
  variants: { tree: 1, shrub: 1, patch: 1, grass: 2, rock: 1, log: 1 },
  drives: [
    { name: 'training', startX: 8, seconds: 0.25 },
    { name: 'test', startX: 26, seconds: 0.25 },
  ],
};

/** The drive speed (thesis 004 §4.4.1) and the sensor height above the ground for the scene's trail. */
export const DRIVE_SPEED = 2.4;
const TRAIL_SENSOR_HEIGHT = 2;

export function buildReferenceSite(opts: ReferenceSiteOptions): ReferenceSite {
  const recipe = opts.small ? SMALL : FULL;
  const { lengthM: L, widthM: W } = recipe;
  const terrain = buildTerrain({ seed: opts.seed, x0: -10, y0: -W / 2, sizeX: L + 20, sizeY: W, cell: 0.5 });
  // Separate streams: how many variants a kind has never shifts where objects stand.
  const shapes = new RandomStream(opts.seed, 0x5e1);
  const spots = new RandomStream(opts.seed, 0x5e2);
  const choices = new RandomStream(opts.seed, 0x5e3);

  const b = new SceneBuilder();
  b.addInstance(b.addMesh(terrain.positions, terrain.values), undefined, 1, C.ground);
  const annotations: ObjectAnnotation[] = [terrainAnnotation(terrain, L, W)];
  const counts: Record<string, number> = {};

  interface Kind { variants: ObjectVariant[]; prims: number[] }
  const kind = (n: number, make: () => ObjectVariant): Kind => {
    const variants = Array.from({ length: n }, make);
    return { variants, prims: variants.map((v) => b.addMesh(v.positions, v.values)) };
  };
  const v = recipe.variants;
  const trees = new Map(TREE_CLASSES.map((c) => [c as number, kind(v.tree, () => treeVariant(shapes, c))]));
  const shrubs = new Map(SHRUB_CLASSES.map((c) => [c as number, kind(v.shrub, () => shrubVariant(shapes, c))]));
  const patches = new Map(SHRUB_CLASSES.map((c) => [c as number, kind(v.patch, () => shrubPatchVariant(shapes, c))]));
  const grass = kind(v.grass, () => grassStandVariant(shapes, grassStandSpec(shapes)));
  const rocks = kind(v.rock, () => rockVariant(shapes, 0.3 + 0.6 * shapes.next()));
  const logs = kind(v.log, () => logVariant(shapes, 3 + 5 * shapes.next(), 0.15 + 0.2 * shapes.next()));

  const layout = new SiteLayout(terrain, { x0: 0, x1: L, y0: -W / 2, y1: W / 2 }, spots);
  type Seat = 'upright' | 'slope' | 'log';
  interface Request { k: Kind; j: number; yaw: number; where: PlaceOptions; seat: Seat }
  const requests: Request[] = [];
  const ask = (k: Kind, n: number, where: PlaceOptions, seat: Seat) => {
    for (let i = 0; i < n; i++) requests.push({ k, j: Math.floor(choices.next() * k.variants.length), yaw: 2 * Math.PI * choices.next(), where, seat });
  };
  ask(logs, recipe.logs, { minEdge: 0.3, maxEdge: 5 }, 'log');
  ask(rocks, recipe.rocks, { minEdge: 0.2, maxEdge: 5 }, 'upright');
  for (const c of TREE_CLASSES) ask(trees.get(c)!, recipe.singles[c] ?? 0, { minEdge: -1 }, 'upright');
  for (const c of SHRUB_CLASSES) ask(patches.get(c)!, recipe.patches[c] ?? 0, { minEdge: 0.2 }, 'slope');
  for (const c of SHRUB_CLASSES) ask(shrubs.get(c)!, recipe.singles[c] ?? 0, { minEdge: 0.2 }, 'upright');
  ask(grass, recipe.grassStands, { minEdge: -0.3 }, 'slope');
  // The band beside the trail first (rocks, logs), then the biggest footprints, so the many
  // small objects fill the gaps the large ones leave (a stable sort: ties keep recipe order).
  const banded = (r: Request) => Number.isFinite(r.where.maxEdge ?? Infinity);
  requests.sort((a, b) => Number(banded(b)) - Number(banded(a)) || b.k.variants[b.j]!.footprint - a.k.variants[a.j]!.footprint);
  for (const { k, j, yaw, where, seat } of requests) {
    const variant = k.variants[j]!;
    const xy = layout.place(variant.footprint, where);
    if (!xy) continue;
    const pose = seatPose(terrain, variant, xy[0], xy[1], yaw, seat);
    const id = annotations.length + 1;
    b.addInstance(k.prims[j]!, pose, id, variant.cls);
    const label = referenceClassName(variant.cls);
    annotations.push({ id, class: variant.cls, label, ...(variant.patch ? { patch: true } : {}), pose, box: orientedBox(variant.min, variant.max, pose, yaw) });
    const key = variant.patch ? `${label} patch` : label;
    counts[key] = (counts[key] ?? 0) + 1;
  }

  const data = b.build({ shared: opts.shared ?? false });
  const path = trailPath(terrain, -5, L + 5);
  const drives = recipe.drives.map((d) => ({ ...d, speed: DRIVE_SPEED, ...driveTrajectory(terrain, path, { ...d, speed: DRIVE_SPEED }) }));
  const xs = Array.from({ length: L + 1 }, (_, i) => i);
  return {
    seed: opts.seed,
    small: !!opts.small,
    data,
    stats: sceneStats(data),
    annotations,
    counts,
    terrain,
    lengthM: L,
    widthM: W,
    trail: trailPoses(terrain, xs, TRAIL_SENSOR_HEIGHT),
    drives,
  };
}

/**
 * How an object sits on the ground at (x, y): upright (trees, shrubs, rocks: trunks grow
 * vertically), tilted to the ground's slope under its footprint (grass stands, shrub patches:
 * spread out, their stems start at the local ground), or a log pitched along its length to the
 * ground under its two ends, sunk by a fifth of its diameter.
 */
function seatPose(terrain: Terrain, v: ObjectVariant, x: number, y: number, yaw: number, seat: 'upright' | 'slope' | 'log'): Pose7 {
  const z = terrain.heightAt(x, y);
  if (seat === 'upright') return yawPitchPose(x, y, z, yaw);
  if (seat === 'log') {
    const half = (v.max[0] - v.min[0]) / 2, c = Math.cos(yaw), s = Math.sin(yaw);
    const ha = terrain.heightAt(x - half * c, y - half * s), hb = terrain.heightAt(x + half * c, y + half * s);
    const sink = 0.2 * (v.max[2] - v.min[2]);
    return yawPitchPose(x, y, Math.min(z, (ha + hb) / 2) - sink, yaw, -Math.atan2(hb - ha, 2 * half));
  }
  const d = Math.max(0.5, v.footprint / 2);
  const gx = (terrain.heightAt(x + d, y) - terrain.heightAt(x - d, y)) / (2 * d);
  const gy = (terrain.heightAt(x, y + d) - terrain.heightAt(x, y - d)) / (2 * d);
  return tiltedPose(x, y, z, yaw, gx, gy);
}

/** Yawed by `yaw` about the ground's normal: R = Rz(α) Ry(β) Rz(yaw − α), α the uphill direction, tan(−β) the slope. */
function tiltedPose(x: number, y: number, z: number, yaw: number, gx: number, gy: number): Pose7 {
  const g = Math.hypot(gx, gy);
  if (g < 1e-9) return yawPitchPose(x, y, z, yaw);
  const a = Math.atan2(gy, gx);
  const p = yawPitchPose(0, 0, 0, a, -Math.atan(g));
  const q = quatMul([p[3], p[4], p[5], p[6]], [0, 0, Math.sin((yaw - a) / 2), Math.cos((yaw - a) / 2)]);
  return [x, y, z, q[0], q[1], q[2], q[3]];
}

/** Hamilton product a ⊗ b of quaternions [x, y, z, w]. */
function quatMul(a: readonly number[], b: readonly number[]): [number, number, number, number] {
  const [ax, ay, az, aw] = a as [number, number, number, number];
  const [bx, by, bz, bw] = b as [number, number, number, number];
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ];
}

function terrainAnnotation(terrain: Terrain, L: number, W: number): ObjectAnnotation {
  let lo = Infinity, hi = -Infinity;
  const p = terrain.positions;
  for (let i = 2; i < p.length; i += 3) {
    lo = Math.min(lo, p[i]!);
    hi = Math.max(hi, p[i]!);
  }
  const x0 = -10, x1 = L + 10;
  return {
    id: 1,
    class: C.ground,
    label: referenceClassName(C.ground),
    pose: [0, 0, 0, 0, 0, 0, 1],
    box: { center: [(x0 + x1) / 2, 0, (lo + hi) / 2], size: [x1 - x0, W, hi - lo], yaw: 0 },
  };
}
