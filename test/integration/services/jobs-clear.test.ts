// jobs.clear: the jobs panel's "Clear failed" removes the records of failed jobs, and only those.
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { syntheticKitti } from '../../helpers/temp';
import { useAppServices } from '../../helpers/app-services';

const app = useAppServices({ workers: 1 });

describe('jobs.clear', () => {
  it('removes failed jobs, keeps the rest and what they made, and tells clients', async () => {
    await app.services.call('project.create', { path: join(app.dir, 'jobs.thicket') });
    const bad = join(app.dir, 'cut.bin');
    writeFileSync(bad, syntheticKitti(100).subarray(0, 13));
    const good = join(app.dir, 'good.bin');
    writeFileSync(good, syntheticKitti(500));
    const failed = await app.services.whenJobSettled((await app.services.call('logs.importFile', { path: bad })).job.id);
    const done = await app.services.whenJobSettled((await app.services.call('logs.importFile', { path: good })).job.id);
    expect([failed.state, done.state]).toEqual(['failed', 'done']);

    const before = app.events.length;
    expect(await app.services.call('jobs.clear', {})).toEqual({ cleared: [failed.id] });
    expect((await app.services.call('jobs.list', {})).map((j) => j.id)).toEqual([done.id]);
    expect(await app.services.call('logs.list', {})).toHaveLength(1); // the done job's log stays
    expect(app.events.slice(before).some((e) => e.type === 'project' && e.entity === 'jobs')).toBe(true);
    expect(await app.services.call('jobs.clear', { states: ['failed'] })).toEqual({ cleared: [] });
    // A running or queued job cannot be cleared: the request names finished states only.
    await expect(app.services.dispatch('jobs.clear', { states: ['running'] })).rejects.toMatchObject({ code: 'invalid_request' });
  });
});
