/**
 * The KITTI odometry layout as an export: velodyne/NNNNNN.bin (x y z intensity float32, in the
 * sensor frame of the sweep's first packet), poses.txt (3×4 world ← sensor per sweep) and
 * times.txt (sweep start, s).
 */
import { POSE_STRIDE, type PacketChunk } from '../../../src-common/packets';
import type { ExportCounts, ExportOutput } from '../log-format';
import type { DecodeContext } from '../log-source';
import { encodeKittiPoses } from '../poses-file';
import { buildTimeline } from '../timeline';
import { worldCloud } from '../world-cloud';
import { encodeKittiBin } from './kitti-bin-encode';

export function writeKittiOdometry(chunks: PacketChunk[], out: ExportOutput, ctx: DecodeContext): ExportCounts {
  const timeline = buildTimeline(chunks, 2);
  const starts = timeline.sweepStart;
  const poses = new Float64Array(POSE_STRIDE * starts.length);
  const times: string[] = [];
  out.mkdir('velodyne');
  let points = 0, bytes = 0;
  for (let s = 0; s < starts.length; s++) {
    ctx.checkCancelled();
    ctx.progress(s / starts.length, 'writing scans');
    const from = starts[s]!, to = s + 1 < starts.length ? starts[s + 1]! : timeline.packets;
    const c = chunks.find((k) => from >= k.packetStart && from < k.packetStart + k.packetCount)!;
    const pose = c.packetPose.subarray((from - c.packetStart) * POSE_STRIDE, (from - c.packetStart + 1) * POSE_STRIDE);
    poses.set(pose, POSE_STRIDE * s);
    times.push(timeline.packetTime[from]!.toExponential(9));
    const cloud = worldCloud(chunks, { from, to, reference: pose });
    const bin = encodeKittiBin(cloud);
    out.writeFile(`velodyne/${String(s).padStart(6, '0')}.bin`, bin);
    points += cloud.count;
    bytes += bin.byteLength;
  }
  const poseText = encodeKittiPoses(poses);
  out.writeFile('poses.txt', poseText);
  out.writeFile('times.txt', times.join('\n') + '\n');
  return { files: starts.length + 2, points, bytes: bytes + poseText.length, scans: starts.length };
}
