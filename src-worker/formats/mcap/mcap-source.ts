/**
 * MCAP files (ROS 2's default bag storage since Iron, Foxglove's format) read front to back from
 * a ByteSource: chunks (zstd, lz4 or none) are opened as they come, so the file streams through
 * a window and needs no index (a recording cut short still reads up to where it stops).
 *
 * A message's type is its channel's schema name ('sensor_msgs/msg/PointCloud2'); messages whose
 * encoding is not CDR are counted and skipped. Anything the MCAP library rejects (bad magic, CRC,
 * record layout, chunk compression) becomes a DecodeError with the byte offset of the record.
 */
import { truncationWarning } from '../truncation';
import { McapStreamReader, type McapTypes } from '@mcap/core';
import { DecodeError } from '../decode-error';
import type { ByteSource, DecodedPacket, LogSourceInfo } from '../log-source';
import { normalizeRosType, ros2Packets, type BagMessage, type Ros2PacketOptions } from '../ros2/ros2-packets';
import { ROS2_DECODED_TYPES } from '../ros2/index';
import { DECOMPRESS_HANDLERS, MAX_CHUNK_BYTES } from './compression';

export const MCAP_MAGIC = [0x89, 0x4d, 0x43, 0x41, 0x50, 0x30, 0x0d, 0x0a];
/** Bytes read from the source per step. */
const WINDOW = 4 * 1024 * 1024;
/** A record larger than this is corrupt (chunks are checked separately when opened). */
const MAX_RECORD_BYTES = MAX_CHUNK_BYTES + 1024;

export function isMcap(bytes: Uint8Array): boolean {
  return bytes.length >= MCAP_MAGIC.length && MCAP_MAGIC.every((b, i) => bytes[i] === b);
}

export interface McapReadSummary {
  messages: number;
  /** Messages passed on (the others were filtered out by type or were not CDR). */
  yielded: number;
  notCdr: number;
  /** Messages whose channel has no schema (type unknown). */
  untyped: number;
  /** The file ended without a footer (a recording cut short). */
  truncated: boolean;
  /** Where the last complete record ends and the bytes after it (an incomplete record), when truncated. */
  truncatedAt?: number;
  droppedBytes?: number;
  library: string;
  profile: string;
}

export interface McapMessageOptions {
  /** Only messages of these (normalised) types are passed on; default all. */
  types?: ReadonlySet<string>;
}

