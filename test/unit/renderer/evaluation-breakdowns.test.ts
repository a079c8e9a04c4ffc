// @vitest-environment happy-dom
/**
 * The Evaluation page's new parts as components: the form's pairing, region, body and range-bin
 * fields (a region that cannot be read is named and blocks the start; a good one goes into the
 * request), and the warnings and breakdown tables of an evaluation (units in the headers).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { vi } from 'vitest';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import type { EvaluationInfo, JobInfo } from '../../../src-main/api/contract';
import type { EvaluationMetrics } from '../../../src-common/metrics';
import { fake } from './fake-api';

vi.mock('../../../src-renderer/api', () => import('./fake-api'));

const { default: EvaluationForm } = await import('../../../src-renderer/components/evaluation/EvaluationForm.vue');
const { default: BreakdownTables } = await import('../../../src-renderer/components/evaluation/BreakdownTables.vue');
const { default: EvaluationList } = await import('../../../src-renderer/components/evaluation/EvaluationList.vue');
const { useEvaluationsStore } = await import('../../../src-renderer/stores/evaluations');
const { useRunsStore } = await import('../../../src-renderer/stores/runs');
const { useLogsStore } = await import('../../../src-renderer/stores/logs');

const byTestId = (id: string) => document.body.querySelector<HTMLElement>(`[data-testid="${id}"]`);

async function type(testId: string, text: string) {
  const input = byTestId(testId)!.querySelector('input')!;
  input.value = text;
  input.dispatchEvent(new Event('input'));
  await flushPromises();
}

describe('evaluation form: region, body, pairing, range bins', () => {
  let wrapper: VueWrapper | null = null;
  beforeEach(() => {
    setActivePinia(createPinia());
    fake.reset();
    useRunsStore().list = [{ id: 3, name: 'run 3', mode: 'physics', trajectory: { kind: 'log', logId: 2 } }] as never;
    useLogsStore().list = [{ id: 2, name: 'scan' }] as never;
  });
  afterEach(() => {
    wrapper?.unmount();
    wrapper = null;
    document.body.innerHTML = '';
  });

  it('names a region it cannot read and will not start; sends a good one with the body and the bins', async () => {
    const started: Record<string, unknown>[] = [];
    fake.handle('evaluate.start', (req) => {
      started.push(req);
      return { job: { id: 9, kind: 'evaluate', state: 'queued', progress: 0, message: '', error: null, result: null } as unknown as JobInfo };
    });
    wrapper = mount(EvaluationForm, { attachTo: document.body });
    await flushPromises();
    const start = byTestId('evaluation-start') as HTMLButtonElement;
    expect(start.disabled).toBe(false);

    await type('evaluation-region', 'azimuth=-60');
    expect(byTestId('evaluation-region-error')!.textContent).toBe('region: term "azimuth=-60": expected 2 numbers separated by ":", got "-60"');
    expect(start.disabled).toBe(true);

    await type('evaluation-region', 'azimuth=-60:60,range=1:40');
    expect(byTestId('evaluation-region-error')).toBeNull();
    (byTestId('evaluation-exclude-body')!.querySelector('.n-checkbox') ?? byTestId('evaluation-exclude-body')!).dispatchEvent(new MouseEvent('click', { bubbles: true }));
    await flushPromises();
    await type('evaluation-body', '5,2.2,2');
    await type('evaluation-range-bin', '5');
    expect(start.disabled).toBe(false);
    start.click();
    await flushPromises();
    expect(started).toEqual([
      {
        realLogId: 2,
        runId: 3,
        params: {
          region: { azimuthDeg: [-60, 60], rangeM: [1, 40], excludeBody: { size: [5, 2.2, 2], center: [0, 0, -0.9] } },
          rangeBreakdownBinM: 5,
        },
      },
    ]);
  });
});

describe('evaluation breakdowns', () => {
  afterEach(() => (document.body.innerHTML = ''));

  it('shows the warnings, the per-class and by-range tables with their units', async () => {
    const metrics = {
      warnings: ["only 0.6 % of the real log's rays paired (359 of 62,072): the figures describe that part only"],
      perClass: [
        { class: 2, name: 'grass', realHits: 18000, trueHits: 0, falseHits: 0, falseMisses: 18000, recall: 0, precision: null, pointCloudError: null },
        { class: 8, name: 'medium tree', realHits: 17900, trueHits: 17900, falseHits: 0, falseMisses: 0, recall: 1, precision: 1, pointCloudError: 0.0812 },
      ],
      byRange: [{ fromM: 0, toM: 10, realHits: 5000, trueHits: 4000, falseHits: 100, falseMisses: 1000, recall: 0.8, precision: 4000 / 4100, rangeErrorMedianM: 0.0235 }],
    } as unknown as EvaluationMetrics;
    // The charts draw on a canvas, which happy-dom has not: a stub stands in (the e2e test draws them).
    const w = mount(BreakdownTables, { props: { evaluation: { id: 1, metrics } as EvaluationInfo }, attachTo: document.body, global: { stubs: { BreakdownChart: true } } });
    await flushPromises();
    // A chart beside each table, over that table's categories.
    const charts = w.findAllComponents({ name: 'BreakdownChart' });
    expect(charts.map((c) => (c.props('series') as { categories: string[] }).categories)).toEqual([['grass', 'medium tree'], ['0–10']]);
    expect(byTestId('evaluation-warnings')!.textContent).toContain('only 0.6 % of the real log');
    const cls = byTestId('evaluation-by-class')!;
    expect([...cls.querySelectorAll('th')].map((t) => t.textContent)).toEqual(['Class', 'Real hits', 'Recall', 'Precision', 'Point-cloud error (m)']);
    expect([...cls.querySelectorAll('tbody tr')].map((r) => [...r.querySelectorAll('td')].map((t) => t.textContent))).toEqual([
      ['grass', '18,000', '0.000', '—', '—'],
      ['medium tree', '17,900', '1.000', '1.000', '0.081'],
    ]);
    const rng = byTestId('evaluation-by-range')!;
    expect([...rng.querySelectorAll('th')].map((t) => t.textContent)).toEqual(['Range (m)', 'Real hits', 'Recall', 'Precision', 'Median range error (m)']);
    expect([...rng.querySelectorAll('tbody td')].map((t) => t.textContent)).toEqual(['0–10', '5,000', '0.800', '0.976', '0.024']);
    w.unmount();
    // An unlabelled log, nothing amiss: no warnings, no class table.
    const plain = mount(BreakdownTables, { props: { evaluation: { id: 2, metrics: { warnings: [], perClass: null, byRange: [] } as unknown as EvaluationMetrics } as EvaluationInfo }, attachTo: document.body, global: { stubs: { BreakdownChart: true } } });
    await flushPromises();
    expect(byTestId('evaluation-warnings')).toBeNull();
    expect(byTestId('evaluation-by-class')).toBeNull();
    expect(byTestId('evaluation-by-range')).toBeNull();
    plain.unmount();
  });
});

describe('evaluation list', () => {
  afterEach(() => (document.body.innerHTML = ''));

  it('flags an evaluation whose run and log barely overlap, with the warning as its tooltip', async () => {
    setActivePinia(createPinia());
    fake.reset();
    const base = { packetError: 0.1, f1: 0.5 };
    useEvaluationsStore().list = [
      { id: 1, runId: 1, realLogId: 1, runName: 'a', realLogName: 'x', metrics: { ...base, warnings: [] } },
      { id: 2, runId: 2, realLogId: 1, runName: 'b', realLogName: 'x', metrics: { ...base, warnings: ['only 0.6 % of the real log\'s rays paired (1 of 180): the figures describe that part only'] } },
    ] as never;
    const w = mount(EvaluationList, { props: { selectedId: null }, attachTo: document.body });
    await flushPromises();
    const flags = document.body.querySelectorAll('[data-testid="evaluation-row-warning"]');
    expect(flags).toHaveLength(1);
    expect(flags[0]!.closest('[data-testid="evaluation-row"]')!.getAttribute('data-evaluation-id')).toBe('2');
    expect(flags[0]!.parentElement!.getAttribute('title')).toContain('only 0.6 %');
    w.unmount();
  });
});
