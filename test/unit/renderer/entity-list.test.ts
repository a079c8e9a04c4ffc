// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, defineStore, setActivePinia } from 'pinia';
import { fake, hostError } from './fake-api';

vi.mock('../../../src-renderer/api', () => import('./fake-api'));

const { useEntityList } = await import('../../../src-renderer/stores/entity-list');
const { useAppStore } = await import('../../../src-renderer/stores/app');
const { useRunsStore } = await import('../../../src-renderer/stores/runs');

interface Thing {
  id: number;
  name: string;
}

const useThings = defineStore('things', () =>
  useEntityList<Thing>({
    list: () => fake.call('things.list', {}) as Promise<Thing[]>,
    listError: 'Cannot list things',
    remove: (id) => fake.call('things.delete', { id }),
    removeError: (id) => `Cannot delete thing ${id}`,
  }),
);

describe('useEntityList', () => {
  let rows: Thing[];
  beforeEach(() => {
    setActivePinia(createPinia());
    fake.reset();
    rows = [
      { id: 1, name: 'a' },
      { id: 2, name: 'b' },
      { id: 3, name: 'c' },
    ];
    fake.handle('things.list', () => rows.map((r) => ({ ...r })));
    fake.handle('things.delete', (req) => {
      rows = rows.filter((r) => r.id !== req.id);
      return { deleted: 1 };
    });
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('lists, flags loading while it does, and indexes by id', async () => {
    const things = useThings();
    expect(things.loaded).toBe(false);
    const p = things.refresh();
    expect(things.loading).toBe(true);
    await p;
    expect(things.loading).toBe(false);
    expect(things.loaded).toBe(true);
    expect(things.list.map((t) => t.name)).toEqual(['a', 'b', 'c']);
    expect(things.byId.get(2)?.name).toBe('b');
  });

  it('drops a selection that left the list on refresh', async () => {
    const things = useThings();
    await things.refresh();
    things.selectedId = 3;
    rows = rows.slice(0, 2);
    await things.refresh();
    expect(things.selectedId).toBeNull();
    things.selectedId = 2;
    await things.refresh();
    expect(things.selectedId).toBe(2);
  });

  it('empties quietly when no project is open, and reports any other failure', async () => {
    const things = useThings();
    const app = useAppStore();
    await things.refresh();
    fake.handle('things.list', () => Promise.reject(hostError('no_project', 'no project is open')));
    await things.refresh();
    expect(things.list).toEqual([]);
    expect(app.error).toBeNull();

    fake.handle('things.list', () => Promise.reject(hostError('internal', 'disk on fire')));
    await things.refresh();
    expect(app.error).toEqual({ title: 'Cannot list things', message: 'disk on fire', code: 'client' });
  });

  it('removes on the host, then from the list and the selection; a failure is reported and kept', async () => {
    const things = useThings();
    const app = useAppStore();
    await things.refresh();
    things.selectedId = 2;
    expect(await things.remove(2)).toBe(true);
    expect(fake.calls.at(-1)).toEqual({ method: 'things.delete', req: { id: 2 } });
    expect(things.list.map((t) => t.id)).toEqual([1, 3]);
    expect(things.selectedId).toBeNull();

    fake.handle('things.delete', () => Promise.reject(hostError('not_found', 'thing 3 does not exist')));
    expect(await things.remove(3)).toBe(false);
    expect(things.list.map((t) => t.id)).toEqual([1, 3]);
    expect(app.error?.title).toBe('Cannot delete thing 3');
  });

  it('follows host events: subscribes once, and a burst of touching events is one reload', async () => {
    vi.useFakeTimers();
    const things = useThings();
    const touches = (e: { type: string; entity?: string }) => e.type === 'project' && e.entity === 'things';
    things.follow(touches as never);
    things.follow(touches as never); // a second call only reloads
    await vi.runAllTimersAsync();
    const lists = () => fake.methods().filter((m) => m === 'things.list').length;
    expect(lists()).toBe(2);

    for (let i = 0; i < 5; i++) fake.emit({ type: 'project', entity: 'things' } as never);
    fake.emit({ type: 'project', entity: 'scenes' } as never); // not ours
    await vi.advanceTimersByTimeAsync(119);
    expect(lists()).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(lists()).toBe(3);
  });

  it('serves the app stores: runs list and delete through the host API', async () => {
    fake.handle('runs.list', () => [{ id: 7, name: 'hdl32e hybrid' }]);
    fake.handle('runs.delete', () => ({}));
    const runs = useRunsStore();
    await runs.refresh();
    expect(runs.list.map((r) => r.id)).toEqual([7]);
    expect(await runs.remove(7)).toBe(true);
    expect(runs.list).toEqual([]);
    expect(fake.methods()).toEqual(['runs.list', 'runs.delete']);
  });
});
