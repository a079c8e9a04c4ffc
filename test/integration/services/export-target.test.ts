/**
 * Where an export may write: a relative path lands in the project's folder (not the host's working
 * folder), an existing file is a `conflict` until the request says `force`, and links, devices
 * and pipes are never written over.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError } from '../../../src-main/api/contract';
import { useAppServices } from '../../helpers/app-services';
import { syntheticKitti } from '../../helpers/temp';

const app = useAppServices({ workers: 1, project: 'site.thicket' });
let logId = 0;

const errorOf = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as ApiError);
async function exportTo(path: string, extra: { force?: boolean; format?: 'pcd' | 'kitti' } = {}) {
  const { job } = await app.services.call('export.start', { source: { kind: 'log', id: logId }, format: extra.format ?? 'pcd', path, ...(extra.force ? { force: true } : {}) });
  const final = await app.services.whenJobSettled(job.id);
  if (final.state !== 'done') throw new Error(`export ${final.state}: ${final.error}`);
  return final.result as { out: string };
}

beforeAll(async () => {
  const scan = join(app.dir, 'scan.bin');
  writeFileSync(scan, syntheticKitti(500));
  const { job } = await app.services.call('logs.importFile', { path: scan });
  logId = Number((await app.services.whenJobSettled(job.id)).result!.log);
});

describe('export.start', () => {
  it('refuses to overwrite an existing file without force, and replaces it with force', async () => {
    const victim = join(app.dir, 'victim.txt');
    writeFileSync(victim, 'keep me');
    const e = await errorOf(app.services.dispatch('export.start', { source: { kind: 'log', id: logId }, format: 'pcd', path: victim }));
    expect(e?.code).toBe('conflict');
    expect(e?.message).toBe(`${victim}: a file of that name exists; export again with force (thicket export --force) to replace it`);
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
    await exportTo(victim, { force: true });
    expect(readFileSync(victim, 'latin1')).toMatch(/^# \.PCD/);
  });

  it('takes a relative path in the project folder, not the working folder', async () => {
    const r = await exportTo('relative.pcd');
    expect(r.out).toBe(join(app.dir, 'relative.pcd'));
    expect(existsSync(join(app.dir, 'relative.pcd'))).toBe(true);
    expect(existsSync(join(process.cwd(), 'relative.pcd'))).toBe(false);
  });

  it('never writes through a link, even with force; a non-empty KITTI folder needs force', async () => {
    const target = join(app.dir, 'target.txt');
    writeFileSync(target, 'linked');
    symlinkSync(target, join(app.dir, 'link.pcd'));
    const e = await errorOf(app.services.dispatch('export.start', { source: { kind: 'log', id: logId }, format: 'pcd', path: join(app.dir, 'link.pcd'), force: true }));
    expect(e?.code).toBe('bad_input');
    expect(e?.message).toMatch(/link\.pcd: not a regular file/);
    expect(readFileSync(target, 'utf8')).toBe('linked');
    const folder = join(app.dir, 'scans_kitti');
    mkdirSync(folder);
    writeFileSync(join(folder, 'notes.txt'), 'mine');
    expect((await errorOf(app.services.dispatch('export.start', { source: { kind: 'log', id: logId }, format: 'kitti', path: folder })))?.code).toBe('conflict');
    await exportTo(folder, { format: 'kitti', force: true });
    expect(existsSync(join(folder, 'poses.txt'))).toBe(true);
  });
});