export function* mcapMessages(src: ByteSource, opts: McapMessageOptions = {}): Generator<BagMessage, McapReadSummary, void> {
  const name = src.name;
  const head = src.read(0, MCAP_MAGIC.length);
  if (!isMcap(head)) {
    throw new DecodeError(name, `not an MCAP file: it does not start with the MCAP magic (89 4D 43 41 50 30 0D 0A)`, { offset: 0 });
  }
  const reader = new McapStreamReader({ decompressHandlers: DECOMPRESS_HANDLERS, validateCrcs: true });
  const schemas = new Map<number, McapTypes.Schema>();
  const channels = new Map<number, { topic: string; type: string | null; cdr: boolean }>();
  const summary: McapReadSummary = { messages: 0, yielded: 0, notCdr: 0, untyped: 0, truncated: false, library: '', profile: '' };
  let appended = 0;

  const position = (): number => appended - reader.bytesRemaining();
  const fail = (e: unknown, at: number): never => {
    if (e instanceof DecodeError) throw e;
    // The library's bounds errors ("offset is out of bounds") say nothing of the file: a length field overran.
    const reason = e instanceof RangeError ? 'a length field inside the record runs past its end (the record is damaged)' : e instanceof Error ? e.message : String(e);
    throw new DecodeError(name, `MCAP record at byte ${at}: ${reason}`, { offset: at });
  };
  /** Next record, or undefined when more bytes are needed; library errors become DecodeErrors. */
  const next = (): McapTypes.TypedMcapRecord | undefined => {
    const at = position();
    try {
      return reader.nextRecord();
    } catch (e) {
      return fail(e, at);
    }
  };
  /** Bytes to append next: the rest of a pending record (checked against the file), at least a window. */
  const wanted = (): number => {
    const at = position();
    if (reader.bytesRemaining() >= 9 && at + 9 <= src.size) {
      const h = src.read(at + 1, 8);
      const len = new DataView(h.buffer, h.byteOffset, 8).getBigUint64(0, true);
      if (len > BigInt(MAX_RECORD_BYTES)) fail(new Error(`a record of ${len} bytes (opcode ${src.read(at, 1)[0]}) is beyond any real one`), at);
      return Math.max(WINDOW, 9 + Number(len) - reader.bytesRemaining());
    }
    return WINDOW;
  };

  for (;;) {
    const record = next();
    if (record === undefined) {
      if (reader.done() || appended >= src.size) break;
      const bytes = src.read(appended, Math.min(wanted(), src.size - appended));
      if (bytes.byteLength === 0) break;
      reader.append(bytes);
      appended += bytes.byteLength;
      continue;
    }
    switch (record.type) {
      case 'Header':
        summary.library = record.library;
        summary.profile = record.profile;
        break;
      case 'Schema':
        schemas.set(record.id, record);
        break;
      case 'Channel': {
        const schema = record.schemaId === 0 ? undefined : schemas.get(record.schemaId);
        if (record.schemaId !== 0 && !schema) fail(new Error(`channel ${record.id} (${record.topic}) names schema ${record.schemaId}, which has not been defined`), position());
        channels.set(record.id, { topic: record.topic, type: schema ? normalizeRosType(schema.name) : null, cdr: record.messageEncoding === 'cdr' });
        break;
      }
      case 'Message': {
        summary.messages++;
        const ch = channels.get(record.channelId)!; // the reader checks that the channel came first
        if (!ch.cdr) { summary.notCdr++; break; }
        if (ch.type === null) { summary.untyped++; break; }
        if (opts.types && !opts.types.has(ch.type)) break;
        summary.yielded++;
        yield { topic: ch.topic, type: ch.type, timestamp: record.logTime, data: record.data, progress: src.size > 0 ? position() / src.size : 1 };
        break;
      }
      default:
        break;
    }
  }
  if (!reader.done()) {
    // No footer: a recording cut short reads up to where it stops; a file with no message at all is refused.
    summary.truncated = true;
    const at = position();
    const left = reader.bytesRemaining();
    summary.truncatedAt = at;
    summary.droppedBytes = left;
    if (summary.messages === 0 && left > 0) {
      let what = `${left} bytes left over`;
      if (left >= 9) {
        const h = src.read(at, 9);
        what = `opcode ${h[0]} claims ${new DataView(h.buffer, h.byteOffset, 9).getBigUint64(1, true)} bytes, ${left - 9} follow`;
      }
      throw new DecodeError(name, `MCAP file ends inside the record at byte ${at} (${what}) before any message`, { offset: at });
    }
  }
  return summary;
}

/** An MCAP bag as DecodedPackets (the lead wires it to the importer and format detection). */
export function* mcapPackets(src: ByteSource, opts: Omit<Ros2PacketOptions, 'name' | 'format'> & { name?: string }): Generator<DecodedPacket, LogSourceInfo, void> {
  let summary: McapReadSummary | null = null;
  // Keeps the reader's return value (its summary) while ros2Packets iterates the messages.
  function* messages(): Generator<BagMessage, void, void> {
    summary = yield* mcapMessages(src, { types: ROS2_DECODED_TYPES });
  }
  const info = yield* ros2Packets(messages(), { ...opts, name: opts.name ?? src.name, format: 'mcap' });
  const s = summary as McapReadSummary | null;
  if (s) {
    info.notes.mcapLibrary = s.library;
    if (s.notCdr > 0) info.notes.nonCdrMessages = s.notCdr;
    if (s.truncated) {
      info.notes.truncated = true;
      // Every complete record up to the cut was read (truncation.ts); the summary section is gone too.
      const at = s.truncatedAt ?? src.size;
      info.warnings = [...(info.warnings ?? []), s.droppedBytes
        ? truncationWarning(opts.name ?? src.name, at, s.droppedBytes, `the ${s.messages} complete message(s) before it`)
        : `${opts.name ?? src.name}: ends at byte ${at} without its footer (a recording cut short); the ${s.messages} message(s) in it were kept`];
    }
  }
  return info;
}
