/**
 * Scenes from annotations (thesis 004 §4.3.1.4, docs/methods.md §3): for each annotation entry the
 * library primitive of its class with the nearest box extents (select.ts), placed at the entry's
 * box — base centre, yaw — on a ground (compose-ground.ts). Shrub patches are refilled cell by
 * cell (patch.ts), each cell standing on the ground under it.
 *
 *   const plan = planComposition(entries, library, { mode: 'hybrid', groundHeight });
 *   const scene = buildComposedScene(plan, library, ground, { mahalanobisThreshold, voxelTau });
 *   // or both at once: composeScene(entries, library, ground, opts)
 *
 * The scene is two-level (SceneBuilder): each library primitive used is stored once and placed
 * by instances; every instance carries the entry's id as object id and the entry's class as
 * class id (a fallback primitive too), so simulated rays carry the annotation's ground truth.
 * Elements by mode (kindsForMode of model-scene.ts): hybrid = ground triangles + ellipsoids,
 * voxel = voxel Gaussians (the ground's too), mesh and physics = triangles (the ground as a surface).
 */
import { SceneBuilder } from '../scene/scene-builder';
import type { SceneData } from '../../src-common/scene-data';
import { SiteClass, referenceClassName } from '../../src-common/classes';
import type { AnnotationBox, Pose7 } from '../site/reference-annotations';
import { groundVoxels, type ComposeGround } from './compose-ground';
import { frameOfBox, framePose } from './frame';
import { GroundIndex } from './ground-index';
import { patchCells } from './patch';
import type { Primitive } from '../../src-common/primitive';
import type { ComposeMode } from '../../src-common/modes';
import { PrimitiveIndex } from './select';
import { PRIMITIVE_CLASSES, type EntryLike } from './segments';

export interface PlanOptions {
  mode: ComposeMode;
  /** Entry classes to compose; default the shrub and tree classes plus every class the library has for the mode. Ground (1) and unknown (0) never. */
  classes?: readonly number[];
  /** Patch cell side (m), as in extraction; default 2. */
  patchCellSize?: number;
  /** Try primitives a quarter turn too (select.ts); default false. */
  yawSymmetric?: boolean;
  /** Ground height under a point (NaN: unknown): patch cells stand on it, and entries too with anchor 'ground'. */
  groundHeight?: ((x: number, y: number) => number) | null;
  /** Where an entry's primitive stands: the entry box's bottom (default) or the ground under its centre. */
  anchor?: 'box' | 'ground';
}

export interface Placement {
  entryId: number;
  entryClass: number;
  primitiveId: number;
  primitiveClass: number;
  /** The primitive is of another class of the entry's family (the entry's class had none). */
  fallback: boolean;
  /** World ← primitive. */
  pose: Pose7;
  /** Extents distance of the match (m). */
  distance: number;
  /** Patch cell [i, j] of a patch entry. */
  cell?: [number, number];
}

export interface SkippedEntry {
  entryId: number;
  class: number;
  reason: string;
}

export interface CompositionPlan {
  mode: ComposeMode;
  placements: Placement[];
  skipped: SkippedEntry[];
  /** Entries placed with another class's primitive: entry class → class used. */
  fallbacks: { entryId: number; from: number; to: number }[];
}

/** Which primitive goes where (no scene yet): throws naming the class when an entry's class and family have no primitive. */
export function planComposition(entries: readonly EntryLike[], library: readonly Primitive[], opts: PlanOptions): CompositionPlan {
  const index = new PrimitiveIndex(library, opts.mode);
  const classes = new Set(opts.classes ?? [...PRIMITIVE_CLASSES, ...index.classes()]);
  const cellSize = opts.patchCellSize ?? 2;
  const placements: Placement[] = [];
  const skipped: SkippedEntry[] = [];
  const fallbacks: CompositionPlan['fallbacks'] = [];
  const groundAt = (x: number, y: number, otherwise: number) => {
    const g = opts.groundHeight ? opts.groundHeight(x, y) : NaN;
    return Number.isFinite(g) ? g : otherwise;
  };

  for (const e of entries) {
    if (e.class === SiteClass.unknown || e.class === SiteClass.ground || !classes.has(e.class)) {
      skipped.push({ entryId: e.id, class: e.class, reason: e.class === SiteClass.ground ? 'the ground comes from the ground source' : `class '${referenceClassName(e.class)}' is not composed` });
      continue;
    }
    const use = index.resolveClass(e.class);
    if (use === null) {
      const have = index.classes().map((c) => `'${referenceClassName(c)}'`).join(', ') || 'none';
      throw new Error(
        `no ${opts.mode} primitive of class '${referenceClassName(e.class)}' (${e.class}) or of its family for annotation entry ${e.id} ` +
          `(the library's classes with ${opts.mode} elements: ${have})`,
      );
    }
    if (use !== e.class) fallbacks.push({ entryId: e.id, from: e.class, to: use });
    const place = (box: AnnotationBox, baseZ: number, cell?: [number, number]) => {
      const sel = index.select(e.class, box.size, opts.yawSymmetric ?? false)!;
      const f = frameOfBox(box);
      f.z = baseZ;
      if (sel.swapped) f.yaw += Math.PI / 2;
      placements.push({
        entryId: e.id, entryClass: e.class, primitiveId: sel.primitive.id, primitiveClass: sel.primitive.class,
        fallback: sel.fallback, pose: framePose(f), distance: sel.distance, ...(cell ? { cell } : {}),
      });
    };
    const bottom = e.box.center[2] - e.box.size[2] / 2;
    if (e.patch) {
      for (const c of patchCells(e.box, cellSize)) place(c.box, groundAt(c.box.center[0], c.box.center[1], bottom), [c.i, c.j]);
    } else {
      place(e.box, opts.anchor === 'ground' ? groundAt(e.box.center[0], e.box.center[1], bottom) : bottom);
    }
  }
  return { mode: opts.mode, placements, skipped, fallbacks };
}

