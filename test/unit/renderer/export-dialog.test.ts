// @vitest-environment happy-dom
/**
 * The export dialog over an existing file: the host refuses with `conflict`, the dialog asks,
 * and only *Replace* sends the request again with `force`; a new path asks nothing.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { fake, hostError } from './fake-api';

vi.mock('../../../src-renderer/api', () => import('./fake-api'));

const { default: ExportDialog } = await import('../../../src-renderer/components/logs/ExportDialog.vue');

const byTestId = (id: string) => document.body.querySelector<HTMLElement>(`[data-testid="${id}"]`);
const job = { id: 4, kind: 'export', state: 'queued', progress: 0, message: '', error: null, result: null };
let wrapper: VueWrapper | null = null;

describe('Export… onto an existing file', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    fake.reset();
    document.body.innerHTML = '';
    fake.handle('formats.list', () => ({ import: [], export: [{ id: 'pcd', label: 'PCD', folder: false, extension: '.pcd' }] }));
  });
  afterEach(() => {
    wrapper?.unmount();
    wrapper = null;
  });

  it('asks before replacing, and replaces with force only when told to', async () => {
    fake.handle('export.start', (req) => {
      if (!req.force) throw hostError('conflict', '/data/drive.pcd: a file of that name exists; export again with force (thicket export --force) to replace it');
      return { job };
    });
    wrapper = mount(ExportDialog, { props: { source: null }, attachTo: document.body });
    await wrapper.setProps({ source: { kind: 'log', id: 2, name: 'drive.bin' } });
    await flushPromises();
    byTestId('export-start')!.click();
    await flushPromises();
    expect(byTestId('export-exists')?.textContent).toContain('Replace it with this export?');
    expect(wrapper.emitted('close')).toBeUndefined();
    byTestId('export-replace')!.click();
    await flushPromises();
    const sent = fake.calls.filter((c) => c.method === 'export.start').map((c) => c.req.force);
    expect(sent).toEqual([undefined, true]);
    expect(wrapper.emitted('close')).toHaveLength(1);
  });
});
