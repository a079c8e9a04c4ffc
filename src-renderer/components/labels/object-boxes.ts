/**
 * The objects (instances) of a labelled cloud and their oriented boxes, fitted from their points:
 * the yaw is the principal axis of the points' x-y spread (PCA of the 2 × 2 covariance), the box
 * spans the points along that axis, across it and in z. Boxes are in the world frame (the cloud's
 * positions plus its origin), as annotation entries store them (src-main/api/contract.ts).
 */
import type { AnnotationEntry } from '../../../src-main/api/contract';

export interface ObjectBox {
  id: number;
  /** The class most of its points have. */
  class: number;
  points: number;
  center: [number, number, number];
  /** Length along yaw, width across, height (m). */
  size: [number, number, number];
  yaw: number;
}

interface Acc {
  n: number;
  sx: number;
  sy: number;
  sxx: number;
  sxy: number;
  syy: number;
  zmin: number;
  zmax: number;
  classes: Map<number, number>;
  yaw: number;
  cx: number;
  cy: number;
  umin: number;
  umax: number;
  vmin: number;
  vmax: number;
}

/** Yaw (rad, counter-clockwise from +x, in (−π/2, π/2]) of the principal axis of an x-y covariance. */
export function principalYaw(cxx: number, cxy: number, cyy: number): number {
  if (Math.abs(cxy) < 1e-12 && Math.abs(cxx - cyy) < 1e-12) return 0;
  return 0.5 * Math.atan2(2 * cxy, cxx - cyy);
}

/** Every object's box (ids ascending); `only` restricts the fit to those ids. */
export function fitObjectBoxes(positions: Float32Array, origin: readonly [number, number, number], classes: Uint8Array, instances: Uint32Array, only?: ReadonlySet<number>): ObjectBox[] {
  const accs = new Map<number, Acc>();
  const n = instances.length;
  for (let i = 0; i < n; i++) {
    const id = instances[i]!;
    if (id === 0 || (only && !only.has(id))) continue;
    let a = accs.get(id);
    if (!a) {
      a = { n: 0, sx: 0, sy: 0, sxx: 0, sxy: 0, syy: 0, zmin: Infinity, zmax: -Infinity, classes: new Map(), yaw: 0, cx: 0, cy: 0, umin: Infinity, umax: -Infinity, vmin: Infinity, vmax: -Infinity };
      accs.set(id, a);
    }
    const x = positions[i * 3]!;
    const y = positions[i * 3 + 1]!;
    const z = positions[i * 3 + 2]!;
    a.n++;
    a.sx += x;
    a.sy += y;
    a.sxx += x * x;
    a.sxy += x * y;
    a.syy += y * y;
    if (z < a.zmin) a.zmin = z;
    if (z > a.zmax) a.zmax = z;
    const c = classes[i]!;
    a.classes.set(c, (a.classes.get(c) ?? 0) + 1);
  }
  for (const a of accs.values()) {
    a.cx = a.sx / a.n;
    a.cy = a.sy / a.n;
    a.yaw = principalYaw(a.sxx / a.n - a.cx * a.cx, a.sxy / a.n - a.cx * a.cy, a.syy / a.n - a.cy * a.cy);
  }
  // Second pass: extents along the principal axis (u) and across it (v).
  const trig = new Map([...accs].map(([id, a]) => [id, [Math.cos(a.yaw), Math.sin(a.yaw)] as const]));
  for (let i = 0; i < n; i++) {
    const id = instances[i]!;
    const a = id === 0 ? undefined : accs.get(id);
    if (!a) continue;
    const [c, s] = trig.get(id)!;
    const dx = positions[i * 3]! - a.cx;
    const dy = positions[i * 3 + 1]! - a.cy;
    const u = dx * c + dy * s;
    const v = -dx * s + dy * c;
    if (u < a.umin) a.umin = u;
    if (u > a.umax) a.umax = u;
    if (v < a.vmin) a.vmin = v;
    if (v > a.vmax) a.vmax = v;
  }
  const out: ObjectBox[] = [];
  for (const [id, a] of [...accs].sort((p, q) => p[0] - q[0])) {
    const [c, s] = trig.get(id)!;
    const um = (a.umin + a.umax) / 2;
    const vm = (a.vmin + a.vmax) / 2;
    let cls = 0;
    let best = -1;
    for (const [k, v] of a.classes) if (v > best || (v === best && k < cls)) [cls, best] = [k, v];
    out.push({
      id,
      class: cls,
      points: a.n,
      center: [origin[0] + a.cx + um * c - vm * s, origin[1] + a.cy + um * s + vm * c, origin[2] + (a.zmin + a.zmax) / 2],
      size: [a.umax - a.umin, a.vmax - a.vmin, a.zmax - a.zmin],
      yaw: a.yaw,
    });
  }
  return out;
}

/** An object as an annotation entry (the box's pose: centre and a yaw quaternion). */
export function toEntry(box: ObjectBox, className: string): AnnotationEntry {
  const h = box.yaw / 2;
  return {
    id: box.id,
    class: box.class,
    label: className,
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
