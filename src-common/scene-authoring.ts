/**
 * A scene authored by hand in the scene editor (docs/design.md, *Scene editor*): a terrain and
 * a list of placed primitives. The host checks a request with `placementProblem`, the worker builds
 * it (src-worker/primitives/author.ts), and the editor snaps to the same height grid with
 * `gridHeightAt` — so where the editor stands a primitive is where the built scene stands it.
 */
import { scaleRange } from './class-sizes';

/** An axis-aligned area of the x-y plane (m). */
export interface Extent {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export type TerrainSpec =
  /** A plane at height z over the extent. */
  | { kind: 'flat'; z: number; extent: Extent }
  /** Seeded fractal value noise of `amplitude` metres (the off-road generator's terrain, without its trail). */
  | { kind: 'procedural'; seed: number; amplitude: number; extent: Extent }
  /** The ground of a fitted model: its triangles, where its drive log saw the ground. */
  | { kind: 'model'; modelId: number };

export interface AuthoredPlacement {
  primitiveId: number;
  x: number;
  y: number;
  /** Height of the primitive's foot; absent: on the ground under (x, y). */
  z?: number;
  /** Rotation about z (rad). */
  yaw: number;
  scale: number;
}

/** A regular grid of heights: z[j * nx + i] at (x0 + i·cell, y0 + j·cell); NaN where there is no ground. */
export interface TerrainGrid {
  x0: number;
  y0: number;
  cell: number;
  nx: number;
  ny: number;
  z: Float32Array;
}

/** Largest side of a flat or procedural terrain (m), and the most grid nodes along a side. */
export const MAX_TERRAIN_SIDE_M = 2000;
const MAX_NODES_PER_SIDE = 400;

/** The grid cell of a flat or procedural terrain: 0.5 m, coarser for large areas (≤ 400 nodes a side). */
export function terrainCell(extent: Extent): number {
  const side = Math.max(extent.x1 - extent.x0, extent.y1 - extent.y0);
  return Math.max(0.5, Math.ceil((side / (MAX_NODES_PER_SIDE - 1)) * 100) / 100);
}

/**
 * Height of the grid's surface at (x, y): each square split along its (i, j)–(i+1, j+1) diagonal
 * into two planar triangles, as heightGridTriangles (src-worker/primitives/ground-index.ts)
 * triangulates it for the scene's ground. NaN outside the grid or over a node without ground.
 */
export function gridHeightAt(g: TerrainGrid, x: number, y: number): number {
  const u = (x - g.x0) / g.cell, v = (y - g.y0) / g.cell;
  if (!(u >= 0 && v >= 0 && u <= g.nx - 1 && v <= g.ny - 1)) return NaN;
  const i = Math.min(g.nx - 2, Math.floor(u)), j = Math.min(g.ny - 2, Math.floor(v));
  const fx = u - i, fy = v - j;
  const z00 = g.z[j * g.nx + i]!, z10 = g.z[j * g.nx + i + 1]!, z01 = g.z[(j + 1) * g.nx + i]!, z11 = g.z[(j + 1) * g.nx + i + 1]!;
  // Lower-right triangle (00, 10, 11) when fx ≥ fy, else upper-left (00, 11, 01).
  return fx >= fy ? z00 + fx * (z10 - z00) + fy * (z11 - z10) : z00 + fy * (z01 - z00) + fx * (z11 - z01);
}

/** What the checks need to know of a library primitive. */
export interface PlaceablePrimitive {
  id: number;
  class: number;
  label: string;
  /** [length, width, height] (m). */
  extents: [number, number, number];
}

/**
 * The first thing wrong with a placement list, or null: a primitive the library lacks, a scale
 * outside the class's range (class-sizes.ts), a position off the terrain (`inside`).
 * The message names the placement (1-based, as the editor lists them) and the reason.
 */
export function placementProblem(
  placements: readonly AuthoredPlacement[],
  library: ReadonlyMap<number, PlaceablePrimitive>,
  inside: (x: number, y: number) => boolean,
  terrainName: string,
): string | null {
  for (let k = 0; k < placements.length; k++) {
    const p = placements[k]!;
    const where = `placement ${k + 1}`;
    const prim = library.get(p.primitiveId);
    if (!prim) return `${where}: no primitive ${p.primitiveId} in this project`;
    const [lo, hi] = scaleRange(prim.class, prim.extents[2]);
    // A scale rounded for display (three decimals) at the range's edge is still accepted.
    if (!(p.scale >= lo - 1e-9 && p.scale <= hi + 1e-9)) {
      return `${where}: scale ${p.scale} of primitive ${prim.id} (${prim.label}, ${prim.extents[2].toFixed(2)} m tall) is outside its class's range ${lo.toFixed(3)}–${hi.toFixed(3)}`;
    }
    if (!inside(p.x, p.y)) return `${where}: (${p.x.toFixed(2)}, ${p.y.toFixed(2)}) is outside the terrain (${terrainName})`;
  }
  return null;
}

/** Whether (x, y) lies in the extent (edges included). */
export function inExtent(e: Extent, x: number, y: number): boolean {
  return x >= e.x0 && x <= e.x1 && y >= e.y0 && y <= e.y1;
}

/**
 * The sensor preview's answer when its worker no longer holds the scene the host named by key
 * (src-worker/tasks/sensor-preview.ts): the host then sends the scene again.
 */
export const SENSOR_PREVIEW_NOT_HELD = 'sensor-preview: scene not held';
