/**
 * What the element view (ellipsoid-scene.ts) draws, built from a primitive (primitives.get) or a
 * scene preview (scenes.preview) — pure, so it is unit-tested without WebGL:
 *
 *   ellipsoids, voxels  one instance matrix (ellipsoid-math.ts) and one RGBA per Gaussian
 *   triangles           unindexed positions, flat normals and RGBA per vertex
 *   points              raw hits (a primitive's segment), RGBA per point
 *   box                 the primitive's extents as 12 edges (vertex pairs)
 *
 * Everything is in the view's Babylon-local frame: re-centred on `centre` and (x, y, z) →
 * (x, z, y) (local-frame.ts). A primitive is re-centred on its box centre (its frame's origin is
 * the box's base centre); a scene preview is already relative to its bounds' centre.
 *
 * Colours: a primitive's Gaussians by p_hit (viridis from 0 to its largest p_hit, see
 * probabilityTop; voxels by 1 − ρ, the same quantity); a scene's by class.
 */
import type { PrimitiveData, ScenePreviewData } from '../../src-main/api/contract';
import { buildLut, classColor, cssGradient, rgbCss, scalarColors, type Rgb } from '../../src-common/colormaps';
import { ellipsoidMatrices } from './ellipsoid-math';
import { toLocal, type Centre } from './local-frame';

export interface InstanceLayer {
  count: number;
  /** 16 floats per instance (Babylon layout). */
  matrices: Float32Array;
  /** RGBA per instance. */
  colors: Float32Array;
  /** Object id per instance (scenes: the annotation entry), for highlighting; null for a primitive. */
  objectIds: Int32Array | null;
}

export interface TriangleLayer {
  count: number;
  /** 9 floats per triangle, unindexed. */
  positions: Float32Array;
  normals: Float32Array;
  /** RGBA per vertex. */
  colors: Float32Array;
  objectIds: Int32Array | null;
}

export interface PointLayer {
  count: number;
  positions: Float32Array;
  colors: Float32Array;
}

export type ElementLegend =
  | { kind: 'scalar'; label: string; gradient: string; min: string; max: string }
  | { kind: 'classes'; label: string; entries: { id: number; name: string; color: string; count: number }[] };

export interface ElementLayers {
  /** Thicket-world point the view is centred on. */
  centre: Centre;
  /** Extents (Thicket x, y, z, m) to frame. */
  size: [number, number, number];
  ellipsoids: InstanceLayer | null;
  voxels: InstanceLayer | null;
  triangles: TriangleLayer | null;
  points: PointLayer | null;
  /** Edges as vertex pairs (Babylon-local). */
  box: Float32Array | null;
  legend: ElementLegend | null;
}

/** Surface radius: a Mahalanobis distance (2 = the 2-σ ellipsoid). */
export type SigmaScale = number;

let viridisLut: Float32Array | null = null;
const lut = () => (viridisLut ??= buildLut('viridis'));

/** RGBA per value of a probability on viridis over [0, top]. */
export function probabilityColors(p: ArrayLike<number>, top = 1, out = new Float32Array(p.length * 4)): Float32Array {
  return scalarColors(p, { min: 0, max: top }, lut(), out);
}

/**
 * Top of a primitive's p_hit colour range: its largest value rounded up to a tenth (at least
 * 0.2). Vegetation's p_hit is mostly below 0.3, which on a fixed 0–1 scale would all be the
 * map's dark end; anchored at 0, a colour still reads as "how likely", and the legend says the top.
 */
export function probabilityTop(...lists: ArrayLike<number>[]): number {
  let max = 0;
  for (const l of lists) for (let i = 0; i < l.length; i++) if (l[i]! > max) max = l[i]!;
  return Math.min(1, Math.max(0.2, Math.ceil(max * 10 - 1e-9) / 10));
}

/** 1 − ρ per voxel: the voxel's hit probability, coloured like an ellipsoid's p_hit. */
export function voxelHitProbability(permeability: ArrayLike<number>): Float32Array {
  const out = new Float32Array(permeability.length);
  for (let i = 0; i < out.length; i++) out[i] = 1 - permeability[i]!;
  return out;
}

/** RGBA per element from its class id. */
export function classRgba(ids: ArrayLike<number>, out = new Float32Array(ids.length * 4)): Float32Array {
  for (let i = 0; i < ids.length; i++) {
    const [r, g, b] = classColor(ids[i]!);
    out[4 * i] = r;
    out[4 * i + 1] = g;
    out[4 * i + 2] = b;
    out[4 * i + 3] = 1;
  }
  return out;
}

