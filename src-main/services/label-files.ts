/**
 * Label files in and out (docs/labeling.md):
 * - SemanticKITTI `.label`: one little-endian u32 per point of the scan, in the scan's order — the
 *   class in the low 16 bits, the instance in the high 16. Source classes map to Thicket's through
 *   a class map (built-in for RELLIS-3D and SemanticKITTI, or a file).
 * - Thicket JSON: the per-ray classes and objects of a version, base64, with the objects (boxes)
 *   and the class list, so a file written by one project reads back identical in another.
 * KITTI object boxes come with their camera calibration and are not read yet (docs/labeling.md).
 */
import { ApiError, type AnnotationEntry, type LabelClass } from '../api/contract';
import { SiteClass } from '../../src-common/classes';

/** Source label → Thicket class id. */
export type ClassMap = Map<number, number>;

/**
 * RELLIS-3D's ontology (its ontology file: 0 void … 34 rubble) to Thicket classes: every kind of
 * ground surface to ground, grass to grass, bush to a medium shrub and tree to a medium tree (the
 * dataset does not size them), log to a fallen log, built things to wall; the rest unlabelled.
 */
export const RELLIS3D_CLASS_MAP: ClassMap = new Map([
  [1, SiteClass.ground], [10, SiteClass.ground], [23, SiteClass.ground], [31, SiteClass.ground], [33, SiteClass.ground], [34, SiteClass.ground], [6, SiteClass.ground],
  [3, SiteClass.grass], [19, SiteClass.mediumShrub], [4, SiteClass.mediumTree], [15, SiteClass.fallenLog],
  [12, SiteClass.wall], [18, SiteClass.wall], [27, SiteClass.wall], [5, SiteClass.rod],
]);

/** SemanticKITTI's raw labels: roads and other ground to ground, terrain to grass, vegetation to a medium shrub, trunk to stem, structures to wall, poles to rod. */
export const SEMANTIC_KITTI_CLASS_MAP: ClassMap = new Map([
  [40, SiteClass.ground], [44, SiteClass.ground], [48, SiteClass.ground], [49, SiteClass.ground], [60, SiteClass.ground],
  [72, SiteClass.grass], [70, SiteClass.mediumShrub], [71, SiteClass.stem],
  [50, SiteClass.wall], [51, SiteClass.wall], [52, SiteClass.wall], [80, SiteClass.rod], [81, SiteClass.rod],
]);

export const BUILTIN_CLASS_MAPS = { rellis3d: RELLIS3D_CLASS_MAP, 'semantic-kitti': SEMANTIC_KITTI_CLASS_MAP } as const;

/**
 * A class-map file: JSON `{"3": "grass", "4": 8, …}` or YAML lines `3: grass` — source label to a
 * Thicket class name or id. Unknown names and ids are errors naming the line.
 */
