/**
 * ROS 2 messages → DecodedPackets: the part of reading a bag that every container shares (the
 * SQLite .db3 through tasks/ros2-db3-file.ts, MCAP through formats/mcap/).
 *
 * - Points: one topic of velodyne_msgs/msg/VelodyneScan (every UDP packet of every scan becomes
 *   a packet, decoded with the caller's profile; distance-0 channels are kept as misses) or
 *   sensor_msgs/msg/PointCloud2 (one packet per message, hits only). `topic` picks it; else the
 *   first such topic in the bag.
 * - Poses: tf2_msgs/msg/TFMessage (/tf, and /tf_static as fixed edges) and nav_msgs/msg/Odometry
 *   (as a parent ← child edge) build a tf tree (tf-tree.ts); each packet gets world ← cloud frame
 *   at its own time. Bags interleave poses and points, and a packet needs the pose *after* it
 *   too, so a point message waits until the poses cover it, or until `poseLookaheadS` of later
 *   stamps have streamed past (then the pose is clamped to the last sample; none without tf).
 * - Time, in seconds on the bag's clock: a Velodyne packet's own timestamp (µs past the hour)
 *   put on that clock by the smallest (stamp − timestamp) of its scan, because the drivers'
 *   packet stamps are receive times that come in bursts (ms apart) while the packets are 0.66 or
 *   1.33 ms apart; a PointCloud2's header stamp (moved to its earliest point when points
 *   precede it).
 */
import { DecodeError } from '../decode-error';
import type { DecodeContext, DecodedPacket, LogSourceInfo } from '../log-source';
import {
  VELODYNE_PRODUCTS,
  decodeVelodyneData,
  velodyneLaserTable,
  velodyneRays,
  type VelodyneDataPacket,
  type VelodyneReturnMode,
} from '../velodyne/velodyne-packet';
import type { SensorProfile } from '../../../src-common/sensor-profile';
import { messageError, type MessagePlace } from './cdr';
import { POINT_CLOUD2_TYPE, decodePointCloud2, pointCloud2Rays, type PointCloud2 } from './point-cloud2';
import { ODOMETRY_TYPE, TF_MESSAGE_TYPE, decodeOdometry, decodeTfMessage } from './tf-messages';
import { TfTree } from './tf-tree';
import { VELODYNE_SCAN_TYPE, decodeVelodyneScan, type VelodyneScan } from './velodyne-scan';
import { velodyneProfileForModel, velodyneTimingModel } from './velodyne-profile';

/** One message of a bag, as a container yields it. */
export interface BagMessage {
  topic: string;
  /** ROS type name, 'pkg/msg/Type' (ROS 1 style 'pkg/Type' is accepted too). */
  type: string;
  /** Log (receive) time in nanoseconds. */
  timestamp: bigint | number;
  /** CDR bytes. May be a view the source reuses after the next message: copy what must outlive it. */
  data: Uint8Array;
  /** Byte offset of `data` in the file, when the container knows it (MCAP), for errors. */
  offset?: number;
  /** Fraction of the bag read so far (0..1), for progress. */
  progress?: number;
}

export interface Ros2PacketOptions {
  /** Display name of the bag (errors, notes). */
  name: string;
  /** The lidar's profile: required for VelodyneScan topics, unused for PointCloud2. */
  profile: SensorProfile | null;
  /** The point topic; default the first VelodyneScan or PointCloud2 topic. */
  topic?: string;
  ctx?: DecodeContext;
  /** LogSourceInfo.format (default 'ros2-bag'). */
  format?: string;
  /** tf frame the poses are given in; default the root of the cloud frame's tree. */
  worldFrame?: string;
  /** Seconds of later stamps a point message waits for its poses (default 1). */
  poseLookaheadS?: number;
}

const POINT_TYPES = new Set([VELODYNE_SCAN_TYPE, POINT_CLOUD2_TYPE]);
/** Bytes of point messages held back waiting for poses before the oldest is let go anyway. */
const MAX_QUEUED_BYTES = 256 * 1024 * 1024;
/** A PointCloud2 sweep spans up to this after its header stamp (for waiting on poses). */
const CLOUD_SPAN_S = 0.2;
/** Laser count each known Velodyne product needs in the profile's first group. */
const PRODUCT_LASERS: Readonly<Record<number, number>> = { 0x21: 32, 0x22: 16, 0x24: 16, 0x28: 32 };

