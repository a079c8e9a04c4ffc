// @vitest-environment happy-dom
/**
 * The Label page against a stand-in API: it loads the log's labels, classes and versions, shows the
 * palette with per-class counts, selects every point and assigns the class picked by number key,
 * undoes and redoes from the keyboard, saves 3 s after the last edit with the version the edits
 * started from and the aligned per-point arrays and boxes, and on a conflict asks before saving on
 * top. (No WebGL here: the 3D view shows its "unavailable" overlay; the screen tools are covered by
 * label-selection.test.ts and the end-to-end test.)
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { h } from 'vue';
import { RouterView, createMemoryHistory, createRouter } from 'vue-router';
import type { LabelCloud, LabelVersionInfo } from '../../../src-main/api/contract';
import { fake, hostError } from './fake-api';
// The Label page's test hook on window (a declaration only).
import type {} from '../../../src-renderer/components/labels/label-hook';

vi.mock('../../../src-renderer/api', () => import('./fake-api'));

const { default: LabelView } = await import('../../../src-renderer/views/LabelView.vue');

const N = 6;
function cloud(version: number | null): LabelCloud {
  return {
    logId: 4, version, points: N, origin: [100, 200, 0],
    positions: Float32Array.from([0, 0, 0, 1, 0, 0, 2, 0, 1, 0, 1, 0, 1, 1, 2, 2, 2, 3]),
    rayIndex: Uint32Array.from({ length: N }, (_, i) => i * 2), packet: new Uint32Array(N),
    classes: Uint8Array.from([1, 1, 0, 0, 0, 0]), instances: Uint32Array.from([0, 0, 5, 3, 3, 0]),
    confidence: new Float32Array(N).fill(1), heightAboveGround: Float32Array.from([0, 0, 1, 0.1, 2, 3]),
    sweepStart: Uint32Array.from([0, 3]), entries: [],
  };
}
const CLASSES = [
  { id: 0, name: 'unlabelled', color: '#808080', asprs: 1 },
  { id: 1, name: 'ground', color: '#8b6b3d', asprs: 2 },
  { id: 2, name: 'grass', color: '#7fc35a', asprs: 3 },
  { id: 7, name: 'small tree', color: '#2f8f4e', asprs: 5 },
];
const version = (v: number): LabelVersionInfo => ({ id: 10 + v, logId: 4, version: v, source: 'edit', author: '', note: '', createdAt: '2026-01-01T00:00:00Z', points: N, labelled: 2, counts: [], changed: null, objects: 1 });

async function open() {
  const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/logs/:id/label', component: LabelView, props: { id: 4 } }, { path: '/:p(.*)*', component: { render: () => null } }] });
  await router.push('/logs/4/label');
  const w = mount({ render: () => h(RouterView) }, { global: { plugins: [router] }, attachTo: document.body });
  await flushPromises();
  return w;
}
const objects = (w: Awaited<ReturnType<typeof open>>) => w.findAll('[data-testid^="object-"]').map((r) => r.attributes('data-testid'));
const press = async (key: string, mods: Partial<KeyboardEventInit> = {}) => {
  window.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...mods }));
  await flushPromises();
};
const count = (w: Awaited<ReturnType<typeof open>>, id: number) => w.get(`[data-testid="class-${id}"] .count`).text();

describe('the Label page', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    fake.reset();
    fake.handle('logs.get', () => ({ id: 4, name: 'scan.bin' }));
    fake.handle('labels.cloud', () => cloud(1));
    fake.handle('labels.classes', () => CLASSES);
    fake.handle('labels.versions', () => [version(1)]);
  });
  afterEach(() => {
    vi.useRealTimers();
    document.body.innerHTML = '';
  });

  it('assigns by keyboard, undoes, redoes and autosaves on top of the version it loaded', async () => {
    const w = await open();
    expect(w.get('h1').text()).toBe('Label · scan.bin');
    expect(count(w, 1)).toBe('2');
    expect(objects(w)).toEqual(['object-3', 'object-5']);
    expect(window.__thicketLabels).toMatchObject({ ready: true, points: N, version: 1, dirty: false });

    vi.useFakeTimers();
    await press('3'); // the palette's third class (unlabelled is not in it): small tree
    await press('a', { ctrlKey: true }); // select all
    expect(window.__thicketLabels!.selected).toBe(N);
    await press('a'); // assign
    expect(count(w, 7)).toBe('6');
    expect(w.findAll('[data-testid="history-done"]').map((h) => h.text())).toEqual(['small tree → 6 points']);
    await press('z', { ctrlKey: true });
    expect(count(w, 7)).toBe('0');
    expect(count(w, 1)).toBe('2');
    await press('Z', { ctrlKey: true, shiftKey: true });
    expect(count(w, 7)).toBe('6');
    expect(window.__thicketLabels!.dirty).toBe(true);

    let saved: Record<string, unknown> | null = null;
    fake.handle('labels.save', (req) => ((saved = req), version(2)));
    fake.handle('labels.versions', () => [version(2), version(1)]);
    await vi.advanceTimersByTimeAsync(2900);
    expect(saved).toBeNull();
    await vi.advanceTimersByTimeAsync(200);
    await flushPromises();
    expect(saved).not.toBeNull();
    const req = saved as unknown as { logId: number; baseVersion: number; classes: Uint8Array; instances: Uint32Array; entries: { id: number; class: number; label: string }[] };
    expect(req.logId).toBe(4);
    expect(req.baseVersion).toBe(1);
    expect([...req.classes]).toEqual([7, 7, 7, 7, 7, 7]);
    expect([...req.instances]).toEqual([0, 0, 5, 3, 3, 0]);
    expect(req.entries.map((e) => [e.id, e.class, e.label])).toEqual([[3, 7, 'small tree'], [5, 7, 'small tree']]);
    expect(window.__thicketLabels).toMatchObject({ dirty: false, version: 2 });
    expect(w.get('[data-testid="label-save-state"]').text()).toBe('Saved v2');
    expect(w.findAll('[data-testid="version-row"]').map((r) => r.attributes('data-version'))).toEqual(['2', '1']);
    w.unmount();
  });

  it('merges the objects the selection touches, and makes a new object from the selection', async () => {
    const w = await open();
    await press('a', { ctrlKey: true });
    await press('m');
    expect(objects(w)).toEqual(['object-3']);
    expect(w.findAll('[data-testid="history-done"]').map((h) => h.text())).toEqual(['Merge 2 objects into #3']);
    await press('z', { ctrlKey: true });
    expect(objects(w)).toEqual(['object-3', 'object-5']);
    await press('n');
    expect(objects(w)).toEqual(['object-6']);
    // A click on an object's row selects its points.
    await press('Escape');
    await w.get('[data-testid="object-6"]').trigger('click');
    expect(window.__thicketLabels!.selected).toBe(N);
    w.unmount();
  });

  it('splits an object by clustering and at its middle, groups a patch and ungroups it, all undoable', async () => {
    const w = await open();
    const done = () => w.findAll('[data-testid="history-done"]').map((h) => h.text());
    // Object 3 is two points 2.2 m apart: two clusters at 0.5 m; the first keeps the id.
    await w.get('[data-testid="object-3"]').trigger('click');
    await press('x');
    expect(objects(w)).toEqual(['object-3', 'object-5', 'object-6']);
    expect(done()).toEqual(['Split #3 into 2 clusters (0.5 m)']);
    await press('z', { ctrlKey: true });
    expect(objects(w)).toEqual(['object-3', 'object-5']);
    await w.get('[data-testid="object-3"]').trigger('click');
    await press('X', { shiftKey: true });
    expect(objects(w)).toEqual(['object-3', 'object-5', 'object-6']);
    await press('z', { ctrlKey: true });
    // The cut tool's line (the viewport's event; screen x = (world x / (1 + world y) + 1) × 50): x 62 parts points 3 (50) and 4 (75).
    await w.get('[data-testid="object-3"]').trigger('click');
    const view = { matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1], width: 100, height: 100, centre: [0, 0, 0] };
    w.findComponent({ name: 'LabelViewport' }).vm.$emit('cut', [62, 0], [62, 100], view);
    await flushPromises();
    expect(objects(w)).toEqual(['object-3', 'object-5', 'object-6']);
    expect(done().at(-1)).toBe('Cut #3 into #3 and #6');
    await press('z', { ctrlKey: true });

    let saved: { instances: Uint32Array; entries: { id: number; patch?: boolean; box: { size: number[] } }[] } | null = null;
    fake.handle('labels.save', (req) => ((saved = req as unknown as typeof saved), version(2)));
    await press('a', { ctrlKey: true });
    await press('g');
    expect(objects(w)).toEqual(['object-3']);
    expect(w.find('[data-testid="patch-tag"]').exists()).toBe(true);
    await press('s', { ctrlKey: true });
    expect(saved!.entries.map((e) => [e.id, e.patch])).toEqual([[3, true]]);
    expect([...saved!.instances]).toEqual([0, 0, 3, 3, 3, 0]);
    await press('G', { shiftKey: true });
    expect(objects(w)).toEqual(['object-3', 'object-5']);
    expect(w.find('[data-testid="patch-tag"]').exists()).toBe(false);
    expect(done().slice(-2)).toEqual(['Patch #3 of 2 objects', 'Ungroup patch #3']);
    await press('z', { ctrlKey: true });
    expect(w.find('[data-testid="patch-tag"]').exists()).toBe(true);
    w.unmount();
  });

  it('edits an object\'s box by hand, saves it, undoes it, and selects inside it with O', async () => {
    const w = await open();
    await w.get('[data-testid="object-3"]').trigger('click');
    await press('Escape');
    const field = w.get('[data-testid="box-W"] input');
    (field.element as HTMLInputElement).value = '2.2';
    await field.trigger('input');
    await field.trigger('blur');
    await flushPromises();
    expect(w.findAll('[data-testid="history-done"]').map((h) => h.text())).toEqual(['Box of #3 set']);
    expect(w.get('[data-testid="box-editor"]').text()).toContain('set by hand');
    let saved: { entries: { id: number; boxSet?: boolean; box: { center: number[]; size: number[]; yaw: number } }[] } | null = null;
    fake.handle('labels.save', (req) => ((saved = req as unknown as typeof saved), version(2)));
    await press('s', { ctrlKey: true });
    expect(saved!.entries[0]!.box.size.map((v) => +v.toFixed(3))).toEqual([1, 2.2, 2]);
    expect(saved!.entries.map((e) => e.boxSet)).toEqual([true, undefined]);
    // The box (x 0–1, y −0.1–2.1, z 0–2 about the origin) holds points 0, 1, 3 and 4.
    await press('o');
    expect(window.__thicketLabels!.selected).toBe(4);
    await press('z', { ctrlKey: true });
    expect(w.get('[data-testid="box-editor"]').text()).toContain('fitted');
    w.unmount();
  });

  it('lists a version saved elsewhere, asks on a conflict, and saves on top of the newest version when told to', async () => {
    const w = await open();
    await press('a', { ctrlKey: true });
    await press('Delete');
    fake.handle('labels.save', () => Promise.reject(hostError('conflict', 'version 2 of log 4 was saved after version 1')));
    await press('s', { ctrlKey: true });
    expect(w.get('[data-testid="label-conflict"]').text()).toContain('version 2 of log 4 was saved after version 1');
    const bases: unknown[] = [];
    // The other version shows in the panel as soon as the host says the log changed.
    fake.handle('labels.versions', () => [version(2), version(1)]);
    fake.emit({ type: 'project', entity: 'driveLogs', id: 4 });
    await flushPromises();
    expect(w.findAll('[data-testid="version-row"]').map((r) => r.attributes('data-version'))).toEqual(['2', '1']);
    fake.handle('labels.save', (req) => (bases.push(req.baseVersion), version(3)));
    const over = w.get('[data-testid="label-conflict"]').findAll('button').find((b) => b.text().startsWith('Save mine'))!;
    await over.trigger('click');
    await flushPromises();
    expect(bases).toEqual([2]);
    expect(w.find('[data-testid="label-conflict"]').exists()).toBe(false);
    w.unmount();
  });

  it('shows and selects one sweep at a time in the per-sweep view', async () => {
    const w = await open();
    expect(window.__thicketLabels!.shown).toBe(N);
    await press('w');
    expect(w.get('[data-testid="sweep-bar"]').attributes('data-on')).toBe('true');
    expect(window.__thicketLabels!.shown).toBe(3); // sweep 1: points 0–2
    await press('a', { ctrlKey: true });
    expect(window.__thicketLabels!.selected).toBe(3);
    await press('.');
    expect(w.get('[data-testid="sweep-bar"]').attributes('data-sweep')).toBe('1');
    expect(window.__thicketLabels!.selected).toBe(0); // another sweep: the selection is cleared
    await press('a', { ctrlKey: true });
    await press('2');
    await press('Enter');
    expect(count(w, 2)).toBe('3');
    await press('w');
    expect(window.__thicketLabels!.shown).toBe(N);
    w.unmount();
  });

  it('hides a class: its points are neither drawn nor selected', async () => {
    const w = await open();
    await w.get('[data-testid="class-eye-1"]').trigger('click'); // ground: points 0 and 1
    expect(window.__thicketLabels!.shown).toBe(N - 2);
    await press('a', { ctrlKey: true });
    expect(window.__thicketLabels!.selected).toBe(N - 2);
    await press('i');
    expect(window.__thicketLabels!.selected).toBe(0);
    await w.get('[data-testid="class-eye-0"]').trigger('click'); // and the unlabelled ones
    expect(window.__thicketLabels!.shown).toBe(0);
    await w.get('[data-testid="class-eye-1"]').trigger('click');
    await w.get('[data-testid="class-eye-0"]').trigger('click');
    expect(window.__thicketLabels!.shown).toBe(N);
    w.unmount();
  });

  it('saves the edits on leaving the page', async () => {
    const w = await open();
    await press('a', { ctrlKey: true });
    await press('Delete');
    const saves: unknown[] = [];
    fake.handle('labels.save', (req) => (saves.push(req.baseVersion), version(2)));
    const router = (w.vm as unknown as { $router: { push(p: string): Promise<unknown> } }).$router;
    await router.push('/logs/4');
    await flushPromises();
    expect(saves).toEqual([1]);
    w.unmount();
  });

  it('adds a class to the project\'s list and puts it in the palette', async () => {
    const w = await open();
    await w.get('[data-testid="class-edit"]').trigger('click');
    await flushPromises();
    const click = async (id: string) => {
      (document.body.querySelector(`[data-testid="${id}"]`) as HTMLElement).click();
      await flushPromises();
    };
    await click('class-add');
    expect(document.body.querySelector('[data-testid="class-row-3"]')).not.toBeNull();
    let sent: { id: number; name: string }[] = [];
    fake.handle('labels.saveClasses', (req) => {
      sent = req.classes as typeof sent;
      return [...CLASSES, { id: 3, name: 'class 3', color: '#c0c0c0', asprs: 1 }];
    });
    await click('class-save');
    expect(sent.map((c) => [c.id, c.name])).toEqual([[0, 'unlabelled'], [1, 'ground'], [2, 'grass'], [7, 'small tree'], [3, 'class 3']]);
    expect(w.find('[data-testid="class-3"]').exists()).toBe(true);
    w.unmount();
  });

  it('imports a label file as a new version and loads it, and exports the version shown', async () => {
    const w = await open();
    const click = async (id: string) => {
      (document.body.querySelector(`[data-testid="${id}"]`) as HTMLElement).click();
      await flushPromises();
    };
    const type = async (id: string, value: string) => {
      const input = document.body.querySelector(`[data-testid="${id}"]`) as HTMLInputElement;
      input.value = value;
      input.dispatchEvent(new Event('input'));
      await flushPromises();
    };
    await w.get('[data-testid="label-import"]').trigger('click');
    await flushPromises();
    await type('label-file-path', '/data/000104.label');
    await type('label-file-classmap', '/data/ontology.yaml');
    let imported: Record<string, unknown> | null = null;
    fake.handle('labels.import', (req) => ((imported = req), { ...version(2), source: 'import' }));
    fake.handle('labels.cloud', () => cloud(2));
    fake.handle('labels.versions', () => [version(2), version(1)]);
    await click('label-file-start');
    expect(imported).toEqual({ logId: 4, path: '/data/000104.label', classMap: '/data/ontology.yaml' });
    expect(w.get('[data-testid="label-notice"]').text()).toBe('Imported as version 2.');
    expect(window.__thicketLabels!.version).toBe(2);

    await w.get('[data-testid="label-export"]').trigger('click');
    await flushPromises();
    await type('label-file-path', '/out/scan.label');
    const exports: Record<string, unknown>[] = [];
    fake.handle('labels.export', (req) => {
      exports.push(req);
      if (!req.force) throw hostError('conflict', '/out/scan.label: a file of that name exists');
      return { path: '/out/scan.label', bytes: 24, points: N };
    });
    await click('label-file-start');
    expect(document.body.querySelector('[data-testid="label-file-exists"]')).not.toBeNull();
    await click('label-file-replace');
    expect(exports).toEqual([{ logId: 4, version: 2, path: '/out/scan.label', format: 'semantic-kitti' }, { logId: 4, version: 2, path: '/out/scan.label', format: 'semantic-kitti', force: true }]);
    expect(w.get('[data-testid="label-notice"]').text()).toBe('Exported 6 points to /out/scan.label (24 bytes).');
    w.unmount();
  });

  it('shows every shortcut on ?', async () => {
    const w = await open();
    await press('?', { shiftKey: true });
    expect(document.body.querySelector('[data-testid="shortcuts-dialog"]')?.textContent).toContain('Lasso select');
    w.unmount();
  });
});
