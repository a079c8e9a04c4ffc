/**
 * Files cut mid-record keep every complete record, with a warning naming the byte where the
 * cut record starts and how many bytes were dropped (src-worker/formats/truncation.ts). Real
 * files are cut at several offsets into a temporary folder and decoded through the format
 * registry as an import does; the oracle is the same decoder on the whole file (the cut one
 * must give its first records exactly) and, for captures, on the file cut exactly at the record
 * boundary (a clean file: no warning).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HAS_SHARED_DATA, dataFile } from '../../helpers/shared-data';
import { tempDir } from '../../helpers/temp';
import { logFormat } from '../../../src-worker/formats/registry';
import { openFileSource } from '../../../src-worker/tasks/file-source';
import type { LogFormat } from '../../../src-common/formats';
import { decodeKittiBin } from '../../../src-worker/formats/kitti/kitti-bin';
import { decodePcd } from '../../../src-worker/formats/pcd/pcd';
import { decodePly } from '../../../src-worker/formats/ply/ply';
import { decodeLas, initLaz } from '../../../src-worker/formats/las/las';
import { encodeLas } from '../../../src-worker/formats/las/las-encode';
import { DECOMPRESS_HANDLERS, encodeMcapLog } from '../../../src-worker/formats/mcap/index';
import { McapStreamReader, McapWriter, TempBuffer } from '@mcap/core';
import { ChunkBuilder } from '../../../src-worker/formats/chunk-builder';
import type { DecodedCloud } from '../../../src-worker/formats/decoded-cloud';
import type { DecodeError } from '../../../src-worker/formats/decode-error';

const tmp = tempDir('thicket-cut-');
afterAll(() => tmp.cleanup());
const ctx = { checkCancelled: () => {}, progress: () => {} };

interface Decoded { packets: { time: number; count: number; firstRange: number }[]; warnings: string[] }

/** Every packet of a file as the import task opens it (registry descriptor, file source). */
function decodeFile(format: LogFormat, path: string, metadata: { name: string; text: string } | null = null): Decoded {
  const src = openFileSource(path, path.split('/').pop()!);
  try {
    const it = logFormat(format).open({ src, name: src.name, path, profile: null, metadata, ctx, openBag: () => { throw new Error('no bags'); } });
    const packets: Decoded['packets'] = [];
    for (let r = it.next(); ; r = it.next()) {
      if (r.done) return { packets, warnings: r.value.warnings ?? [] };
      packets.push({ time: r.value.time, count: r.value.count, firstRange: r.value.range[0]! });
    }
  } finally {
    src.close();
  }
}

function cutCopy(bytes: Uint8Array, at: number, name: string): string {
  const path = join(tmp.dir, name);
  writeFileSync(path, bytes.subarray(0, at));
  return path;
}

/** End offsets of the complete records of a classic pcap cut at `size`. */
function pcapRecordEnds(bytes: Uint8Array, size: number): number[] {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ends: number[] = [];
  for (let o = 24; o + 16 <= size;) {
    const end = o + 16 + dv.getUint32(o + 8, true);
    if (end > size) break;
    ends.push(end);
    o = end;
  }
  return ends;
}

const WARNING = (name: string, at: number, dropped: number) => `${name}: truncated at byte ${at}: the last ${dropped} byte(s), an incomplete record, were dropped`;

describe.skipIf(!HAS_SHARED_DATA)('captures cut mid-record keep every complete record', () => {
  const captures = [
    { format: 'velodyne-pcap' as const, file: 'rust_lidar_utils/velodyne_vlp16.pcap', metadata: null },
    { format: 'velodyne-pcap' as const, file: 'rust_lidar_utils/hdl32_example.pcap', metadata: null },
    { format: 'ouster-pcap' as const, file: 'ouster_sdk/OS-1-128_v2.3.0_1024x10_lb_n3.pcap', metadata: 'ouster_sdk/OS-1-128_v2.3.0_1024x10.json' },
  ];
  for (const c of captures) {
    it(`${c.file} cut at 4 offsets`, () => {
      const bytes = readFileSync(dataFile(c.file));
      const metadata = c.metadata ? { name: 'meta.json', text: readFileSync(dataFile(c.metadata), 'utf8') } : null;
      const whole = decodeFile(c.format, dataFile(c.file), metadata);
      expect(whole.warnings).toEqual([]);
      // Cut inside the first record: nothing to keep, so the capture's own error stands.
      expect(() => decodeFile(c.format, cutCopy(bytes, 24 + 5, 'first.pcap'), metadata)).toThrow(/^first\.pcap: no (Velodyne data|Ouster lidar) packets/);
      // Inside a payload, a byte short of the end, and mid-file.
      for (const cut of [Math.floor(bytes.length / 3) + 7, bytes.length - 1, Math.floor(bytes.length / 2)]) {
        const ends = pcapRecordEnds(bytes, cut);
        const boundary = ends.length ? ends[ends.length - 1]! : 24;
        expect(boundary).toBeLessThan(cut);
        const got = decodeFile(c.format, cutCopy(bytes, cut, `cut-${cut}.pcap`), metadata);
        expect(got.warnings).toHaveLength(1);
        expect(got.warnings[0]).toContain(WARNING(`cut-${cut}.pcap`, boundary, cut - boundary));
        expect(got.warnings[0]).toContain(`the ${ends.length} complete record(s) before it were kept`);
        // The same packets as the clean file ending at the boundary, and a prefix of the whole capture's.
        const clean = decodeFile(c.format, cutCopy(bytes, boundary, `clean-${cut}.pcap`), metadata);
        expect(clean.warnings).toEqual([]);
        expect(got.packets).toEqual(clean.packets);
        expect(got.packets).toEqual(whole.packets.slice(0, got.packets.length));
        if (cut > bytes.length / 2) expect(got.packets.length).toBeGreaterThan(whole.packets.length / 3);
      }
    });
  }
});

