/**
 * The 3D box tool's handles and what dragging them does to the box (docs/labeling.md, *The 3D box
 * tool*). A box is a centre, a length along its yaw, a width across it, a height, and a yaw about
 * the vertical (object-boxes.ts). Its handles: one on each of the six faces, which moves that face
 * along the box's own axis while the opposite face stays put; one at the centre, which moves the
 * box on the horizontal plane through its centre; and one beyond the +length face at the top,
 * which turns the box about its vertical axis.
 *
 * A drag is exact under perspective: the pointer is turned back into a ray through the camera
 * (the inverse of the view × projection of selection's ScreenView), and a face moves by the
 * change in the point of its axis nearest that ray; the centre and the yaw follow the ray's
 * crossing of a horizontal plane. Everything is in world x, y, z (z up); `origin` is the cloud's
 * (positions relative to it are what the view projects).
 */
import type { Point2, ScreenView } from '../../../src-common/label-selection';
import type { BoxValues } from './label-edits';

export type HandleId = 'centre' | 'rotate' | '+l' | '-l' | '+w' | '-w' | '+h' | '-h';
export const HANDLES: readonly HandleId[] = ['centre', 'rotate', '+l', '-l', '+w', '-w', '+h', '-h'];

type V3 = [number, number, number];
/** Smallest side a drag leaves a box (m). */
export const MIN_SIDE = 0.05;

/** Unit vector of a face handle's axis, pointing out of the box. */
function faceAxis(box: BoxValues, h: HandleId): V3 {
  const c = Math.cos(box.yaw), s = Math.sin(box.yaw);
  const sign = h[0] === '-' ? -1 : 1;
  if (h.endsWith('l')) return [sign * c, sign * s, 0];
  if (h.endsWith('w')) return [-sign * s, sign * c, 0];
  return [0, 0, sign];
}
const SIDE: Record<string, 0 | 1 | 2> = { l: 0, w: 1, h: 2 };

/** How far beyond the +length face the rotation handle sits (m). */
const rotateReach = (box: BoxValues) => Math.max(0.5, 0.3 * Math.max(box.size[0], box.size[1]));

/** Where each handle is, world x, y, z. */
export function handlePositions(box: BoxValues): Record<HandleId, V3> {
  const [cx, cy, cz] = box.center;
  const out = { centre: [cx, cy, cz] } as Record<HandleId, V3>;
  for (const h of HANDLES) {
    if (h === 'centre' || h === 'rotate') continue;
    const a = faceAxis(box, h), half = box.size[SIDE[h[1]!]!] / 2;
    out[h] = [cx + a[0] * half, cy + a[1] * half, cz + a[2] * half];
  }
  const reach = box.size[0] / 2 + rotateReach(box);
  out.rotate = [cx + Math.cos(box.yaw) * reach, cy + Math.sin(box.yaw) * reach, cz + box.size[2] / 2];
  return out;
}

/** Screen position (CSS px) of a world point, or null behind the camera. */
export function projectWorld(p: readonly number[], view: ScreenView, origin: readonly number[]): Point2 | null {
  const m = view.matrix;
  // World → relative to the cloud's origin → the view's re-centred Babylon frame (x, z, y).
  const bx = p[0]! - origin[0]! - view.centre[0], by = p[2]! - origin[2]! - view.centre[2], bz = p[1]! - origin[1]! - view.centre[1];
  const w = bx * m[3]! + by * m[7]! + bz * m[11]! + m[15]!;
  if (w <= 1e-9) return null;
  return [((bx * m[0]! + by * m[4]! + bz * m[8]! + m[12]!) / w + 1) * (view.width / 2), (1 - (bx * m[1]! + by * m[5]! + bz * m[9]! + m[13]!) / w) * (view.height / 2)];
}

