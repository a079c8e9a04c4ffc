/**
 * Ground truth for a study's metrics, from the scene's annotation (class, pose, oriented box per
 * object: src-worker/site/reference-annotations.ts) or, for a scene without one, from its
 * instances' boxes (objectsFromInstances).
 *
 * Solid obstacles — what the vehicle must not touch — are rocks, fallen logs, walls and tree
 * trunks, at least `clearanceM` high (lower ones are driven over). A rock, log or wall is its
 * oriented box's footprint; a tree is its trunk only: a disc at the tree's foot of radius
 * 0.025 × the tree's height (the site generator draws trunk radii of 0.016–0.024 × height),
 * never its crown.
 *
 * Per cell of the cost grid (its centre inside an object's footprint box):
 *   LOW_VEGETATION  grass or a shrub lower than h_max (what the vehicle can drive through)
 *   OTHER           anything else: taller vegetation, a tree's crown, a rock, a log …
 * A false obstacle is a lethal cell whose flags are LOW_VEGETATION alone.
 */
import { INST_FLOATS, INST_INTS, InstInt, PRIM_FLOATS, PRIM_INTS, PrimInt } from '../scene/scene-data';
import { type SceneData } from '../../src-common/scene-data';
import { ElementKind } from '../scene/scene-query';
import { SiteClass } from '../../src-common/classes';
import { UNKNOWN, type CostGrid } from './cost-grid';

/** The annotation shape (ObjectAnnotation without its label). */
export interface TruthObject {
  id: number;
  class: number;
  pose: readonly number[];
  box: { center: readonly number[]; size: readonly number[]; yaw: number };
}

export const LOW_VEGETATION = 1;
export const OTHER = 2;

const TREES: ReadonlySet<number> = new Set([SiteClass.smallTree, SiteClass.mediumTree, SiteClass.largeTree]);
const SOLIDS: ReadonlySet<number> = new Set([SiteClass.rock, SiteClass.fallenLog, SiteClass.wall]);
const VEGETATION: ReadonlySet<number> = new Set([SiteClass.grass, SiteClass.lowShrub, SiteClass.smallShrub, SiteClass.mediumShrub, SiteClass.largeShrub]);
export const TRUNK_RADIUS_PER_HEIGHT = 0.025;

export interface Obstacle {
  id: number;
  cls: number;
  shape: 'box' | 'disc';
  cx: number;
  cy: number;
  yaw: number;
  /** Half length and half width (box); radius in both (disc). */
  a: number;
  b: number;
  height: number;
}

export function solidObstacles(objects: readonly TruthObject[], clearanceM: number): Obstacle[] {
  const out: Obstacle[] = [];
  for (const o of objects) {
    const h = o.box.size[2]!;
    if (!(h >= clearanceM)) continue;
    if (TREES.has(o.class)) {
      const r = Math.max(0.1, TRUNK_RADIUS_PER_HEIGHT * h);
      out.push({ id: o.id, cls: o.class, shape: 'disc', cx: o.pose[0]!, cy: o.pose[1]!, yaw: 0, a: r, b: r, height: h });
    } else if (SOLIDS.has(o.class)) {
      out.push({ id: o.id, cls: o.class, shape: 'box', cx: o.box.center[0]!, cy: o.box.center[1]!, yaw: o.box.yaw, a: o.box.size[0]! / 2, b: o.box.size[1]! / 2, height: h });
    }
  }
  return out;
}

/** Distance (m) in the ground plane from (x, y) to the obstacle's footprint (0 inside). */
export function obstacleDistance(o: Obstacle, x: number, y: number): number {
  const dx = x - o.cx, dy = y - o.cy;
  if (o.shape === 'disc') return Math.max(0, Math.hypot(dx, dy) - o.a);
  const c = Math.cos(o.yaw), s = Math.sin(o.yaw);
  const u = Math.abs(c * dx + s * dy) - o.a, v = Math.abs(-s * dx + c * dy) - o.b;
  return Math.hypot(Math.max(u, 0), Math.max(v, 0));
}

/** Whether the vehicle's rectangle (centre x, y, heading yaw, half length hl, half width hw) overlaps the obstacle. */
export function footprintHits(o: Obstacle, x: number, y: number, yaw: number, hl: number, hw: number): boolean {
  const reach = Math.hypot(hl, hw) + Math.hypot(o.a, o.b);
  const dx = o.cx - x, dy = o.cy - y;
  if (dx * dx + dy * dy > reach * reach) return false;
  const c = Math.cos(yaw), s = Math.sin(yaw);
  if (o.shape === 'disc') {
    // the disc's centre in the vehicle frame, clamped to the rectangle: the nearest point
    const u = c * dx + s * dy, v = -s * dx + c * dy;
    const nu = Math.max(-hl, Math.min(hl, u)), nv = Math.max(-hw, Math.min(hw, v));
    return Math.hypot(u - nu, v - nv) < o.a;
  }
  // separating axes of two rectangles: the four edge normals
  const oc = Math.cos(o.yaw), os = Math.sin(o.yaw);
  const axes = [c, s, -s, c, oc, os, -os, oc];
  for (let k = 0; k < 8; k += 2) {
    const ax = axes[k]!, ay = axes[k + 1]!;
    const ra = hl * Math.abs(c * ax + s * ay) + hw * Math.abs(-s * ax + c * ay);
    const rb = o.a * Math.abs(oc * ax + os * ay) + o.b * Math.abs(-os * ax + oc * ay);
    if (Math.abs(dx * ax + dy * ay) > ra + rb) return false;
  }
  return true;
}

