// @vitest-environment happy-dom
// What a new user sees in the first hour: the jobs strip, alerts in words, the log's facts and
// class names, placeholders, counts, booleans and units.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { h } from 'vue';
import { NConfigProvider, NInput, NInputNumber } from 'naive-ui';
import { ApiError, type DriveLogInfo, type JobInfo, type LabelClass } from '../../../src-main/api/contract';
import type { Legend } from '../../../src-renderer/viewport/cloud-colors';
import { fake } from './fake-api';

vi.mock('../../../src-renderer/api', () => import('./fake-api'));

const { default: JobsPanel } = await import('../../../src-renderer/components/JobsPanel.vue');
const { default: ErrorAlert } = await import('../../../src-renderer/components/ErrorAlert.vue');
const { default: LogFacts } = await import('../../../src-renderer/components/LogFacts.vue');
const { default: AppHeader } = await import('../../../src-renderer/components/AppHeader.vue');
const { useJobsStore } = await import('../../../src-renderer/stores/jobs');
const { useAppStore } = await import('../../../src-renderer/stores/app');
const { withClassNames } = await import('../../../src-renderer/components/logs/class-names');
const { locale } = await import('../../../src-renderer/theme');
const { plural, describeApiError } = await import('../../../src-renderer/format');
const { sceneFacts, sceneHeadline } = await import('../../../src-renderer/components/scenes/scene-format');
const { jobKindLabel } = await import('../../../src-renderer/components/jobs-strip');
const { logInfoRows } = await import('../../../src-renderer/components/log-info');

const job = (over: Partial<JobInfo>): JobInfo =>
  ({ id: 1, kind: 'import', state: 'done', progress: 1, message: 'done', error: null, params: {}, result: null, createdAt: '', startedAt: null, finishedAt: null, ...over }) as JobInfo;