/** Inverse of a 4 × 4 matrix (Gauss–Jordan with partial pivoting); null when singular. */
export function invert4(m: ArrayLike<number>): Float64Array | null {
  const a = Float64Array.from({ length: 16 }, (_, i) => m[i]!);
  const inv = Float64Array.from({ length: 16 }, (_, i) => (i % 5 === 0 ? 1 : 0));
  for (let c = 0; c < 4; c++) {
    let p = c;
    for (let r = c + 1; r < 4; r++) if (Math.abs(a[r * 4 + c]!) > Math.abs(a[p * 4 + c]!)) p = r;
    if (Math.abs(a[p * 4 + c]!) < 1e-300) return null;
    if (p !== c) {
      for (let k = 0; k < 4; k++) {
        [a[c * 4 + k], a[p * 4 + k]] = [a[p * 4 + k]!, a[c * 4 + k]!];
        [inv[c * 4 + k], inv[p * 4 + k]] = [inv[p * 4 + k]!, inv[c * 4 + k]!];
      }
    }
    const d = a[c * 4 + c]!;
    for (let k = 0; k < 4; k++) { a[c * 4 + k]! /= d; inv[c * 4 + k]! /= d; }
    for (let r = 0; r < 4; r++) {
      if (r === c) continue;
      const f = a[r * 4 + c]!;
      if (f === 0) continue;
      for (let k = 0; k < 4; k++) { a[r * 4 + k]! -= f * a[c * 4 + k]!; inv[r * 4 + k]! -= f * inv[c * 4 + k]!; }
    }
  }
  return inv;
}

/** The ray under a screen point, world frame: origin on the near plane and a unit direction into the scene. */
export function pointerRay(view: ScreenView, origin: readonly number[], x: number, y: number): { o: V3; d: V3 } | null {
  const inv = invert4(view.matrix);
  if (!inv) return null;
  const nx = (2 * x) / view.width - 1, ny = 1 - (2 * y) / view.height;
  // Row vectors: [x y z 1] · M = clip, so clip · M⁻¹ = the Babylon-frame point.
  const at = (nz: number): V3 | null => {
    const v = [nx, ny, nz, 1];
    const r = [0, 1, 2, 3].map((j) => v[0]! * inv[j]! + v[1]! * inv[4 + j]! + v[2]! * inv[8 + j]! + v[3]! * inv[12 + j]!);
    if (Math.abs(r[3]!) < 1e-300) return null;
    const [bx, by, bz] = [r[0]! / r[3]!, r[1]! / r[3]!, r[2]! / r[3]!];
    return [bx + view.centre[0] + origin[0]!, bz + view.centre[1] + origin[1]!, by + view.centre[2] + origin[2]!];
  };
  const near = at(-1), far = at(1);
  if (!near || !far) return null;
  const d: V3 = [far[0] - near[0], far[1] - near[1], far[2] - near[2]];
  const len = Math.hypot(...d);
  if (!(len > 0)) return null;
  return { o: near, d: [d[0] / len, d[1] / len, d[2] / len] };
}

/** Where a ray crosses the horizontal plane z = h; null when it runs along it. */
function onPlane(ray: { o: V3; d: V3 }, h: number): [number, number] | null {
  if (Math.abs(ray.d[2]) < 1e-9) return null;
  const t = (h - ray.o[2]) / ray.d[2];
  return [ray.o[0] + t * ray.d[0], ray.o[1] + t * ray.d[1]];
}

/** Parameter along the line p + t·a (a unit) of its point nearest the ray; null when they are parallel. */
function alongAxis(ray: { o: V3; d: V3 }, p: V3, a: V3): number | null {
  const w = [ray.o[0] - p[0], ray.o[1] - p[1], ray.o[2] - p[2]];
  const b = a[0] * ray.d[0] + a[1] * ray.d[1] + a[2] * ray.d[2];
  const den = 1 - b * b;
  if (den < 1e-6) return null;
  const aw = a[0] * w[0]! + a[1] * w[1]! + a[2] * w[2]!;
  const dw = ray.d[0] * w[0]! + ray.d[1] * w[1]! + ray.d[2] * w[2]!;
  return (aw - b * dw) / den;
}

