/**
 * The placements of a composed scene (meta.placements, written by scenes.compose) as rows of the
 * scene viewer's list — one row per annotation entry, its patch cells folded in — and the status
 * line of a scene preview. Pure; unit-tested.
 */
import type { ScenePreviewData } from '../../../src-main/api/contract';
import { formatCount } from '../../format';

export interface PlacementRow {
  /** Annotation entry id: the object id its instances carry (what a click highlights). */
  entry: number;
  classId: number | null;
  className: string;
  /** Distinct library primitives placed for it. */
  primitives: number[];
  /** Patch cells (0 for a whole object). */
  cells: number;
  /** Placed with a primitive of another class of its family. */
  fallback: boolean;
}

interface RawPlacement {
  entry: number;
  primitive: number;
  fallback: boolean;
  cell?: unknown;
}

const isPlacement = (p: unknown): p is RawPlacement =>
  !!p && typeof p === 'object' && typeof (p as RawPlacement).entry === 'number' && typeof (p as RawPlacement).primitive === 'number';

/** Class id per object id, from the elements of a preview (every element of an instance carries both). */
export function objectClasses(p: ScenePreviewData): Map<number, number> {
  const out = new Map<number, number>();
  const add = (objects: Int32Array, classes: Uint8Array) => {
    for (let i = 0; i < objects.length; i++) if (!out.has(objects[i]!)) out.set(objects[i]!, classes[i]!);
  };
  add(p.triangles.objectIds, p.triangles.classIds);
  add(p.gaussians.objectIds, p.gaussians.classIds);
  return out;
}

export function placementRows(meta: Record<string, unknown>, classOf: ReadonlyMap<number, number>, names: Readonly<Record<number, string>>): PlacementRow[] {
  const raw = Array.isArray(meta.placements) ? meta.placements.filter(isPlacement) : [];
  const rows = new Map<number, PlacementRow>();
  for (const p of raw) {
    let r = rows.get(p.entry);
    if (!r) {
      const classId = classOf.get(p.entry) ?? null;
      r = { entry: p.entry, classId, className: classId === null ? '—' : (names[classId] ?? `class ${classId}`), primitives: [], cells: 0, fallback: false };
      rows.set(p.entry, r);
    }
    if (!r.primitives.includes(p.primitive)) r.primitives.push(p.primitive);
    if (Array.isArray(p.cell)) r.cells++;
    if (p.fallback) r.fallback = true;
  }
  return [...rows.values()].sort((a, b) => a.entry - b.entry);
}

/** "6,143 of 6,143 triangles · 455 Gaussians · 56 instances", saying when the preview was decimated. */
export function previewNote(p: ScenePreviewData): string {
  const part = (shown: number, total: number, what: string) => (shown < total ? `${formatCount(shown)} of ${formatCount(total)} ${what}` : `${formatCount(total)} ${what}`);
  const parts: string[] = [];
  const tri = p.triangles.positions.length / 9;
  const gauss = p.gaussians.pHit.length;
  if (p.triangles.total) parts.push(part(tri, p.triangles.total, 'triangles'));
  if (p.gaussians.total) parts.push(part(gauss, p.gaussians.total, 'Gaussians'));
  parts.push(`${formatCount(p.instances)} instances`);
  return parts.join(' · ');
}
