/**
 * The canonical in-memory form of a drive log: packets of rays, struct-of-arrays — the data model
 * every layer shares (docs/design.md, "Data model").
 *
 * A packet is what a lidar emits at one instant from one sensor pose; each ray has a
 * direction in the sensor frame (x forward, y left, z up) and either a range (a hit)
 * or NaN (a miss). Decoders of every format produce chunks of packets; the store keeps
 * each chunk's arrays as BLOBs; simulation writes the same shape. Chunks are cut at packet
 * boundaries so no packet spans two chunks.
 */
import type { SensorProfile } from './sensor-profile';

export const POSE_STRIDE = 7; // tx, ty, tz, qx, qy, qz, qw   (world <- sensor)
export const RING_UNKNOWN = 0xffff;
export const CLASS_UNKNOWN = 0;

export interface PacketChunk {
  /** Index of this chunk's first packet within the log. */
  packetStart: number;
  packetCount: number;
  rayCount: number;
  /** Seconds since the log's start, one per packet. */
  packetTime: Float64Array<ArrayBuffer>;
  /** Sensor pose per packet, POSE_STRIDE numbers each. */
  packetPose: Float64Array<ArrayBuffer>;
  /** packetCount + 1 offsets into this chunk's rays. */
  rayStart: Uint32Array<ArrayBuffer>;
  /** Unit direction per ray in the sensor frame, 3 each. */
  rayDir: Float32Array<ArrayBuffer>;
  /** Range in metres; NaN for a miss. */
  rayRange: Float32Array<ArrayBuffer>;
  rayIntensity: Float32Array<ArrayBuffer>;
  /** Firing time of the ray relative to its packet's time, seconds. */
  rayTime: Float32Array<ArrayBuffer>;
  /** Laser (ring) index, RING_UNKNOWN where the format does not say. */
  rayRing: Uint16Array<ArrayBuffer>;
  /** Return number within its pulse: 0 = first/only return, 1 = second (dual-return sensors). */
  rayReturn: Uint8Array<ArrayBuffer>;
  /** Ground truth: id of the object hit (0 = none / unknown): simulation and labelled logs. */
  rayObject: Uint32Array<ArrayBuffer>;
  /** Ground truth: class of what was hit (CLASS_UNKNOWN = 0 where not known). */
  rayClass: Uint8Array<ArrayBuffer>;
  /**
   * Set on a capture's chunk as stored: the packets' raw payloads, from which the rays are
   * rebuilt on read (src-worker/formats/packed-rays.ts). The ray arrays are then empty; rayStart and
   * rayCount still say how many rays each packet decodes to. Worker code that reads stored
   * chunks passes them through withRays first.
   */
  packed?: PackedRays;
}

export const PACKED_CODECS = ['velodyne'] as const;
export type PackedCodec = (typeof PACKED_CODECS)[number];

/** Bytes per packet of each codec (a Velodyne data packet's UDP payload is 1,206 bytes). */
export const PACKED_STRIDE: Record<PackedCodec, number> = { velodyne: 1206 };

/** A capture's packets as the sensor sent them, `codec`-sized each, concatenated. */
export interface PackedRays {
  codec: PackedCodec;
  bytes: Uint8Array<ArrayBuffer>;
  /**
   * Set on a stored chunk as the store reads it: the profile the log was imported with, which
   * decodes the payloads, and where the chunk is (for errors). The store does not decode: the
   * worker that reads the chunk rebuilds its rays (src-worker/formats/packed-rays.ts, withRays),
   * so a capture's ten-fold expansion never happens on the host thread.
   */
  decoder?: { profile: SensorProfile; origin: string };
  /**
   * The log's saved labels for this chunk's rays (docs/labeling.md), set as the store reads it:
   * they replace the decoded rays' classes and object ids.
   */
  labels?: { rayClass: Uint8Array<ArrayBuffer>; rayObject: Uint32Array<ArrayBuffer> };
}

/** Array-valued fields of a chunk, in a fixed order (used by the store and transfer lists). */
export const CHUNK_ARRAY_FIELDS = [
  'packetTime',
  'packetPose',
  'rayStart',
  'rayDir',
  'rayRange',
  'rayIntensity',
  'rayTime',
  'rayRing',
  'rayReturn',
  'rayObject',
  'rayClass',
] as const;
export type ChunkArrayField = (typeof CHUNK_ARRAY_FIELDS)[number];

export const IDENTITY_POSE: readonly number[] = [0, 0, 0, 0, 0, 0, 1];

/** The buffers of a chunk, for a transfer list. */
export function chunkBuffers(c: PacketChunk): ArrayBuffer[] {
  const buffers = CHUNK_ARRAY_FIELDS.map((f) => c[f].buffer);
  // Empty arrays of a packed chunk share one module-level buffer: never transfer (detach) those.
  return c.packed ? [c.packetTime.buffer, c.packetPose.buffer, c.rayStart.buffer, c.packed.bytes.buffer] : buffers;
}
