/**
 * The scene editor's document and its edits (pure; unit-tested; docs/design.md, *Scene editor*):
 * a terrain, the mode the scene is built for, and the placements. Every edit is a function from
 * one state to a new one (nothing is mutated), so the history (edit-history.ts) keeps states
 * and undo is going back to one. Placements carry a key that survives edits (the selection).
 */
import type { PrimitiveInfo, Request } from '../../../src-main/api/contract';
import type { ComposeMode } from '../../../src-common/modes';
import { clampScale } from '../../../src-common/class-sizes';
import { gridHeightAt, type TerrainGrid, type TerrainSpec } from '../../../src-common/scene-authoring';
import type { ScatteredPlacement } from './scatter';

export interface EditorPlacement {
  key: number;
  primitiveId: number;
  x: number;
  y: number;
  /** Foot height when set by hand; absent: on the ground. */
  z?: number;
  /** rad */
  yaw: number;
  scale: number;
}

export interface EditorState {
  terrain: TerrainSpec;
  mode: ComposeMode;
  placements: readonly EditorPlacement[];
  /** The next placement's key. */
  nextKey: number;
}

export const DEFAULT_TERRAIN: TerrainSpec = { kind: 'flat', z: 0, extent: { x0: -25, y0: -25, x1: 25, y1: 25 } };

export function emptyState(terrain: TerrainSpec = DEFAULT_TERRAIN, mode: ComposeMode = 'hybrid'): EditorState {
  return { terrain, mode, placements: [], nextKey: 1 };
}

/**
 * A stored scene's meta as an editor state: an authored scene's terrain and placements as saved; a
 * composed scene's placements at their feet and yaws (scale 1, their heights kept) on its ground —
 * the fitted model's, or the flat ground over the scene's extent. Null for other scenes (and for
 * scenes composed before their metadata kept the placements' poses).
 */