let wrapper: VueWrapper | null = null;
beforeEach(() => {
  setActivePinia(createPinia());
  fake.reset();
  localStorage.clear();
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

describe('jobs strip', () => {
  it('is one line that shows the running job and its progress, and a new job does not open the list', async () => {
    const jobs = useJobsStore();
    jobs.upsert(job({ id: 1, state: 'done' }));
    wrapper = mount(JobsPanel);
    await flushPromises();
    expect(wrapper.attributes('data-expanded')).toBe('false');
    expect((wrapper.find('.body').element as HTMLElement).style.display).toBe('none');

    jobs.upsert(job({ id: 2, kind: 'study', state: 'running', progress: 0.42, message: 'Run 2 of 4 · vlp16 at 1.5 m, pitch 5°: 0.7 of 1.5 s — 1 of 4 runs done' }));
    await flushPromises();
    expect(wrapper.attributes('data-expanded')).toBe('false'); // it used to open on every job
    const now = wrapper.find('[data-testid="jobs-strip-job"]');
    expect(now.text()).toContain('Sensor study');
    expect(now.text()).toContain('Run 2 of 4 · vlp16');
    expect(wrapper.find('[data-testid="jobs-strip-progress"]').text()).toContain('42%');
    expect(wrapper.find('[data-testid="jobs-summary"]').text()).toBe('1 running');

    await wrapper.find('[data-testid="jobs-expand"]').trigger('click');
    expect(wrapper.attributes('data-expanded')).toBe('true');
    expect(wrapper.findAll('[data-testid="job-row"]')).toHaveLength(2);
    expect(localStorage.getItem('thicket.jobsPanel')).toBe('expanded');
  });

  it('clears failed jobs through jobs.clear', async () => {
    const jobs = useJobsStore();
    jobs.upsert(job({ id: 1, state: 'done' }));
    jobs.upsert(job({ id: 2, state: 'failed', error: 'cut.bin: truncated' }));
    jobs.upsert(job({ id: 3, state: 'failed', message: 'failed', error: 'cut.bin: not a multiple of 16 bytes\n  at decode' }));
    fake.handle('jobs.clear', () => ({ cleared: [2, 3] }));
    wrapper = mount(JobsPanel);
    await flushPromises();
    expect(wrapper.find('[data-testid="jobs-summary"]').text()).toBe('2 failed');
    expect(wrapper.find('[data-testid="jobs-strip-job"]').text()).toBe('Import #3 · cut.bin: not a multiple of 16 bytes'); // the error's first line
    await wrapper.find('[data-testid="jobs-clear-failed"]').trigger('click');
    await flushPromises();
    expect(fake.calls).toEqual([{ method: 'jobs.clear', req: { states: ['failed'] } }]);
    expect(jobs.list.map((j) => j.id)).toEqual([1]);
    expect(wrapper.find('[data-testid="jobs-clear-failed"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="jobs-summary"]').text()).toBe('idle · 1 job');
  });

  it('names job kinds in words', () => {
    expect(jobKindLabel('generate-scene')).toBe('Scene generation');
    expect(jobKindLabel('some-new-kind')).toBe('Some new kind');
  });
});

describe('alerts', () => {
  it('show the message without the method prefix and the code in words', async () => {
    useAppStore().reportError('Cannot create the project', new ApiError('invalid_request', 'project.create: path: a project file name ends in .thicket'));
    wrapper = mount(ErrorAlert);
    await flushPromises();
    expect(wrapper.find('[data-testid="error-message"]').text()).toBe('Path: a project file name ends in .thicket');
    expect(wrapper.find('[data-testid="error-kind"]').text()).toBe('The request was not valid');
    expect(wrapper.text()).not.toContain('[');
    expect(wrapper.text()).not.toContain('project.create');
  });

  it('maps every code', () => {
    expect(describeApiError('not_found', 'no log 4 in this project')).toEqual({ message: 'No log 4 in this project', kind: 'Not found' });
    expect(describeApiError('bad_input', 'logs.importFile: scan.xyz: unknown file type').message).toBe('Scan.xyz: unknown file type');
    expect(describeApiError('no_project', 'open a project first').kind).toBe('No project is open');
  });
});

const log = (over: Partial<DriveLogInfo>): DriveLogInfo =>
  ({ id: 1, name: 'scan', format: 'pcap', packets: 10, points: 900, hits: 900, misses: 100, durationS: 1, profileId: null, createdAt: '2026-01-01T00:00:00Z', bounds: null, info: {}, sourcePath: null, ...over }) as unknown as DriveLogInfo;

describe('log facts', () => {
  const facts = async (l: DriveLogInfo) => {
    wrapper = mount(LogFacts, { props: { log: l } });
    await flushPromises();
    const text = wrapper.text();
    return text;
  };

  it('say which sensor profile the log was imported with, or that there is none and why', async () => {
    expect(await facts(log({ profileId: 'vlp16' }))).toContain('Sensor profilevlp16');
    wrapper!.unmount();
    const own = await facts(log({ info: { sensor: 'VLP-16' } }));
    expect(own).toContain("Sensor profilenone (decoded with the capture's own calibration)");
    expect(own).not.toContain('—');
    wrapper!.unmount();
    expect(await facts(log({ format: 'kitti-bin' as DriveLogInfo['format'] }))).toContain('none (the file holds points, not sensor packets)');
  });

  it('do not repeat the points as hits', async () => {
    const text = await facts(log({}));
    expect(text).toContain('Points900');
    expect(text).not.toContain('Hits');
    expect(text).toContain('Misses100 (10.0 %)');
  });
});

describe('class legend of a log', () => {
  const legend: Legend = { kind: 'classes', mode: 'class', label: 'Class', entries: [0, 1, 3, 7, 200].map((id) => ({ id, name: `class ${id}`, color: '#fff', count: 1 })) };
  it('uses the project class list, then the built-in names', () => {
    const own: LabelClass[] = [{ id: 1, name: 'dirt road', color: '#aa8800', asprs: 2 }];
    const named = withClassNames(legend, own);
    expect(named.kind === 'classes' && named.entries.map((e) => e.name)).toEqual(['unlabelled', 'dirt road', 'low shrub', 'small tree', 'class 200']);
    const builtin = withClassNames(legend, null);
    expect(builtin.kind === 'classes' && builtin.entries.map((e) => e.name)).toEqual(['unlabelled', 'ground', 'low shrub', 'small tree', 'class 200']);
  });
});

describe('placeholders', () => {
  it('never show the kit’s "Please Input"', async () => {
    wrapper = mount(() => h(NConfigProvider, { locale }, () => [h(NInput), h(NInputNumber), h(NInput, { placeholder: 'Path ending in .thicket' })]));
    await flushPromises();
    const placeholders = wrapper.findAll('input').map((i) => i.attributes('placeholder') ?? '');
    expect(placeholders).toEqual(['', '', 'Path ending in .thicket']);
    expect(wrapper.html()).not.toContain('Please');
  });
});

describe('counts, booleans and units', () => {
  it('pluralise', async () => {
    expect(plural(1, 'worker')).toBe('1 worker');
    expect(plural(4, 'worker')).toBe('4 workers');
    expect(sceneHeadline({ trees: 1, triangles: 2 })).toBe('2 triangles · 1 tree');
    fake.handle('app.info', () => ({}));
    const app = useAppStore();
    app.info = { name: 'Thicket', version: '0.1.0', shell: 'web', schemaVersion: 9, workers: 1, defaultProjectDir: '/tmp' };
    wrapper = mount(AppHeader);
    await flushPromises();
    expect(wrapper.find('[data-testid="app-version"]').text()).toBe('v0.1.0 · 1 worker');
  });

  it('show booleans as Yes / No and a unit once', () => {
    const facts = Object.fromEntries(sceneFacts({ kind: 'reference-site', params: { small: true, lengthM: 40 }, lengthM: 40, demo: false }));
    expect(facts).toMatchObject({ Small: 'Yes', Length: '40.00 m', Demo: 'No' });
    expect(Object.keys(facts).some((k) => / m$/.test(k))).toBe(false);
    // A log's own facts likewise ("Speed mps 2.4" was the key as it is).
    expect(logInfoRows({ speedMps: 2.4, headingDeg: 5, heightM: 1.8, small: true })).toEqual([
      ['Speed', '2.4 m/s'],
      ['Heading', '5°'],
      ['Height', '1.8 m'],
      ['Small', 'Yes'],
    ]);
  });
});
