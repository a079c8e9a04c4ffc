/**
 * The Primitives page's pure parts (unit-tested): filtering the library, labels for its table
 * and facts card, and the requests the Extract and Generate forms send.
 */
import type { AnnotationInfo, DriveLogInfo, ModelInfo, PrimitiveInfo, Request } from '../../../src-main/api/contract';
import { formatCount } from '../../format';
import type { Checked } from '../../form-check';

export type LibraryFilter = 'all' | 'hybrid' | 'mesh';

export interface PrimitiveFilter {
  library: LibraryFilter;
  /** Class ids to keep; empty keeps every class. */
  classes: number[];
  /** Box height range (m); null is open. */
  minHeight: number | null;
  maxHeight: number | null;
  /** Largest footprint side (max of length and width, m); null is open. */
  maxFootprint: number | null;
}

export const NO_FILTER: PrimitiveFilter = { library: 'all', classes: [], minHeight: null, maxHeight: null, maxFootprint: null };

export function filterPrimitives(list: readonly PrimitiveInfo[], f: PrimitiveFilter): PrimitiveInfo[] {
  const classes = new Set(f.classes);
  return list.filter((p) => {
    if (f.library !== 'all' && p.library !== f.library) return false;
    if (classes.size && !classes.has(p.class)) return false;
    const h = p.extents[2];
    if (f.minHeight !== null && h < f.minHeight) return false;
    if (f.maxHeight !== null && h > f.maxHeight) return false;
    if (f.maxFootprint !== null && Math.max(p.extents[0], p.extents[1]) > f.maxFootprint) return false;
    return true;
  });
}

export function isFiltered(f: PrimitiveFilter): boolean {
  return f.library !== 'all' || f.classes.length > 0 || f.minHeight !== null || f.maxHeight !== null || f.maxFootprint !== null;
}

/** Class choices present in the library, by class id, with how many primitives each has. */
export function classOptions(list: readonly PrimitiveInfo[]): { value: number; label: string }[] {
  const by = new Map<number, { label: string; n: number }>();
  for (const p of list) {
    const c = by.get(p.class);
    if (c) c.n++;
    else by.set(p.class, { label: p.label, n: 1 });
  }
  return [...by]
    .sort((a, b) => a[0] - b[0])
    .map(([value, c]) => ({ value, label: `${c.label} (${c.n})` }));
}

/** "2.01 × 2.12 × 3.81 m" (length along x, width, height). */
export function formatExtents(e: readonly [number, number, number]): string {
  const f = (v: number) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
  return `${f(e[0])} × ${f(e[1])} × ${f(e[2])} m`;
}

/** The non-zero element counts: "8 ell · 3 vox · 116 pts", "512 tri". */
export function formatElementCounts(c: PrimitiveInfo['counts']): string {
  const parts: string[] = [];
  if (c.ellipsoids) parts.push(`${formatCount(c.ellipsoids)} ell`);
  if (c.voxels) parts.push(`${formatCount(c.voxels)} vox`);
  if (c.triangles) parts.push(`${formatCount(c.triangles)} tri`);
  if (c.points) parts.push(`${formatCount(c.points)} pts`);
  return parts.join(' · ') || '—';
}

export const SOURCE_LABELS: Record<PrimitiveInfo['source'], string> = {
  object: 'object',
  'patch-cell': 'patch cell',
  procedural: 'procedural',
};

const nameOf = <T extends { id: number; name: string }>(items: readonly T[], id: number | null): string | null =>
  id === null ? null : (items.find((i) => i.id === id)?.name ?? `#${id}`);

/** Where it came from, short: the source log (hybrid) or the generator seed (mesh). */
export function provenance(p: PrimitiveInfo, logs: readonly DriveLogInfo[], models: readonly ModelInfo[]): string {
  if (p.library === 'mesh') {
    const seed = typeof p.origin.seed === 'number' ? `seed ${p.origin.seed}` : 'generated';
    return typeof p.origin.annotationId === 'number' ? `${seed}, sized from annotation #${p.origin.annotationId}` : seed;
  }
  const log = nameOf(logs, p.sourceLogId);
  const model = nameOf(models, p.modelId);
  return [log, model ? `model ${model}` : null].filter(Boolean).join(' · ') || '—';
}

