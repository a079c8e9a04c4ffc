/**
 * The objects (instances) of a labelled cloud and their oriented boxes, fitted from their points:
 * the yaw is the principal axis of the points' x-y spread (PCA of the 2 × 2 covariance), the box
 * spans the points along that axis, across it and in z. Boxes are in the world frame (the cloud's
 * positions plus its origin), as annotation entries store them (src-main/api/contract.ts).
 */
import type { AnnotationEntry } from '../../../src-main/api/contract';
import type { BoxValues, ObjectMeta } from './label-edits';

export interface ObjectBox {
  id: number;
  /** The class most of its points have. */
  class: number;
  points: number;
  center: [number, number, number];
  /** Length along yaw, width across, height (m). */
  size: [number, number, number];
  yaw: number;
  /** A shrub patch (several shrubs as one object). */
  patch?: boolean;
  /** The box was set by hand (not fitted from the points). */
  edited?: boolean;
}

/** Yaw (rad, counter-clockwise from +x, in (−π/2, π/2]) of the principal axis of an x-y covariance. */
export function principalYaw(cxx: number, cxy: number, cyy: number): number {
  if (Math.abs(cxy) < 1e-12 && Math.abs(cxx - cyy) < 1e-12) return 0;
  return 0.5 * Math.atan2(2 * cxy, cxx - cyy);
}

/** Object id → dense slot (−1: not an object, or not one asked for), over typed arrays where the ids allow. */
function slotsOf(instances: Uint32Array, only?: ReadonlySet<number>): { slot: (id: number) => number; ids: number[] } {
  let max = 0;
  for (let i = 0; i < instances.length; i++) if (instances[i]! > max) max = instances[i]!;
  const ids: number[] = [];
  if (max <= 4_000_000) {
    const table = new Int32Array(max + 1).fill(-2);
    table[0] = -1;
    const slot = (id: number) => {
      let s = table[id]!;
      if (s === -2) {
        s = only && !only.has(id) ? -1 : ids.push(id) - 1;
        table[id] = s;
      }
      return s;
    };
    return { slot, ids };
  }
  const map = new Map<number, number>([[0, -1]]);
  const slot = (id: number) => {
    let s = map.get(id);
    if (s === undefined) {
      s = only && !only.has(id) ? -1 : ids.push(id) - 1;
      map.set(id, s);
    }
    return s;
  };
  return { slot, ids };
}

/** Every object's box (ids ascending); `only` restricts the fit to those ids. */
export function fitObjectBoxes(positions: Float32Array, origin: readonly [number, number, number], classes: Uint8Array, instances: Uint32Array, only?: ReadonlySet<number>): ObjectBox[] {
  const n = instances.length;
  const { slot, ids } = slotsOf(instances, only);
  const slotOf = new Int32Array(n);
  for (let i = 0; i < n; i++) slotOf[i] = slot(instances[i]!);
  const m = ids.length;
  const cnt = new Float64Array(m), sx = new Float64Array(m), sy = new Float64Array(m), sxx = new Float64Array(m), sxy = new Float64Array(m), syy = new Float64Array(m);
  const zmin = new Float64Array(m).fill(Infinity), zmax = new Float64Array(m).fill(-Infinity);
  // Points per (object, class), dense while small enough, for each object's majority class.
  const dense = m * 256 <= 4_000_000 ? new Uint32Array(m * 256) : null;
  const sparse = dense ? null : new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const k = slotOf[i]!;
    if (k < 0) continue;
    const x = positions[i * 3]!;
    const y = positions[i * 3 + 1]!;
    const z = positions[i * 3 + 2]!;
    cnt[k]!++;
    sx[k]! += x;
    sy[k]! += y;
    sxx[k]! += x * x;
    sxy[k]! += x * y;
    syy[k]! += y * y;
    if (z < zmin[k]!) zmin[k] = z;
    if (z > zmax[k]!) zmax[k] = z;
    const key = k * 256 + classes[i]!;
    if (dense) dense[key]!++;
    else sparse!.set(key, (sparse!.get(key) ?? 0) + 1);
  }
  const cx = new Float64Array(m), cy = new Float64Array(m), cos = new Float64Array(m), sin = new Float64Array(m), yaw = new Float64Array(m);
  for (let k = 0; k < m; k++) {
    cx[k] = sx[k]! / cnt[k]!;
    cy[k] = sy[k]! / cnt[k]!;
    yaw[k] = principalYaw(sxx[k]! / cnt[k]! - cx[k]! * cx[k]!, sxy[k]! / cnt[k]! - cx[k]! * cy[k]!, syy[k]! / cnt[k]! - cy[k]! * cy[k]!);
    cos[k] = Math.cos(yaw[k]!);
    sin[k] = Math.sin(yaw[k]!);
  }
  // Second pass: extents along the principal axis (u) and across it (v).
  const umin = new Float64Array(m).fill(Infinity), umax = new Float64Array(m).fill(-Infinity);
  const vmin = new Float64Array(m).fill(Infinity), vmax = new Float64Array(m).fill(-Infinity);
  for (let i = 0; i < n; i++) {
    const k = slotOf[i]!;
    if (k < 0) continue;
    const dx = positions[i * 3]! - cx[k]!;
    const dy = positions[i * 3 + 1]! - cy[k]!;
    const u = dx * cos[k]! + dy * sin[k]!;
    const v = -dx * sin[k]! + dy * cos[k]!;
    if (u < umin[k]!) umin[k] = u;
    if (u > umax[k]!) umax[k] = u;
    if (v < vmin[k]!) vmin[k] = v;
    if (v > vmax[k]!) vmax[k] = v;
  }
  const out: ObjectBox[] = [];
  for (let k = 0; k < m; k++) {
    let cls = 0;
    let best = -1;
    for (let c = 0; c < 256; c++) {
      const v = dense ? dense[k * 256 + c]! : (sparse!.get(k * 256 + c) ?? 0);
      if (v > best) [cls, best] = [c, v];
    }
    const um = (umin[k]! + umax[k]!) / 2;
    const vm = (vmin[k]! + vmax[k]!) / 2;
    const c = cos[k]!;
    const s = sin[k]!;
    out.push({
      id: ids[k]!,
      class: cls,
      points: cnt[k]!,
      center: [origin[0] + cx[k]! + um * c - vm * s, origin[1] + cy[k]! + um * s + vm * c, origin[2] + (zmin[k]! + zmax[k]!) / 2],
      size: [umax[k]! - umin[k]!, vmax[k]! - vmin[k]!, zmax[k]! - zmin[k]!],
      yaw: yaw[k]!,
    });
  }
  return out.sort((a, b) => a.id - b.id);
}