/** The cut cloud is the whole one's first `kept` points, bit for bit. */
function expectPrefix(cut: DecodedCloud, whole: DecodedCloud, kept: number): void {
  expect(cut.count).toBe(kept);
  expect(Array.from(cut.xyz)).toEqual(Array.from(whole.xyz.subarray(0, 3 * kept)));
  expect(Array.from(cut.intensity)).toEqual(Array.from(whole.intensity.subarray(0, kept)));
}

describe.skipIf(!HAS_SHARED_DATA)('scans cut mid-point keep their whole points', () => {
  it('KITTI .bin (16-byte points)', () => {
    const bytes = readFileSync(dataFile('overlapnet_kitti/000000.bin'));
    const whole = decodeKittiBin(bytes, '000000.bin');
    for (const cut of [16 * 1000 + 3, bytes.length - 1, 16 * 77_777 + 15]) {
      const kept = Math.floor(cut / 16);
      const got = decodeKittiBin(bytes.subarray(0, cut), 'cut.bin');
      expectPrefix(got, whole, kept);
      expect(got.warnings).toEqual([`${WARNING('cut.bin', 16 * kept, cut - 16 * kept)}; the ${kept} whole 16-byte point(s) before it were kept`]);
    }
    // The import path carries the warning to the log source's info.
    const path = cutCopy(bytes, 16 * 500 + 9, 'cut.bin');
    const d = decodeFile('kitti-bin', path);
    expect(d.packets[0]!.count).toBeLessThanOrEqual(500);
    expect(d.warnings[0]).toContain(WARNING('cut.bin', 8000, 9));
  });

  it('binary PCD (HDL-32E scan, 69,088 points)', () => {
    const bytes = readFileSync(dataFile('fast_gicp/251370668.pcd'));
    const whole = decodePcd(bytes, 'a.pcd');
    const head = bytes.length - whole.count * 16; // x y z intensity float32
    expect(whole.count).toBe(69_088);
    for (const cut of [head + 16 * 1234 + 5, bytes.length - 3]) {
      const kept = Math.floor((cut - head) / 16);
      const got = decodePcd(bytes.subarray(0, cut), 'cut.pcd');
      expectPrefix(got, whole, kept);
      expect(got.warnings).toEqual([`${WARNING('cut.pcd', head + 16 * kept, cut - head - 16 * kept)}; ${kept} of the 69088 points declared were kept`]);
    }
  });

  it('binary PLY with ring, time and range (RELLIS-3D OS1-64 scan)', () => {
    const bytes = readFileSync(dataFile('rellis3d/frame000104-1581624663_170.ply'));
    const whole = decodePly(bytes, 'a.ply');
    const record = (bytes.length - bytes.indexOf(Buffer.from('end_header\n')) - 11) / whole.count;
    expect(Number.isInteger(record)).toBe(true);
    const start = bytes.length - whole.count * record;
    for (const cut of [start + record * 4321 + 1, bytes.length - 1]) {
      const kept = Math.floor((cut - start) / record);
      const got = decodePly(bytes.subarray(0, cut), 'cut.ply');
      expectPrefix(got, whole, kept);
      expect(Array.from(got.ring!)).toEqual(Array.from(whole.ring!.subarray(0, kept)));
      expect(got.warnings![0]).toContain(WARNING('cut.ply', start + record * kept, cut - start - record * kept));
    }
  });

  it('uncompressed LAS (the TreeLS pine written as LAS 1.4); LAZ stays an error (its chunk table is at the end)', async () => {
    await initLaz();
    const laz = readFileSync(dataFile('treels_tls/pine.laz'));
    const las = encodeLas(decodeLas(laz, 'pine.laz'));
    const whole = decodeLas(las, 'pine.las');
    const record = 32, start = las.length - whole.count * record;
    const cut = start + record * 5000 + 17;
    const got = decodeLas(las.subarray(0, cut), 'cut.las');
    expectPrefix(got, whole, 5000);
    expect(got.warnings).toEqual([`${WARNING('cut.las', start + record * 5000, 17)}; 5000 of the ${whole.count} points declared were kept`]);
    let e: DecodeError | null = null;
    try {
      decodeLas(laz.subarray(0, laz.length - 100), 'cut.laz');
    } catch (x) {
      e = x as DecodeError;
    }
    expect(e?.message).toMatch(/^cut\.laz: .*(chunk table|truncated)/);
  });
});

