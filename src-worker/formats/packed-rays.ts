/**
 * Packed chunks: a capture's packets stored as the sensor sent them.
 *
 * Decoded, a Velodyne data packet (1,206 bytes) becomes 384 rays of 32 bytes each (direction,
 * range, intensity, time, ring, return, object, class): ten times the capture. Storing that
 * would make a 1 GB capture a 10 GB project and its import disk-bound. So a capture's chunks keep
 * per packet the time, the pose and the ray offsets (all that can change on import: the clock,
 * a poses file, dual-return deduplication) and the raw payloads; the rays are rebuilt on read by
 * the same decoder, with the profile the log was imported with, so they are bit-identical to
 * what the import counted.
 */
import { DecodeError } from './decode-error';
import { PACKED_STRIDE, POSE_STRIDE, type PackedCodec, type PacketChunk, type PackedRays } from '../../src-common/packets';
import { decodeVelodyneData, velodyneLaserTable, velodyneRays } from './velodyne/velodyne-packet';
import type { SensorProfile } from '../../src-common/sensor-profile';
import { grown } from '../arrays/typed-arrays';

const EMPTY = {
  rayDir: new Float32Array(0),
  rayRange: new Float32Array(0),
  rayIntensity: new Float32Array(0),
  rayTime: new Float32Array(0),
  rayRing: new Uint16Array(0),
  rayReturn: new Uint8Array(0),
  rayObject: new Uint32Array(0),
  rayClass: new Uint8Array(0),
};

/** Accumulates packets of one codec into a packed chunk (the LogWriter's packed mode). */
export class PackedChunkBuilder {
  packetCount = 0;
  rayCount = 0;
  private times: number[] = [];
  private poses: number[] = [];
  private starts: number[] = [0];
  private bytes: Uint8Array<ArrayBuffer>;
  private readonly stride: number;

  constructor(readonly packetStart: number, readonly codec: PackedCodec, capacityPackets = 256) {
    this.stride = PACKED_STRIDE[codec];
    this.bytes = new Uint8Array(this.stride * Math.max(1, capacityPackets));
  }

  /** One packet: its raw payload (copied), time, pose and the number of rays it decodes to. */
  add(raw: Uint8Array, time: number, pose: ArrayLike<number>, rays: number): void {
    if (raw.length !== this.stride) throw new RangeError(`packed ${this.codec} packet of ${raw.length} bytes, expected ${this.stride}`);
    if ((this.packetCount + 1) * this.stride > this.bytes.length) {
      this.bytes = grown(this.bytes, this.bytes.length * 2);
    }
    this.bytes.set(raw, this.packetCount * this.stride);
    this.times.push(time);
    for (let i = 0; i < POSE_STRIDE; i++) this.poses.push(pose[i]!);
    this.rayCount += rays;
    this.starts.push(this.rayCount);
    this.packetCount++;
  }

  finish(): PacketChunk {
    return {
      packetStart: this.packetStart,
      packetCount: this.packetCount,
      rayCount: this.rayCount,
      packetTime: Float64Array.from(this.times),
      packetPose: Float64Array.from(this.poses),
      rayStart: Uint32Array.from(this.starts),
      ...EMPTY,
      packed: { codec: this.codec, bytes: this.bytes.slice(0, this.packetCount * this.stride) },
    };
  }
}

/**
 * A stored chunk as its reader needs it: a packed chunk's rays rebuilt with the decoder the store
 * attached (the profile the log was imported with); any other chunk as it is.
 */
export function withRays<C extends PacketChunk>(chunk: C): C {
  const d = chunk.packed?.decoder;
  return d ? (unpackChunk(chunk, d.profile, d.origin) as C) : chunk;
}

/**
 * The chunk with its rays rebuilt from the packed payloads by `profile` (the one the log was
 * imported with). Throws when a packet no longer decodes to the stored number of rays: the
 * chunk or the profile was changed behind Thicket's back.
 */
export function unpackChunk(c: PacketChunk, profile: SensorProfile, where = 'packed chunk'): PacketChunk {
  const packed: PackedRays | undefined = c.packed;
  if (!packed) return c;
  if (packed.codec !== 'velodyne') throw new Error(`${where}: unknown packed codec '${String(packed.codec)}'`);
  const stride = PACKED_STRIDE.velodyne;
  if (packed.bytes.length !== c.packetCount * stride) throw new Error(`${where}: ${packed.bytes.length} packed bytes for ${c.packetCount} packets`);
  const n = c.rayCount;
  const out: PacketChunk = {
    packetStart: c.packetStart,
    packetCount: c.packetCount,
    rayCount: n,
    packetTime: c.packetTime,
    packetPose: c.packetPose,
    rayStart: c.rayStart,
    rayDir: new Float32Array(3 * n),
    rayRange: new Float32Array(n),
    rayIntensity: new Float32Array(n),
    rayTime: new Float32Array(n),
    rayRing: new Uint16Array(n),
    rayReturn: new Uint8Array(n),
    rayObject: new Uint32Array(n),
    rayClass: new Uint8Array(n),
  };
  const table = velodyneLaserTable(profile);
  for (let p = 0; p < c.packetCount; p++) {
    const payload = packed.bytes.subarray(p * stride, (p + 1) * stride);
    let r;
    try {
      r = velodyneRays(decodeVelodyneData(payload, where, p * stride), profile, table);
    } catch (e) {
      if (e instanceof DecodeError || e instanceof RangeError) throw new Error(`${where}: packet ${c.packetStart + p} no longer decodes: ${e.message}`, { cause: e });
      throw e;
    }
    const s = c.rayStart[p]!;
    if (r.count !== c.rayStart[p + 1]! - s) throw new Error(`${where}: packet ${c.packetStart + p} decodes to ${r.count} rays, ${c.rayStart[p + 1]! - s} were stored`);
    out.rayDir.set(r.dir.subarray(0, 3 * r.count), 3 * s);
    out.rayRange.set(r.range.subarray(0, r.count), s);
    out.rayIntensity.set(r.intensity.subarray(0, r.count), s);
    out.rayTime.set(r.time.subarray(0, r.count), s);
    out.rayRing.set(r.ring.subarray(0, r.count), s);
    out.rayReturn.set(r.ret.subarray(0, r.count), s);
  }
  // The log's saved labels (docs/labeling.md) in place of the decoder's zeros.
  if (packed.labels && packed.labels.rayClass.length === n && packed.labels.rayObject.length === n) {
    out.rayClass.set(packed.labels.rayClass);
    out.rayObject.set(packed.labels.rayObject);
  }
  return out;
}
