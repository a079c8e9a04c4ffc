/**
 * A Velodyne capture (pcap / pcapng of the sensor's UDP stream) as a stream of DecodedPackets.
 *
 * - Model: the first data packets are held back until the packet rate is known; the rate, the
 *   HDL-64E lower blocks and the factory byte decide the model (velodyneModel), whose built-in
 *   profile decodes the log unless the caller gives one (a unit's own calibration).
 * - Time: the data packet's GPS timestamp counts microseconds past the hour; it is put on the
 *   capture's clock (the hour is taken from the pcap record time) and an hour is added each
 *   time the timestamp wraps, so a log crossing the hour stays monotone.
 * - Misses: a channel with distance 0 is a ray that returned nothing; it is kept (NaN range).
 * - Position packets (512 bytes, $GPRMC) are counted and their first fix is noted.
 */
import { DecodeError } from '../decode-error';
import type { ByteSource, DecodeContext, DecodedPacket, LogSourceInfo } from '../log-source';
import { emptyPcapStats, pcapWarnings, udpPackets, type UdpPacket } from '../pcap/pcap';
import {
  VELODYNE_PRODUCTS,
  VLP32C_PRODUCT_ID,
  decodeVelodyneData,
  decodeVelodynePosition,
  isVelodyneDataPacket,
  isVelodynePositionPacket,
  velodyneLaserTable,
  velodyneModel,
  velodyneRays,
  type VelodyneDataPacket,
  type VelodyneModel,
} from './velodyne-packet';
import type { SensorProfile } from '../../../src-common/sensor-profile';
import { builtinProfile } from '../../../src-common/builtin-profiles';

export interface VelodynePcapOptions {
  name: string;
  /** The unit's profile (from its calibration); null = the built-in profile of the detected model. */
  profile?: SensorProfile | null;
  ctx?: DecodeContext;
}

/** Data packets held back to measure the packet rate before the model is settled. */
const LOOKAHEAD = 32;
const HOUR = 3600;

const MODEL_PROFILE: Record<VelodyneModel, string> = { vlp16: 'vlp16', hdl32e: 'hdl32e', hdl64e: 'hdl64e' };
const MODEL_NAME: Record<VelodyneModel, string> = { vlp16: 'VLP-16', hdl32e: 'HDL-32E', hdl64e: 'HDL-64E' };

interface Held {
  udp: Pick<UdpPacket, 'time' | 'payloadOffset'>;
  packet: VelodyneDataPacket;
  /** The payload (a copy for packets held back: the pcap window moves on). */
  raw: Uint8Array;
}