export interface BuildOptions {
  /** Scene thresholds: pass the model's (ModelScalars); defaults 3.5 and 2. */
  mahalanobisThreshold?: number;
  voxelTau?: number;
  /** Ellipsoid p_hit falls off with Mahalanobis distance, as in the primitives' model (ModelScalars). */
  ellipsoidHitFalloff?: boolean;
  /** Arrays in SharedArrayBuffers (for workers). */
  shared?: boolean;
  /** Object and class id of the ground instance; default 1 (the reference site's terrain) and SiteClass.ground. */
  groundObjectId?: number;
  groundClassId?: number;
  /** Voxel side for ground voxels made from triangles (voxel mode); default 0.3 (the fit's voxelSize). */
  groundVoxelSize?: number;
}

export interface ComposedScene {
  data: SceneData;
  plan: CompositionPlan;
  /** Library id of each scene primitive (−1 for the ground). */
  primitiveIds: number[];
  counts: { entries: number; placements: number; cells: number; uniquePrimitives: number; fallbacks: number; skipped: number };
}

/** The scene of a plan: each primitive used stored once, one instance per placement, and the ground. */
export function buildComposedScene(plan: CompositionPlan, library: readonly Primitive[], ground: ComposeGround | null, opts: BuildOptions = {}): ComposedScene {
  const byId = new Map(library.map((p) => [p.id, p]));
  const b = new SceneBuilder();
  const primitiveIds: number[] = [];
  const mode = plan.mode;
  if (ground) {
    let prim: number;
    if (mode === 'voxel') {
      const v = groundVoxels(ground, opts.groundVoxelSize ?? 0.3, opts.voxelTau ?? 2);
      prim = b.addVoxels(v.means, v.covariances, v.permeability);
    } else {
      prim = b.addGround(ground.positions, ground.pHit, ground.variance, ground.reflectance);
    }
    primitiveIds.push(-1);
    b.addInstance(prim, undefined, opts.groundObjectId ?? 1, opts.groundClassId ?? SiteClass.ground);
  }
  const scenePrim = new Map<number, number>();
  const sceneOf = (id: number): number => {
    let s = scenePrim.get(id);
    if (s !== undefined) return s;
    const p = byId.get(id);
    if (!p) throw new Error(`compose: the plan names primitive ${id}, which the library does not have`);
    if (mode === 'hybrid') {
      if (!p.ellipsoids) throw new Error(`compose: primitive ${id} has no ellipsoids for the hybrid mode`);
      s = b.addEllipsoids(p.ellipsoids.means, p.ellipsoids.covariances, p.ellipsoids.pHit);
    } else if (mode === 'voxel') {
      if (!p.voxels) throw new Error(`compose: primitive ${id} has no voxels for the voxel mode`);
      s = b.addVoxels(p.voxels.means, p.voxels.covariances, p.voxels.permeability);
    } else {
      if (!p.triangles) throw new Error(`compose: primitive ${id} has no triangles for the ${mode} mode`);
      s = b.addMesh(p.triangles, p.reflectance ?? 0.5);
    }
    scenePrim.set(id, s);
    primitiveIds.push(id);
    return s;
  };
  for (const pl of plan.placements) b.addInstance(sceneOf(pl.primitiveId), pl.pose, pl.entryId, pl.entryClass);
  const data = b.build({ shared: opts.shared ?? false, mahalanobisThreshold: opts.mahalanobisThreshold ?? 3.5, voxelTau: opts.voxelTau ?? 2, ellipsoidHitFalloff: opts.ellipsoidHitFalloff ?? false });
  const entries = new Set(plan.placements.map((p) => p.entryId));
  return {
    data,
    plan,
    primitiveIds,
    counts: {
      entries: entries.size,
      placements: plan.placements.length,
      cells: plan.placements.filter((p) => p.cell).length,
      uniquePrimitives: scenePrim.size,
      fallbacks: plan.fallbacks.length,
      skipped: plan.skipped.length,
    },
  };
}

export type ComposeOptions = Omit<PlanOptions, 'groundHeight'> & BuildOptions;

/**
 * Plan and build in one call; patch cells (and entries with anchor 'ground') stand on the
 * ground's triangles.
 */
export function composeScene(entries: readonly EntryLike[], library: readonly Primitive[], ground: ComposeGround | null, opts: ComposeOptions): ComposedScene {
  const index = ground ? new GroundIndex(ground.positions) : null;
  const plan = planComposition(entries, library, { ...opts, groundHeight: index ? (x, y) => index.heightAt(x, y) : null });
  return buildComposedScene(plan, library, ground, opts);
}
