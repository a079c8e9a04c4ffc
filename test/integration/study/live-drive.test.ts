// Live drives through AppServices: every scan of every run reaches the pages as a `drive` event,
// the frames add up to the run's history, nothing is stored until drive.save, and the saved study
// is the one the same definition gives as a study job. Bad requests are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createAppServices, type AppServices } from '../../../src-main/services/app-services';
import { ApiError, type AnnotationEntry, type DriveEvent, type Request } from '../../../src-main/api/contract';
import { buildReferenceSite } from '../../../src-worker/site/reference-site';
import { tempDir } from '../../helpers/temp';

const tmp = tempDir();
const project = join(tmp.dir, 'drive.thicket');
let services: AppServices;
let sceneId = 0;

const definition = (over: Partial<Request<'drive.start'>['definition']> = {}): Request<'drive.start'>['definition'] => ({
  sceneId,
  seconds: 1.5,
  simulation: 'hybrid',
  sensors: [{ profileId: 'lms291-180-1', mount: { height: 2 } }, { profileId: 'vlp16' }],
  cloudBudget: 2_000_000,
  ...over,
});

function concat<T extends Float32Array | Float64Array | Uint32Array | Uint8Array>(parts: T[], make: (n: number) => T): T {
  const out = make(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

async function apiError(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

beforeAll(async () => {
  services = await createAppServices({ shell: 'cli', homeDir: join(tmp.dir, 'home'), workers: 2 });
  await services.call('project.create', { path: project });
  const site = buildReferenceSite({ seed: 3, small: true });
  const store = services.session!.store;
  const ann = store.annotations.create('site', null, site.annotations as AnnotationEntry[]);
  sceneId = store.scenes.create('small site', { kind: 'reference-site', trail: site.trail, annotation: ann.id }, site.data as unknown as Record<string, unknown>).id;
}, 60_000);
afterAll(async () => {
  await services.close();
  tmp.cleanup();
});

describe('live drives', () => {
  it('streams every scan, stores nothing until saved, and saves the study the same definition gives', async () => {
    const frames = new Map<number, DriveEvent['frame'][]>();
    let jobOf = 0;
    const off = services.onEvent((e) => {
      if (e.type === 'drive') {
        expect(e.job).toBe(jobOf);
        frames.set(e.seq, [...(frames.get(e.seq) ?? []), e.frame]);
      }
    });
    const before = (await services.call('studies.list', {})).length;
    const started = await services.call('drive.start', { definition: definition() });
    jobOf = started.job.id;
    expect(started.runs.map((r) => r.profileId)).toEqual(['lms291-180-1', 'vlp16']);
    expect(started.layout.grid.width).toBeGreaterThan(0);
    const final = await services.whenJobSettled(started.job.id);
    off();
    expect(final.state, final.error ?? '').toBe('done');
    expect(final.kind).toBe('drive');
    expect((await services.call('studies.list', {})).length).toBe(before);

    const { study } = await services.call('drive.save', { job: started.job.id, name: 'Watched drive' });
    expect(study.name).toBe('Watched drive');
    expect(study.state).toBe('done');
    expect((await services.call('drive.save', { job: started.job.id })).study.id).toBe(study.id);
    expect((await services.call('studies.list', {})).length).toBe(before + 1);

    const saved = await services.call('studies.get', { id: study.id });
    for (const r of saved.results!) {
      const got = frames.get(r.seq)!;
      // One frame per scan, in order, ending at the run's end.
      expect(got.map((f) => f.frame)).toEqual(got.map((_, k) => k));
      expect(got.length).toBe(r.scans);
      expect(got[got.length - 1]!.time).toBeCloseTo(r.endTime, 3);
      const run = await services.call('studies.run', { id: study.id, seq: r.seq, cloudBudget: 2_000_000 });
      // The frames concatenated are the stored history: poses, cost rises, plans and points.
      const poses = concat([...got.map((f) => f.poseStart), got[got.length - 1]!.poseEnd], (n) => new Float64Array(n));
      expect(Array.from(poses)).toEqual(Array.from(run.poses));
      expect(Array.from(concat(got.map((f) => f.riseCell), (n) => new Uint32Array(n)))).toEqual(Array.from(run.costEvents!.cell));
      expect(Array.from(concat(got.map((f) => f.riseCost), (n) => new Uint8Array(n)))).toEqual(Array.from(run.costEvents!.cost));
      const plans = got.flatMap((f) => f.plans);
      expect(plans.map((p) => p.frame)).toEqual(Array.from(run.planFrame));
      expect(Array.from(concat(plans.map((p) => p.xy), (n) => new Float32Array(n)))).toEqual(Array.from(run.planXY));
      expect(Array.from(concat(got.map((f) => f.xyz), (n) => new Float32Array(n)))).toEqual(Array.from(run.cloud.xyz));
    }

    // The same definition run as a study job gives the same metrics.
    const { job } = await services.call('study.start', { definition: definition() });
    expect((await services.whenJobSettled(job.id)).state).toBe('done');
    const studies = await services.call('studies.list', {});
    const twin = await services.call('studies.get', { id: studies[studies.length - 1]!.id });
    expect(twin.results).toEqual(saved.results);
  }, 240_000);

  it('refuses an open loop, an unknown drive, and saving a cancelled one', async () => {
    expect((await apiError(services.call('drive.start', { definition: definition({ loop: 'open' }) }))).message).toMatch(/closed loop/);
    expect((await apiError(services.call('drive.save', { job: 99_999 }))).code).toBe('not_found');
    const started = await services.call('drive.start', { definition: definition({ seconds: 60, sensors: [{ profileId: 'hdl64e' }] }) });
    await services.call('jobs.cancel', { id: started.job.id });
    expect((await services.whenJobSettled(started.job.id)).state).toBe('cancelled');
    const err = await apiError(services.call('drive.save', { job: started.job.id }));
    expect(err.code).toBe('conflict');
    expect(err.message).toMatch(/cancelled/);
  }, 120_000);
});
