/**
 * Exporters through the services: a multi-packet log exported to PCD and to a KITTI folder,
 * read back with Thicket's own importers (round trip), and bad requests refused up front.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError } from '../../../src-main/api/contract';
import { EXPORT_FORMATS } from '../../../src-common/formats';
import { EXPORT_FORMAT_REGISTRY } from '../../../src-worker/formats/registry';
import { decodePcd } from '../../../src-worker/formats/pcd/pcd';
import { HAS_SHARED_DATA, dataFile } from '../../helpers/shared-data';
import { useAppServices } from '../../helpers/app-services';

const app = useAppServices({ workers: 2, project: 'x.thicket' });
let logId = 0;
let hits = 0;

async function exported(req: { source: { kind: 'log' | 'run'; id: number }; format: (typeof EXPORT_FORMATS)[number]; path: string }) {
  const { job } = await app.services.call('export.start', req);
  const final = await app.services.whenJobSettled(job.id);
  if (final.state !== 'done') throw new Error(`export ${final.state}: ${final.error}`);
  return final.result as Record<string, number | string>;
}

it('the API and the worker list the same export formats', () => {
  expect(Object.keys(EXPORT_FORMAT_REGISTRY)).toEqual([...EXPORT_FORMATS]);
});

describe.skipIf(!HAS_SHARED_DATA)('export a Velodyne log', () => {
  beforeAll(async () => {
    const { job } = await app.services.call('logs.importFile', { path: dataFile('veloview/vlp-16-test-90deg-1-50-frames.pcap') });
    const r = (await app.services.whenJobSettled(job.id)).result!;
    logId = Number(r.log);
    hits = Number(r.hits);
  });

  it('PCD: every hit, world frame, round trip through the PCD decoder', async () => {
    const path = join(app.dir, 'log.pcd');
    const r = await exported({ source: { kind: 'log', id: logId }, format: 'pcd', path });
    expect(r).toMatchObject({ format: 'pcd', points: hits, files: 1 });
    const cloud = decodePcd(readFileSync(path), 'log.pcd');
    expect(cloud.count).toBe(hits);
    const log = await app.services.call('logs.get', { id: logId });
    // Bounds of the exported points equal the log's (float32 rounding).
    let minZ = Infinity, maxZ = -Infinity;
    for (let i = 0; i < cloud.count; i++) { minZ = Math.min(minZ, cloud.xyz[3 * i + 2]!); maxZ = Math.max(maxZ, cloud.xyz[3 * i + 2]!); }
    expect(minZ).toBeCloseTo(log.bounds!.min[2], 4);
    expect(maxZ).toBeCloseTo(log.bounds!.max[2], 4);
  });

  it('PLY and LAS: every hit, read back by the importers within float32 / 1 mm', async () => {
    for (const format of ['ply', 'las'] as const) {
      const path = join(app.dir, `log.${format}`);
      const r = await exported({ source: { kind: 'log', id: logId }, format, path });
      expect(r).toMatchObject({ format, points: hits });
      const { job } = await app.services.call('logs.importFile', { path });
      const back = (await app.services.whenJobSettled(job.id)).result!;
      expect(back).toMatchObject({ format, hits });
      const [a, b] = [await app.services.call('logs.get', { id: logId }), await app.services.call('logs.get', { id: Number(back.log) })];
      for (const k of [0, 1, 2]) {
        expect(b.bounds!.min[k]).toBeCloseTo(a.bounds!.min[k]!, 2);
        expect(b.bounds!.max[k]).toBeCloseTo(a.bounds!.max[k]!, 2);
      }
    }
  });

  it('KITTI: one scan per revolution, poses.txt and times.txt', async () => {
    const dir = join(app.dir, 'kitti');
    const r = await exported({ source: { kind: 'log', id: logId }, format: 'kitti', path: dir });
    const scans = readdirSync(join(dir, 'velodyne'));
    // The capture holds 50 frames (its name says so; the head turns at 20 Hz): 50 scans, plus
    // partial ones at the ends.
    expect(scans.length).toBe(r.scans);
    expect(scans.length).toBeGreaterThanOrEqual(50);
    expect(scans.length).toBeLessThanOrEqual(52);
    const total = scans.reduce((n, f) => n + readFileSync(join(dir, 'velodyne', f)).byteLength / 16, 0);
    expect(total).toBe(hits);
    const poses = readFileSync(join(dir, 'poses.txt'), 'utf8').trim().split('\n');
    expect(poses).toHaveLength(scans.length);
    expect(poses[0]!.split(' ').map(Number)).toEqual([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0]);
    const times = readFileSync(join(dir, 'times.txt'), 'utf8').trim().split('\n').map(Number);
    expect(times[0]).toBe(0);
    expect(times[times.length - 1]).toBeGreaterThan(2.3);
  });
});

it('refuses a missing log or folder before any job', async () => {
  const err = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as ApiError);
  expect((await err(app.services.dispatch('export.start', { source: { kind: 'log', id: 999 }, format: 'pcd', path: join(app.dir, 'a.pcd') })))?.code).toBe('not_found');
  if (logId) {
    const e = await err(app.services.dispatch('export.start', { source: { kind: 'log', id: logId }, format: 'pcd', path: join(app.dir, 'nope', 'a.pcd') }));
    expect(e?.message).toMatch(/folder .* does not exist/);
  }
  expect(existsSync(join(app.dir, 'a.pcd'))).toBe(false);
});

describe.skipIf(!HAS_SHARED_DATA)('MCAP export round trip', () => {
  it('exports a Velodyne log to MCAP and reads it back as PointCloud2 with every hit', async () => {
    const { job } = await app.services.call('logs.importFile', { path: dataFile('rust_lidar_utils/velodyne_vlp16.pcap') });
    const r = (await app.services.whenJobSettled(job.id)).result!;
    const path = join(app.dir, 'vlp16.mcap');
    const e = await exported({ source: { kind: 'log', id: Number(r.log) }, format: 'mcap', path });
    expect(e).toMatchObject({ format: 'mcap', points: r.hits });
    const back = await app.services.call('logs.importFile', { path });
    const b = (await app.services.whenJobSettled(back.job.id)).result!;
    expect(b).toMatchObject({ format: 'mcap', hits: r.hits, misses: 0 });
  });
});
