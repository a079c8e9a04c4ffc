// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { h } from 'vue';
import type { JobInfo } from '../../../src-main/api/contract';
import { fake } from './fake-api';

vi.mock('../../../src-renderer/api', () => import('./fake-api'));

const { default: JobDrawer } = await import('../../../src-renderer/components/JobDrawer.vue');
const { useJobsStore } = await import('../../../src-renderer/stores/jobs');

const job = (over: Partial<JobInfo>): JobInfo =>
  ({ id: 5, kind: 'extract-primitives', state: 'running', progress: 0.4, message: 'segment 3 of 8', error: null, result: null, ...over }) as unknown as JobInfo;

const byTestId = (id: string) => document.body.querySelector<HTMLElement>(`[data-testid="${id}"]`);

describe('JobDrawer', () => {
  let wrapper: VueWrapper | null = null;
  beforeEach(() => {
    setActivePinia(createPinia());
    fake.reset();
  });
  afterEach(() => {
    wrapper?.unmount();
    wrapper = null;
    document.body.innerHTML = '';
  });

  function open(props: Record<string, unknown>) {
    wrapper = mount(JobDrawer, {
      props: { show: true, title: 'Extract primitives', testId: 'x', submitLabel: 'Extract', reason: 'Pick a model', ready: false, start: vi.fn(async () => {}), ...props },
      slots: { default: () => h('div', { 'data-testid': 'form-body' }, 'the form'), result: ({ job: j }: { job: JobInfo }) => h('div', { 'data-testid': 'x-result' }, `result of #${j.id}`) },
      attachTo: document.body,
    });
    return wrapper;
  }

  it('renders the title, the form and the footer reason; an invalid form cannot start', async () => {
    const start = vi.fn(async () => {});
    open({ start });
    await flushPromises();
    expect(document.body.textContent).toContain('Extract primitives');
    expect(byTestId('form-body')?.textContent).toBe('the form');
    const reason = byTestId('x-reason')!;
    expect(reason.textContent).toBe('Pick a model');
    expect(reason.classList.contains('warn')).toBe(true);
    const submit = byTestId('x-submit') as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    submit.click();
    await flushPromises();
    expect(start).not.toHaveBeenCalled();
  });

  it('starts once the form is valid, spinning while start runs', async () => {
    let finish!: () => void;
    const start = vi.fn(() => new Promise<void>((r) => (finish = r)));
    const w = open({ start, ready: true, reason: 'Runs as a job below.' });
    await flushPromises();
    expect(byTestId('x-reason')!.classList.contains('faint')).toBe(true);
    const submit = byTestId('x-submit') as HTMLButtonElement;
    expect(submit.disabled).toBe(false);
    submit.click();
    await flushPromises();
    expect(start).toHaveBeenCalledTimes(1);
    expect(submit.classList.contains('n-button--loading')).toBe(true);
    submit.click(); // a second click while starting does nothing
    await flushPromises();
    expect(start).toHaveBeenCalledTimes(1);
    finish();
    await flushPromises();
    expect(submit.classList.contains('n-button--loading')).toBe(false);
    expect(w.emitted('update:show')).toBeUndefined();
  });

  it('follows its job: state, progress, message, cancel; then the error or the result', async () => {
    const jobs = useJobsStore();
    jobs.upsert(job({}));
    fake.handle('jobs.cancel', (req) => job({ id: req.id as number, state: 'cancelled', progress: 0.4 }));
    open({ ready: true, reason: 'ok', jobId: 5 });
    await flushPromises();
    const panel = byTestId('x-job')!;
    expect(panel.dataset.state).toBe('running');
    expect(panel.textContent).toContain('Job #5 · running');
    expect(panel.textContent).toContain('segment 3 of 8');
    expect(panel.querySelector('.n-progress')).not.toBeNull();
    // A running job blocks a second start.
    expect((byTestId('x-submit') as HTMLButtonElement).disabled).toBe(true);

    byTestId('x-cancel')!.click();
    await flushPromises();
    expect(fake.calls).toEqual([{ method: 'jobs.cancel', req: { id: 5 } }]);
    expect(byTestId('x-job')!.dataset.state).toBe('cancelled');
    expect(byTestId('x-cancel')).toBeNull();

    jobs.upsert(job({ state: 'failed', error: 'no labelled segments' }));
    await flushPromises();
    expect(byTestId('x-job')!.querySelector('.err')?.textContent).toBe('no labelled segments');
    expect(byTestId('x-result')?.textContent).toBe('result of #5');
  });

  it('closes with its close button, and forgets an ended job when reopened', async () => {
    useJobsStore().upsert(job({ state: 'done', progress: 1 }));
    const w = open({ ready: true, reason: 'ok', jobId: 5, closeLabel: 'Close' });
    await flushPromises();
    const close = [...document.body.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Close')!;
    close.click();
    await flushPromises();
    expect(w.emitted('update:show')).toEqual([[false]]);
    await w.setProps({ show: false });
    await w.setProps({ show: true });
    await flushPromises();
    expect(w.emitted('update:jobId')).toEqual([[null]]);
  });
});
