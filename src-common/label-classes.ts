/**
 * The built-in label class list (docs/labeling.md): Thicket's classes (classes.ts: the thesis's
 * ground, grass, shrub and tree sizes, plus the site's rocks, fallen logs and fixtures) with a
 * display colour and the ASPRS (LAS 1.4 R15, Table 17) code each exports as. A project may edit
 * names, colours and codes and add classes of its own (ids up to 255); its rows override these.
 *
 * ASPRS codes: ground 2; grass low vegetation 3; shrubs medium vegetation 4; trees high
 * vegetation 5; walls building 6; the rest unclassified 1 (ASPRS has no rock or fallen log).
 */
import { SHRUB_CLASSES, SITE_CLASS_NAMES, SiteClass, TREE_CLASSES } from './classes';
import { classColor } from './colormaps';

export interface LabelClassDef {
  id: number;
  name: string;
  color: string;
  asprs: number;
}

function asprsOf(id: number): number {
  if (id === SiteClass.ground) return 2;
  if (id === SiteClass.grass) return 3;
  if ((SHRUB_CLASSES as readonly number[]).includes(id)) return 4;
  if ((TREE_CLASSES as readonly number[]).includes(id)) return 5;
  if (id === SiteClass.wall) return 6;
  return 1;
}

function hex(rgb: readonly number[]): string {
  return `#${rgb.map((v) => Math.round(Math.min(1, Math.max(0, v)) * 255).toString(16).padStart(2, '0')).join('')}`;
}

export const DEFAULT_LABEL_CLASSES: readonly LabelClassDef[] = Object.entries(SITE_CLASS_NAMES).map(([id, name]) => ({
  id: Number(id),
  name: Number(id) === SiteClass.unknown ? 'unlabelled' : name,
  color: hex(classColor(Number(id))),
  asprs: asprsOf(Number(id)),
}));

/** The class list a project sees: the built-in classes with the project's rows over them, by id. */
export function mergeLabelClasses(projectRows: readonly LabelClassDef[]): LabelClassDef[] {
  const byId = new Map<number, LabelClassDef>(DEFAULT_LABEL_CLASSES.map((c) => [c.id, { ...c }]));
  for (const r of projectRows) byId.set(r.id, { ...r });
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** The ASPRS code of every class id 0–255 (ids not in the list: 1, unclassified). */
export function asprsTable(classes: readonly LabelClassDef[]): number[] {
  const out = new Array<number>(256).fill(1);
  for (const c of classes) out[c.id] = c.asprs;
  return out;
}
