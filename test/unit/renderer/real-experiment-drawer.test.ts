// @vitest-environment happy-dom
/**
 * The Evaluation page's *Predict a log…* drawer: defaults to the two newest logs (older one
 * training), refuses the same log twice and a region it cannot read, sends experiments.run with
 * the region as evaluation params, shows the table and the self-check, opens a row's evaluation,
 * and shows the host's error as is.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import type { RealExperiment } from '../../../src-common/experiment-results';
import { fake, hostError } from './fake-api';

vi.mock('../../../src-renderer/api', () => import('./fake-api'));

const { default: RealExperimentDrawer } = await import('../../../src-renderer/components/evaluation/RealExperimentDrawer.vue');
const { useLogsStore } = await import('../../../src-renderer/stores/logs');

const byTestId = (id: string) => document.body.querySelector<HTMLElement>(`[data-testid="${id}"]`);
const row = (simulator: string, f1: number, run: number) => ({ simulator, packets: 64, packetError: 0.8, precision: 0.9, recall: 0.95, f1, pointCloudError: 0.14, run, evaluation: 100 + run });
const RESULT: RealExperiment = {
  table: [row('hybrid', 0.934, 1), row('voxel', 0.726, 2), row('mesh', 0.908, 3), row('neighbour', 0.967, 4)] as RealExperiment['table'],
  selfCheck: row('hybrid', 0.938, 5) as RealExperiment['selfCheck'],
  model: 3, primitives: { hybrid: 12, mesh: 12, segments: 14 }, scenes: { mesh: 2 }, profileId: null, seconds: 38,
};

describe('Predict a log… (the real-data experiment)', () => {
  let wrapper: VueWrapper | null = null;
  beforeEach(async () => {
    setActivePinia(createPinia());
    fake.reset();
    fake.handle('logs.list', () => [1, 2, 3].map((id) => ({ id, name: `log ${id}`, format: 'ouster-pcap', packets: 64, info: {} })));
    fake.handle('evaluations.list', () => []);
    await useLogsStore().refresh();
  });
  afterEach(() => {
    wrapper?.unmount();
    wrapper = null;
    document.body.innerHTML = '';
  });

  async function open() {
    wrapper = mount(RealExperimentDrawer, { props: { show: true }, attachTo: document.body });
    await flushPromises();
    return wrapper;
  }

  it('runs the experiment on the two newest logs with the region, shows every row and opens one', async () => {
    fake.handle('experiments.run', () => RESULT);
    const w = await open();
    const region = byTestId('experiment-region')!.querySelector('input')!;
    region.value = 'range=1:40';
    region.dispatchEvent(new Event('input'));
    await flushPromises();
    byTestId('experiment-submit')!.click();
    await flushPromises();
    const call = fake.calls.find((c) => c.method === 'experiments.run')!;
    expect(call.req).toEqual({ trainLogId: 2, testLogId: 3, params: { region: { rangeM: [1, 40] } } });
    const rows = [...byTestId('experiment-table')!.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].slice(0, 4).map((td) => td.textContent!.trim()));
    expect(rows.map((r) => r[0])).toEqual(['hybrid', 'voxel', 'mesh', 'neighbour', 'self-check (hybrid)']);
    expect(rows.map((r) => r[3])).toEqual(['0.934', '0.726', '0.908', '0.967', '0.938']);
    byTestId('experiment-open-103')!.click();
    await flushPromises();
    expect(w.emitted('open')).toEqual([[103]]);
  });

  it('refuses the same log twice and a region it cannot read; shows the host\'s error', async () => {
    const w = await open();
    await w.setProps({ show: true });
    // Same log: pick log 3 for training as well.
    const vm = w.vm as unknown as { $: { setupState: { trainLogId: number } } };
    vm.$.setupState.trainLogId = 3;
    await flushPromises();
    expect(byTestId('experiment-reason')!.textContent).toMatch(/another log than the training log/);
    expect((byTestId('experiment-submit') as HTMLButtonElement).disabled).toBe(true);
    vm.$.setupState.trainLogId = 2;
    const region = byTestId('experiment-region')!.querySelector('input')!;
    region.value = 'azimuth=10';
    region.dispatchEvent(new Event('input'));
    await flushPromises();
    expect(byTestId('experiment-reason')!.textContent).toMatch(/azimuth=10/);
    expect((byTestId('experiment-submit') as HTMLButtonElement).disabled).toBe(true);
    region.value = '';
    region.dispatchEvent(new Event('input'));
    fake.handle('experiments.run', () => {
      throw hostError('bad_input', 'drive log 3 (log 3) was imported without a sensor profile: give profileId (--profile)');
    });
    await flushPromises();
    byTestId('experiment-submit')!.click();
    await flushPromises();
    expect(byTestId('experiment-error')!.textContent).toMatch(/without a sensor profile/);
    expect(byTestId('experiment-table')).toBeNull();
  });
});