/** LOW_VEGETATION / OTHER flags per grid cell from the objects' footprint boxes (terrain excluded). */
export function cellTruth(grid: CostGrid, objects: readonly TruthObject[], hMax: number): Uint8Array {
  const { originX, originY, cellM, width, height } = grid.spec;
  const flags = new Uint8Array(width * height);
  for (const o of objects) {
    if (o.class === SiteClass.ground || o.class === SiteClass.unknown) continue;
    const flag = VEGETATION.has(o.class) && o.box.size[2]! < hMax ? LOW_VEGETATION : OTHER;
    const c = Math.cos(o.box.yaw), s = Math.sin(o.box.yaw);
    const a = o.box.size[0]! / 2, b = o.box.size[1]! / 2, r = Math.hypot(a, b);
    const cx = o.box.center[0]!, cy = o.box.center[1]!;
    const i0 = Math.max(0, Math.floor((cx - r - originX) / cellM)), i1 = Math.min(width - 1, Math.floor((cx + r - originX) / cellM));
    const j0 = Math.max(0, Math.floor((cy - r - originY) / cellM)), j1 = Math.min(height - 1, Math.floor((cy + r - originY) / cellM));
    for (let j = j0; j <= j1; j++) {
      const y = originY + (j + 0.5) * cellM - cy;
      for (let i = i0; i <= i1; i++) {
        const x = originX + (i + 0.5) * cellM - cx;
        if (Math.abs(c * x + s * y) <= a && Math.abs(-s * x + c * y) <= b) flags[j * width + i]! |= flag;
      }
    }
  }
  return flags;
}

/** Lethal cells (cost ≥ lethalCost) whose ground truth is low vegetation only. */
export function countFalseObstacles(grid: CostGrid, flags: Uint8Array, lethalCost: number): number {
  let n = 0;
  for (let c = 0; c < grid.cost.length; c++) {
    const v = grid.cost[c]!;
    if (v !== UNKNOWN && v >= lethalCost && flags[c] === LOW_VEGETATION) n++;
  }
  return n;
}

/**
 * One object per instance that is not terrain: its id and class, its primitive's local box placed
 * by the instance's transform and bounded in the frame of its heading (like orientedBox), and a
 * pose with that heading at the box's foot centre.
 */
export function objectsFromInstances(data: SceneData): TruthObject[] {
  const out: TruthObject[] = [];
  for (let i = 0; i < data.instanceCount; i++) {
    const cls = data.instInts[i * INST_INTS + InstInt.classId]!;
    const p = data.instInts[i * INST_INTS + InstInt.primitive]!;
    if (cls === SiteClass.ground || data.primInts[p * PRIM_INTS + PrimInt.kind] === ElementKind.Ground) continue;
    if (data.primInts[p * PRIM_INTS + PrimInt.root]! < 0) continue;
    const m = data.instXform, mo = i * INST_FLOATS, b = data.primFloats, bo = p * PRIM_FLOATS;
    const yaw = Math.atan2(m[mo + 3]!, m[mo]!);
    const c = Math.cos(yaw), s = Math.sin(yaw);
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (let k = 0; k < 8; k++) {
      const x = b[bo + (k & 1 ? 3 : 0)]!, y = b[bo + (k & 2 ? 4 : 1)]!, z = b[bo + (k & 4 ? 5 : 2)]!;
      const wx = m[mo]! * x + m[mo + 1]! * y + m[mo + 2]! * z, wy = m[mo + 3]! * x + m[mo + 4]! * y + m[mo + 5]! * z, wz = m[mo + 6]! * x + m[mo + 7]! * y + m[mo + 8]! * z;
      const u = [c * wx + s * wy, -s * wx + c * wy, wz];
      for (let a = 0; a < 3; a++) {
        lo[a] = Math.min(lo[a]!, u[a]!);
        hi[a] = Math.max(hi[a]!, u[a]!);
      }
    }
    const cu = (lo[0]! + hi[0]!) / 2, cv = (lo[1]! + hi[1]!) / 2;
    const tx = m[mo + 9]!, ty = m[mo + 10]!, tz = m[mo + 11]!;
    out.push({
      id: data.instInts[i * INST_INTS + InstInt.objectId]!,
      class: cls,
      pose: [tx, ty, tz, 0, 0, Math.sin(yaw / 2), Math.cos(yaw / 2)],
      box: { center: [tx + c * cu - s * cv, ty + s * cu + c * cv, tz + (lo[2]! + hi[2]!) / 2], size: [hi[0]! - lo[0]!, hi[1]! - lo[1]!, hi[2]! - lo[2]!], yaw },
    });
  }
  return out;
}