/** Unindexed flat-shaded triangles: Babylon-local positions and one normal per face (repeated per vertex). */
export function triangleMesh(world: ArrayLike<number>, centre: Centre): { positions: Float32Array; normals: Float32Array } {
  const positions = toLocal(world, centre, new Float32Array(world.length - (world.length % 9)));
  const normals = new Float32Array(positions.length);
  for (let o = 0; o + 8 < positions.length; o += 9) {
    const ux = positions[o + 3]! - positions[o]!, uy = positions[o + 4]! - positions[o + 1]!, uz = positions[o + 5]! - positions[o + 2]!;
    const vx = positions[o + 6]! - positions[o]!, vy = positions[o + 7]! - positions[o + 1]!, vz = positions[o + 8]! - positions[o + 2]!;
    let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const len = Math.hypot(nx, ny, nz);
    // Degenerate triangles get "up" (Babylon +y) so they do not draw black.
    if (len > 0) {
      nx /= len;
      ny /= len;
      nz /= len;
    } else {
      nx = 0;
      ny = 1;
      nz = 0;
    }
    for (let v = o; v < o + 9; v += 3) {
      normals[v] = nx;
      normals[v + 1] = ny;
      normals[v + 2] = nz;
    }
  }
  return { positions, normals };
}

/** The 12 edges of [−l/2, l/2] × [−w/2, w/2] × [0, h] (the primitive frame's box), Babylon-local. */
export function boxEdges(extents: readonly [number, number, number], centre: Centre): Float32Array {
  const [l, w, h] = extents;
  const corner = (i: number): [number, number, number] => [i & 1 ? l / 2 : -l / 2, i & 2 ? w / 2 : -w / 2, i & 4 ? h : 0];
  const pairs: number[] = [];
  for (let i = 0; i < 8; i++) {
    for (const bit of [1, 2, 4]) if (!(i & bit)) pairs.push(...corner(i), ...corner(i | bit));
  }
  return toLocal(pairs, centre);
}

/** Per-vertex colours of `n` triangles, each from the RGB of its triangle. */
function perVertex(n: number, rgbOf: (t: number) => Rgb): Float32Array {
  const out = new Float32Array(n * 12);
  for (let t = 0; t < n; t++) {
    const [r, g, b] = rgbOf(t);
    for (let o = 12 * t; o < 12 * t + 12; o += 4) {
      out[o] = r;
      out[o + 1] = g;
      out[o + 2] = b;
      out[o + 3] = 1;
    }
  }
  return out;
}

const pHitLegend = (top: number): ElementLegend => ({ kind: 'scalar', label: 'p_hit (voxels: 1 − ρ)', gradient: cssGradient('viridis'), min: '0', max: top.toFixed(1) });

/** A mesh primitive's foliage-and-bark neutral, brighter with its reflectance. */
const MESH_RGB: Rgb = [0.62, 0.7, 0.56];

/** The view of one primitive: its elements in its own frame, centred on its box. */
export function primitiveLayers(p: PrimitiveData, scale: SigmaScale): ElementLayers {
  const [l, w, h] = p.extents;
  const centre: Centre = [0, 0, h / 2];
  const ell = p.ellipsoids && p.ellipsoids.pHit.length ? p.ellipsoids : null;
  const vox = p.voxels && p.voxels.permeability.length ? p.voxels : null;
  const tri = p.triangles && p.triangles.length >= 9 ? p.triangles : null;
  const pts = p.points && p.points.length >= 3 ? p.points : null;
  const voxHit = vox ? voxelHitProbability(vox.permeability) : null;
  // The ellipsoids set the scale (voxels, hidden by default, clamp at its top); voxels alone set their own.
  const top = probabilityTop(ell ? ell.pHit : (voxHit ?? []));
  let triangles: TriangleLayer | null = null;
  if (tri) {
    const mesh = triangleMesh(tri, centre);
    const refl = p.reflectance;
    const n = mesh.positions.length / 9;
    const colors = perVertex(n, (t) => {
      const k = refl && t < refl.length ? 0.55 + 0.9 * refl[t]! : 1;
      return [Math.min(1, MESH_RGB[0] * k), Math.min(1, MESH_RGB[1] * k), Math.min(1, MESH_RGB[2] * k)];
    });
    triangles = { count: n, ...mesh, colors, objectIds: null };
  }
  return {
    centre,
    size: [Math.max(l, 0.1), Math.max(w, 0.1), Math.max(h, 0.1)],
    ellipsoids: ell
      ? { count: ell.pHit.length, matrices: ellipsoidMatrices(ell.means, ell.covariances, scale, centre), colors: probabilityColors(ell.pHit, top), objectIds: null }
      : null,
    voxels: vox
      ? { count: vox.permeability.length, matrices: ellipsoidMatrices(vox.means, vox.covariances, scale, centre), colors: probabilityColors(voxHit!, top), objectIds: null }
      : null,
    triangles,
    points: pts ? { count: pts.length / 3, positions: toLocal(pts, centre), colors: new Float32Array(pts.length / 3 * 4).fill(0.85) } : null,
    box: boxEdges(p.extents, centre),
    legend: ell || vox ? pHitLegend(top) : null,
  };
}