/**
 * The handle under a screen point (within `radius` px), nearest first; null when none. Face
 * handles that land within two radii of the centre handle on the screen (the top and bottom ones
 * in a view from above) are left out, so the centre is always the one taken there.
 */
export function pickHandle(box: BoxValues, view: ScreenView, origin: readonly number[], x: number, y: number, radius = 10): HandleId | null {
  const shown = visibleHandles(box, view, origin);
  let best: HandleId | null = null, bestD = radius;
  for (const [h, p] of shown) {
    const d = Math.hypot(p[0] - x, p[1] - y);
    if (d <= bestD) [best, bestD] = [h, d];
  }
  return best;
}

/** The handles to draw and pick, with their screen positions (see pickHandle for which are left out). */
export function visibleHandles(box: BoxValues, view: ScreenView, origin: readonly number[], radius = 10): [HandleId, Point2][] {
  const pos = handlePositions(box);
  const c = projectWorld(pos.centre, view, origin);
  const out: [HandleId, Point2][] = [];
  for (const h of HANDLES) {
    const p = projectWorld(pos[h], view, origin);
    if (!p) continue;
    if (h !== 'centre' && c && Math.hypot(p[0] - c[0], p[1] - c[1]) < 2 * radius) continue;
    out.push([h, p]);
  }
  return out;
}

/** The box after dragging handle `h` from screen point `from` to `to` (a new object; the input is unchanged). */
export function dragBox(box: BoxValues, h: HandleId, view: ScreenView, origin: readonly number[], from: Point2, to: Point2): BoxValues {
  const out: BoxValues = { center: [...box.center], size: [...box.size], yaw: box.yaw };
  const r0 = pointerRay(view, origin, from[0], from[1]), r1 = pointerRay(view, origin, to[0], to[1]);
  if (!r0 || !r1) return out;
  if (h === 'centre' || h === 'rotate') {
    const z = h === 'centre' ? box.center[2] : box.center[2] + box.size[2] / 2;
    const g0 = onPlane(r0, z), g1 = onPlane(r1, z);
    if (!g0 || !g1) return out;
    if (h === 'centre') {
      out.center[0] += g1[0] - g0[0];
      out.center[1] += g1[1] - g0[1];
    } else {
      const [cx, cy] = box.center;
      out.yaw = wrapAngle(box.yaw + Math.atan2(g1[1] - cy, g1[0] - cx) - Math.atan2(g0[1] - cy, g0[0] - cx));
    }
    return out;
  }
  const a = faceAxis(box, h), k = SIDE[h[1]!]!;
  const face = handlePositions(box)[h];
  const t0 = alongAxis(r0, face, a), t1 = alongAxis(r1, face, a);
  if (t0 === null || t1 === null) return out;
  const side = Math.max(MIN_SIDE, box.size[k] + (t1 - t0));
  const grow = side - box.size[k];
  out.size[k] = side;
  // The opposite face stays: the centre moves half the growth outwards.
  for (let j = 0; j < 3; j++) out.center[j]! += (a[j]! * grow) / 2;
  return out;
}

/** An angle in (−π, π]. */
export function wrapAngle(a: number): number {
  const t = a - 2 * Math.PI * Math.floor((a + Math.PI) / (2 * Math.PI));
  return t === -Math.PI ? Math.PI : t;
}

/** The box the tool starts from without an object: around the given points (world), or `size` about `centre`. */
export function boxAround(points: Float32Array, indices: ArrayLike<number>, origin: readonly number[]): BoxValues | null {
  if (indices.length === 0) return null;
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let k = 0; k < indices.length; k++) {
    const i = indices[k]!;
    for (let j = 0; j < 3; j++) {
      const v = points[i * 3 + j]!;
      if (v < lo[j]!) lo[j] = v;
      if (v > hi[j]!) hi[j] = v;
    }
  }
  return {
    center: [0, 1, 2].map((j) => origin[j]! + (lo[j]! + hi[j]!) / 2) as V3,
    size: [0, 1, 2].map((j) => Math.max(MIN_SIDE, hi[j]! - lo[j]!)) as V3,
    yaw: 0,
  };
}
