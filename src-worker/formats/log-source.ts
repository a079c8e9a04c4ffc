/**
 * The one interface every drive-log format decodes to (after Lichtblick's IIterableSource): a
 * stream of sensor packets, each a set of rays from one sensor pose, read lazily from a
 * ByteSource so a log larger than memory streams through a fixed window. The importer
 * (formats/log-writer.ts) turns the stream into stored chunks: it zeroes the clock at the log's
 * start, applies external poses, rebuilds misses for hit-only formats and counts.
 *
 * To add a format: write a decoder that yields DecodedPacket from a ByteSource (throwing
 * DecodeError with the byte offset or line on bad input), a descriptor whose `open` returns it
 * (log-format.ts), and its line in registry.ts.
 */
import type { PacketChunk } from '../../src-common/packets';
import type { SensorProfile } from '../../src-common/sensor-profile';
import type { SourceRecord } from '../../src-common/source-record';

/** Random-access bytes of one file. Tasks implement it over `fs`; tests over memory. */
export interface ByteSource {
  /** Display name for errors (a file name, never a path). */
  readonly name: string;
  readonly size: number;
  /**
   * `length` bytes at `offset` (fewer only at the end of the file). The result may be a view of
   * an internal buffer that the next read reuses: copy what must outlive the next call.
   */
  read(offset: number, length: number): Uint8Array;
}

/** A ByteSource over bytes already in memory (uploads, tests, fuzzing). */
export function memorySource(name: string, bytes: Uint8Array): ByteSource {
  return {
    name,
    size: bytes.byteLength,
    read: (offset, length) => bytes.subarray(Math.max(0, offset), Math.min(bytes.byteLength, offset + length)),
  };
}

/** Reads a whole (small) source into one array: for scan formats that are not streamed. */
export function readAll(src: ByteSource): Uint8Array {
  return src.read(0, src.size).slice();
}

/**
 * One packet of rays as a format decodes it, in the sensor frame (x forward, y left, z up).
 * Arrays hold `count` entries (dir 3 per ray); they may be views the decoder reuses for its
 * next packet, so consumers copy what they keep.
 */
export interface DecodedPacket {
  /** Seconds on the format's clock (Unix time, or seconds since its start); monotone is not assumed. */
  time: number;
  /** world ← sensor (tx, ty, tz, qx, qy, qz, qw) when the format carries poses (tf, odometry). */
  pose?: ArrayLike<number> | null;
  count: number;
  dir: Float32Array;
  /** Metres; NaN for a miss. */
  range: Float32Array;
  intensity: Float32Array;
  /** Firing time after `time`, seconds; null = all 0. */
  rayTime: Float32Array | null;
  /** Laser index; null = unknown (RING_UNKNOWN). */
  ring: Uint16Array | null;
  /** Return number (0 first/only, 1 second); null = all 0. */
  ret: Uint8Array | null;
  /** Ground-truth object id / class (labelled formats); null = unknown. */
  object?: Uint32Array | null;
  cls?: Uint8Array | null;
  /**
   * The packet as the sensor sent it, when the format can store it packed (packed-rays.ts):
   * the store then keeps these bytes instead of the rays and rebuilds the rays on read with the
   * source's `decodeProfile`. A view, valid until the next packet.
   */
  packed?: { codec: 'velodyne'; bytes: Uint8Array } | null;
  /**
   * The sensor recorded this packet's misses itself (a VelodyneScan's empty channels), even
   * where it has none: misses are never rebuilt on top of it (rebuild-misses.ts).
   */
  recordsMisses?: boolean;
}

/** What a decoder learnt about the log besides its packets (shown in the log's metadata). */
export interface LogSourceInfo {
  /** Format id (a key of registry.ts's LOG_FORMAT_REGISTRY). */
  format: string;
  /** Sensor model recognised in the data, e.g. 'VLP-16', 'HDL-32E', 'OS1-128'. */
  sensor?: string;
  /** The built-in profile id matching the sensor, when there is one. */
  profileId?: string;
  /** Whether the format records misses itself (pcaps do: distance 0) or keeps only hits. */
  recordsMisses: boolean;
  /** Free-form facts for the log's metadata: return mode, skipped packets, GPS fixes, ... */
  notes: Record<string, string | number | boolean>;
  /** The profile that rebuilds packed packets' rays (set when packets carry `packed`). */
  decodeProfile?: SensorProfile;
  /** What the user should know but did not stop the decode (a truncated file's dropped bytes). */
  warnings?: string[];
  /** What the file held beside its packets, kept with the log for an export (a LAS header's). */
  source?: SourceRecord;
}

/** Options every streaming decoder receives. */
export interface DecodeContext {
  /** Throws when the job was cancelled; call it at least every few thousand packets. */
  checkCancelled(): void;
  /** fraction of the source consumed (0..1). */
  progress(fraction: number, message: string): void;
}

/** Where the writer sends finished chunks (the task posts them to the host, which stores them). */
export type ChunkSink = (chunk: PacketChunk) => void;
