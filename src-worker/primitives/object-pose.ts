/**
 * Object pose and oriented box of a labelled segment (thesis 004 §4.3.1.4, docs/methods.md §3):
 *  - translation: the centroid of the segment's points;
 *  - rotation: yaw only; of the two principal axes of the points in the x-y plane, the one
 *    closest to the direction of travel (|cos| largest), signed to point along it, is the
 *    object's x axis;
 *  - box: the points' extent in that frame (length along x, width along y, height along z).
 *
 *   const p = objectPose(cloud.positions, indices, travel);   // travel: [dx, dy]
 *   p.yaw, p.centroid, p.pose (centroid + yaw), p.box (AnnotationBox: centre, [l, w, h], yaw)
 */
import { yawQuaternion } from '../geometry/pose';
import type { AnnotationBox, Pose7, Vec3 } from '../site/reference-annotations';

export interface ObjectPose {
  centroid: Vec3;
  /** Heading of the object's x axis, counter-clockwise from world +x (rad, in (−π, π]). */
  yaw: number;
  /** World ← object: the centroid and the yaw (the thesis's q_object). */
  pose: Pose7;
  box: AnnotationBox;
}

/**
 * Principal axis angle of the x-y covariance [sxx, sxy, syy]: the direction of the larger
 * eigenvalue (the other axis is at +90°). An isotropic spread has no principal axis: 0 then.
 */
export function principalAngle(sxx: number, sxy: number, syy: number): number {
  if (Math.abs(sxy) < 1e-15 * (sxx + syy + 1e-300) && Math.abs(sxx - syy) < 1e-15 * (sxx + syy + 1e-300)) return 0;
  return 0.5 * Math.atan2(2 * sxy, sxx - syy);
}

/**
 * The yaw of the principal axis (of the two) nearest to the travel direction, pointing along it.
 * Without a usable travel direction (zero), the major axis.
 */
export function yawNearestTravel(sxx: number, sxy: number, syy: number, travelX: number, travelY: number): number {
  const a = principalAngle(sxx, sxy, syy);
  const t = Math.hypot(travelX, travelY);
  if (!(t > 1e-12)) return a;
  const tx = travelX / t, ty = travelY / t;
  const cands = [a, a + Math.PI / 2, a + Math.PI, a - Math.PI / 2];
  let best = a, bestDot = -Infinity;
  for (const c of cands) {
    const d = Math.cos(c) * tx + Math.sin(c) * ty;
    if (d > bestDot + 1e-12) {
      bestDot = d;
      best = c;
    }
  }
  return Math.atan2(Math.sin(best), Math.cos(best));
}

/**
 * Pose and box of the points `indices` (into positions, 3 each). `travel` is the direction of
 * travel in the x-y plane (need not be unit). Throws on an empty segment.
 */
export function objectPose(positions: ArrayLike<number>, indices: ArrayLike<number>, travel: readonly [number, number]): ObjectPose {
  const n = indices.length;
  if (n === 0) throw new Error('object pose: the segment has no points');
  let mx = 0, my = 0, mz = 0;
  for (let k = 0; k < n; k++) {
    const p = indices[k]!;
    mx += positions[3 * p]!; my += positions[3 * p + 1]!; mz += positions[3 * p + 2]!;
  }
  mx /= n; my /= n; mz /= n;
  let sxx = 0, sxy = 0, syy = 0;
  for (let k = 0; k < n; k++) {
    const p = indices[k]!;
    const dx = positions[3 * p]! - mx, dy = positions[3 * p + 1]! - my;
    sxx += dx * dx; sxy += dx * dy; syy += dy * dy;
  }
  const yaw = yawNearestTravel(sxx, sxy, syy, travel[0], travel[1]);
  const box = boxAtYaw(positions, indices, yaw);
  const q = yawQuaternion(yaw);
  return { centroid: [mx, my, mz], yaw, pose: [mx, my, mz, q[0], q[1], q[2], q[3]], box };
}

/** The box of the points in the frame turned by `yaw` (tight on every side). */
export function boxAtYaw(positions: ArrayLike<number>, indices: ArrayLike<number>, yaw: number): AnnotationBox {
  const c = Math.cos(yaw), s = Math.sin(yaw);
  let lu = Infinity, lv = Infinity, lz = Infinity, hu = -Infinity, hv = -Infinity, hz = -Infinity;
  for (let k = 0; k < indices.length; k++) {
    const p = indices[k]!;
    const x = positions[3 * p]!, y = positions[3 * p + 1]!, z = positions[3 * p + 2]!;
    const u = c * x + s * y, v = -s * x + c * y;
    if (u < lu) lu = u; if (u > hu) hu = u;
    if (v < lv) lv = v; if (v > hv) hv = v;
    if (z < lz) lz = z; if (z > hz) hz = z;
  }
  const cu = (lu + hu) / 2, cv = (lv + hv) / 2;
  return { center: [c * cu - s * cv, s * cu + c * cv, (lz + hz) / 2], size: [hu - lu, hv - lv, hz - lz], yaw };
}

/** Mean travel direction of the points (unit, or [0, 0] when the directions cancel). */
export function meanTravel(travel: ArrayLike<number>, indices: ArrayLike<number>): [number, number] {
  let x = 0, y = 0;
  for (let k = 0; k < indices.length; k++) {
    x += travel[2 * indices[k]!]!;
    y += travel[2 * indices[k]! + 1]!;
  }
  const t = Math.hypot(x, y);
  return t > 1e-9 ? [x / t, y / t] : [0, 0];
}