/** Class names for the legend (the renderer's copy of the site classes). */
export type ClassNames = Readonly<Record<number, string>>;

function classLegend(names: ClassNames, ...idLists: ArrayLike<number>[]): ElementLegend {
  const counts = new Map<number, number>();
  for (const ids of idLists) for (let i = 0; i < ids.length; i++) counts.set(ids[i]!, (counts.get(ids[i]!) ?? 0) + 1);
  const entries = [...counts]
    .sort((a, b) => a[0] - b[0])
    .map(([id, count]) => ({ id, name: names[id] ?? `class ${id}`, color: rgbCss(classColor(id)), count }));
  return { kind: 'classes', label: 'Class', entries };
}

/** Indices of the elements whose `kinds` entry is `kind`. */
function indicesOf(kinds: Uint8Array, kind: number): Uint32Array {
  let n = 0;
  for (let i = 0; i < kinds.length; i++) if (kinds[i] === kind) n++;
  const out = new Uint32Array(n);
  for (let i = 0, w = 0; i < kinds.length; i++) if (kinds[i] === kind) out[w++] = i;
  return out;
}

function gatherGaussians(s: ScenePreviewData['gaussians'], idx: Uint32Array): { means: Float32Array; covariances: Float32Array; classIds: Uint8Array; objectIds: Int32Array } {
  const means = new Float32Array(idx.length * 3);
  const covariances = new Float32Array(idx.length * 6);
  const classIds = new Uint8Array(idx.length);
  const objectIds = new Int32Array(idx.length);
  idx.forEach((g, i) => {
    means.set(s.means.subarray(3 * g, 3 * g + 3), 3 * i);
    covariances.set(s.covariances.subarray(6 * g, 6 * g + 6), 6 * i);
    classIds[i] = s.classIds[g]!;
    objectIds[i] = s.objectIds[g]!;
  });
  return { means, covariances, classIds, objectIds };
}

/** A preview's triangles do not depend on σ: built once per preview (a few hundred ms at 300 k). */
const triangleCache = new WeakMap<ScenePreviewData['triangles'], TriangleLayer | null>();

function sceneTriangles(t: ScenePreviewData['triangles']): TriangleLayer | null {
  if (triangleCache.has(t)) return triangleCache.get(t)!;
  const n = Math.floor(t.positions.length / 9);
  let layer: TriangleLayer | null = null;
  if (n) {
    const mesh = triangleMesh(t.positions, [0, 0, 0]);
    layer = { count: n, ...mesh, colors: perVertex(n, (i) => classColor(t.classIds[i]!)), objectIds: t.objectIds };
  }
  triangleCache.set(t, layer);
  return layer;
}

/** The view of a scene preview: everything by class, ellipsoids and voxels as separate layers. */
export function sceneLayers(s: ScenePreviewData, scale: SigmaScale, names: ClassNames): ElementLayers {
  // The preview is already relative to its centre: the view's centre is its origin.
  const origin: Centre = [0, 0, 0];
  const gauss = (kind: number): InstanceLayer | null => {
    const idx = indicesOf(s.gaussians.kinds, kind);
    if (!idx.length) return null;
    const g = gatherGaussians(s.gaussians, idx);
    return { count: idx.length, matrices: ellipsoidMatrices(g.means, g.covariances, scale, origin), colors: classRgba(g.classIds), objectIds: g.objectIds };
  };
  const triangles = sceneTriangles(s.triangles);
  const b = s.bounds;
  return {
    centre: origin,
    size: [0, 1, 2].map((a) => Math.max(0.1, b.max[a]! - b.min[a]!)) as [number, number, number],
    ellipsoids: gauss(2),
    voxels: gauss(3),
    triangles,
    points: null,
    box: null,
    legend: classLegend(names, s.triangles.classIds, s.gaussians.classIds),
  };
}

/**
 * Colours with everything but object `keep` dimmed (a placement picked in the list), written into
 * `out`; `keep` null restores `base`. Works for per-instance (stride 4) and per-vertex (stride 12 per
 * triangle: `perElement` = 3) colour arrays.
 */
export function highlightColors(base: Float32Array, objectIds: Int32Array, keep: number | null, out: Float32Array, perElement = 1, dim = 0.22): Float32Array {
  out.set(base);
  if (keep === null) return out;
  for (let e = 0; e < objectIds.length; e++) {
    if (objectIds[e] === keep) continue;
    for (let v = 0; v < perElement; v++) {
      const o = 4 * (e * perElement + v);
      out[o] = base[o]! * dim;
      out[o + 1] = base[o + 1]! * dim;
      out[o + 2] = base[o + 2]! * dim;
    }
  }
  return out;
}
