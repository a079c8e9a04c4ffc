// Sensor studies through AppServices: stored definition, a parallel job on the pool, results
// identical with 1 and 2 workers, the run/costmap/report views, cancel, and bad requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createAppServices, type AppServices } from '../../../src-main/services/app-services';
import { ApiError, type AnnotationEntry, type Request, type StudyRunData, type StudySensorResult } from '../../../src-main/api/contract';
import { replayCostmap } from '../../../src-common/costmap-history';
import { buildReferenceSite } from '../../../src-worker/site/reference-site';
import { tempDir } from '../../helpers/temp';

const tmp = tempDir();
const project = join(tmp.dir, 'study.thicket');
const home = join(tmp.dir, 'home');
let sceneId = 0;

/** The small reference site stored as the demo stores it: scene with its trail and the annotation of every object. */
async function storeSmallSite(services: AppServices): Promise<number> {
  const site = buildReferenceSite({ seed: 3, small: true });
  const store = services.session!.store;
  const ann = store.annotations.create('site', null, site.annotations as AnnotationEntry[]);
  return store.scenes.create('small site', { kind: 'reference-site', trail: site.trail, annotation: ann.id }, site.data as unknown as Record<string, unknown>).id;
}

const definition = (over: Partial<Request<'study.start'>['definition'] & object> = {}): Request<'study.start'> => ({
  definition: {
    sceneId,
    seconds: 1,
    sensors: [
      { profileId: 'lms291-180-1', mount: { height: 2 } },
      { profileId: 'lms291-180-1', mount: { height: 1.5, pitchDeg: 5 } },
      { profileId: 'vlp16' },
    ],
    ...over,
  },
});

async function runStudy(workers: number): Promise<{ id: number; results: StudySensorResult[]; runs: StudyRunData[]; progress: [number, string][] }> {
  const services = await createAppServices({ shell: 'cli', homeDir: home, workers });
  const progress: [number, string][] = [];
  const off = services.onEvent((e) => {
    if (e.type === 'job' && e.job.kind === 'study' && e.job.state === 'running' && e.job.message) progress.push([e.job.progress, e.job.message]);
  });
  try {
    await services.call('project.open', { path: project });
    const { job, study } = await services.call('study.start', definition());
    expect(study.state).toBe('queued');
    const final = await services.whenJobSettled(job.id);
    expect(final.state, final.error ?? '').toBe('done');
    const data = await services.call('studies.get', { id: study.id });
    expect(data.state).toBe('done');
    const runs = await Promise.all(data.results!.map((r) => services.call('studies.run', { id: study.id, seq: r.seq, cloudBudget: 2_000_000 })));
    return { id: study.id, results: data.results!, runs, progress };
  } finally {
    off();
    await services.close();
  }
}

let one: Awaited<ReturnType<typeof runStudy>>;
let two: Awaited<ReturnType<typeof runStudy>>;

beforeAll(async () => {
  const services = await createAppServices({ shell: 'cli', homeDir: home, workers: 1 });
  await services.call('project.create', { path: project });
  sceneId = await storeSmallSite(services);
  await services.close();
  one = await runStudy(1);
  two = await runStudy(2);
}, 180_000);
afterAll(() => tmp.cleanup());

