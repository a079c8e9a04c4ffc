/**
 * A drive log (PacketChunks) as an MCAP file that ROS 2 tools open: sensor_msgs/PointCloud2 on
 * `/points` and tf2_msgs/TFMessage on `/tf`, CDR-encoded, with ros2msg schemas, lz4 chunks.
 *
 * Grouping: a PointCloud2 holds the packets from one of `messageStarts` (packet indices, the
 * export passes the log's revolutions: docs/drive-logs.md, *Scans*) to the next; without them,
 * `messagePeriodS` seconds of packets (default 0.1 s; 0 = one message per packet). Stamps are
 * `timeOrigin` + the log's time (the export passes the capture's Unix start, so a dated capture
 * keeps its clock). Its points are in the lidar frame at its
 * first packet (frame_id 'lidar', stamp = that packet's time): every packet's points are carried
 * through its own pose into that frame, so a moving sensor's sweep stays in place — the motion
 * compensation a ROS driver's "deskew" does. Each PointCloud2 comes with a /tf message
 * world → lidar at the same stamp. Per-point `time` is seconds after the stamp (the velodyne
 * driver's convention). PointCloud2 keeps hits only: misses are counted, not written.
 *
 * Output goes through `write` (the writer awaits it and reuses the buffer afterwards: copy to
 * keep), so an exporter streams to a file; encodeMcapLog collects it into one array.
 */
import { McapWriter, type IWritable } from '@mcap/core';
import { applyPose, composePoses, invertPose } from '../../geometry/trajectory';
import { POSE_STRIDE, type PacketChunk } from '../../../src-common/packets';
import { POINT_CLOUD2_TYPE, encodePointCloud2 } from '../ros2/point-cloud2';
import { TF_MESSAGE_TYPE, encodeTfMessage } from '../ros2/tf-messages';
import { toRosTime } from '../ros2/cdr';
import { compressLz4 } from './compression';
import { POINT_CLOUD2_SCHEMA, TF_MESSAGE_SCHEMA } from './ros2msg-schemas';
import { grown } from '../../arrays/typed-arrays';

export interface McapLogWriterOptions {
  /** Receives the file's bytes in order; awaited. The array is reused after the call returns. */
  write: (bytes: Uint8Array) => void | Promise<void>;
  pointsTopic?: string;
  tfTopic?: string;
  /** frame_id of the clouds (default 'lidar'). */
  frameId?: string;
  /** Parent frame of the /tf transforms (default 'world'). */
  worldFrame?: string;
  /** Seconds of packets per PointCloud2 (default 0.1); 0 = one message per packet. */
  messagePeriodS?: number;
  /** Packet indices (ascending, from the log's first packet) where a message starts; overrides messagePeriodS. */
  messageStarts?: ArrayLike<number> | null;
  /** Added to the log's times (seconds since its start) to make the ROS stamps, e.g. the log's Unix start. */
  timeOrigin?: number;
  /** Chunk compression (default 'lz4'). */
  compression?: 'lz4' | 'none';
}

export interface McapWriteSummary {
  cloudMessages: number;
  tfMessages: number;
  packets: number;
  points: number;
  /** Rays without a return (NaN range), not written. */
  misses: number;
  bytes: number;
}

const enc = new TextEncoder();

/** Points of the message being filled, in its frame. */
class Group {
  xyz = new Float32Array(3 * 4096);
  intensity = new Float32Array(4096);
  ring = new Uint16Array(4096);
  time = new Float32Array(4096);
  count = 0;
  t0 = 0;
  pose = new Float64Array(POSE_STRIDE);
  inverse = new Float64Array(POSE_STRIDE);
  open = false;

  ensure(extra: number): void {
    const need = this.count + extra;
    if (need <= this.intensity.length) return;
    let cap = this.intensity.length;
    while (cap < need) cap *= 2;
    this.xyz = grown(this.xyz, 3 * cap);
    this.intensity = grown(this.intensity, cap);
    this.ring = grown(this.ring, cap);
    this.time = grown(this.time, cap);
  }
}

export class McapLogWriter {
  private readonly opts: Required<Omit<McapLogWriterOptions, 'write' | 'messageStarts'>>;
  /** Next entry of messageStarts to cut at, and the packet index reached. */
  private readonly starts: ArrayLike<number> | null;
  private nextStart = 0;
  private packetIndex = 0;
  private readonly writer: McapWriter;
  private position = 0;
  private started = false;
  private cloudChannel = 0;
  private tfChannel = 0;
  private sequence = 0;
  private readonly group = new Group();
  private readonly rel = new Float64Array(POSE_STRIDE);
  private readonly p = new Float64Array(3);
  private readonly summary: McapWriteSummary = { cloudMessages: 0, tfMessages: 0, packets: 0, points: 0, misses: 0, bytes: 0 };

  constructor(options: McapLogWriterOptions) {
    this.opts = {
      pointsTopic: options.pointsTopic ?? '/points',
      tfTopic: options.tfTopic ?? '/tf',
      frameId: options.frameId ?? 'lidar',
      worldFrame: options.worldFrame ?? 'world',
      messagePeriodS: options.messagePeriodS ?? 0.1,
      timeOrigin: options.timeOrigin ?? 0,
      compression: options.compression ?? 'lz4',
    };
    this.starts = options.messageStarts ?? null;
    const writable: IWritable = {
      write: async (buffer: Uint8Array) => {
        await options.write(buffer);
        this.position += buffer.byteLength;
      },
      position: () => BigInt(this.position),
    };
    this.writer = new McapWriter({
      writable,
      useChunks: true,
      chunkSize: 4 * 1024 * 1024,
      ...(this.opts.compression === 'lz4' ? { compressChunk: compressLz4 } : {}),
    });
  }

