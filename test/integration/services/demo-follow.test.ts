/**
 * The demo as the app's card sees it (demo.create, then 'demo' events): the small demo through to
 * done, and a demo cancelled before its drives are stored removing the project file it created
 * (and its recent-list entry); an existing project opened for the demo is never removed.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useAppServices } from '../../helpers/app-services';
import type { ApiEvent, DemoEvent } from '../../../src-main/api/contract';

const demoEvents = (events: ApiEvent[]) => events.filter((e): e is DemoEvent => e.type === 'demo');

async function until(events: ApiEvent[], phase: DemoEvent['phase'][], ms = 120_000): Promise<DemoEvent> {
  const deadline = Date.now() + ms;
  for (;;) {
    const e = demoEvents(events).find((x) => phase.includes(x.phase));
    if (e) return e;
    if (Date.now() > deadline) throw new Error(`no demo event ${phase.join('/')} in ${ms} ms: ${JSON.stringify(demoEvents(events))}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('demo.create followed to its end', () => {
  const fx = useAppServices({ workers: 1, prefix: 'thicket-demo-follow-' });

  it('a cancelled demo leaves no file and no recent entry; it can be tried again to the end', async () => {
    const { services, events } = fx;
    const path = join(fx.dir, 'Demo.thicket');
    events.length = 0;
    const { job } = await services.call('demo.create', { path, small: true });
    expect(existsSync(path)).toBe(true);
    await services.call('jobs.cancel', { id: job.id });
    const end = await until(events, ['cancelled', 'failed', 'done']);
    expect(end).toMatchObject({ phase: 'cancelled', removed: true });
    expect(existsSync(path)).toBe(false);
    expect(existsSync(`${path}-wal`)).toBe(false);
    expect(await services.call('project.current', {})).toBeNull();
    expect((await services.call('project.recent', {})).map((r) => r.path)).not.toContain(path);

    events.length = 0;
    await services.call('demo.create', { path, small: true });
    const done = await until(events, ['cancelled', 'failed', 'done']);
    expect(done.phase, done.message ?? '').toBe('done');
    expect(demoEvents(events).map((e) => e.phase)).toEqual(['site', 'drives', 'done']);
    expect((await services.call('project.current', {}))!.counts.driveLogs).toBe(2);
  }, 240_000);

  it('never removes a project that existed before the demo', async () => {
    const { services, events } = fx;
    const path = join(fx.dir, 'Mine.thicket');
    await services.call('project.create', { path });
    events.length = 0;
    const { job } = await services.call('demo.create', { path, small: true });
    await services.call('jobs.cancel', { id: job.id });
    const end = await until(events, ['cancelled', 'failed', 'done']);
    expect(end).toMatchObject({ phase: 'cancelled', removed: false });
    expect(existsSync(path)).toBe(true);
    expect((await services.call('project.current', {}))!.path).toBe(path);
  }, 120_000);
});