async function apiError(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe('study.start on the small reference site (3 runs: LMS-291 at two mounts, VLP-16)', () => {
  it('stores one result per sensor and mount, in definition order, with every metric', () => {
    expect(one.results.map((r) => [r.seq, r.profile, r.mount.height, r.mount.pitchDeg])).toEqual([
      [0, 'lms291-180-1', 2, 0],
      [1, 'lms291-180-1', 1.5, 5],
      [2, 'vlp16', 2, 0],
    ]);
    for (const r of one.results) {
      expect(r.outcome).toBe('timeout'); // 1 s: the goal is 36 m away
      expect(r.pathLength!).toBeGreaterThan(1.2); // up to 2 m at 2 m/s, less while it turns
      expect(r.pathLength!).toBeLessThanOrEqual(2 + 1e-9);
      expect(r.timeToGoal).toBeNull();
      expect(r.collisions).toBe(0);
      expect(r.scans).toBe(r.profile === 'vlp16' ? 10 : 75);
    }
    // the VLP-16's 16 lasers see far more of the ground than the LMS-291's one horizontal plane
    expect(one.results[2]!.cellsObserved).toBeGreaterThan(5 * one.results[0]!.cellsObserved);
  });

  it('gives identical metrics and identical histories with 1 and 2 workers', () => {
    expect(two.results).toEqual(one.results);
    for (let k = 0; k < one.runs.length; k++) {
      const a = one.runs[k]!, b = two.runs[k]!;
      for (const key of ['frameTime', 'poses', 'planFrame', 'planStart', 'planXY'] as const) expect(Buffer.from(b[key].buffer).equals(Buffer.from(a[key].buffer)), key).toBe(true);
      for (const key of ['frameStart', 'cell', 'cost'] as const) expect(Buffer.from(b.costEvents![key].buffer).equals(Buffer.from(a.costEvents![key].buffer)), key).toBe(true);
      expect(Buffer.from(b.cloud.xyz.buffer).equals(Buffer.from(a.cloud.xyz.buffer))).toBe(true);
    }
  });
});

describe('study views', () => {
  let services: AppServices;
  beforeAll(async () => {
    services = await createAppServices({ shell: 'cli', homeDir: home, workers: 1 });
    await services.call('project.open', { path: project });
  });
  afterAll(async () => services.close());

  it('studies.run: frames, poses (frames + 1 rows), plans and the decimated cloud of a panel', async () => {
    const r = await services.call('studies.run', { id: one.id, seq: 2, cloudBudget: 1000, events: false });
    expect(r.frameTime.length).toBe(10);
    expect(r.frameTime[9]).toBeCloseTo(1, 9);
    expect(r.poses.length).toBe(5 * 11);
    expect(r.planStart.length).toBe(r.planFrame.length + 1);
    expect(r.cloud.total).toBeGreaterThan(1000);
    expect(r.cloud.frame.length).toBeLessThanOrEqual(1000);
    expect(r.cloud.xyz.length).toBe(3 * r.cloud.frame.length);
    expect(r.costEvents).toBeNull();
    expect(r.layout.grid.width).toBe(400);
    expect(Math.hypot(r.layout.goal[0] - r.layout.start[0], r.layout.goal[1] - r.layout.start[1])).toBeGreaterThan(30);
  });

  it('studies.costmap: the map at a time is the replay of the rises of the scans that ended by then', async () => {
    const end = await services.call('studies.costmap', { id: one.id, seq: 2 });
    expect(end.frames).toBe(10);
    expect(end.cost.length).toBe(400 * 400);
    const run = one.runs[2]!;
    const replayed = replayCostmap(end.cost.length, run.costEvents!.cell, run.costEvents!.cost, run.costEvents!.frameStart, 10);
    expect(Buffer.from(replayed.buffer).equals(Buffer.from(end.cost.buffer))).toBe(true);
    const mid = await services.call('studies.costmap', { id: one.id, seq: 2, time: 0.45 });
    expect(mid.frames).toBe(4);
    expect(mid.time).toBeCloseTo(0.4, 9);
    let known = 0, knownEnd = 0;
    for (let c = 0; c < end.cost.length; c++) {
      if (mid.cost[c] !== 255) known++;
      if (end.cost[c] !== 255) knownEnd++;
    }
    expect(knownEnd).toBe(one.results[2]!.cellsObserved);
    expect(known).toBeLessThan(knownEnd);
  });

  it('reports progress per sensor and mount in words, each run reaching its end before the job is done', () => {
    const messages = one.progress.map(([, m]) => m);
    expect(messages.join('\n')).not.toContain('batches');
    for (const m of messages) expect(m).toMatch(/^Run [1-3] of 3 · (lms291-180-1|vlp16) at [\d.]+ m, pitch [\d.]+°: .+ — [0-3] of 3 runs done$/);
    // One worker runs them in turn: each run's end is reported (closed loops stop early at the goal or a collision).
    expect(messages.some((m) => m.startsWith('Run 2 of 3 · lms291-180-1 at 1.5 m, pitch 5°:'))).toBe(true);
    expect(messages.some((m) => m.endsWith('2 of 3 runs done'))).toBe(true);
    const fractions = one.progress.map(([f]) => f);
    for (let i = 1; i < fractions.length; i++) expect(fractions[i]).toBeGreaterThanOrEqual(fractions[i - 1]!);
    // No jump from a third to done: the last progress seen before done is close to 1.
    expect(fractions.at(-1)).toBeGreaterThan(0.9);
  });

  it('studies.report: one self-contained HTML page with a PNG per run and the metrics table', async () => {
    const { html } = await services.call('studies.report', { id: one.id });
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html.match(/<img [^>]*src="data:image\/png;base64,/g)?.length).toBe(3);
    expect(html).not.toMatch(/(src|href)="(?!data:)/); // nothing external
    const head = /<table><tr>(.*?)<\/tr>/.exec(html)![1]!.match(/<th>(.*?)<\/th>/g)!.map((th) => th.slice(4, -5));
    expect(head).toEqual(['#', 'Sensor', 'Mount', 'Outcome', 'Cells observed', 'Path length (m)', 'Time to goal (s)', 'Collisions', 'False obstacles (cells)', 'Missed obstacles', 'Obstacles near the track', 'Replans', 'Lethal cells', 'Scans']);
    expect(html).not.toMatch(/cellsObserved|timeToGoal|falseObstacles|missedObstacles/); // no field names, in the table or the notes
    expect(html).toContain('lms291-180-1: time to goal by mount height'); // two mounts: a sweep table
    const png = Buffer.from(/base64,([A-Za-z0-9+/=]+)/.exec(html)![1]!, 'base64');
    expect([...png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join('')).toBe('PNG');
  });

  it('lists studies, keeps a cancelled run\'s definition without results, deletes', async () => {
    const list = await services.call('studies.list', {});
    expect(list.map((s) => s.state)).toEqual(['done', 'done']);
    expect(list[0]!.runs).toBe(3);
    const { job, study } = await services.call('study.start', definition({ seconds: 60, sensors: [{ profileId: 'hdl64e' }] }));
    await new Promise<void>((resolve) => {
      const off = services.onEvent((e) => {
        if (e.type === 'job' && e.job.id === job.id && e.job.state === 'running') {
          off();
          resolve();
        }
      });
    });
    await services.call('jobs.cancel', { id: job.id });
    const final = await services.whenJobSettled(job.id);
    expect(final.state).toBe('cancelled');
    const s = await services.call('studies.get', { id: study.id });
    expect(s.state).toBe('cancelled');
    expect(s.results).toBeNull();
    expect(s.definition.sensors[0]!.profileId).toBe('hdl64e');
    expect((await apiError(services.call('studies.run', { id: study.id, seq: 0 }))).code).toBe('not_found');
    expect(await services.call('studies.delete', { id: study.id })).toEqual({ deleted: true });
    expect((await apiError(services.call('studies.get', { id: study.id }))).code).toBe('not_found');
  }, 60_000);

  it('refuses bad requests before anything runs', async () => {
    const before = (await services.call('studies.list', {})).length;
    expect((await apiError(services.call('study.start', {}))).code).toBe('invalid_request');
    expect((await apiError(services.call('study.start', definition({ vehicle: { speed: 3 } })))).message).toContain('vehicle.speed');
    expect((await apiError(services.call('study.start', definition({ sensors: [{ profileId: 'no-such' }] })))).code).toBe('not_found');
    expect((await apiError(services.call('study.start', definition({ vehicle: { goal: [500, 0] } })))).message).toContain('must lie in the');
    expect((await apiError(services.call('study.start', definition({ sceneId: 999 })))).code).toBe('not_found');
    expect((await services.call('studies.list', {})).length).toBe(before);
  });
});
