/**
 * A scene authored in the scene editor (docs/design.md, *Scene editor*): a terrain —
 * flat, seeded noise, or a fitted model's ground — and primitives placed by hand at (x, y, yaw,
 * scale), standing on the ground unless given a height.
 *
 *   const t = authoredTerrain(spec, modelGround)   the height grid the editor shows, the scene's
 *                                                  ground, and the height and coverage tests
 *   const s = buildAuthoredScene(placements, library, t, opts)
 *
 * The scene is built as composition builds it (compose.ts, buildComposedScene): each primitive
 * used at a given scale is stored once — scaled copies are primitives of their own, since an
 * instance is a rigid transform — and placed by instances whose object id is the placement's
 * number + 1 (the ground is object 1) and whose class is the primitive's.
 */
import type { ModelArrays } from '../../src-common/fitted-model';
import type { Primitive } from '../../src-common/primitive';
import type { ComposeMode } from '../../src-common/modes';
import { gridHeightAt, inExtent, terrainCell, type AuthoredPlacement, type Extent, type TerrainGrid, type TerrainSpec } from '../../src-common/scene-authoring';
import { buildComposedScene, type BuildOptions, type ComposedScene, type Placement } from './compose';
import { groundFromHeightGrid, groundFromModel, type ComposeGround } from './compose-ground';
import { GroundIndex } from './ground-index';
import { framePose } from './frame';
import { ValueNoise2, noiseHeight } from '../site/terrain';

export type ModelGround = { model: Pick<ModelArrays, 'groundPositions' | 'groundPHit' | 'voxelMeans' | 'voxelCovariances' | 'voxelPermeability'>; variance: number };

export interface AuthoredTerrain {
  /** What the editor draws and snaps to. */
  grid: TerrainGrid;
  ground: ComposeGround;
  /** Ground height under (x, y); NaN off the terrain. */
  heightAt(x: number, y: number): number;
  inside(x: number, y: number): boolean;
  /** "flat at 0 m over [-20, 20] × [-20, 20]". */
  describe: string;
}

const range = (e: Extent) => `[${e.x0}, ${e.x1}] × [${e.y0}, ${e.y1}]`;

/** A height function sampled on a float32 grid over the extent (the far edge rounded up to a whole cell). */
function sampleGrid(extent: Extent, cell: number, height: (x: number, y: number) => number): TerrainGrid {
  const nx = Math.ceil((extent.x1 - extent.x0) / cell - 1e-9) + 1, ny = Math.ceil((extent.y1 - extent.y0) / cell - 1e-9) + 1;
  const z = new Float32Array(nx * ny);
  for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) z[j * nx + i] = height(extent.x0 + i * cell, extent.y0 + j * cell);
  return { x0: extent.x0, y0: extent.y0, cell, nx, ny, z };
}

/** The terrain of a spec; a 'model' spec needs the model's ground arrays and σ²_ground. */
export function authoredTerrain(spec: TerrainSpec, model?: ModelGround): AuthoredTerrain {
  if (spec.kind === 'model') {
    if (!model) throw new Error(`terrain: the ground of fitted model ${spec.modelId} was not given`);
    const index = new GroundIndex(model.model.groundPositions);
    if (index.count === 0) throw new Error(`terrain: fitted model ${spec.modelId} has no ground triangles`);
    const p = model.model.groundPositions;
    const e: Extent = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
    for (let i = 0; i < p.length; i += 3) {
      e.x0 = Math.min(e.x0, p[i]!); e.x1 = Math.max(e.x1, p[i]!);
      e.y0 = Math.min(e.y0, p[i + 1]!); e.y1 = Math.max(e.y1, p[i + 1]!);
    }
    const heightAt = (x: number, y: number) => index.heightAt(x, y);
    return {
      grid: sampleGrid(e, terrainCell(e), heightAt),
      ground: groundFromModel(model.model, model.variance),
      heightAt,
      inside: (x, y) => Number.isFinite(heightAt(x, y)),
      describe: `the ground of fitted model ${spec.modelId}`,
    };
  }
  const e = spec.extent;
  const height = spec.kind === 'flat' ? () => spec.z : noiseHeight(new ValueNoise2(spec.seed), spec.amplitude);
  const grid = sampleGrid(e, terrainCell(e), height);
  // The flat and noise grounds are solid and exact (σ²_ground 0), as composition's flat ground.
  const ground = groundFromHeightGrid(grid, { variance: 0 });
  return {
    grid,
    ground,
    heightAt: (x, y) => gridHeightAt(grid, x, y),
    inside: (x, y) => inExtent(e, x, y),
    describe: spec.kind === 'flat' ? `flat at ${spec.z} m over ${range(e)}` : `noise of seed ${spec.seed}, ${spec.amplitude} m over ${range(e)}`,
  };
}