/** The same records in chunks of about `chunkSize` bytes, as a long recording is (rosbag2 writes chunked MCAP). */
async function rechunk(bytes: Uint8Array, chunkSize: number): Promise<Uint8Array> {
  const reader = new McapStreamReader({ decompressHandlers: DECOMPRESS_HANDLERS });
  reader.append(bytes);
  const out = new TempBuffer();
  const writer = new McapWriter({ writable: out, chunkSize });
  const schemas = new Map<number, number>(), channels = new Map<number, number>();
  for (let r = reader.nextRecord(); r; r = reader.nextRecord()) {
    if (r.type === 'Header') await writer.start({ profile: r.profile, library: r.library });
    else if (r.type === 'Schema') schemas.set(r.id, await writer.registerSchema({ name: r.name, encoding: r.encoding, data: r.data }));
    else if (r.type === 'Channel') channels.set(r.id, await writer.registerChannel({ topic: r.topic, schemaId: schemas.get(r.schemaId) ?? 0, messageEncoding: r.messageEncoding, metadata: r.metadata }));
    else if (r.type === 'Message') await writer.addMessage({ channelId: channels.get(r.channelId)!, sequence: r.sequence, logTime: r.logTime, publishTime: r.publishTime, data: r.data });
  }
  await writer.end();
  return out.get();
}

describe.skipIf(!HAS_SHARED_DATA)('MCAP cut mid-chunk keeps the chunks before the cut', () => {
  it('the VLP-16 capture as MCAP PointCloud2, cut inside a chunk record', async () => {
    // A real capture's rays through Thicket's MCAP writer: 84 packets, one PointCloud2 per ~100 ms.
    const d = decodeFile('velodyne-pcap', dataFile('rust_lidar_utils/velodyne_vlp16.pcap'));
    const src = openFileSource(dataFile('rust_lidar_utils/velodyne_vlp16.pcap'), 'v.pcap');
    const it = logFormat('velodyne-pcap').open({ src, name: 'v.pcap', path: null, profile: null, metadata: null, ctx, openBag: () => { throw new Error('no'); } });
    const b = new ChunkBuilder(0);
    let t0 = NaN;
    for (let r = it.next(); !r.done; r = it.next()) {
      const p = r.value;
      if (Number.isNaN(t0)) t0 = p.time;
      b.beginPacket(p.time - t0, [0, 0, 0, 0, 0, 0, 1]);
      for (let i = 0; i < p.count; i++) b.pushRay(p.dir[3 * i]!, p.dir[3 * i + 1]!, p.dir[3 * i + 2]!, p.range[i]!, p.intensity[i]!, p.rayTime?.[i] ?? 0, p.ring?.[i] ?? 0, 0, 0, 0);
      b.endPacket();
    }
    src.close();
    expect(d.packets.length).toBe(84);
    const { bytes: written } = await encodeMcapLog([b.finish()], { timeOrigin: t0, messagePeriodS: 0.02, compression: 'none' });
    const bytes = await rechunk(written, 64 * 1024);
    const whole = decodeFile('mcap', cutCopy(bytes, bytes.length, 'whole.mcap'));
    expect(whole.warnings).toEqual([]);
    expect(whole.packets.length).toBeGreaterThan(2);
    const cut = Math.floor(bytes.length * 0.6);
    const got = decodeFile('mcap', cutCopy(bytes, cut, 'cut.mcap'));
    expect(got.warnings).toHaveLength(1);
    const m = /truncated at byte (\d+): the last (\d+) byte\(s\)/.exec(got.warnings[0]!)!;
    expect(Number(m[1]) + Number(m[2])).toBe(cut);
    expect(got.packets.length).toBeGreaterThan(0);
    expect(got.packets.length).toBeLessThan(whole.packets.length);
    expect(got.warnings[0]).toMatch(/^cut\.mcap: truncated at byte \d+: .*; the \d+ complete message\(s\) before it were kept$/);
    expect(got.packets).toEqual(whole.packets.slice(0, got.packets.length));
  });
});
