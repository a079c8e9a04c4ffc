import { readFileSync } from 'node:fs';
import { McapRecordBuilder } from '@mcap/core';
import { describe, expect, it } from 'vitest';
import { HAS_SHARED_DATA, dataFile } from '../../../helpers/shared-data';
import { memorySource, type ByteSource, type DecodedPacket } from '../../../../src-worker/formats/log-source';
import { buildMcap, mcapMessages, mcapPackets, type McapBuildMessage } from '../../../../src-worker/formats/mcap/index';
import { POINT_CLOUD2_TYPE, TF_MESSAGE_TYPE, encodePointCloud2, encodeTfMessage } from '../../../../src-worker/formats/ros2/index';
import { importCalibration } from '../../../../src-worker/sensors/calibration/index';
import { db3Messages, db3Packets } from '../../../../src-worker/tasks/ros2-db3-file';
import { decodeErrorOf } from '../helpers';

const T0 = 1_700_000_000;
const NS0 = BigInt(T0) * 1_000_000_000n;

function sampleMessages(): McapBuildMessage[] {
  const out: McapBuildMessage[] = [];
  for (let k = 0; k < 5; k++) {
    const t = T0 + k * 0.1;
    out.push({ topic: '/tf', type: TF_MESSAGE_TYPE, logTime: NS0 + BigInt(k) * 100_000_000n, data: encodeTfMessage([{ stamp: t, parent: 'world', child: 'lidar', pose: [k, 0, 0, 0, 0, 0, 1] }]) });
    out.push({ topic: '/points', type: POINT_CLOUD2_TYPE, logTime: NS0 + BigInt(k) * 100_000_000n + 1n, data: encodePointCloud2({ stamp: t, frameId: 'lidar' }, { count: 3, xyz: [1, 0, 0, 0, 2, 0, 0, 0, 3] }) });
  }
  return out;
}

/** A ByteSource that records how far it was read, to check streaming. */
function countingSource(bytes: Uint8Array): ByteSource & { maxEnd: number } {
  const s = { ...memorySource('bag.mcap', bytes), maxEnd: 0 };
  const read = s.read;
  s.read = (offset: number, length: number) => { s.maxEnd = Math.max(s.maxEnd, offset + length); return read(offset, length); };
  return s;
}