export function* velodynePcapPackets(src: ByteSource, opts: VelodynePcapOptions): Generator<DecodedPacket, LogSourceInfo, void> {
  const name = opts.name;
  const stats = emptyPcapStats();
  let otherUdp = 0;
  let positions = 0;
  let fixes = 0;
  let firstFix: string | null = null;
  let dataPackets = 0;
  let missesNoted = 0;
  let invalidBlocks = 0;
  let profile: SensorProfile | null = opts.profile ?? null;
  let table: Float64Array | null = null;
  let model: VelodyneModel | null = null;
  let first: VelodyneDataPacket | null = null;
  let hourBase = NaN;
  let lastStamp = NaN;
  let wraps = 0;
  const held: Held[] = [];
  // Reused across packets once streaming (DecodedPacket arrays are views valid until the next one).
  let scratch: ReturnType<typeof velodyneRays> | null = null;
  let packetScratch: VelodyneDataPacket | undefined;

  const settle = (): void => {
    const p0 = held[0]!.packet;
    first = p0;
    const n = held.length;
    // Median spacing of the sensor's own timestamps (capture times come in bursts from the
    // capturing host's buffers); capture times only where the GPS clock does not advance.
    const gaps: number[] = [];
    for (let i = 1; i < n; i++) {
      const g = held[i]!.packet.timestamp - held[i - 1]!.packet.timestamp;
      if (g > 0 && g < 0.1) gaps.push(g);
    }
    if (gaps.length < n / 2) {
      gaps.length = 0;
      for (let i = 1; i < n; i++) gaps.push(held[i]!.udp.time - held[i - 1]!.udp.time);
    }
    gaps.sort((a, b) => a - b);
    const period = gaps.length > 0 ? gaps[gaps.length >> 1]! : undefined;
    model = velodyneModel(p0, period);
    if (!profile) {
      // The VLP-32C (product id 0x28: its 4 mm distances and paired firings) has a built-in too.
      const vlp32c = !model && p0.lowerBlocks === 0 && p0.productId === VLP32C_PRODUCT_ID ? builtinProfile('vlp32c') : null;
      if (!model && !vlp32c) {
        const product = VELODYNE_PRODUCTS[p0.productId] ?? `product id 0x${p0.productId.toString(16)}`;
        throw new DecodeError(
          name,
          `Velodyne ${product} at byte ${held[0]!.udp.payloadOffset}: no built-in profile for this model; import with its calibration (--calibration FILE)`,
          { offset: held[0]!.udp.payloadOffset },
        );
      }
      profile = vlp32c ?? builtinProfile(MODEL_PROFILE[model!])!;
    }
    table = velodyneLaserTable(profile);
  };

  const toPacket = (h: Held): DecodedPacket => {
    const stamp = h.packet.timestamp;
    if (Number.isNaN(hourBase)) {
      // The hour of the capture clock that puts this timestamp nearest the capture time.
      hourBase = h.udp.time > 0 ? Math.round((h.udp.time - stamp) / HOUR) * HOUR : 0;
    } else if (stamp < lastStamp - HOUR / 2) {
      hourBase += HOUR;
      wraps++;
    }
    lastStamp = stamp;
    let r;
    try {
      r = velodyneRays(h.packet, profile!, table!, scratch ?? undefined);
      scratch = r;
    } catch (e) {
      if (e instanceof RangeError) throw new DecodeError(name, `data packet at byte ${h.udp.payloadOffset}: ${e.message}`, { offset: h.udp.payloadOffset });
      throw e;
    }
    for (let i = 0; i < r.count; i++) if (Number.isNaN(r.range[i]!)) missesNoted++;
    return {
      time: hourBase + stamp, count: r.count, dir: r.dir, range: r.range, intensity: r.intensity, rayTime: r.time, ring: r.ring, ret: r.ret,
      packed: { codec: 'velodyne', bytes: h.raw },
    };
  };

  let lastProgress = 0;
  for (const udp of udpPackets(src, name, stats)) {
    const payload = udp.payload;
    if (isVelodyneDataPacket(payload)) {
      // Packets held back for the model decision keep their own arrays; later ones share one.
      const packet = decodeVelodyneData(payload, name, udp.payloadOffset, table ? packetScratch : undefined);
      if (table) packetScratch = packet;
      dataPackets++;
      invalidBlocks += packet.invalidBlocks;
      const h: Held = { udp: { time: udp.time, payloadOffset: udp.payloadOffset }, packet, raw: table ? payload : new Uint8Array(payload) };
      if (!table) {
        held.push(h);
        if (held.length < LOOKAHEAD) continue;
        settle();
        for (const x of held.splice(0)) yield toPacket(x);
        continue;
      }
      yield toPacket(h);
    } else if (isVelodynePositionPacket(payload)) {
      positions++;
      const pos = decodeVelodynePosition(payload, name, udp.payloadOffset);
      if (pos.fix?.valid) {
        fixes++;
        firstFix ??= `${pos.fix.lat.toFixed(6)}, ${pos.fix.lon.toFixed(6)}`;
      }
    } else {
      otherUdp++;
    }
    if (opts.ctx && (dataPackets & 1023) === 0) {
      opts.ctx.checkCancelled();
      const f = src.size > 0 ? udp.offset / src.size : 0;
      if (f - lastProgress > 0.01) {
        lastProgress = f;
        opts.ctx.progress(f, 'decoding packets');
      }
    }
  }
  if (!table) {
    if (held.length === 0) {
      throw new DecodeError(
        name,
        `no Velodyne data packets (1206-byte UDP payloads) in ${stats.udp} UDP datagrams of ${stats.records} records; is this an Ouster capture (give its metadata JSON)?`,
        { offset: 0 },
      );
    }
    settle();
    for (const x of held.splice(0)) yield toPacket(x);
  }
  const p0 = first as VelodyneDataPacket | null;
  const m = model as VelodyneModel | null;
  return {
    format: 'velodyne-pcap',
    sensor: m ? MODEL_NAME[m] : p0 ? VELODYNE_PRODUCTS[p0.productId] : undefined,
    profileId: profile!.id,
    decodeProfile: profile!,
    recordsMisses: true,
    notes: {
      dataPackets,
      returnMode: p0?.returnMode ?? 'unknown',
      positionPackets: positions,
      gpsFixes: fixes,
      ...(firstFix ? { firstFix } : {}),
      hourWraps: wraps,
      otherUdp,
      skippedFrames: stats.nonIpv4 + stats.nonUdp + stats.fragments + stats.malformed,
      emptyReturns: missesNoted,
      ...(invalidBlocks ? { blocksOutsideAzimuthRange: invalidBlocks } : {}),
    },
    warnings: pcapWarnings(stats, name),
  };
}