  private async start(): Promise<void> {
    this.started = true;
    await this.writer.start({ profile: 'ros2', library: 'thicket' });
    const cloudSchema = await this.writer.registerSchema({ name: POINT_CLOUD2_TYPE, encoding: 'ros2msg', data: enc.encode(POINT_CLOUD2_SCHEMA) });
    const tfSchema = await this.writer.registerSchema({ name: TF_MESSAGE_TYPE, encoding: 'ros2msg', data: enc.encode(TF_MESSAGE_SCHEMA) });
    this.cloudChannel = await this.writer.registerChannel({ topic: this.opts.pointsTopic, schemaId: cloudSchema, messageEncoding: 'cdr', metadata: new Map() });
    this.tfChannel = await this.writer.registerChannel({ topic: this.opts.tfTopic, schemaId: tfSchema, messageEncoding: 'cdr', metadata: new Map() });
  }

  /** Adds a chunk's packets (in order; chunks in log order). */
  async addChunk(chunk: PacketChunk): Promise<void> {
    if (!this.started) await this.start();
    const g = this.group;
    for (let k = 0; k < chunk.packetCount; k++) {
      const t = chunk.packetTime[k]!;
      const po = k * POSE_STRIDE;
      if (g.open && this.cutsBefore(t)) await this.flush();
      this.packetIndex++;
      if (!g.open) {
        g.open = true;
        g.t0 = t;
        g.count = 0;
        for (let i = 0; i < POSE_STRIDE; i++) g.pose[i] = chunk.packetPose[po + i]!;
        invertPose(g.pose, 0, g.inverse, 0);
      }
      // message frame ← packet frame
      composePoses(g.inverse, 0, chunk.packetPose, po, this.rel, 0);
      const dt = t - g.t0;
      const r0 = chunk.rayStart[k]!, r1 = chunk.rayStart[k + 1]!;
      g.ensure(r1 - r0);
      for (let r = r0; r < r1; r++) {
        const range = chunk.rayRange[r]!;
        if (!Number.isFinite(range)) { this.summary.misses++; continue; }
        const x = chunk.rayDir[3 * r]! * range, y = chunk.rayDir[3 * r + 1]! * range, z = chunk.rayDir[3 * r + 2]! * range;
        applyPose(this.rel, 0, x, y, z, this.p, 0);
        const i = g.count++;
        g.xyz[3 * i] = this.p[0]!;
        g.xyz[3 * i + 1] = this.p[1]!;
        g.xyz[3 * i + 2] = this.p[2]!;
        g.intensity[i] = chunk.rayIntensity[r]!;
        g.ring[i] = chunk.rayRing[r]!;
        g.time[i] = dt + chunk.rayTime[r]!;
      }
      this.summary.packets++;
    }
  }

  /** Whether the packet about to be added (time t) starts a new message. */
  private cutsBefore(t: number): boolean {
    const s = this.starts;
    if (!s) return !(t >= this.group.t0 && t - this.group.t0 < this.opts.messagePeriodS);
    let cut = false;
    while (this.nextStart < s.length && s[this.nextStart]! <= this.packetIndex) {
      if (s[this.nextStart] === this.packetIndex) cut = true;
      this.nextStart++;
    }
    return cut;
  }

  private async flush(): Promise<void> {
    const g = this.group;
    if (!g.open) return;
    g.open = false;
    const stamp = g.t0 + this.opts.timeOrigin;
    const rt = toRosTime(stamp);
    const ns = BigInt(rt.sec) * 1_000_000_000n + BigInt(rt.nanosec);
    const cloud = encodePointCloud2(
      { stamp, frameId: this.opts.frameId },
      { count: g.count, xyz: g.xyz, intensity: g.intensity, ring: g.ring, time: g.time },
    );
    const tf = encodeTfMessage([{ stamp, parent: this.opts.worldFrame, child: this.opts.frameId, pose: g.pose }]);
    // tf first, so a player has the pose when the cloud arrives.
    await this.writer.addMessage({ channelId: this.tfChannel, sequence: this.sequence++, logTime: ns, publishTime: ns, data: tf });
    await this.writer.addMessage({ channelId: this.cloudChannel, sequence: this.sequence++, logTime: ns, publishTime: ns, data: cloud });
    this.summary.cloudMessages++;
    this.summary.tfMessages++;
    this.summary.points += g.count;
  }

  /** Writes the last message and the summary section; the file is complete when this resolves. */
  async finish(): Promise<McapWriteSummary> {
    if (!this.started) await this.start();
    await this.flush();
    await this.writer.end();
    this.summary.bytes = this.position;
    return { ...this.summary };
  }
}

/** A whole log as one MCAP file in memory (tests, small exports). */
export async function encodeMcapLog(
  chunks: Iterable<PacketChunk> | AsyncIterable<PacketChunk>,
  opts: Omit<McapLogWriterOptions, 'write'> = {},
): Promise<{ bytes: Uint8Array; summary: McapWriteSummary }> {
  const parts: Uint8Array[] = [];
  const w = new McapLogWriter({ ...opts, write: (b) => { parts.push(b.slice()); } });
  for await (const c of chunks) await w.addChunk(c);
  const summary = await w.finish();
  const bytes = new Uint8Array(summary.bytes);
  let o = 0;
  for (const p of parts) { bytes.set(p, o); o += p.byteLength; }
  return { bytes, summary };
}