/** Key/value rows of the facts card. */
export function primitiveFacts(p: PrimitiveInfo, logs: readonly DriveLogInfo[], models: readonly ModelInfo[], annotations: readonly AnnotationInfo[]): [string, string][] {
  const rows: [string, string][] = [
    ['Class', `${p.label} (${p.class})`],
    ['Library', p.library],
    ['Source', SOURCE_LABELS[p.source] ?? p.source],
    ['Extents', formatExtents(p.extents)],
    ['Elements', formatElementCounts(p.counts)],
  ];
  if (p.library === 'hybrid') {
    rows.push(['Drive log', nameOf(logs, p.sourceLogId) ?? '—']);
    rows.push(['Model', nameOf(models, p.modelId) ?? '—']);
  }
  const o = p.origin;
  if (typeof o.annotationId === 'number') rows.push(['Annotation', nameOf(annotations, o.annotationId) ?? `#${o.annotationId}`]);
  if (typeof o.segmentId === 'number') rows.push(['Segment', `entry ${o.segmentId}`]);
  if (Array.isArray(o.cell)) rows.push(['Patch cell', `[${(o.cell as number[]).join(', ')}]`]);
  if (Array.isArray(o.pose) && o.pose.length === 7) {
    const [x, y, z, , , qz, qw] = o.pose as number[];
    const yaw = (2 * Math.atan2(qz!, qw!) * 180) / Math.PI;
    rows.push(['Extracted at', `${x!.toFixed(1)}, ${y!.toFixed(1)}, ${z!.toFixed(1)} m · yaw ${yaw.toFixed(0)}°`]);
  }
  if (typeof o.seed === 'number') rows.push(['Seed', String(o.seed)]);
  return rows;
}

// ---------- forms ----------


export interface ExtractForm {
  modelId: number | null;
  /** null: the model's log's own annotation (the host's default). */
  annotationId: number | null;
  autoSegment: boolean;
  patchCell: number | null;
}

export const defaultExtractForm = (): ExtractForm => ({ modelId: null, annotationId: null, autoSegment: false, patchCell: 2 });

export function extractRequest(f: ExtractForm): Checked<Request<'primitives.extract'>> {
  if (f.modelId === null) return { ok: false, reason: 'Pick a fitted model (fit one from a drive log first)' };
  const cell = f.patchCell ?? 2;
  if (!(cell >= 0.5 && cell <= 20)) return { ok: false, reason: 'Patch cell size is 0.5–20 m' };
  const req: Request<'primitives.extract'> = { modelId: f.modelId, autoSegment: f.autoSegment, patchCell: cell };
  if (!f.autoSegment && f.annotationId !== null) req.annotationId = f.annotationId;
  return { ok: true, value: req };
}

/** Annotations to offer for a model: those of its source log first, then the others. */
export function annotationOptions(annotations: readonly AnnotationInfo[], model: ModelInfo | null): { value: number; label: string }[] {
  const logId = model?.sourceLogId ?? null;
  const own = annotations.filter((a) => logId !== null && a.logId === logId);
  const rest = annotations.filter((a) => !(logId !== null && a.logId === logId));
  return [...own, ...rest].map((a) => ({ value: a.id, label: `${a.name} (${formatCount(a.count)} entries)${a.logId === logId && logId !== null ? ' · this log' : ''}` }));
}

export interface MeshForm {
  seed: number | null;
  sizing: 'variants' | 'annotation';
  variants: number | null;
  annotationId: number | null;
}

export const defaultMeshForm = (): MeshForm => ({ seed: 1, sizing: 'variants', variants: 3, annotationId: null });

export function meshRequest(f: MeshForm): Checked<Request<'primitives.generateMesh'>> {
  const seed = f.seed ?? 1;
  if (f.sizing === 'annotation') {
    if (f.annotationId === null) return { ok: false, reason: 'Pick the annotation whose shrubs and trees size the meshes' };
    return { ok: true, value: { seed, annotationId: f.annotationId } };
  }
  const variants = f.variants ?? 3;
  if (!(Number.isInteger(variants) && variants >= 1 && variants <= 20)) return { ok: false, reason: 'Variants per class is 1–20' };
  return { ok: true, value: { seed, variants } };
}
