/**
 * A fitted model as a geo-specific scene (SceneData) the simulator runs: per block one ground
 * primitive, one ellipsoid primitive and one voxel primitive, each placed once at the identity
 * (the instance tree then culls whole blocks a ray never comes near — the thesis's "local set
 * of elements around a query ray").
 *
 * Which kinds go in depends on the use: the hybrid mode simulates ground + ellipsoids, the voxel
 * mode the voxel Gaussians (seed 000 models everything with voxels), physics and mesh modes see
 * only the ground triangles (as surfaces); the ray replay of fitting takes all three at once.
 */
import { SceneBuilder } from '../scene/scene-builder';
import type { HitCells, SceneData } from '../../src-common/scene-data';
import { PRIM_INTS, PrimInt } from '../scene/scene-data';
import { ElementKind } from '../scene/scene-query';
import { SiteClass } from '../../src-common/classes';
import type { ModelArrays, ModelScalars } from '../../src-common/fitted-model';

export interface ModelSceneKinds {
  ground: boolean;
  ellipsoids: boolean;
  voxels: boolean;
}

/** The element kinds a simulation mode uses of a fitted model. */
export function kindsForMode(mode: 'hybrid' | 'voxel' | 'physics' | 'mesh'): ModelSceneKinds {
  if (mode === 'hybrid') return { ground: true, ellipsoids: true, voxels: false };
  if (mode === 'voxel') return { ground: false, ellipsoids: false, voxels: true };
  return { ground: true, ellipsoids: false, voxels: false };
}

/** Per primitive of the built scene: its element kind, block and the model index of its first element. */
export interface PrimitiveRef {
  kind: ElementKind;
  block: number;
  offset: number;
}

export interface ModelScene {
  data: SceneData;
  primitives: PrimitiveRef[];
}

type Elements = Pick<ModelArrays,
  'groundPositions' | 'groundPHit' | 'groundBlock' | 'ellipsoidMeans' | 'ellipsoidCovariances' | 'ellipsoidPHit' | 'ellipsoidBlock' |
  'voxelMeans' | 'voxelCovariances' | 'voxelPermeability' | 'voxelBlock' |
  'ellipsoidCellStart' | 'ellipsoidCellKey' | 'ellipsoidCellHits' | 'ellipsoidCellPasses' |
  'groundCellStart' | 'groundCellKey' | 'groundCellHits' | 'groundCellPasses'>;

/** Index ranges [start, end) of equal consecutive values of a block array (arrays are sorted by block). */
function blockRuns(block: Int32Array): { block: number; start: number; end: number }[] {
  const out: { block: number; start: number; end: number }[] = [];
  let s = 0;
  for (let i = 1; i <= block.length; i++) {
    if (i === block.length || block[i] !== block[s]) {
      out.push({ block: block[s]!, start: s, end: i });
      s = i;
    }
  }
  return out;
}

/**
 * The model's hit cells of one kind for the built scene: the rows as stored, and per element of
 * the scene (BVH order: `gauss` for ellipsoids, `triVerts` for ground) the model element it is —
 * its primitive's offset plus its source index.
 */
function sceneCells(
  rows: { start: Uint32Array; key: Uint16Array; hits: Uint32Array; passes: Uint32Array }, kind: typeof ElementKind.Ellipsoid | typeof ElementKind.Ground,
  data: SceneData, primitives: PrimitiveRef[], c: { grid: number; prior: number }, shared: boolean,
): HitCells {
  const gauss = kind === ElementKind.Ellipsoid;
  const row = alloc(Int32Array, gauss ? data.gaussianCount : data.triangleCount, shared).fill(-1);
  const source = gauss ? data.gaussSource : data.triSource;
  primitives.forEach((ref, p) => {
    if (ref.kind !== kind) return;
    const first = data.primInts[p * PRIM_INTS + PrimInt.first]!, count = data.primInts[p * PRIM_INTS + PrimInt.count]!;
    for (let g = first; g < first + count; g++) row[g] = ref.offset + source[g]!;
  });
  const copy = <T extends Uint32Array | Uint16Array>(a: T): T => {
    const out = alloc(a.constructor as new (n: number | SharedArrayBuffer) => T, a.length, shared);
    out.set(a);
    return out;
  };
  return {
    grid: c.grid, prior: c.prior, row,
    start: copy(rows.start), key: copy(rows.key), hits: copy(rows.hits), passes: copy(rows.passes),
  };
}

