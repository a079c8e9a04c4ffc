/**
 * Pose messages (ROS 2, CDR): tf2_msgs/msg/TFMessage (decode and encode) and
 * nav_msgs/msg/Odometry (decode). Both become timed parent ← child transforms
 * [tx, ty, tz, qx, qy, qz, qw].
 *
 *   TFMessage: geometry_msgs/TransformStamped[] transforms
 *     TransformStamped: std_msgs/Header header; string child_frame_id;
 *                       Transform transform (Vector3 translation; Quaternion rotation)
 *   Odometry: std_msgs/Header header; string child_frame_id;
 *             PoseWithCovariance pose (Pose pose (Point position; Quaternion orientation); float64[36]);
 *             TwistWithCovariance twist (not read)
 */
import { CdrWriter } from '@foxglove/cdr';
import { decodeMessage, toRosTime, type Cdr, type MessagePlace } from './cdr';

export const TF_MESSAGE_TYPE = 'tf2_msgs/msg/TFMessage';
export const ODOMETRY_TYPE = 'nav_msgs/msg/Odometry';

export interface StampedTransform {
  /** Seconds. */
  stamp: number;
  /** header.frame_id: the frame the transform maps into. */
  parent: string;
  child: string;
  /** parent ← child: tx, ty, tz, qx, qy, qz, qw. */
  pose: [number, number, number, number, number, number, number];
}

function readPose(c: Cdr, what: string): StampedTransform['pose'] {
  const p = [0, 1, 2, 3, 4, 5, 6].map((i) => c.f64(`${what}[${i}]`)) as StampedTransform['pose'];
  return p;
}

export function decodeTfMessage(data: Uint8Array, place: MessagePlace): StampedTransform[] {
  return decodeMessage(data, TF_MESSAGE_TYPE, place, (c) => {
    // header (≥ 12 bytes) + child (≥ 4) + 7 float64.
    const n = c.seq('transforms', 12 + 4 + 56);
    const out: StampedTransform[] = [];
    for (let i = 0; i < n; i++) {
      const stamp = c.time(`transforms[${i}].header.stamp`);
      const parent = c.string(`transforms[${i}].header.frame_id`);
      const child = c.string(`transforms[${i}].child_frame_id`);
      out.push({ stamp, parent, child, pose: readPose(c, `transforms[${i}].transform`) });
    }
    return out;
  });
}

export function decodeOdometry(data: Uint8Array, place: MessagePlace): StampedTransform {
  return decodeMessage(data, ODOMETRY_TYPE, place, (c) => {
    const h = c.header();
    const child = c.string('child_frame_id');
    return { stamp: h.stamp, parent: h.frameId, child, pose: readPose(c, 'pose.pose') };
  });
}

export function encodeTfMessage(transforms: readonly { stamp: number; parent: string; child: string; pose: ArrayLike<number> }[]): Uint8Array {
  const w = new CdrWriter({ size: 32 + transforms.length * 128 });
  w.sequenceLength(transforms.length);
  for (const t of transforms) {
    const s = toRosTime(t.stamp);
    w.int32(s.sec).uint32(s.nanosec).string(t.parent).string(t.child);
    for (let i = 0; i < 7; i++) w.float64(t.pose[i]!);
  }
  return w.data.slice();
}

/** Odometry bytes (tests and fuzzing): covariances and twist zero. */
export function encodeOdometry(t: { stamp: number; parent: string; child: string; pose: ArrayLike<number> }): Uint8Array {
  const w = new CdrWriter({ size: 800 });
  const s = toRosTime(t.stamp);
  w.int32(s.sec).uint32(s.nanosec).string(t.parent).string(t.child);
  for (let i = 0; i < 7; i++) w.float64(t.pose[i]!);
  for (let i = 0; i < 36; i++) w.float64(0);
  for (let i = 0; i < 6 + 36; i++) w.float64(0);
  return w.data.slice();
}
