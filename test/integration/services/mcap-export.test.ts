/**
 * MCAP export on the capture's clock, one PointCloud2 per revolution (the KITTI export's scans)
 * or per packet, read back with @mcap/core's stream reader, lz4js and @foxglove/cdr's reader —
 * none of Thicket's MCAP or CDR code.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { McapStreamReader } from '@mcap/core';
import { CdrReader } from '@foxglove/cdr';
import { decompress } from 'lz4js';
import { describe, expect, it } from 'vitest';
import { HAS_SHARED_DATA, dataFile } from '../../helpers/shared-data';
import { useAppServices } from '../../helpers/app-services';

const app = useAppServices({ workers: 2, project: 'mcap-export.thicket' });

async function done(jobId: number): Promise<Record<string, unknown>> {
  const job = await app.services.whenJobSettled(jobId);
  if (job.state !== 'done') throw new Error(`job ${job.kind} ${job.state}: ${job.error}`);
  return job.result!;
}

interface Cloud { logTime: bigint; stamp: bigint; frame: string; points: number }

/** The /points and /tf messages of an MCAP file, decoded from the specification's layout. */
function readMcap(path: string): { clouds: Cloud[]; tf: bigint[] } {
  const reader = new McapStreamReader({ decompressHandlers: { lz4: (b, size) => decompress(b, Number(size)) } });
  reader.append(readFileSync(path));
  const topics = new Map<number, string>();
  const clouds: Cloud[] = [], tf: bigint[] = [];
  for (let r = reader.nextRecord(); r; r = reader.nextRecord()) {
    if (r.type === 'Channel') topics.set(r.id, r.topic);
    if (r.type !== 'Message') continue;
    const c = new CdrReader(r.data);
    if (topics.get(r.channelId) === '/tf') {
      c.sequenceLength();
      tf.push(BigInt(c.int32()) * 1_000_000_000n + BigInt(c.uint32()));
      continue;
    }
    const stamp = BigInt(c.int32()) * 1_000_000_000n + BigInt(c.uint32());
    const frame = c.string();
    const height = c.uint32(), width = c.uint32();
    clouds.push({ logTime: r.logTime, stamp, frame, points: height * width });
  }
  expect(reader.done()).toBe(true);
  return { clouds, tf };
}

describe.skipIf(!HAS_SHARED_DATA)('MCAP export of a dated capture', () => {
  it('HDL-32E capture: one cloud per revolution (as many as the KITTI export\'s scans), stamped on the capture\'s clock; per packet on request', async () => {
    const cap = await done((await app.services.call('logs.importFile', { path: dataFile('rust_lidar_utils/hdl32_example.pcap') })).job.id);
    const id = Number(cap.log);
    const log = await app.services.call('logs.get', { id });
    const start = log.info.startTime as number;
    expect(start).toBeGreaterThan(1.3e9); // the capture's own clock (December 2012), not 1970
    const kitti = await done((await app.services.call('export.start', { source: { kind: 'log', id }, format: 'kitti', path: join(app.dir, 'hdl32_kitti') })).job.id);
    const times = readFileSync(join(app.dir, 'hdl32_kitti', 'times.txt'), 'utf8').trim().split('\n').map(Number);

    const path = join(app.dir, 'hdl32.mcap');
    const e = await done((await app.services.call('export.start', { source: { kind: 'log', id }, format: 'mcap', path })).job.id);
    const { clouds, tf } = readMcap(path);
    expect(clouds.length).toBe(kitti.scans);
    expect(e).toMatchObject({ scans: kitti.scans, points: cap.hits });
    expect(clouds.reduce((n, c) => n + c.points, 0)).toBe(cap.hits);
    // Each revolution starts where the KITTI scan does, on the capture's clock (µs: a double holds
    // Unix seconds to 0.24 µs).
    clouds.forEach((c, k) => {
      const want = (start + times[k]!) * 1e9;
      expect(Math.abs(Number(c.logTime) - want)).toBeLessThan(1000);
      expect(c.stamp).toBe(c.logTime);
      expect(c.frame).toBe('lidar');
    });
    expect(tf).toEqual(clouds.map((c) => c.stamp));

    const perPacket = join(app.dir, 'hdl32-packets.mcap');
    const p = await done((await app.services.call('export.start', { source: { kind: 'log', id }, format: 'mcap', path: perPacket, mcapMessages: 'packet' })).job.id);
    const back = readMcap(perPacket);
    expect(back.clouds.length).toBe(cap.packets);
    expect(p).toMatchObject({ scans: cap.packets, points: cap.hits });
    expect(Number(back.clouds[0]!.logTime)).toBeCloseTo(start * 1e9, -4);
  });
});