describe('MCAP reading', () => {
  for (const compression of ['lz4', 'zstd', 'none'] as const) {
    it(`${compression} chunks: messages come out in order with their topics, schema types and log times`, () => {
      const bytes = buildMcap(sampleMessages(), { compression });
      const gen = mcapMessages(memorySource('bag.mcap', bytes));
      const seen: string[] = [];
      let r = gen.next();
      for (; !r.done; r = gen.next()) seen.push(`${r.value.topic} ${r.value.type} ${BigInt(r.value.timestamp) - NS0}`);
      expect(seen.slice(0, 2)).toEqual([`/tf ${TF_MESSAGE_TYPE} 0`, `/points ${POINT_CLOUD2_TYPE} 1`]);
      expect(seen).toHaveLength(10);
      expect(r.value).toMatchObject({ messages: 10, yielded: 10, truncated: false, library: 'thicket', profile: 'ros2' });
    });
  }

  it('packets from PointCloud2 + tf, posed', () => {
    const gen = mcapPackets(memorySource('bag.mcap', buildMcap(sampleMessages())), { profile: null });
    const packets: DecodedPacket[] = [];
    let r = gen.next();
    for (; !r.done; r = gen.next()) packets.push({ ...r.value, pose: r.value.pose ? Array.from(r.value.pose) : null });
    expect(packets.map((p) => p.pose![0])).toEqual([0, 1, 2, 3, 4]);
    expect(r.value).toMatchObject({ format: 'mcap', recordsMisses: false, notes: { mcapLibrary: 'thicket', pointMessages: 5, poseSource: 'tf world ← lidar' } });
  });

  it('streams: a large file is read in windows, not at once', () => {
    const big: McapBuildMessage[] = [];
    for (let k = 0; k < 40; k++) big.push({ topic: '/blob', type: 'std_msgs/msg/ByteMultiArray', logTime: BigInt(k), data: new Uint8Array(1 << 20).fill(k) });
    // One chunk per message, uncompressed: 40 MiB.
    const parts = big.map((m) => buildMcap([m], { compression: 'none' }));
    const rb = new McapRecordBuilder();
    rb.writeMagic();
    rb.writeHeader({ profile: 'ros2', library: 'thicket' });
    const head = rb.buffer.slice();
    // Chunks of each single-message file: between its header and its data end.
    const bodies = parts.map((p) => p.subarray(head.byteLength, p.byteLength - (9 + 4) - (9 + 20) - 8));
    const total = head.byteLength + bodies.reduce((n, b) => n + b.byteLength, 0);
    const file = new Uint8Array(total);
    file.set(head);
    let o = head.byteLength;
    for (const b of bodies) { file.set(b, o); o += b.byteLength; }
    const src = countingSource(file);
    const gen = mcapMessages(src);
    gen.next();
    // The first message needs its chunk only: one 4 MiB window.
    expect(src.maxEnd).toBeLessThanOrEqual(4 * 1024 * 1024 + 64);
    let n = 1, r = gen.next();
    for (; !r.done; r = gen.next()) n++;
    expect(n).toBe(40);
    // No footer: a recording cut short still reads to its end.
    expect(r.value.truncated).toBe(true);
  });

  it('bad input is a DecodeError with the byte offset of the record', () => {
    const good = buildMcap(sampleMessages());
    const notMcap = decodeErrorOf(() => [...mcapMessages(memorySource('x.mcap', new TextEncoder().encode('hello world, not a bag')))]);
    expect(notMcap.offset).toBe(0);
    expect(notMcap.reason).toMatch(/not an MCAP file/);

    const crc = buildMcap(sampleMessages(), { compression: 'none' });
    crc[crc.length >> 1]! ^= 0xff; // inside the chunk's records: its CRC no longer matches
    const e = decodeErrorOf(() => [...mcapMessages(memorySource('x.mcap', crc))]);
    expect(e.message).toMatch(/^x\.mcap: MCAP record at byte 36: Incorrect chunk CRC/);
    expect(e.offset).toBe(36); // magic 8 + header record 28

    // A record running past the end of the file, before any message.
    const huge = good.slice();
    new DataView(huge.buffer).setBigUint64(8 + 1, 1n << 40n, true); // the header record's length
    expect(decodeErrorOf(() => [...mcapMessages(memorySource('x.mcap', huge))]).reason).toMatch(
      /^MCAP file ends inside the record at byte 8 \(opcode 1 claims 1099511627776 bytes, \d+ follow\) before any message$/,
    );
  });

  it('a chunk that claims an absurd uncompressed size is refused before allocating it', () => {
    const bytes = buildMcap(sampleMessages(), { compression: 'lz4' });
    // Chunk record after magic (8) + header record: opcode, length, then message start/end (16) and uncompressed size.
    const headerLen = Number(new DataView(bytes.buffer).getBigUint64(9, true));
    const chunk = 8 + 9 + headerLen;
    expect(bytes[chunk]).toBe(0x06);
    new DataView(bytes.buffer).setBigUint64(chunk + 9 + 16, 1n << 36n, true);
    expect(decodeErrorOf(() => [...mcapMessages(memorySource('x.mcap', bytes))]).reason).toMatch(/lz4 chunk claims 68719476736 uncompressed bytes/);
  });

  it.skipIf(!HAS_SHARED_DATA)('the nebula VLP-32C bag re-packed as MCAP decodes to the same packets as the .db3', () => {
    const bag = dataFile('nebula_velodyne/vlp32/1713492677464078412_0.db3');
    const profile = importCalibration(readFileSync(dataFile('nebula_velodyne/VLP32.yaml'), 'utf8'), 'VLP32.yaml').profile;
    const messages = [...db3Messages(bag)].map((m) => ({ topic: m.topic, type: m.type, logTime: m.timestamp as bigint, data: m.data }));
    const fromDb3: DecodedPacket[] = [...db3Packets(bag, { profile })].map((p) => ({ ...p, range: p.range.slice() }));
    for (const compression of ['lz4', 'zstd'] as const) {
      const gen = mcapPackets(memorySource('vlp32.mcap', buildMcap(messages, { compression })), { profile });
      let k = 0, r = gen.next();
      for (; !r.done; r = gen.next(), k++) {
        expect(r.value.time).toBe(fromDb3[k]!.time);
        expect(r.value.range).toEqual(fromDb3[k]!.range);
      }
      expect(k).toBe(379);
      expect(r.value).toMatchObject({ format: 'mcap', sensor: 'VLP-32C', notes: { returnMode: 'strongest' } });
    }
  });
});
