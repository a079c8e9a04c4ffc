/**
 * Copy and paste of placements in the scene editor (pure; unit-tested; docs/design.md, *Scene
 * editor*). A clip holds copies of the placements — primitive, yaw, scale and where each stands
 * relative to the group's centre (the middle of their bounding box) — and not their keys, so it
 * outlives the placements it came from: undo, delete or a terrain change leave it as it was.
 * Pasting puts the group's centre at a point, each placement on the ground there (a height set
 * by hand is dropped, as a move drops it), and leaves out those that would stand off the terrain.
 */
import { addPlacements, remove, type EditorPlacement, type EditorState } from './editor-state';

export interface ClipItem {
  primitiveId: number;
  /** From the group's centre (m). */
  dx: number;
  dy: number;
  yaw: number;
  scale: number;
}

export interface Clip {
  items: readonly ClipItem[];
  /** Where the group's centre was when copied (world x, y): a paste without a point goes beside it. */
  centre: readonly [number, number];
}

/** How far from the originals a paste goes when no ground point is given (m, along x and along y). */
export const PASTE_OFFSET = 2;

/** The placements with these keys as a clip, in document order; null when none of them is there. */
export function copyPlacements(s: EditorState, keys: Iterable<number>): Clip | null {
  const set = new Set(keys);
  const picked = s.placements.filter((p) => set.has(p.key));
  if (!picked.length) return null;
  const xs = picked.map((p) => p.x), ys = picked.map((p) => p.y);
  const cx = (Math.min(...xs) + Math.max(...xs)) / 2, cy = (Math.min(...ys) + Math.max(...ys)) / 2;
  return {
    items: picked.map((p) => ({ primitiveId: p.primitiveId, dx: p.x - cx, dy: p.y - cy, yaw: p.yaw, scale: p.scale })),
    centre: [cx, cy],
  };
}

export interface PasteResult {
  state: EditorState;
  /** The new placements' keys (to select them). */
  keys: number[];
  /** How many were left out because they would stand off the terrain. */
  leftOut: number;
}

/**
 * The clip added with its centre at `at` (world x, y), or — when `at` is null — PASTE_OFFSET m
 * along x and y from where it was copied. Placements that would stand off the terrain are left
 * out; when all are, the state is returned unchanged (no edit).
 */
export function pasteClip(s: EditorState, clip: Clip, at: readonly [number, number] | null, inside: (x: number, y: number) => boolean): PasteResult {
  const [cx, cy] = at ?? [clip.centre[0] + PASTE_OFFSET, clip.centre[1] + PASTE_OFFSET];
  const items: Omit<EditorPlacement, 'key'>[] = [];
  for (const c of clip.items) {
    const x = cx + c.dx, y = cy + c.dy;
    if (Number.isFinite(x) && Number.isFinite(y) && inside(x, y)) items.push({ primitiveId: c.primitiveId, x, y, yaw: c.yaw, scale: c.scale });
  }
  const r = addPlacements(s, items);
  return { ...r, leftOut: clip.items.length - items.length };
}

/** Cut: the clip of these placements and the state without them (one edit). */
export function cutPlacements(s: EditorState, keys: Iterable<number>): { clip: Clip | null; state: EditorState } {
  const list = [...keys];
  const clip = copyPlacements(s, list);
  return { clip, state: clip ? remove(s, list) : s };
}
