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

/**
 * A KITTI calibration file's velodyne → rectified camera transform: `Tr_velo_to_cam` (3 × 4) and
 * `R0_rect` (3 × 3, identity when absent), as 4 × 4 row-major: X_rect = R0 · Tr · X_velo.
 */
export function parseKittiCalibration(text: string, file: string): Float64Array {
  const rows = new Map<string, number[]>();
  text.split(/\r?\n/).forEach((line, i) => {
    const m = /^\s*([A-Za-z0-9_]+)\s*:\s*(.*)$/.exec(line);
    if (!m) return;
    const nums = m[2]!.trim().split(/\s+/).map(Number);
    if (nums.some((x) => !Number.isFinite(x))) throw new ApiError('bad_input', `${file}: line ${i + 1} (${m[1]}): not all numbers`);
    rows.set(m[1]!, nums);
  });
  const tr = rows.get('Tr_velo_to_cam') ?? rows.get('Tr_velo_cam');
  if (!tr || tr.length !== 12) throw new ApiError('bad_input', `${file}: no Tr_velo_to_cam line of 12 numbers (a KITTI object calibration file)`);
  const r0 = rows.get('R0_rect') ?? rows.get('R_rect') ?? [1, 0, 0, 0, 1, 0, 0, 0, 1];
  if (r0.length !== 9) throw new ApiError('bad_input', `${file}: R0_rect has ${r0.length} numbers, expected 9`);
  const out = new Float64Array(16);
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 4; j++) {
      let s = 0;
      for (let k = 0; k < 3; k++) s += r0[3 * i + k]! * tr[4 * k + j]!;
      out[4 * i + j] = s;
    }
  }
  out[15] = 1;
  return out;
}

/** The inverse of a rigid 4 × 4 (row-major) whose 3 × 3 part is a rotation (R0 · R is one). */
function invertRigid(m: Float64Array): Float64Array {
  const out = new Float64Array(16);
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) out[4 * i + j] = m[4 * j + i]!;
    out[4 * i + 3] = -(m[i]! * m[3]! + m[4 + i]! * m[7]! + m[8 + i]! * m[11]!);
  }
  out[15] = 1;
  return out;
}

const apply = (m: Float64Array, x: number, y: number, z: number, w = 1): [number, number, number] => [
  m[0]! * x + m[1]! * y + m[2]! * z + m[3]! * w,
  m[4]! * x + m[5]! * y + m[6]! * z + m[7]! * w,
  m[8]! * x + m[9]! * y + m[10]! * z + m[11]! * w,
];

const normName = (s: string) => s.trim().toLowerCase().replace(/[_-]+/g, ' ');

/**
 * KITTI object labels (`type truncated occluded alpha x1 y1 x2 y2 h w l x y z ry`, camera frame:
 * x y z the bottom centre, ry the rotation about the camera's y axis) as entries in the velodyne
 * frame. A type names a class of the list (case, `_` and `-` ignored: `Medium_shrub`); other types
 * (KITTI's Car, Pedestrian …) become objects of class 0; DontCare lines are skipped.
 */
export function readKittiObjects(text: string, veloToRect: Float64Array, classes: readonly LabelClass[], file: string): { entries: AnnotationEntry[]; unknownTypes: string[] } {
  const byName = new Map(classes.map((c) => [normName(c.name), c]));
  const toVelo = invertRigid(veloToRect);
  const entries: AnnotationEntry[] = [];
  const unknown = new Set<string>();
  text.split(/\r?\n/).forEach((line, i) => {
    const f = line.trim().split(/\s+/);
    if (f.length === 1 && f[0] === '') return;
    if (f.length < 15) throw new ApiError('bad_input', `${file}: line ${i + 1}: ${f.length} fields, a KITTI object label has 15 (type … h w l x y z ry)`);
    const type = f[0]!;
    if (type === 'DontCare') return;
    const v = f.slice(1, 15).map(Number);
    if (v.some((x) => !Number.isFinite(x))) throw new ApiError('bad_input', `${file}: line ${i + 1}: not all numbers after the type`);
    const [h, w, l, x, y, z, ry] = v.slice(7) as [number, number, number, number, number, number, number];
    if (!(h > 0 && w > 0 && l > 0)) throw new ApiError('bad_input', `${file}: line ${i + 1}: box dimensions ${h} ${w} ${l} must be positive`);
    const cls = byName.get(normName(type));
    if (!cls) unknown.add(type);
    // Bottom centre → centre (camera y points down), then both the centre and the heading (the
    // box's length axis, camera x rotated by ry about y) into the velodyne frame.
    const c = apply(toVelo, x, y - h / 2, z);
    const d = apply(toVelo, Math.cos(ry), 0, -Math.sin(ry), 0);
    const yaw = Math.atan2(d[1], d[0]);
    entries.push({
      id: entries.length + 1, class: cls?.id ?? 0, label: type,
      pose: [c[0], c[1], c[2], 0, 0, Math.sin(yaw / 2), Math.cos(yaw / 2)],
      box: { center: c, size: [l, w, h], yaw },
    });
  });
  return { entries, unknownTypes: [...unknown] };
}

/** Entries (velodyne frame) as KITTI object label lines; the type is the label, else the class name. */
export function writeKittiObjects(entries: readonly AnnotationEntry[], veloToRect: Float64Array, classes: readonly LabelClass[]): string {
  const names = new Map(classes.map((c) => [c.id, c.name]));
  const num = (v: number) => (Math.abs(v) < 5e-7 ? '0' : v.toFixed(6).replace(/\.?0+$/, ''));
  return entries.map((e) => {
    const type = (e.label || names.get(e.class) || 'unknown').replace(/\s+/g, '_');
    const [l, w, h] = e.box.size;
    const c = apply(veloToRect, e.box.center[0], e.box.center[1], e.box.center[2]);
    const d = apply(veloToRect, Math.cos(e.box.yaw), Math.sin(e.box.yaw), 0, 0);
    const ry = Math.atan2(-d[2], d[0]);
    // truncated 0, occluded 0, alpha −10 and an empty 2-D box: Thicket knows no image.
    return [type, '0', '0', '-10', '0', '0', '0', '0', num(h), num(w), num(l), num(c[0]), num(c[1] + h / 2), num(c[2]), num(ry)].join(' ');
  }).join('\n') + (entries.length ? '\n' : '');
}
