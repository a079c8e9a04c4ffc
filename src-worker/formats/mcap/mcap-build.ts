/**
 * A synchronous MCAP builder for small files: fuzz samples, tests, and re-packing bag messages
 * (McapWriter is asynchronous). One chunk holding every schema, channel and message, then the
 * data end and footer (no summary section: readers of this module stream and need none).
 */
import { McapChunkBuilder, McapRecordBuilder } from '@mcap/core';
import { compress as lz4Compress } from 'lz4js';

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 (IEEE), as MCAP's chunk records carry it. */
export function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export interface McapBuildMessage {
  topic: string;
  /** Schema name, e.g. 'sensor_msgs/msg/PointCloud2'. */
  type: string;
  /** Nanoseconds. */
  logTime: bigint;
  data: Uint8Array;
}

/**
 * Stores `data` in a zstd frame of raw (uncompressed) blocks: valid zstd any decoder reads, for
 * testing the zstd path without a zstd compressor.
 */
export function zstdStored(data: Uint8Array): Uint8Array {
  const MAX_BLOCK = 128 * 1024;
  const blocks = Math.max(1, Math.ceil(data.byteLength / MAX_BLOCK));
  const out = new Uint8Array(4 + 1 + 8 + blocks * 3 + data.byteLength);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, 0xfd2fb528, true);
  out[4] = 0xe0; // frame content size in 8 bytes, single segment, no checksum
  dv.setBigUint64(5, BigInt(data.byteLength), true);
  let o = 13;
  for (let b = 0; b < blocks; b++) {
    const part = data.subarray(b * MAX_BLOCK, Math.min(data.byteLength, (b + 1) * MAX_BLOCK));
    const header = (part.byteLength << 3) | (0 << 1) | (b === blocks - 1 ? 1 : 0); // raw block
    out[o] = header & 0xff; out[o + 1] = (header >> 8) & 0xff; out[o + 2] = (header >> 16) & 0xff;
    out.set(part, o + 3);
    o += 3 + part.byteLength;
  }
  return out;
}

/**
 * `crc: false` writes 0 as the chunk CRC ("not computed"), so a fuzzer's damage reaches the
 * record and message decoders instead of failing the checksum.
 */
export function buildMcap(
  messages: readonly McapBuildMessage[],
  opts: { compression?: 'lz4' | 'zstd' | 'none'; schemaTexts?: Readonly<Record<string, string>>; crc?: boolean } = {},
): Uint8Array {
  const enc = new TextEncoder();
  const rb = new McapRecordBuilder();
  const cb = new McapChunkBuilder({ useMessageIndex: false });
  rb.writeMagic();
  rb.writeHeader({ profile: 'ros2', library: 'thicket' });
  const schemaIds = new Map<string, number>();
  const channelIds = new Map<string, number>();
  let seq = 0;
  for (const m of messages) {
    let sid = schemaIds.get(m.type);
    if (sid === undefined) {
      sid = schemaIds.size + 1;
      schemaIds.set(m.type, sid);
      cb.addSchema({ id: sid, name: m.type, encoding: 'ros2msg', data: enc.encode(opts.schemaTexts?.[m.type] ?? '') });
    }
    let cid = channelIds.get(m.topic);
    if (cid === undefined) {
      cid = channelIds.size + 1;
      channelIds.set(m.topic, cid);
      cb.addChannel({ id: cid, topic: m.topic, schemaId: sid, messageEncoding: 'cdr', metadata: new Map() });
    }
    cb.addMessage({ channelId: cid, sequence: seq++, logTime: m.logTime, publishTime: m.logTime, data: m.data });
  }
  const raw = cb.buffer;
  const compression = opts.compression ?? 'lz4';
  const records = compression === 'lz4' ? lz4Compress(raw) : compression === 'zstd' ? zstdStored(raw) : raw;
  rb.writeChunk({
    messageStartTime: cb.messageStartTime,
    messageEndTime: cb.messageEndTime,
    uncompressedSize: BigInt(raw.byteLength),
    uncompressedCrc: opts.crc === false ? 0 : crc32(raw),
    compression: compression === 'none' ? '' : compression,
    records,
  });
  rb.writeDataEnd({ dataSectionCrc: 0 });
  rb.writeFooter({ summaryStart: 0n, summaryOffsetStart: 0n, summaryCrc: 0 });
  rb.writeMagic();
  return rb.buffer.slice();
}