/** A typed array of n elements, in shared memory when asked (so the scene can go to workers). */
function alloc<T>(C: new (n: number | SharedArrayBuffer) => T, n: number, shared: boolean): T {
  if (!shared) return new C(n);
  const bytes = (C as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
  return new C(new SharedArrayBuffer(n * bytes)) as T;
}

export function buildModelScene(model: Elements, scalars: ModelScalars, kinds: ModelSceneKinds, opts: { shared?: boolean } = {}): ModelScene {
  const b = new SceneBuilder();
  const primitives: PrimitiveRef[] = [];
  const place = (prim: number, ref: PrimitiveRef, classId: number) => {
    primitives[prim] = ref;
    b.addInstance(prim, undefined, 0, classId);
  };
  if (kinds.ground) {
    for (const r of blockRuns(model.groundBlock)) {
      const prim = b.addGround(model.groundPositions.subarray(9 * r.start, 9 * r.end), model.groundPHit.subarray(r.start, r.end), scalars.groundVariance);
      place(prim, { kind: ElementKind.Ground, block: r.block, offset: r.start }, SiteClass.ground);
    }
  }
  if (kinds.ellipsoids) {
    for (const r of blockRuns(model.ellipsoidBlock)) {
      const prim = b.addEllipsoids(
        model.ellipsoidMeans.subarray(3 * r.start, 3 * r.end),
        model.ellipsoidCovariances.subarray(6 * r.start, 6 * r.end),
        model.ellipsoidPHit.subarray(r.start, r.end),
      );
      place(prim, { kind: ElementKind.Ellipsoid, block: r.block, offset: r.start }, SiteClass.unknown);
    }
  }
  if (kinds.voxels) {
    for (const r of blockRuns(model.voxelBlock)) {
      const prim = b.addVoxels(
        model.voxelMeans.subarray(3 * r.start, 3 * r.end),
        model.voxelCovariances.subarray(6 * r.start, 6 * r.end),
        model.voxelPermeability.subarray(r.start, r.end),
      );
      place(prim, { kind: ElementKind.Voxel, block: r.block, offset: r.start }, SiteClass.unknown);
    }
  }
  const data = b.build({ shared: opts.shared ?? false, mahalanobisThreshold: scalars.mahalanobisThreshold, voxelTau: scalars.voxelTau, ellipsoidHitFalloff: scalars.ellipsoidHitFalloff ?? false });
  const cells = scalars.hitCells, shared = opts.shared ?? false;
  if (cells && kinds.ellipsoids && cells.ellipsoidGrid > 0 && model.ellipsoidCellStart) {
    const rows = { start: model.ellipsoidCellStart, key: model.ellipsoidCellKey!, hits: model.ellipsoidCellHits!, passes: model.ellipsoidCellPasses! };
    data.ellipsoidCells = sceneCells(rows, ElementKind.Ellipsoid, data, primitives, { grid: cells.ellipsoidGrid, prior: cells.prior }, shared);
  }
  // Hybrid mode only: physics and mesh modes read the ground as opaque surfaces.
  if (cells && kinds.ground && kinds.ellipsoids && cells.groundGrid > 0 && model.groundCellStart) {
    const rows = { start: model.groundCellStart, key: model.groundCellKey!, hits: model.groundCellHits!, passes: model.groundCellPasses! };
    data.groundCells = sceneCells(rows, ElementKind.Ground, data, primitives, { grid: cells.groundGrid, prior: cells.prior }, shared);
  }
  return { data, primitives };
}
