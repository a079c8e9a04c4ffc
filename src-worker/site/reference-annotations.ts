/**
 * Ground truth of the reference site: one annotation per placed object (thesis 004 §4.3's scene
 * annotation: class, pose, oriented box), and the per-triangle labels of a built scene.
 *
 *   orientedBox(min, max, pose, yaw): AnnotationBox      box of a local AABB placed by a pose
 *   boxContains(box, x, y, z, tol): boolean
 *   placedTriangleLabels(data): { objectId, classId }   per triangle, in flattenSceneTriangles order
 *
 * A box is {center, size [l, w, h], yaw}: l along the yaw direction, w across it, h vertical.
 */
import { poseRotationMatrix, yawQuaternion } from '../geometry/pose';
import { INST_INTS, PRIM_INTS, PrimInt } from '../scene/scene-data';
import { type SceneData } from '../../src-common/scene-data';
import { ElementKind } from '../scene/scene-query';

export type Vec3 = [number, number, number];
/** [tx, ty, tz, qx, qy, qz, qw], world ← object. */
export type Pose7 = [number, number, number, number, number, number, number];

export interface AnnotationBox {
  center: Vec3;
  /** Length (along yaw), width, height (m). */
  size: Vec3;
  /** Heading of the box's length axis, counter-clockwise from +x (rad). */
  yaw: number;
}

export interface ObjectAnnotation {
  /** The object id every ray and triangle of the object carries. */
  id: number;
  /** Class id (SiteClass / ReferenceClass), as in the rays' ground truth. */
  class: number;
  /** Class name. */
  label: string;
  /** A shrub patch: several shrubs annotated as one object (thesis Table 4.6). */
  patch?: boolean;
  pose: Pose7;
  box: AnnotationBox;
}

/** A pose from a position and yaw (about z) then pitch (about the object's y axis). */
export function yawPitchPose(x: number, y: number, z: number, yaw: number, pitch = 0): Pose7 {
  if (pitch === 0) {
    const q = yawQuaternion(yaw);
    return [x, y, z, q[0], q[1], q[2], q[3]];
  }
  // q = q_yaw ⊗ q_pitch (Hamilton): first pitch in the object's frame, then yaw.
  const sz = Math.sin(yaw / 2), cz = Math.cos(yaw / 2), sy = Math.sin(pitch / 2), cy = Math.cos(pitch / 2);
  return [x, y, z, -sz * sy, cz * sy, sz * cy, cz * cy];
}

/**
 * The yaw-aligned box of a local box [min, max] placed by `pose`: the box's 8 corners go to the
 * world and are bounded in the frame turned by `yaw`. Exact when the pose is a pure yaw of that
 * angle; a tilt (a log lying on a slope) makes it the tightest yaw box around the tilted box.
 */
export function orientedBox(min: readonly number[], max: readonly number[], pose: readonly number[], yaw: number): AnnotationBox {
  const m = new Float64Array(9);
  poseRotationMatrix(pose, 0, m, 0);
  const c = Math.cos(yaw), s = Math.sin(yaw);
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let k = 0; k < 8; k++) {
    const x = k & 1 ? max[0]! : min[0]!, y = k & 2 ? max[1]! : min[1]!, z = k & 4 ? max[2]! : min[2]!;
    // Rotated by the pose (translation added after), then into the yaw frame (Rz(−yaw)).
    const wx = m[0]! * x + m[1]! * y + m[2]! * z, wy = m[3]! * x + m[4]! * y + m[5]! * z, wz = m[6]! * x + m[7]! * y + m[8]! * z;
    const u = [c * wx + s * wy, -s * wx + c * wy, wz];
    for (let a = 0; a < 3; a++) {
      lo[a] = Math.min(lo[a]!, u[a]!);
      hi[a] = Math.max(hi[a]!, u[a]!);
    }
  }
  const cu = (lo[0]! + hi[0]!) / 2, cv = (lo[1]! + hi[1]!) / 2, cw = (lo[2]! + hi[2]!) / 2;
  return {
    center: [pose[0]! + c * cu - s * cv, pose[1]! + s * cu + c * cv, pose[2]! + cw],
    size: [hi[0]! - lo[0]!, hi[1]! - lo[1]!, hi[2]! - lo[2]!],
    yaw,
  };
}

/** Whether (x, y, z) lies in the box grown by `tol` on every side. */
export function boxContains(box: AnnotationBox, x: number, y: number, z: number, tol = 0): boolean {
  return boxDistance(box, x, y, z) <= tol;
}

/** Distance from (x, y, z) to the box (0 inside). */
export function boxDistance(box: AnnotationBox, x: number, y: number, z: number): number {
  const dx = x - box.center[0], dy = y - box.center[1];
  const c = Math.cos(box.yaw), s = Math.sin(box.yaw);
  const u = Math.abs(c * dx + s * dy) - box.size[0] / 2;
  const v = Math.abs(-s * dx + c * dy) - box.size[1] / 2;
  const w = Math.abs(z - box.center[2]) - box.size[2] / 2;
  return Math.hypot(Math.max(u, 0), Math.max(v, 0), Math.max(w, 0));
}

/**
 * Object and class id of every placed triangle, in the order flattenSceneTriangles(data) lists
 * them (instances in order, mesh and ground primitives): the triangles' ground truth.
 */
export function placedTriangleLabels(data: SceneData): { objectId: Uint32Array; classId: Uint8Array } {
  const isTri = (p: number) => {
    const kind = data.primInts[p * PRIM_INTS + PrimInt.kind];
    return kind === ElementKind.Surface || kind === ElementKind.Ground;
  };
  let total = 0;
  for (let i = 0; i < data.instanceCount; i++) {
    const p = data.instInts[i * INST_INTS]!;
    if (isTri(p)) total += data.primInts[p * PRIM_INTS + PrimInt.count]!;
  }
  const objectId = new Uint32Array(total), classId = new Uint8Array(total);
  let w = 0;
  for (let i = 0; i < data.instanceCount; i++) {
    const p = data.instInts[i * INST_INTS]!;
    if (!isTri(p)) continue;
    const n = data.primInts[p * PRIM_INTS + PrimInt.count]!;
    objectId.fill(data.instInts[i * INST_INTS + 1]!, w, w + n);
    classId.fill(data.instInts[i * INST_INTS + 2]!, w, w + n);
    w += n;
  }
  return { objectId, classId };
}

/**
 * Ids of the objects whose box comes within `range` of the sensor somewhere along a drive:
 * the drive's ground truth (what its rays can have hit). Sensor positions are the vehicle poses
 * raised by `sensorHeight`, taken every `stride` samples (at 100 Hz and 2.4 m/s, 10 samples is 0.24 m).
 */
export function objectsInRange(annotations: readonly ObjectAnnotation[], poses: ArrayLike<number>, range: number, sensorHeight: number, stride = 10): number[] {
  const n = Math.floor(poses.length / 7);
  const ids: number[] = [];
  for (const a of annotations) {
    for (let i = 0; i < n; i = i === n - 1 ? n : Math.min(n - 1, i + stride)) {
      if (boxDistance(a.box, poses[7 * i]!, poses[7 * i + 1]!, poses[7 * i + 2]! + sensorHeight) <= range) {
        ids.push(a.id);
        break;
      }
    }
  }
  return ids;
}
