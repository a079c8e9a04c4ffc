/**
 * A run's decimated point cloud drawn top-down into an RGBA buffer the size of the panel.
 *
 * Why not the Babylon viewport: four panels would need four WebGL contexts (software-rendered in
 * many field laptops' VMs and in headless tests), each a few hundred ms to start and tens of MB,
 * and a 3D camera per panel could not share the costmap's exact top-down framing. Writing pixels
 * of ≤ 200 k points per panel costs about a millisecond, and the points land exactly on the
 * costmap cells they raised. Points are drawn lowest first, so what shows is the top surface as
 * seen from above (a tree crown over the grass under it).
 */
import { classColor, turbo } from '../../../src-common/colormaps';
import { type PanelView, pxPerMetre } from './panel-view';

export type PointsMode = 'off' | 'scan' | 'all';
export type PointColouring = 'class' | 'height';

/** Heights above the lowest point are coloured over [0, HEIGHT_RANGE_M] (turbo). */
export const HEIGHT_RANGE_M = 3;

/** Point indices by ascending z. */
export function zOrder(xyz: Float32Array): Uint32Array {
  const n = Math.floor(xyz.length / 3);
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const z = new Float32Array(n);
  for (let i = 0; i < n; i++) z[i] = xyz[3 * i + 2]!;
  return order.sort((a, b) => z[a]! - z[b]!);
}

/**
 * Each point's height above the lowest point of the cloud in its `cellM` square: a stand-in for
 * height above the ground (the ground's own returns are the lowest ones), without the scene.
 */
export function heightAboveLowest(xyz: Float32Array, cellM = 1): Float32Array {
  const n = Math.floor(xyz.length / 3);
  // (ix, iy) packed exactly into one double (|ix|, |iy| < 2^25 cells: ±33 000 km at 1 m).
  const key = (i: number) => (Math.floor(xyz[3 * i]! / cellM) + 2 ** 25) * 2 ** 26 + (Math.floor(xyz[3 * i + 1]! / cellM) + 2 ** 25);
  const lowest = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const k = key(i), z = xyz[3 * i + 2]!;
    const m = lowest.get(k);
    if (m === undefined || z < m) lowest.set(k, z);
  }
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = xyz[3 * i + 2]! - lowest.get(key(i))!;
  return out;
}

/** RGB bytes per point: by ground-truth class, or by height above the lowest nearby point. */
export function pointColours(xyz: Float32Array, classId: Uint8Array, by: PointColouring): Uint8Array {
  const n = Math.floor(xyz.length / 3);
  const out = new Uint8Array(3 * n);
  if (by === 'class') {
    const table = new Uint8Array(256 * 3);
    for (let c = 0; c < 256; c++) table.set(classColor(c).map((v) => Math.round(255 * v)), 3 * c);
    for (let i = 0; i < n; i++) out.set(table.subarray(3 * classId[i]!, 3 * classId[i]! + 3), 3 * i);
    return out;
  }
  const h = heightAboveLowest(xyz);
  for (let i = 0; i < n; i++) out.set(turbo(h[i]! / HEIGHT_RANGE_M).map((v) => Math.round(255 * v)), 3 * i);
  return out;
}

/** The scans whose points show after `frames` scans: the last one, all so far, or none. */
export function frameWindow(mode: PointsMode, frames: number): [number, number] {
  if (mode === 'off' || frames <= 0) return [0, 0];
  return mode === 'scan' ? [frames - 1, frames] : [0, frames];
}

/**
 * Writes the points of scans [from, to) into `out` (w × h RGBA, cleared first) as dot × dot
 * squares; returns how many were drawn (inside the panel).
 */
export function rasterPoints(
  out: Uint8ClampedArray,
  w: number,
  h: number,
  view: PanelView,
  cloud: { xyz: Float32Array; frame: Uint32Array },
  order: Uint32Array,
  rgb: Uint8Array,
  [from, to]: [number, number],
  dot = 2,
): number {
  out.fill(0);
  if (to <= from) return 0;
  const s = pxPerMetre(view, w, h), ox = w / 2 - view.cx * s, oy = h / 2 + view.cy * s;
  const half = Math.floor(dot / 2);
  let drawn = 0;
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    const f = cloud.frame[i]!;
    if (f < from || f >= to) continue;
    const px = Math.floor(ox + cloud.xyz[3 * i]! * s) - half, py = Math.floor(oy - cloud.xyz[3 * i + 1]! * s) - half;
    if (px + dot <= 0 || py + dot <= 0 || px >= w || py >= h) continue;
    drawn++;
    const r = rgb[3 * i]!, g = rgb[3 * i + 1]!, b = rgb[3 * i + 2]!;
    for (let y = Math.max(0, py); y < Math.min(h, py + dot); y++) {
      for (let x = Math.max(0, px); x < Math.min(w, px + dot); x++) {
        const o = 4 * (y * w + x);
        out[o] = r;
        out[o + 1] = g;
        out[o + 2] = b;
        out[o + 3] = 255;
      }
    }
  }
  return drawn;
}
