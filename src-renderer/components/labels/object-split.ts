/**
 * Splitting an object and selecting inside a box (docs/labeling.md, "The Label page"):
 * Euclidean clustering of an object's points (two points are in one cluster when a chain of
 * points less than the tolerance apart joins them; a hash grid of tolerance-sized cells finds
 * the neighbours), the half of an object past the middle of its box's long axis, and the points
 * inside an oriented box. Positions are the cloud's (relative to its origin); boxes are in the
 * world frame, as annotation entries store them.
 */
import type { BoxValues } from './label-edits';
import { projectPoint, type Point2, type ScreenView } from '../../../src-common/label-selection';

/** The points of one object. */
export function objectIndices(instances: Uint32Array, id: number): Uint32Array {
  let n = 0;
  for (let i = 0; i < instances.length; i++) if (instances[i] === id) n++;
  const out = new Uint32Array(n);
  for (let i = 0, k = 0; i < instances.length; i++) if (instances[i] === id) out[k++] = i;
  return out;
}

/** Cluster of each of the points `indices` (0 = the largest, then by size), and how many clusters. */
export function euclideanClusters(positions: Float32Array, indices: Uint32Array, tolerance: number): { cluster: Uint32Array; count: number } {
  const m = indices.length;
  const parent = new Int32Array(m);
  for (let j = 0; j < m; j++) parent[j] = j;
  const find = (j: number): number => {
    while (parent[j] !== j) {
      parent[j] = parent[parent[j]!]!;
      j = parent[j]!;
    }
    return j;
  };
  const cell = Math.max(tolerance, 1e-3);
  const grid = new Map<number, number[]>();
  // A cell's number: 2^17 cells a side (6.5 km at 5 cm) fits a double exactly.
  const M = 131072;
  const H = M / 2;
  const key = (a: number, b: number, c: number) => ((((a + H) & (M - 1)) * M + ((b + H) & (M - 1))) * M) + ((c + H) & (M - 1));
  const cx = new Int32Array(m), cy = new Int32Array(m), cz = new Int32Array(m);
  for (let j = 0; j < m; j++) {
    const i = indices[j]! * 3;
    cx[j] = Math.floor(positions[i]! / cell);
    cy[j] = Math.floor(positions[i + 1]! / cell);
    cz[j] = Math.floor(positions[i + 2]! / cell);
    const k = key(cx[j]!, cy[j]!, cz[j]!);
    const list = grid.get(k);
    if (list) list.push(j);
    else grid.set(k, [j]);
  }
  const t2 = tolerance * tolerance;
  // Cell by cell: its 27 neighbours are looked up once for all its points.
  const near: number[][] = [];
  for (const list of grid.values()) {
    const j0 = list[0]!;
    near.length = 0;
    for (let a = -1; a <= 1; a++) for (let b = -1; b <= 1; b++) for (let c = -1; c <= 1; c++) {
      const other = grid.get(key(cx[j0]! + a, cy[j0]! + b, cz[j0]! + c));
      if (other) near.push(other);
    }
    for (const j of list) {
      const i = indices[j]! * 3;
      const x = positions[i]!, y = positions[i + 1]!, z = positions[i + 2]!;
      for (const other of near) {
        for (const q of other) {
          if (q <= j) continue;
          const p = indices[q]! * 3;
          const dx = positions[p]! - x, dy = positions[p + 1]! - y, dz = positions[p + 2]! - z;
          if (dx * dx + dy * dy + dz * dz > t2) continue;
          const ra = find(j), rb = find(q);
          if (ra !== rb) parent[ra > rb ? ra : rb] = ra > rb ? rb : ra;
        }
      }
    }
  }
  // Number the clusters by size, largest first (ties: the one met first).
  const size = new Map<number, number>();
  for (let j = 0; j < m; j++) {
    const r = find(j);
    size.set(r, (size.get(r) ?? 0) + 1);
  }
  const order = [...size.keys()].sort((a, b) => size.get(b)! - size.get(a)! || a - b);
  const rank = new Map(order.map((r, k) => [r, k]));
  const cluster = new Uint32Array(m);
  for (let j = 0; j < m; j++) cluster[j] = rank.get(find(j))!;
  return { cluster, count: order.length };
}

/** Which of the points `indices` lie past the middle of the box's long axis (1) or before it (0). */
export function halfAlongLength(positions: Float32Array, origin: readonly [number, number, number], indices: Uint32Array, box: BoxValues): Uint8Array {
  const c = Math.cos(box.yaw), s = Math.sin(box.yaw);
  const ox = box.center[0] - origin[0], oy = box.center[1] - origin[1];
  const out = new Uint8Array(indices.length);
  for (let j = 0; j < indices.length; j++) {
    const i = indices[j]! * 3;
    out[j] = (positions[i]! - ox) * c + (positions[i + 1]! - oy) * s > 0 ? 1 : 0;
  }
  return out;
}

/**
 * Which of the points `indices` project to the left (1) of the screen line a → b, or to its right
 * or behind the camera (0): the side of the plane through the camera and the line.
 */
export function sideOfScreenLine(positions: Float32Array, indices: Uint32Array, view: ScreenView, a: Point2, b: Point2): Uint8Array {
  const out = new Uint8Array(indices.length);
  const ex = b[0] - a[0], ey = b[1] - a[1];
  for (let j = 0; j < indices.length; j++) {
    const p = projectPoint(positions, indices[j]!, view);
    if (p && ex * (p.y - a[1]) - ey * (p.x - a[0]) < 0) out[j] = 1;
  }
  return out;
}

/** Mark (1) in `out` the points of `range` inside an oriented box (and allowed, when `allow` is given). */
export function boxSelect(positions: Float32Array, origin: readonly [number, number, number], box: BoxValues, range: readonly [number, number], out: Uint8Array, allow?: Uint8Array): Uint8Array {
  const c = Math.cos(box.yaw), s = Math.sin(box.yaw);
  const ox = box.center[0] - origin[0], oy = box.center[1] - origin[1], oz = box.center[2] - origin[2];
  const hl = box.size[0] / 2, hw = box.size[1] / 2, hh = box.size[2] / 2;
  for (let i = range[0]; i < range[1]; i++) {
    if (allow && !allow[i]) continue;
    const dx = positions[i * 3]! - ox, dy = positions[i * 3 + 1]! - oy, dz = positions[i * 3 + 2]! - oz;
    if (Math.abs(dz) > hh) continue;
    if (Math.abs(dx * c + dy * s) > hl || Math.abs(-dx * s + dy * c) > hw) continue;
    out[i] = 1;
  }
  return out;
}
