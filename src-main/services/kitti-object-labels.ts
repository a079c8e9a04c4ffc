/**
 * KITTI object boxes on a drive log (docs/labeling.md): a label file labels one scan, in that
 * scan's velodyne frame; the log holds the scan at its packet's pose. Reading places each box in
 * the world and labels the returns inside it (class and object id; returns in no box are
 * unlabelled); writing takes the newest boxes back into the velodyne frame.
 */
import { ApiError, type AnnotationEntry, type LabelClass } from '../api/contract';
import { POSE_STRIDE } from '../../src-common/packets';
import type { ProjectSession } from './project-session';
import { readKittiObjects, writeKittiObjects } from './label-files';
import type { LabelCloudOutput } from '../../src-worker/tasks/label-cloud';

type Pose = [number, number, number, number, number, number, number];

/** The pose of the log's single scan: its first packet's (a log of several sweeps is refused). */
function scanPose(session: ProjectSession, logId: number, sweeps: number): Pose {
  if (sweeps > 1) throw new ApiError('bad_input', `drive log ${logId} holds ${sweeps} scans; a KITTI object label file labels one: split the log first (thicket log split)`);
  for (const meta of session.store.logs.chunkMeta(logId)) {
    if (meta.packetCount > 0) return Array.from(meta.packetPose.subarray(0, POSE_STRIDE)) as Pose;
  }
  throw new ApiError('bad_input', `drive log ${logId} has no packets`);
}

function rotate(q: Pose, x: number, y: number, z: number): [number, number, number] {
  const [, , , qx, qy, qz, qw] = q;
  const tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
  return [x + qw * tx + (qy * tz - qz * ty), y + qw * ty + (qz * tx - qx * tz), z + qw * tz + (qx * ty - qy * tx)];
}

/** An entry moved by a pose (or its inverse): centre, heading and the object's pose. */
function moveEntry(e: AnnotationEntry, pose: Pose, inverse: boolean): AnnotationEntry {
  const inv: Pose = [0, 0, 0, -pose[3], -pose[4], -pose[5], pose[6]];
  const r = inverse ? inv : pose;
  const c = e.box.center;
  const p = inverse ? rotate(r, c[0] - pose[0], c[1] - pose[1], c[2] - pose[2]) : rotate(r, c[0], c[1], c[2]).map((v, i) => v + pose[i]!) as [number, number, number];
  const d = rotate(r, Math.cos(e.box.yaw), Math.sin(e.box.yaw), 0);
  const yaw = Math.atan2(d[1], d[0]);
  return { ...e, pose: [p[0], p[1], p[2], 0, 0, Math.sin(yaw / 2), Math.cos(yaw / 2)], box: { ...e.box, center: [p[0], p[1], p[2]], yaw } };
}

/** `cloud`: the log's label cloud (every return in the world frame). */
export function kittiObjectsIn(
  session: ProjectSession, logId: number, cloud: LabelCloudOutput, text: string, veloToRect: Float64Array, classes: readonly LabelClass[], file: string,
): { entries: AnnotationEntry[]; unknownTypes: string[]; rayClass: Uint8Array<ArrayBuffer>; rayObject: Uint32Array<ArrayBuffer>; hit: Uint8Array } {
  const read = readKittiObjects(text, veloToRect, classes, file);
  const pose = scanPose(session, logId, cloud.sweepStart.length);
  const entries = read.entries.map((e) => moveEntry(e, pose, false));
  const rayClass = new Uint8Array(cloud.rays), rayObject = new Uint32Array(cloud.rays), hit = new Uint8Array(cloud.rays);
  const boxes = entries.map((e) => ({ e, c: Math.cos(e.box.yaw), s: Math.sin(e.box.yaw) }));
  for (let i = 0; i < cloud.points; i++) {
    const ray = cloud.rayIndex[i]!;
    hit[ray] = 1;
    const x = cloud.positions[3 * i]! + cloud.origin[0], y = cloud.positions[3 * i + 1]! + cloud.origin[1], z = cloud.positions[3 * i + 2]! + cloud.origin[2];
    for (const b of boxes) {
      const [cx, cy, cz] = b.e.box.center, [l, w, h] = b.e.box.size;
      const dx = x - cx, dy = y - cy;
      if (Math.abs(dx * b.c + dy * b.s) <= l / 2 && Math.abs(-dx * b.s + dy * b.c) <= w / 2 && Math.abs(z - cz) <= h / 2) {
        rayClass[ray] = b.e.class;
        rayObject[ray] = b.e.id;
        break;
      }
    }
  }
  return { entries, unknownTypes: read.unknownTypes, rayClass, rayObject, hit };
}

/** `sweeps`: the log's scans (one expected). */
export function kittiObjectsOut(session: ProjectSession, logId: number, sweeps: number, entries: readonly AnnotationEntry[], veloToRect: Float64Array, classes: readonly LabelClass[]): string {
  const pose = scanPose(session, logId, sweeps);
  return writeKittiObjects(entries.map((e) => moveEntry(e, pose, true)), veloToRect, classes);
}
