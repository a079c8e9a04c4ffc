// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { createMemoryHistory, createRouter } from 'vue-router';
import { defineComponent, h } from 'vue';
import type { CloudData, DriveLogInfo, RunInfo } from '../../../src-main/api/contract';
import { fake, hostError } from './fake-api';

vi.mock('../../../src-renderer/api', () => import('./fake-api'));

const { default: LogView } = await import('../../../src-renderer/views/LogView.vue');
const { default: RunView } = await import('../../../src-renderer/views/RunView.vue');

// The 3D viewport (WebGL) and the histogram (ECharts canvas) are stood in for by stubs that show
// what they were given; the page's own markup and the facts card are real.
const ViewportStub = defineComponent({
  props: { cloud: { type: Object, default: null }, legend: { type: Object, default: null }, loading: Boolean, colors: { type: Object, default: null } },
  setup: (p) => () =>
    h('div', { 'data-testid': 'viewport-stub', 'data-points': p.cloud ? (p.cloud as CloudData).positions.length / 3 : 0, 'data-legend': (p.legend as { label?: string } | null)?.label ?? '' }),
});
const stubs = { PointCloudViewport: ViewportStub, HistogramChart: true, LogTimeline: true, ExportDialog: true };

function cloud(kind: 'log' | 'run', id: number): CloudData {
  return {
    source: { kind, id },
    totalPoints: 10,
    positions: new Float32Array([0, 0, 0, 1, 0, 0.5, 2, 1, 1]),
    intensity: new Float32Array([10, 20, 30]),
    time: new Float32Array([0, 0.05, 0.1]),
    classId: new Uint8Array([1, 2, 2]),
    ring: new Uint16Array([0, 1, 2]),
    bounds: { min: [0, 0, 0], max: [2, 1, 1] },
    packets: null,
    misses: null,
  };
}

const log: DriveLogInfo = {
  id: 4,
  name: 'forest-loop.pcap',
  format: 'velodyne-pcap',
  sourcePath: null,
  profileId: 'vlp16',
  packets: 1200,
  points: 345_678,
  hits: 300_000,
  misses: 100_000,
  durationS: 62.5,
  bounds: { min: [-20, -10, -1], max: [30, 15, 6] },
  info: {},
  createdAt: '2026-11-20T10:00:00.000Z',
} as DriveLogInfo;

const run: RunInfo = {
  id: 9,
  name: 'hdl32e in offroad',
  sceneId: null,
  profileId: 'hdl32e',
  mode: 'hybrid',
  seed: 1,
  trajectory: null,
  params: {},
  packets: 100,
  points: 5000,
  hits: 4000,
  misses: 1000,
  durationS: 0.5,
  bounds: null,
  createdAt: '2026-11-20T10:00:00.000Z',
} as RunInfo;

async function open(view: typeof LogView | typeof RunView, id: number) {
  const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/:p(.*)*', component: { render: () => null } }] });
  const w = mount(view, { props: { id }, global: { plugins: [router], stubs } });
  await flushPromises();
  return w;
}

describe('the cloud page behind the log and run views', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    fake.reset();
    sessionStorage.clear();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    fake.handle('logs.get', (req) => ({ ...log, id: req.id }));
    fake.handle('logs.cloud', (req) => cloud('log', req.id as number));
    fake.handle('runs.get', (req) => ({ ...run, id: req.id }));
    fake.handle('runs.cloud', (req) => cloud('run', req.id as number));
    fake.handle('logs.timeline', () => Promise.reject(hostError('not_found', 'no timeline')));
    fake.handle('runs.timeline', () => Promise.reject(hostError('not_found', 'no timeline')));
  });
  afterEach(() => vi.restoreAllMocks());

  it('shows a drive log: title, format tag, facts, the cloud at the page budget', async () => {
    const w = await open(LogView, 4);
    const page = w.get('[data-testid="log-view"]');
    expect(page.attributes('data-log-id')).toBe('4');
    expect(w.get('h1').text()).toBe('forest-loop.pcap');
    expect(w.get('.page-title').text()).toContain('velodyne-pcap');
    expect(w.get('.page-title').text()).toContain('3 of 10 points');
    const facts = w.get('aside').text();
    expect(facts).toContain('Packets');
    expect(facts).toContain('1,200');
    expect(facts).toContain('345,678');
    expect(facts).toContain('vlp16');
    expect(w.get('[data-testid="viewport-stub"]').attributes('data-points')).toBe('3');
    expect(w.get('[data-testid="log-delete"]').text()).toBe('Delete log');
    expect(w.find('[data-testid="log-export"]').exists()).toBe(true);
    expect(fake.calls.find((c) => c.method === 'logs.cloud')?.req).toEqual({ id: 4, budget: 1_000_000 });
  });

  it('shows a run: profile and mode tags, its facts, the legend naming ground-truth classes', async () => {
    const w = await open(RunView, 9);
    expect(w.get('[data-testid="run-view"]').attributes('data-run-id')).toBe('9');
    expect(w.get('h1').text()).toBe('hdl32e in offroad');
    const tags = w.findAll('.page-title .n-tag').map((t) => t.text());
    expect(tags).toEqual(['hdl32e', 'hybrid']);
    const facts = w.get('aside').text();
    expect(facts).toContain('Mode');
    expect(facts).toContain('5,000');
    // Runs open coloured by class, and the legend says whose classes they are.
    expect(w.get('[data-testid="viewport-stub"]').attributes('data-legend')).toBe('Ground-truth class');
    expect(w.get('[data-testid="run-delete"]').text()).toBe('Delete run');
  });

  it('says so when the entity is gone', async () => {
    fake.handle('logs.get', () => Promise.reject(hostError('not_found', 'no drive log 5')));
    const w = await open(LogView, 5);
    expect(w.get('.missing').text()).toBe('This drive log no longer exists in the project.');
    expect(w.find('[data-testid="viewport-stub"]').exists()).toBe(false);
    expect(w.get('h1').text()).toBe('Log 5');
  });
});