/** 'velodyne_msgs/VelodyneScan' → 'velodyne_msgs/msg/VelodyneScan'. */
export function normalizeRosType(type: string): string {
  const parts = type.split('/');
  return parts.length === 2 ? `${parts[0]}/msg/${parts[1]}` : type;
}

interface Pending {
  place: MessagePlace;
  frame: string;
  /** Stamp up to which poses are needed. */
  needT: number;
  bytes: number;
  bagTime: number;
  scan: VelodyneScan | null;
  cloud: PointCloud2 | null;
}

export function* ros2Packets(messages: Iterable<BagMessage>, opts: Ros2PacketOptions): Generator<DecodedPacket, LogSourceInfo, void> {
  const name = opts.name;
  const lookahead = opts.poseLookaheadS ?? 1;
  const tf = new TfTree(opts.worldFrame);
  const topicTypes = new Map<string, string>();
  const topicCounts = new Map<string, number>();
  let pointTopic: string | null = opts.topic ?? null;
  let pointType: string | null = null;
  let pointMessages = 0, packets = 0, rays = 0, misses = 0, dropped = 0, unposed = 0;
  let tfMessages = 0, odometryMessages = 0, badPoses = 0, skipped = 0, invalidBlocks = 0;
  let newestStamp = -Infinity;
  let lastProgress = -1;
  const queue: Pending[] = [];
  let queuedBytes = 0;
  const pose = new Float64Array(7);

  // Velodyne state, settled by the first packet.
  let profile: SensorProfile | null = opts.profile;
  let table: Float64Array | null = null;
  let product: number | null = null;
  let sensorName: string | null = null;
  let returnMode: VelodyneReturnMode | 'mixed' | null = null;
  let retimed = false;
  let cloudFields: string | null = null;
  let frameId: string | null = null;
  let poseWorld: string | null = null;
  let poseFrame: string | null = null;

  const settleVelodyne = (p: VelodyneDataPacket, place: MessagePlace): void => {
    product = p.productId;
    const sensor = p.lowerBlocks > 0 ? 'HDL-64E' : (VELODYNE_PRODUCTS[p.productId] ?? `product id 0x${p.productId.toString(16)}`);
    sensorName = sensor;
    if (!profile) {
      throw messageError(place, VELODYNE_SCAN_TYPE, `Velodyne ${sensor} packets need the sensor's profile to decode: give its calibration (e.g. the driver's YAML) or a built-in profile`);
    }
    const want = p.lowerBlocks > 0 ? 32 : PRODUCT_LASERS[p.productId];
    const have = profile.groups[0]?.lasers.length ?? 0;
    if (want !== undefined && have !== want) {
      throw messageError(place, VELODYNE_SCAN_TYPE, `the packets are from a Velodyne ${sensor} (${want} lasers per block) but profile '${profile.id}' has ${have} lasers in its first group`);
    }
    const model = velodyneTimingModel(p.productId, p.lowerBlocks);
    if (model) ({ profile, retimed } = velodyneProfileForModel(profile, model));
    table = velodyneLaserTable(profile);
  };

  const posed = (frame: string, t: number): ArrayLike<number> | null => {
    if (!tf.poseAt(frame, t, pose)) { unposed++; return null; }
    if (poseWorld === null) {
      const c = tf.chain(frame)!;
      poseWorld = c.world;
      poseFrame = c.frame;
    }
    return pose;
  };

  function* emit(item: Pending): Generator<DecodedPacket, void, void> {
    if (item.scan) {
      const scan = item.scan;
      const times = scanPacketTimes(scan, item.bagTime);
      for (let k = 0; k < scan.packets.length; k++) {
        const sp = scan.packets[k]!;
        const where = item.place.offset !== undefined ? item.place.offset + sp.offset : 0;
        let p: VelodyneDataPacket;
        try {
          p = decodeVelodyneData(sp.data, name, where);
        } catch (e) {
          if (e instanceof DecodeError) throw messageError({ ...item.place, offset: item.place.offset !== undefined ? where : undefined }, VELODYNE_SCAN_TYPE, `packet ${k}: ${e.reason}`);
          throw e;
        }
        if (!table) settleVelodyne(p, item.place);
        invalidBlocks += p.invalidBlocks;
        const mode = p.returnMode;
        returnMode = returnMode === null || returnMode === mode ? mode : 'mixed';
        let r;
        try {
          r = velodyneRays(p, profile!, table!);
        } catch (e) {
          if (e instanceof RangeError) throw messageError(item.place, VELODYNE_SCAN_TYPE, `packet ${k}: ${e.message}`);
          throw e;
        }
        const time = times[k]!;
        for (let i = 0; i < r.count; i++) if (Number.isNaN(r.range[i]!)) misses++;
        packets++;
        rays += r.count;
        // The packet's empty channels are the sensor's own misses: none are rebuilt on top.
        yield { time, pose: posed(item.frame, time), count: r.count, dir: r.dir, range: r.range, intensity: r.intensity, rayTime: r.time, ring: r.ring, ret: r.ret, recordsMisses: true };
      }
    } else if (item.cloud) {
      const pc = item.cloud;
      const c = pointCloud2Rays(pc);
      cloudFields ??= `intensity: ${c.fields.intensity ?? 'none'}, ring: ${c.fields.ring ?? 'none'}, time: ${c.fields.time ?? 'none'}`;
      dropped += c.dropped;
      const stamp = pc.header.stamp > 0 ? pc.header.stamp : item.bagTime;
      let time = stamp;
      let rayTime: Float32Array | null = null;
      if (c.time && c.count > 0) {
        // Clouds stamped at the end of their sweep have negative point times: the packet then
        // starts at the earliest point (ray times are ≥ 0); otherwise it keeps the header stamp,
        // the time its tf was published for.
        let t0 = 0;
        for (let i = 0; i < c.count; i++) if (c.time[i]! < t0) t0 = c.time[i]!;
        time = stamp + t0;
        rayTime = new Float32Array(c.count);
        for (let i = 0; i < c.count; i++) rayTime[i] = c.time[i]! - t0;
      }
      packets++;
      rays += c.count;
      yield { time, pose: posed(item.frame, time), count: c.count, dir: c.dir, range: c.range, intensity: c.intensity, rayTime, ring: c.ring, ret: null };
    }
  }

  /** Lets go of the point messages whose poses are known (or waited for long enough). */
  function* release(all: boolean): Generator<DecodedPacket, void, void> {
    while (queue.length > 0) {
      const head = queue[0]!;
      const ready = all || queuedBytes > MAX_QUEUED_BYTES || newestStamp - head.needT > lookahead || tf.coveredUntil(head.frame) >= head.needT;
      if (!ready) return;
      queue.shift();
      queuedBytes -= head.bytes;
      yield* emit(head);
    }
  }

  for (const m of messages) {
    const type = normalizeRosType(m.type);
    if (!topicTypes.has(m.topic)) topicTypes.set(m.topic, type);
    const index = topicCounts.get(m.topic) ?? 0;
    topicCounts.set(m.topic, index + 1);
    const place: MessagePlace = { file: name, topic: m.topic, index, ...(m.offset !== undefined ? { offset: m.offset } : {}) };
    const bagTime = Number(m.timestamp) * 1e-9;

    if (opts.ctx) {
      opts.ctx.checkCancelled();
      if (m.progress !== undefined && m.progress - lastProgress >= 0.01) {
        lastProgress = m.progress;
        opts.ctx.progress(m.progress, 'decoding messages');
      }
    }

    if (type === TF_MESSAGE_TYPE) {
      tfMessages++;
      const isStatic = m.topic.endsWith('tf_static');
      for (const t of decodeTfMessage(m.data, place)) {
        if (isStatic) tf.addStatic(t.parent, t.child, t.pose);
        else if (tf.addSample(t.parent, t.child, t.stamp, t.pose)) newestStamp = Math.max(newestStamp, t.stamp);
        else badPoses++;
      }
    } else if (type === ODOMETRY_TYPE) {
      odometryMessages++;
      const o = decodeOdometry(m.data, place);
      if (tf.addSample(o.parent, o.child, o.stamp, o.pose)) newestStamp = Math.max(newestStamp, o.stamp);
      else badPoses++;
    } else if (POINT_TYPES.has(type) && (pointTopic === null || pointTopic === m.topic)) {
      if (pointTopic === null) pointTopic = m.topic;
      if (pointType === null) pointType = type;
      else if (pointType !== type) throw messageError(place, type, `topic ${m.topic} changed type from ${pointType}`);
      pointMessages++;
      // Held messages must own their bytes (the source may reuse its buffer).
      const data = m.data.slice();
      let item: Pending;
      if (type === VELODYNE_SCAN_TYPE) {
        const scan = decodeVelodyneScan(data, place);
        const last = scan.packets.length > 0 ? scan.packets[scan.packets.length - 1]!.stamp : scan.header.stamp;
        item = { place, frame: scan.header.frameId, needT: Math.max(last, scan.header.stamp), bytes: data.byteLength, bagTime, scan, cloud: null };
      } else {
        const cloud = decodePointCloud2(data, place);
        item = { place, frame: cloud.header.frameId, needT: cloud.header.stamp + CLOUD_SPAN_S, bytes: data.byteLength, bagTime, scan: null, cloud };
      }
      frameId ??= item.frame;
      newestStamp = Math.max(newestStamp, item.needT);
      queue.push(item);
      queuedBytes += item.bytes;
    } else if (pointTopic === m.topic) {
      throw messageError(place, type, `topic ${m.topic} is ${type}, not ${VELODYNE_SCAN_TYPE} or ${POINT_CLOUD2_TYPE}`);
    } else {
      skipped++;
    }
    yield* release(false);
  }
  yield* release(true);

  if (pointMessages === 0) {
    const asked = opts.topic !== undefined ? topicTypes.get(opts.topic) : undefined;
    if (asked !== undefined) throw new DecodeError(name, `topic ${opts.topic} is ${asked}, not ${VELODYNE_SCAN_TYPE} or ${POINT_CLOUD2_TYPE}`);
    const seen = [...topicTypes].map(([t, ty]) => `${t} (${ty})`).join(', ') || 'none';
    const what = opts.topic ? `no messages on topic ${opts.topic}` : `no ${VELODYNE_SCAN_TYPE} or ${POINT_CLOUD2_TYPE} messages`;
    throw new DecodeError(name, `${what}; topics in the bag: ${seen}`);
  }

  const velodyne = pointType === VELODYNE_SCAN_TYPE;
  const p = product as number | null;
  const sensor = sensorName as string | null;
  const notes: LogSourceInfo['notes'] = {
    topic: pointTopic!,
    messageType: pointType!,
    pointMessages,
    packets,
    rays,
    frameId: frameId ?? '',
    tfMessages,
    odometryMessages,
    poseSource: poseWorld !== null ? `tf ${poseWorld} ← ${poseFrame}${poseFrame !== frameId ? ` (standing in for ${frameId})` : ''}` : 'none',
    packetsWithoutPose: unposed,
    otherMessages: skipped,
  };
  if (badPoses > 0) notes.unusablePoses = badPoses;
  if (velodyne) {
    notes.returnMode = returnMode ?? 'unknown';
    notes.emptyReturns = misses;
    if (invalidBlocks > 0) notes.blocksOutsideAzimuthRange = invalidBlocks;
    if (retimed) notes.profileTiming = 'VLP-32C firing layout applied to the profile';
  } else {
    notes.droppedPoints = dropped;
    if (cloudFields) notes.fields = cloudFields;
  }
  return {
    format: opts.format ?? 'ros2-bag',
    ...(velodyne && p !== null && sensor !== null ? { sensor } : {}),
    ...(velodyne && profile ? { profileId: (profile as SensorProfile).id } : {}),
    recordsMisses: velodyne,
    notes,
  };
}

/**
 * Packet times of a scan on the bag's clock: each packet's timestamp (µs past the hour, unwrapped
 * across the hour within the scan) plus the smallest (stamp − timestamp) over the scan, the
 * packet that waited least in the driver's buffers. Without stamps, the header stamp (or the
 * bag time) anchors the first packet.
 */
export function scanPacketTimes(scan: VelodyneScan, bagTime: number): Float64Array {
  const n = scan.packets.length;
  const g = new Float64Array(n);
  let offset = Infinity;
  for (let k = 0; k < n; k++) {
    const d = scan.packets[k]!.data;
    let v = (d[1200]! | (d[1201]! << 8) | (d[1202]! << 16) | (d[1203]! << 24)) >>> 0;
    v *= 1e-6;
    if (k > 0 && v < g[0]! - 1800) v += 3600;
    g[k] = v;
    const stamp = scan.packets[k]!.stamp;
    if (stamp > 0 && stamp - v < offset) offset = stamp - v;
  }
  if (!Number.isFinite(offset) && n > 0) offset = (scan.header.stamp > 0 ? scan.header.stamp : bagTime) - g[0]!;
  for (let k = 0; k < n; k++) g[k] = g[k]! + offset;
  return g;
}
