/**
 * Export a drive log or a simulation run to the field's formats, so simulated logs feed users'
 * own tools: one cloud of every hit in the world frame (PCD, PLY, LAS), a KITTI odometry folder
 * (one scan per sweep in the sensor frame of its first packet, poses.txt, times.txt), or an
 * MCAP (PointCloud2 + tf, readable by Foxglove and ROS 2).
 */
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { TaskContext } from './task-context';
import { type PacketChunk, POSE_STRIDE } from '../../src-common/packets';
import { worldCloud } from '../formats/world-cloud';
import { encodePcd } from '../formats/pcd/pcd-encode';
import { buildTimeline } from '../formats/timeline';
import { encodePly } from '../formats/ply/ply-encode';
import { encodeLasFromChunks } from '../formats/las/las-encode';
import { encodeKittiBin } from '../formats/kitti/kitti-bin-encode';
import { encodeKittiPoses } from '../formats/poses-file';
import { countHits } from '../formats/chunk-points';
import { McapLogWriter } from '../formats/mcap';

export const EXPORT_FORMATS = ['pcd', 'ply', 'las', 'kitti', 'mcap'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportLogInput {
  chunks: PacketChunk[];
  format: ExportFormat;
  /** A file (pcd, ply, las, mcap) or a folder (kitti) on this machine. */
  out: string;
  /** Log or run name, written into headers where the format has a place for it. */
  name: string;
}

export interface ExportSummary {
  format: ExportFormat;
  out: string;
  /** Files written (kitti: scans + poses.txt + times.txt). */
  files: number;
  points: number;
  bytes: number;
  /** Scans (kitti) or messages (mcap); 1 for single-cloud formats. */
  scans: number;
}

export async function exportLog(input: ExportLogInput, ctx: TaskContext): Promise<ExportSummary> {
  ctx.progress(0, 'exporting', true);
  const { chunks, out } = input;
  switch (input.format) {
    case 'pcd': {
      const cloud = worldCloud(chunks);
      ctx.checkCancelled();
      const bytes = encodePcd(cloud, 'binary');
      writeFileSync(out, bytes);
      return { format: 'pcd', out, files: 1, points: cloud.count, bytes: bytes.byteLength, scans: 1 };
    }
    case 'ply': {
      const cloud = worldCloud(chunks);
      ctx.checkCancelled();
      const bytes = encodePly(cloud);
      writeFileSync(out, bytes);
      return { format: 'ply', out, files: 1, points: cloud.count, bytes: bytes.byteLength, scans: 1 };
    }
    case 'las': {
      const bytes = encodeLasFromChunks(chunks, { world: true });
      writeFileSync(out, bytes);
      return { format: 'las', out, files: 1, points: chunks.reduce((n, c) => n + countHits(c), 0), bytes: bytes.byteLength, scans: 1 };
    }
    case 'kitti':
      return exportKitti(chunks, out, ctx);
    case 'mcap':
      return exportMcap(chunks, out, ctx);
    default:
      throw new Error(`export to ${input.format} is not available in this build`);
  }
}

/** MCAP: a PointCloud2 per 0.1 s of packets (in the frame of its first packet) and its /tf. */
async function exportMcap(chunks: PacketChunk[], out: string, ctx: TaskContext): Promise<ExportSummary> {
  const fd = openSync(out, 'w');
  try {
    const writer = new McapLogWriter({ write: (bytes) => void writeSync(fd, bytes) });
    for (let i = 0; i < chunks.length; i++) {
      ctx.checkCancelled();
      ctx.progress(i / chunks.length, 'writing messages');
      await writer.addChunk(chunks[i]!);
    }
    const s = await writer.finish();
    return { format: 'mcap', out, files: 1, points: s.points, bytes: s.bytes, scans: s.cloudMessages };
  } finally {
    closeSync(fd);
  }
}

/**
 * KITTI odometry layout: velodyne/NNNNNN.bin (x y z intensity float32, sensor frame of the
 * scan's first packet), poses.txt (3×4 world ← sensor per scan) and times.txt (scan start, s).
 */
function exportKitti(chunks: PacketChunk[], out: string, ctx: TaskContext): ExportSummary {
  const timeline = buildTimeline(chunks, 2);
  const starts = timeline.sweepStart;
  const poses = new Float64Array(POSE_STRIDE * starts.length);
  const times: string[] = [];
  mkdirSync(join(out, 'velodyne'), { recursive: true });
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
    writeFileSync(join(out, 'velodyne', `${String(s).padStart(6, '0')}.bin`), bin);
    points += cloud.count;
    bytes += bin.byteLength;
  }
  const poseText = encodeKittiPoses(poses);
  writeFileSync(join(out, 'poses.txt'), poseText);
  writeFileSync(join(out, 'times.txt'), times.join('\n') + '\n');
  return { format: 'kitti', out, files: starts.length + 2, points, bytes: bytes + poseText.length, scans: starts.length };
}
