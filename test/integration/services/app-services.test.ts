import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { syntheticKitti } from '../../helpers/temp';
import { HAS_SHARED_DATA, dataFile } from '../../helpers/shared-data';
import { useAppServices, expectApiError } from '../../helpers/app-services';

const app = useAppServices({ workers: 2 });

describe('AppServices dispatch', () => {
  it('rejects invalid requests with a clear error and changes nothing', async () => {
    const bad = join(app.dir, 'notes.txt');
    await expectApiError(app.services.dispatch('project.create', { path: bad }), 'invalid_request', 'path: a project file name ends in .thicket');
    expect(existsSync(bad)).toBe(false);
    await expectApiError(app.services.dispatch('project.create', { path: join(app.dir, 'a.thicket'), extra: 1 }), 'invalid_request');
    expect(existsSync(join(app.dir, 'a.thicket'))).toBe(false);
    await expectApiError(app.services.dispatch('logs.get', { id: -3 }), 'invalid_request', 'id');
    await expectApiError(app.services.dispatch('no.such', {}), 'unknown_method');
    await expectApiError(app.services.dispatch('logs.list', {}), 'no_project');
  });

  it('app.info describes the host', async () => {
    const info = await app.services.call('app.info', {});
    expect(info).toMatchObject({ name: 'Thicket', shell: 'web', workers: 2 });
    expect(info.schemaVersion).toBeGreaterThanOrEqual(1);
  });

  it('creates a project, refuses to create over it, and lists it as recent', async () => {
    const path = join(app.dir, 'p.thicket');
    const info = await app.services.call('project.create', { path });
    expect(info.name).toBe('p');
    expect(info.counts.driveLogs).toBe(0);
    await expectApiError(app.services.dispatch('project.create', { path }), 'conflict', 'already exists');
    expect((await app.services.call('project.current', {}))?.path).toBe(path);
    const recent = await app.services.call('project.recent', {});
    expect(recent[0]).toMatchObject({ path, exists: true });
    expect(app.events.some((e) => e.type === 'project' && e.entity === 'project')).toBe(true);
  });

  it('a malformed file fails its import job with the file and reason, and leaves no log', async () => {
    const bad = join(app.dir, 'broken.bin');
    // Less than one 16-byte point: nothing to keep (a longer cut keeps its whole points, with a warning).
    writeFileSync(bad, syntheticKitti(100).subarray(0, 13));
    const { job } = await app.services.call('logs.importFile', { path: bad });
    const final = await app.services.whenJobSettled(job.id);
    expect(final.state).toBe('failed');
    expect(final.error).toContain('broken.bin');
    expect(final.error).toMatch(/not a multiple of 16|truncated/);
    expect(await app.services.call('logs.list', {})).toHaveLength(0);
    expect((await app.services.call('project.current', {}))!.counts.driveLogs).toBe(0);
  });

  it('an unknown file type is refused before any job starts', async () => {
    const odd = join(app.dir, 'scan.xyz');
    writeFileSync(odd, 'hello');
    const jobsBefore = (await app.services.call('jobs.list', {})).length;
    await expectApiError(app.services.dispatch('logs.importFile', { path: odd }), 'bad_input', 'scan.xyz: unknown file type');
    await expectApiError(app.services.dispatch('logs.importFile', { path: join(app.dir, 'missing.bin') }), 'not_found', 'missing.bin: no such file');
    expect((await app.services.call('jobs.list', {})).length).toBe(jobsBefore);
  });

  it('imports uploaded bytes and serves a decimated display cloud', async () => {
    const bytes = syntheticKitti(50_000);
    const f = new Float32Array(bytes.slice(0, 32).buffer); // the upload's buffer is transferred to the worker
    const { job } = await app.services.call('logs.importBytes', { name: 'ring.bin', bytes });
    const final = await app.services.whenJobSettled(job.id);
    expect(final.state).toBe('done');
    expect(final.result).toMatchObject({ format: 'kitti-bin', packets: 1, points: 50_000 });
    const logId = final.result!.log as number;
    const log = await app.services.call('logs.get', { id: logId });
    expect(log).toMatchObject({ name: 'ring.bin', points: 50_000, hits: 50_000, misses: 0 });
    const cloud = await app.services.call('logs.cloud', { id: logId, budget: 10_000 });
    expect(cloud.totalPoints).toBe(50_000);
    expect(cloud.positions.length / 3).toBeLessThanOrEqual(10_000);
    expect(cloud.positions.length / 3).toBeGreaterThanOrEqual(9_000);
    expect(cloud.intensity.length).toBe(cloud.positions.length / 3);
    // Identity pose: world points equal the file's points; the first point is exact.
    expect(bytes.byteLength).toBe(0);
    expect(cloud.positions[0]).toBeCloseTo(f[0]!, 4);
    expect(cloud.positions[2]).toBeCloseTo(f[2]!, 4);
    expect(cloud.bounds!.min[2]).toBeCloseTo(-1.5, 4);
    expect(cloud.bounds!.max[2]).toBeCloseTo(-1.5 + 63 * 0.05, 4);
    expect(app.events.some((e) => e.type === 'project' && e.entity === 'driveLogs' && e.id === logId)).toBe(true);
    await app.services.call('logs.delete', { id: logId });
    await expectApiError(app.services.dispatch('logs.get', { id: logId }), 'not_found');
  });

  it('cancelling an import stops it and leaves no trace', async () => {
    const big = join(app.dir, 'big.bin');
    writeFileSync(big, syntheticKitti(6_000_000)); // 96 MB: long enough to cancel mid-way
    const { job } = await app.services.call('logs.importFile', { path: big });
    const t0 = Date.now();
    while ((await app.services.call('jobs.get', { id: job.id })).state === 'queued' && Date.now() - t0 < 10_000) await new Promise((r) => setTimeout(r, 5));
    await app.services.call('jobs.cancel', { id: job.id });
    const final = await app.services.whenJobSettled(job.id);
    expect(final.state).toBe('cancelled');
    expect(await app.services.call('logs.list', {})).toHaveLength(0);
  });

  describe.skipIf(!HAS_SHARED_DATA)('real scans', () => {
    it('imports the KITTI scan 000000.bin: 124,668 points in one packet', async () => {
      const { job } = await app.services.call('logs.importFile', { path: dataFile('overlapnet_kitti/000000.bin') });
      const final = await app.services.whenJobSettled(job.id);
      expect(final.result).toMatchObject({ format: 'kitti-bin', packets: 1, points: 124_668 });
      const bytes = readFileSync(dataFile('overlapnet_kitti/000000.bin'));
      expect(bytes.byteLength / 16).toBe(124_668);
    });
  });
});