/** The fitted boxes with the objects' attributes: patch flags, and boxes set by hand in place of the fitted ones. */
export function withMeta(boxes: ObjectBox[], objects: ReadonlyMap<number, ObjectMeta>): ObjectBox[] {
  if (objects.size === 0) return boxes;
  return boxes.map((b) => {
    const m = objects.get(b.id);
    if (!m) return b;
    const out: ObjectBox = { ...b };
    if (m.patch) out.patch = true;
    if (m.box) Object.assign(out, { center: [...m.box.center], size: [...m.box.size], yaw: m.box.yaw, edited: true });
    return out;
  });
}

/** The attributes a saved version's entries carry over the fitted boxes: patch flags, and boxes set by hand (`boxSet`). */
export function metaFromEntries(entries: readonly AnnotationEntry[]): Map<number, ObjectMeta> {
  const out = new Map<number, ObjectMeta>();
  for (const e of entries) {
    const m: ObjectMeta = {};
    if (e.patch) m.patch = true;
    if (e.boxSet && e.box) m.box = { center: [...e.box.center], size: [...e.box.size], yaw: e.box.yaw };
    if (m.patch || m.box) out.set(e.id, m);
  }
  return out;
}

/** A box's centre, size and yaw alone. */
export function boxValues(b: Pick<ObjectBox, 'center' | 'size' | 'yaw'>): BoxValues {
  return { center: [...b.center], size: [...b.size], yaw: b.yaw };
}

/** An object as an annotation entry (the box's pose: centre and a yaw quaternion). */
export function toEntry(box: ObjectBox, className: string): AnnotationEntry {
  const h = box.yaw / 2;
  return {
    id: box.id,
    class: box.class,
    label: className,
    ...(box.patch ? { patch: true } : {}),
    ...(box.edited ? { boxSet: true } : {}),
    pose: [box.center[0], box.center[1], box.center[2], 0, 0, Math.sin(h), Math.cos(h)],
    box: { center: [...box.center], size: [...box.size], yaw: box.yaw },
  };
}

/** The 8 corners of a box (world x, y, z), bottom four then top four, counter-clockwise. */
export function boxCorners(box: Pick<ObjectBox, 'center' | 'size' | 'yaw'>): [number, number, number][] {
  const [cx, cy, cz] = box.center;
  const [l, w, h] = box.size;
  const c = Math.cos(box.yaw);
  const s = Math.sin(box.yaw);
  const out: [number, number, number][] = [];
  for (const z of [cz - h / 2, cz + h / 2]) {
    for (const [u, v] of [[-l / 2, -w / 2], [l / 2, -w / 2], [l / 2, w / 2], [-l / 2, w / 2]] as const) {
      out.push([cx + u * c - v * s, cy + u * s + v * c, z]);
    }
  }
  return out;
}