export function stateFromMeta(meta: Record<string, unknown>): EditorState | null {
  const mode = (['hybrid', 'voxel', 'mesh', 'physics'] as const).find((m) => m === meta.mode) ?? 'hybrid';
  const keyed = (list: Omit<EditorPlacement, 'key'>[]): EditorPlacement[] => list.map((p, i) => ({ ...p, key: i + 1 }));
  if (meta.kind === 'authored' && meta.terrain && Array.isArray(meta.placements)) {
    const placements = keyed(meta.placements as Omit<EditorPlacement, 'key'>[]);
    return { terrain: meta.terrain as TerrainSpec, mode, placements, nextKey: placements.length + 1 };
  }
  if (meta.kind !== 'composed' || !Array.isArray(meta.placements)) return null;
  const posed = (meta.placements as { primitive?: unknown; at?: unknown }[]).filter(
    (p): p is { primitive: number; at: [number, number, number, number] } => typeof p.primitive === 'number' && Array.isArray(p.at) && p.at.length === 4 && p.at.every(Number.isFinite),
  );
  if (!posed.length || posed.length !== meta.placements.length) return null;
  const b = meta.bounds as { min?: number[]; max?: number[] } | undefined;
  let terrain: TerrainSpec;
  if (typeof meta.groundModel === 'number') terrain = { kind: 'model', modelId: meta.groundModel };
  else if (typeof meta.groundZ === 'number' && b?.min && b.max) terrain = { kind: 'flat', z: meta.groundZ, extent: { x0: b.min[0]!, y0: b.min[1]!, x1: b.max[0]!, y1: b.max[1]! } };
  else return null;
  const wrap = (a: number) => ((a % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
  const placements = keyed(posed.map((p) => ({ primitiveId: p.primitive, x: p.at[0], y: p.at[1], z: p.at[2], yaw: wrap(p.at[3]), scale: 1 })));
  return { terrain, mode, placements, nextKey: placements.length + 1 };
}

/** The foot height the scene will give a placement: its own z, else the ground under it (NaN off the terrain). */
export function footZ(grid: TerrainGrid | null, p: Pick<EditorPlacement, 'x' | 'y' | 'z'>): number {
  if (p.z !== undefined) return p.z;
  return grid ? gridHeightAt(grid, p.x, p.y) : NaN;
}

/** Whether (x, y) has ground under it in the editor's grid (the scene's terrain test). */
export function onGrid(grid: TerrainGrid | null, x: number, y: number): boolean {
  return grid !== null && Number.isFinite(gridHeightAt(grid, x, y));
}

type Lib = ReadonlyMap<number, Pick<PrimitiveInfo, 'class' | 'extents'>>;
const keySet = (keys: Iterable<number>) => new Set(keys);

export function addPlacements(s: EditorState, items: readonly Omit<EditorPlacement, 'key'>[]): { state: EditorState; keys: number[] } {
  if (!items.length) return { state: s, keys: [] };
  const keys = items.map((_, i) => s.nextKey + i);
  const placements = [...s.placements, ...items.map((p, i) => ({ ...p, key: keys[i]! }))];
  return { state: { ...s, placements, nextKey: s.nextKey + items.length }, keys };
}

/** One primitive on the ground at (x, y), scale 1 clamped into its class's range. */
export function place(s: EditorState, lib: Lib, primitiveId: number, x: number, y: number, yaw = 0): { state: EditorState; keys: number[] } {
  const p = lib.get(primitiveId);
  if (!p) throw new Error(`no primitive ${primitiveId} in the library`);
  return addPlacements(s, [{ primitiveId, x, y, yaw, scale: clampScale(1, p.class, p.extents[2]) }]);
}

export function addScattered(s: EditorState, items: readonly ScatteredPlacement[]): { state: EditorState; keys: number[] } {
  return addPlacements(s, items);
}

function mapKeys(s: EditorState, keys: Iterable<number>, f: (p: EditorPlacement) => EditorPlacement): EditorState {
  const set = keySet(keys);
  let changed = false;
  const placements = s.placements.map((p) => {
    if (!set.has(p.key)) return p;
    const q = f(p);
    if (q !== p) changed = true;
    return q;
  });
  return changed ? { ...s, placements } : s;
}

/**
 * Moves the placements by (dx, dy), keeping them on the ground (a height set by hand is
 * dropped: a moved object stands on the ground at its new place). A move that would take one off
 * the terrain moves none.
 */
export function move(s: EditorState, keys: Iterable<number>, dx: number, dy: number, inside: (x: number, y: number) => boolean): EditorState {
  const set = keySet(keys);
  if ((dx === 0 && dy === 0) || !s.placements.some((p) => set.has(p.key))) return s;
  if (s.placements.some((p) => set.has(p.key) && !inside(p.x + dx, p.y + dy))) return s;
  return mapKeys(s, set, (p) => {
    const { z: _z, ...rest } = p;
    return { ...rest, x: p.x + dx, y: p.y + dy };
  });
}

/** One placement's fields set by hand (the numeric fields); off-terrain positions are refused (state unchanged). */
export function setFields(s: EditorState, key: number, lib: Lib, f: Partial<Pick<EditorPlacement, 'x' | 'y' | 'z' | 'yaw' | 'scale'>>, inside: (x: number, y: number) => boolean): EditorState {
  return mapKeys(s, [key], (p) => {
    const prim = lib.get(p.primitiveId);
    const next: EditorPlacement = { ...p, ...f };
    if ('z' in f && f.z === undefined) delete next.z;
    if (!inside(next.x, next.y)) return p;
    if (prim) next.scale = clampScale(next.scale, prim.class, prim.extents[2]);
    const same = next.x === p.x && next.y === p.y && next.z === p.z && next.yaw === p.yaw && next.scale === p.scale;
    return same ? p : next;
  });
}

/** Turns every placement by `dYaw` about its own foot (radians, wrapped to [0, 2π)). */
export function rotate(s: EditorState, keys: Iterable<number>, dYaw: number): EditorState {
  if (dYaw === 0) return s;
  const wrap = (a: number) => ((a % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
  return mapKeys(s, keys, (p) => ({ ...p, yaw: wrap(p.yaw + dYaw) }));
}

/** Multiplies every placement's scale by `factor`, each clamped into its class's range. */
export function rescale(s: EditorState, keys: Iterable<number>, factor: number, lib: Lib): EditorState {
  return mapKeys(s, keys, (p) => {
    const prim = lib.get(p.primitiveId);
    const scale = prim ? clampScale(p.scale * factor, prim.class, prim.extents[2]) : p.scale;
    return scale === p.scale ? p : { ...p, scale };
  });
}

/** Copies of the placements, shifted by `offset` in x and y (those that would leave the terrain stay where they are). */
export function duplicate(s: EditorState, keys: Iterable<number>, offset: number, inside: (x: number, y: number) => boolean): { state: EditorState; keys: number[] } {
  const set = keySet(keys);
  const copies = s.placements
    .filter((p) => set.has(p.key))
    .map(({ key: _key, ...p }) => (inside(p.x + offset, p.y + offset) ? { ...p, x: p.x + offset, y: p.y + offset } : p));
  return addPlacements(s, copies);
}

export function remove(s: EditorState, keys: Iterable<number>): EditorState {
  const set = keySet(keys);
  const placements = s.placements.filter((p) => !set.has(p.key));
  return placements.length === s.placements.length ? s : { ...s, placements };
}

// ---------- handles ----------

/** How far past a placement's footprint its handles stand (m). */
const HANDLE_GAP = 1;

/**
 * The two handles of a placement, on the ground around its foot at radius r = half its larger
 * footprint side × scale + 1 m: the turn handle along its yaw, the scale handle a quarter turn on.
 */
export function handlePoints(p: Pick<EditorPlacement, 'x' | 'y' | 'yaw' | 'scale'>, extents: readonly number[]): { rotate: [number, number]; scale: [number, number]; radius: number } {
  const half = (Math.max(extents[0]!, extents[1]!) / 2) * p.scale;
  const r = half + HANDLE_GAP;
  const c = Math.cos(p.yaw), s = Math.sin(p.yaw);
  return { rotate: [p.x + r * c, p.y + r * s], scale: [p.x - r * s, p.y + r * c], radius: r };
}

/**
 * A handle of `anchor` dragged to the ground point (gx, gy): the turn handle turns every selected
 * placement by what makes the anchor face the point; the scale handle scales them by what puts
 * the anchor's handle at the point's distance (each clamped into its class's range).
 */
export function dragHandle(s: EditorState, keys: Iterable<number>, lib: Lib, anchor: EditorPlacement, kind: 'rotate' | 'scale', gx: number, gy: number): EditorState {
  const dx = gx - anchor.x, dy = gy - anchor.y;
  if (kind === 'rotate') return dx === 0 && dy === 0 ? s : rotate(s, keys, Math.atan2(dy, dx) - anchor.yaw);
  const prim = lib.get(anchor.primitiveId);
  if (!prim) return s;
  const half = (Math.max(prim.extents[0], prim.extents[1]) / 2) * anchor.scale;
  if (!(half > 0)) return s;
  const factor = Math.max(0.01, (Math.hypot(dx, dy) - HANDLE_GAP) / half);
  return rescale(s, keys, factor, lib);
}

/** The terrain or mode changed; placements left off the new terrain are dropped. */
export function setTerrain(s: EditorState, terrain: TerrainSpec, inside: (x: number, y: number) => boolean): EditorState {
  return { ...s, terrain, placements: s.placements.filter((p) => inside(p.x, p.y)) };
}

/** The save request (scenes.author) for a state. */
export function authorRequest(s: EditorState, name: string, editedFrom: number | null): Request<'scenes.author'> {
  const placements = s.placements.map(({ key: _key, ...p }) => p);
  const req: Request<'scenes.author'> = { mode: s.mode, terrain: s.terrain, placements };
  if (name.trim()) req.name = name.trim().slice(0, 255);
  if (editedFrom !== null) req.editedFrom = editedFrom;
  return req;
}

// ---------- counts and memory ----------

/** Bytes per stored element of a built scene, BVH included (measured with SceneBuilder and sceneMemoryBytes: 10³–10⁴ elements). */
const BYTES = { triangle: 67, gaussian: 154, instance: 185 } as const;

export interface SceneEstimate {
  placements: number;
  /** Distinct (primitive, scale) pairs: each is stored once. */
  unique: number;
  /** Elements as placed. */
  triangles: number;
  ellipsoids: number;
  voxels: number;
  groundTriangles: number;
  memoryBytes: number;
}

/**
 * What saving the state will build: the placed elements of the mode, and the memory — each
 * (primitive, scale) stored once, an instance per placement, the ground's triangles (the voxel
 * mode's ground voxels: one per 0.3 m cell).
 */
export function estimate(s: EditorState, lib: ReadonlyMap<number, Pick<PrimitiveInfo, 'counts'>>, grid: TerrainGrid | null, modelGroundTriangles: number | null): SceneEstimate {
  const e: SceneEstimate = { placements: s.placements.length, unique: 0, triangles: 0, ellipsoids: 0, voxels: 0, groundTriangles: 0, memoryBytes: 0 };
  const seen = new Set<string>();
  let storedTriangles = 0, storedGaussians = 0;
  for (const p of s.placements) {
    const c = lib.get(p.primitiveId)?.counts;
    if (!c) continue;
    const tri = s.mode === 'mesh' || s.mode === 'physics' ? c.triangles : 0;
    const ell = s.mode === 'hybrid' ? c.ellipsoids : 0;
    const vox = s.mode === 'voxel' ? c.voxels : 0;
    e.triangles += tri;
    e.ellipsoids += ell;
    e.voxels += vox;
    const k = `${p.primitiveId}:${p.scale}`;
    if (!seen.has(k)) {
      seen.add(k);
      storedTriangles += tri;
      storedGaussians += ell + vox;
    }
  }
  e.unique = seen.size;
  if (grid) {
    const cells = (grid.nx - 1) * (grid.ny - 1);
    const groundTri = modelGroundTriangles ?? 2 * cells;
    if (s.mode === 'voxel') {
      const groundVox = Math.round((cells * grid.cell * grid.cell) / 0.09);
      e.voxels += groundVox;
      storedGaussians += groundVox;
    } else {
      e.groundTriangles = groundTri;
      storedTriangles += groundTri;
    }
  }
  e.memoryBytes = BYTES.triangle * storedTriangles + BYTES.gaussian * storedGaussians + BYTES.instance * (s.placements.length + 1);
  return e;
}