export function parseClassMap(text: string, classes: readonly LabelClass[], file: string): ClassMap {
  const byName = new Map(classes.map((c) => [c.name.toLowerCase(), c.id]));
  const ids = new Set(classes.map((c) => c.id));
  const out: ClassMap = new Map();
  const put = (key: string, value: unknown, where: string) => {
    const src = Number(key);
    if (!Number.isInteger(src) || src < 0 || src > 0xffff) throw new ApiError('bad_input', `${file}: ${where}: "${key}" is not a label number 0–65535`);
    let id: number | undefined;
    if (typeof value === 'number') id = ids.has(value) ? value : undefined;
    else if (typeof value === 'string') id = byName.get(value.trim().toLowerCase()) ?? (ids.has(Number(value)) ? Number(value) : undefined);
    if (id === undefined) throw new ApiError('bad_input', `${file}: ${where}: no class "${String(value)}" in the project's class list`);
    out.set(src, id);
  };
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    let obj: unknown;
    try {
      obj = JSON.parse(trimmed);
    } catch (e) {
      throw new ApiError('bad_input', `${file}: not valid JSON (${(e as Error).message})`);
    }
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw new ApiError('bad_input', `${file}: expected an object of label → class`);
    for (const [k, v] of Object.entries(obj)) put(k, v, `key "${k}"`);
    return out;
  }
  text.split(/\r?\n/).forEach((line, i) => {
    const l = line.replace(/#.*$/, '').trim();
    if (l === '') return;
    const m = /^(\d+)\s*:\s*(.+)$/.exec(l);
    if (!m) throw new ApiError('bad_input', `${file}: line ${i + 1}: expected "label: class"`);
    put(m[1]!, m[2]!.replace(/^['"]|['"]$/g, ''), `line ${i + 1}`);
  });
  return out;
}

/** Per entry of a `.label` file: class (mapped; identity when `map` is null) and instance. */
export function readSemanticKittiLabels(bytes: Uint8Array, map: ClassMap | null, file: string): { rayClass: Uint8Array<ArrayBuffer>; rayObject: Uint32Array<ArrayBuffer>; unmapped: number } {
  if (bytes.byteLength % 4 !== 0) throw new ApiError('bad_input', `${file}: ${bytes.byteLength} bytes is not a whole number of 4-byte labels`);
  const n = bytes.byteLength / 4;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const rayClass = new Uint8Array(n), rayObject = new Uint32Array(n);
  let unmapped = 0;
  for (let i = 0; i < n; i++) {
    const v = view.getUint32(4 * i, true);
    const src = v & 0xffff;
    let c: number;
    if (map) {
      c = map.get(src) ?? 0;
      if (src !== 0 && !map.has(src)) unmapped++;
    } else {
      if (src > 255) throw new ApiError('bad_input', `${file}: label ${i} has class ${src}: without a class map classes must be Thicket ids 0–255`);
      c = src;
    }
    rayClass[i] = c;
    rayObject[i] = v >>> 16;
  }
  return { rayClass, rayObject, unmapped };
}

/** A `.label` file of per-ray classes (through the inverse of `map`, else Thicket ids) and objects (low 16 bits). */
export function writeSemanticKittiLabels(rayClass: Uint8Array, rayObject: Uint32Array, map: ClassMap | null): Uint8Array<ArrayBuffer> {
  const inverse = new Map<number, number>();
  if (map) for (const [src, id] of [...map].sort((a, b) => a[0] - b[0])) if (!inverse.has(id)) inverse.set(id, src);
  const out = new Uint8Array(4 * rayClass.length);
  const view = new DataView(out.buffer);
  for (let i = 0; i < rayClass.length; i++) {
    const c = map ? inverse.get(rayClass[i]!) ?? 0 : rayClass[i]!;
    view.setUint32(4 * i, ((rayObject[i]! & 0xffff) << 16 | c) >>> 0, true);
  }
  return out;
}

export interface ThicketLabelFile {
  format: 'thicket-labels/1';
  rays: number;
  classes: LabelClass[];
  /** base64 of the u8 classes and the little-endian u32 objects, per ray. */
  rayClass: string;
  rayObject: string;
  entries: AnnotationEntry[];
}

export function writeThicketLabels(rayClass: Uint8Array, rayObject: Uint32Array, entries: readonly AnnotationEntry[], classes: readonly LabelClass[]): string {
  const obj = new Uint8Array(4 * rayObject.length);
  const view = new DataView(obj.buffer);
  rayObject.forEach((v, i) => view.setUint32(4 * i, v, true));
  const file: ThicketLabelFile = {
    format: 'thicket-labels/1', rays: rayClass.length, classes: [...classes],
    rayClass: Buffer.from(rayClass.buffer, rayClass.byteOffset, rayClass.byteLength).toString('base64'),
    rayObject: Buffer.from(obj).toString('base64'),
    entries: [...entries],
  };
  return JSON.stringify(file);
}

export function readThicketLabels(text: string, file: string): { rayClass: Uint8Array<ArrayBuffer>; rayObject: Uint32Array<ArrayBuffer>; entries: AnnotationEntry[] } {
  let f: Partial<ThicketLabelFile>;
  try {
    f = JSON.parse(text) as Partial<ThicketLabelFile>;
  } catch (e) {
    throw new ApiError('bad_input', `${file}: not valid JSON (${(e as Error).message})`);
  }
  if (f.format !== 'thicket-labels/1') throw new ApiError('bad_input', `${file}: not a Thicket label file (format "${String(f.format)}", expected "thicket-labels/1")`);
  if (!Number.isSafeInteger(f.rays) || f.rays! < 0) throw new ApiError('bad_input', `${file}: rays ${String(f.rays)} is not a count`);
  const cls = Buffer.from(String(f.rayClass ?? ''), 'base64'), obj = Buffer.from(String(f.rayObject ?? ''), 'base64');
  if (cls.length !== f.rays || obj.length !== 4 * f.rays!) throw new ApiError('bad_input', `${file}: ${cls.length} classes and ${obj.length / 4} objects for ${f.rays} rays`);
  const rayClass = new Uint8Array(cls), rayObject = new Uint32Array(f.rays!);
  const view = new DataView(obj.buffer, obj.byteOffset, obj.byteLength);
  for (let i = 0; i < f.rays!; i++) rayObject[i] = view.getUint32(4 * i, true);
  if (!Array.isArray(f.entries)) throw new ApiError('bad_input', `${file}: entries must be a list`);
  return { rayClass, rayObject, entries: f.entries };
}
