// @vitest-environment happy-dom
/**
 * The log page's *Split…* action: the scan count from the log's timeline, the logs.split request
 * with the scan typed, the job's progress and its two new logs, and the host's error shown as is.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { createMemoryHistory, createRouter } from 'vue-router';
import type { DriveLogInfo, JobInfo } from '../../../src-main/api/contract';
import { fake, hostError } from './fake-api';

vi.mock('../../../src-renderer/api', () => import('./fake-api'));

const { default: SplitLog } = await import('../../../src-renderer/components/logs/SplitLog.vue');
const { useJobsStore } = await import('../../../src-renderer/stores/jobs');

const log = { id: 7, name: 'lb_n3.pcap', format: 'ouster-pcap', packets: 192, info: {} } as unknown as DriveLogInfo;
const job = (over: Partial<JobInfo>): JobInfo => ({ id: 31, kind: 'split', state: 'running', progress: 0.25, message: 'splitting', error: null, result: null, ...over }) as JobInfo;

async function openSplit() {
  const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/:p(.*)*', component: { render: () => null } }] });
  const w = mount(SplitLog, { props: { log }, global: { plugins: [router] } });
  await w.get('[data-testid="log-split"]').trigger('click');
  await flushPromises();
  return w;
}

async function typeScan(w: Awaited<ReturnType<typeof openSplit>>, k: string) {
  const input = w.get('[data-testid="split-at"]');
  (input.element as HTMLInputElement).value = k;
  await input.trigger('input');
  await input.trigger('blur');
  await flushPromises();
}

describe('Split… on a drive log', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    fake.reset();
    fake.handle('logs.timeline', () => ({ source: { kind: 'log', id: 7 }, packets: 192, packetTime: new Float64Array(192), sweepStart: new Uint32Array([0, 64, 128]), sweepBy: 'azimuth', trajectory: { packet: new Uint32Array(0), position: new Float64Array(0) } }));
  });
  afterEach(() => vi.restoreAllMocks());

  it('counts the scans, splits at the scan typed, shows the job\'s progress and the two new logs', async () => {
    fake.handle('logs.split', () => ({ job: job({}) }));
    const w = await openSplit();
    expect(w.get('[data-testid="split-scans"]').text()).toBe('of 3 scan(s)');
    await typeScan(w, '3');
    await w.get('[data-testid="split-start"]').trigger('click');
    await flushPromises();
    expect(fake.calls.find((c) => c.method === 'logs.split')?.req).toEqual({ id: 7, at: 3 });
    expect(w.find('[data-testid="split-progress"]').exists()).toBe(true);
    expect(w.get('[data-testid="split-progress"]').html()).toContain('25');
    const logs = [{ log: 8, name: 'lb_n3.pcap scans 1–2', scans: 2, packets: 128 }, { log: 9, name: 'lb_n3.pcap scan 3', scans: 1, packets: 64 }];
    useJobsStore().upsert(job({ state: 'done', progress: 1, result: { logs } }));
    await flushPromises();
    const items = w.get('[data-testid="split-result"]').findAll('li').map((li) => li.text());
    expect(items).toEqual(['lb_n3.pcap scans 1–2: 2 scan(s), 128 packet(s)', 'lb_n3.pcap scan 3: 1 scan(s), 64 packet(s)']);
    expect(w.find('[data-testid="split-error"]').exists()).toBe(false);
  });

  it('shows the host\'s error for a scan out of range, and a failed job\'s error', async () => {
    const message = "drive log 7 (lb_n3.pcap) has 3 scan(s), numbered from 1: the split's first scan of the second log must be 2…3, got 1";
    fake.handle('logs.split', () => Promise.reject(hostError('bad_input', message)));
    const w = await openSplit();
    await typeScan(w, '1');
    await w.get('[data-testid="split-start"]').trigger('click');
    await flushPromises();
    expect(w.get('[data-testid="split-error"]').text()).toBe(message);
    expect(w.find('[data-testid="split-progress"]').exists()).toBe(false);

    fake.handle('logs.split', () => ({ job: job({ id: 32 }) }));
    await typeScan(w, '2');
    await w.get('[data-testid="split-start"]').trigger('click');
    await flushPromises();
    expect(w.find('[data-testid="split-error"]').exists()).toBe(false);
    useJobsStore().upsert(job({ id: 32, state: 'failed', error: 'reading drive log 7: corrupt chunk' }));
    await flushPromises();
    expect(w.get('[data-testid="split-error"]').text()).toBe('reading drive log 7: corrupt chunk');
  });
});