/** A primitive scaled about its frame's origin (the foot): positions × s, covariances × s². */
export function scaledPrimitive(p: Primitive, s: number, id = p.id): Primitive {
  const mul = <T extends Float32Array | Float64Array>(a: T, f: number): T => {
    const out = a.slice() as T;
    for (let i = 0; i < out.length; i++) out[i] = out[i]! * f;
    return out;
  };
  const out: Primitive = { id, class: p.class, extents: [p.extents[0] * s, p.extents[1] * s, p.extents[2] * s], source: p.source };
  if (p.ellipsoids) out.ellipsoids = { means: mul(p.ellipsoids.means, s), covariances: mul(p.ellipsoids.covariances, s * s), pHit: p.ellipsoids.pHit };
  if (p.voxels) out.voxels = { means: mul(p.voxels.means, s), covariances: mul(p.voxels.covariances, s * s), permeability: p.voxels.permeability };
  if (p.triangles) out.triangles = mul(p.triangles, s);
  if (p.reflectance) out.reflectance = p.reflectance;
  return out;
}

export interface AuthoredScene extends ComposedScene {
  /** Each placement's foot height as built. */
  heights: Float64Array;
}

/**
 * The scene of a placement list. Throws naming the placement when one is off the terrain or
 * names a primitive missing from `library` (the host checks both first; a model ground's
 * coverage only the worker can).
 */
export function buildAuthoredScene(
  placements: readonly AuthoredPlacement[],
  library: readonly Primitive[],
  terrain: AuthoredTerrain,
  opts: BuildOptions & { mode: ComposeMode },
): AuthoredScene {
  const byId = new Map(library.map((p) => [p.id, p]));
  const copies: Primitive[] = [];
  const copyOf = new Map<string, number>();
  const planned: Placement[] = [];
  const heights = new Float64Array(placements.length);
  placements.forEach((pl, k) => {
    const prim = byId.get(pl.primitiveId);
    if (!prim) throw new Error(`placement ${k + 1}: primitive ${pl.primitiveId} is not in the library`);
    if (!terrain.inside(pl.x, pl.y)) throw new Error(`placement ${k + 1}: (${pl.x.toFixed(2)}, ${pl.y.toFixed(2)}) is outside the terrain (${terrain.describe})`);
    const key = `${pl.primitiveId}:${pl.scale}`;
    let copy = copyOf.get(key);
    if (copy === undefined) {
      copy = copies.length;
      copies.push(pl.scale === 1 ? { ...prim, id: copy } : scaledPrimitive(prim, pl.scale, copy));
      copyOf.set(key, copy);
    }
    const z = pl.z ?? terrain.heightAt(pl.x, pl.y);
    heights[k] = z;
    planned.push({
      entryId: k + 2, entryClass: prim.class, primitiveId: copy, primitiveClass: prim.class,
      fallback: false, pose: framePose({ x: pl.x, y: pl.y, z, yaw: pl.yaw }), distance: 0,
    });
  });
  const scene = buildComposedScene({ mode: opts.mode, placements: planned, skipped: [], fallbacks: [] }, copies, terrain.ground, opts);
  return { ...scene, heights };
}
