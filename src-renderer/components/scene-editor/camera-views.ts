/**
 * The scene editor's camera bookmarks and top view (pure; unit-tested; docs/design.md, *Scene
 * editor*). A view is the orbit camera's state — alpha, beta (rad), radius (m) and the target in
 * world coordinates (not the view's local frame, whose origin moves with the terrain), so a view
 * saved over one terrain means the same place over the next. Four slots per scene, kept in
 * localStorage under the project's path and the scene's id ("new" for a new scene).
 */
import type { TerrainGrid } from '../../../src-common/scene-authoring';

export interface CameraView {
  alpha: number;
  beta: number;
  radius: number;
  /** World (x, y, z). */
  target: [number, number, number];
}

export const SLOTS = 4;

export type ViewSlots = (CameraView | null)[];

export function storageKey(projectPath: string, sceneId: number | null): string {
  return `thicket.editorViews:${projectPath}:${sceneId ?? 'new'}`;
}

function isView(v: unknown): v is CameraView {
  const o = v as CameraView | null;
  return (
    typeof o === 'object' && o !== null && [o.alpha, o.beta, o.radius].every(Number.isFinite) && o.radius > 0 &&
    Array.isArray(o.target) && o.target.length === 3 && o.target.every(Number.isFinite)
  );
}

/** Slots read back from storage text; anything unreadable is an empty slot (a view is a preference, not data). */
export function parseSlots(text: string | null): ViewSlots {
  let raw: unknown;
  try {
    raw = text ? JSON.parse(text) : null;
  } catch {
    raw = null;
  }
  const list = Array.isArray(raw) ? raw : [];
  return Array.from({ length: SLOTS }, (_, i) => (isView(list[i]) ? { ...(list[i] as CameraView) } : null));
}

export function withSlot(slots: ViewSlots, i: number, v: CameraView | null): ViewSlots {
  if (!(i >= 0 && i < SLOTS)) throw new Error(`camera bookmark ${i + 1}: there are ${SLOTS} (1 to ${SLOTS})`);
  return slots.map((s, k) => (k === i ? v : s));
}

/** The lowest beta the view allows (rad): straight down, short of the pole where the orbit's alpha is undefined. */
export const TOP_BETA = 0.001;

/**
 * Straight down over the terrain's middle, north up (alpha −π/2, the camera south of its target
 * as the default view), far enough that the grid's larger side fills the vertical field of view
 * `fov` (rad) with 10 % to spare.
 */
export function topView(grid: Pick<TerrainGrid, 'nx' | 'ny' | 'cell' | 'x0' | 'y0'>, groundZ: number, fov: number): CameraView {
  const w = (grid.nx - 1) * grid.cell, h = (grid.ny - 1) * grid.cell;
  const radius = (1.1 * Math.max(w, h)) / 2 / Math.tan(fov / 2);
  return { alpha: -Math.PI / 2, beta: TOP_BETA, radius, target: [grid.x0 + w / 2, grid.y0 + h / 2, groundZ] };
}

/**
 * The direction the camera looks along, over the ground (world x, y; unit). The orbit camera sits
 * at target + r·(cos α sin β, cos β, sin α sin β) in the view's axes, which are world (x, z, y), so
 * it looks along −(cos α, sin α) over the ground whatever beta is.
 */
export function groundHeading(alpha: number): [number, number] {
  return [-Math.cos(alpha), -Math.sin(alpha)];
}
