import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { hostname } from 'node:os';
import { spawnSync } from 'node:child_process';
import { INTERRUPTED_MESSAGE, openProject } from '../../../src-main/store';
import { currentOwner, ownerAlive } from '../../../src-main/store/jobs-repository';

/** The pid of a process that has already exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}
import { makeChunk, useTempDir } from './helpers';

describe('recover() on open', () => {
  const tmp = useTempDir();

  it('discards a half-imported log with its chunks and interrupts unfinished jobs', () => {
    const file = tmp.file('crashed.thicket');
    let store = openProject(file, { create: true });
    // A finished import that must survive.
    const doneJob = store.jobs.create('import', { path: 'good.bin' });
    const good = store.logs.beginImport({ name: 'good', format: 'kitti-bin', sourcePath: null, profileId: null, jobId: doneJob.id });
    store.logs.appendChunk(good, 0, makeChunk(0, 2, 8));
    store.logs.finishImport(good, { packets: 2, points: 16, hits: 10, misses: 6, durationS: 0.1, bounds: null });
    store.jobs.update(doneJob.id, { state: 'done', progress: 1, finishedAt: new Date().toISOString() });
    // The host "dies" here: an import half-way, its job running, another queued.
    const running = store.jobs.create('import', { path: 'half.bin' });
    store.jobs.update(running.id, { state: 'running', progress: 0.4, startedAt: new Date().toISOString() });
    const queued = store.jobs.create('fit', {});
    const half = store.logs.beginImport({ name: 'half', format: null, sourcePath: null, profileId: null, jobId: running.id });
    for (let seq = 0; seq < 3; seq++) store.logs.appendChunk(half, seq, makeChunk(seq * 2, 2, 8));
    // Their owner is a host process that has exited.
    store.db.prepare('UPDATE jobs SET owner = ? WHERE id IN (?, ?)').run(`${hostname()} ${deadPid()}`, running.id, queued.id);
    store.close();

    store = openProject(file, { create: false });
    try {
      expect(store.recovery).toEqual({ discardedImports: 1, discardedRuns: 0, discardedScenes: 0, discardedModels: 0, discardedPrimitives: 0, interruptedJobs: 2 });
      expect(store.logs.status(half)).toBeNull();
      expect(store.logs.chunkCount(half)).toBe(0);
      expect(store.logs.list().map((l) => l.id)).toEqual([good]);
      expect(store.logs.chunkCount(good)).toBe(1);
      for (const id of [running.id, queued.id]) {
        const job = store.jobs.get(id)!;
        expect(job.state).toBe('interrupted');
        expect(job.message).toBe(INTERRUPTED_MESSAGE);
        expect(job.finishedAt).not.toBeNull();
      }
      expect(store.jobs.get(running.id)!.progress).toBeCloseTo(0.4);
      expect(store.jobs.get(doneJob.id)!.state).toBe('done');
      expect(store.counts()).toMatchObject({ driveLogs: 1, jobs: 3 });
      // Nothing left to do the second time.
      expect(store.recover()).toEqual({ discardedImports: 0, discardedRuns: 0, discardedScenes: 0, discardedModels: 0, discardedPrimitives: 0, interruptedJobs: 0 });
    } finally {
      store.close();
    }
    const raw = new Database(file, { readonly: true });
    expect(raw.prepare('SELECT count(*) FROM log_chunks').pluck().get()).toBe(1);
    raw.close();
  });
});

describe('recover() with a second host', () => {
  const tmp = useTempDir();

  it('leaves the jobs, in-progress imports and scenes being written of a live host alone', async () => {
    const file = tmp.file('shared.thicket');
    const first = openProject(file, { create: true });
    const job = first.jobs.create('import', {});
    first.jobs.update(job.id, { state: 'running' });
    const log = first.logs.beginImport({ name: 'live', format: 'kitti-bin', sourcePath: null, profileId: null, jobId: job.id });
    first.logs.appendChunk(log, 0, makeChunk(0, 2, 8));
    const scene = await first.scenes.stage('live scene', {}, { a: new Float32Array([1, 2, 3]) }, job.id);
    // A second host (here: a second connection; the owner is this live process) opens the project.
    const second = openProject(file, { create: false });
    try {
      expect(second.recovery).toEqual({ discardedImports: 0, discardedRuns: 0, discardedScenes: 0, discardedModels: 0, discardedPrimitives: 0, interruptedJobs: 0 });
      expect(second.jobs.get(job.id)!.state).toBe('running');
      expect(second.logs.status(log)).toBe('importing');
      expect(second.arrays('scene_arrays').listArrays(scene.id).map((s) => s.name)).toEqual(['data.a']);
      expect(ownerAlive(currentOwner())).toBe(true);
      expect(ownerAlive(`${hostname()} ${deadPid()}`)).toBe(false);
      expect(ownerAlive(`another-machine ${process.pid}`)).toBe(false);
      expect(ownerAlive(null)).toBe(false);
    } finally {
      second.close();
      first.close();
    }
  });
});

describe('jobs repository', () => {
  const tmp = useTempDir();

  it('creates, patches, lists newest first and validates', () => {
    const store = openProject(tmp.file('jobs.thicket'), { create: true });
    try {
      const a = store.jobs.create('import', { path: '/a', n: 1 });
      expect(a).toMatchObject({ kind: 'import', state: 'queued', progress: 0, message: '', error: null, params: { path: '/a', n: 1 }, result: null, startedAt: null, finishedAt: null });
      const b = store.jobs.create('fit');
      const patched = store.jobs.update(a.id, { state: 'failed', error: 'boom', message: 'reading', progress: 1.0000000001, result: { x: [1, 2] } });
      expect(patched).toMatchObject({ state: 'failed', error: 'boom', message: 'reading', progress: 1, result: { x: [1, 2] } });
      expect(store.jobs.update(a.id, { error: null, result: null })).toMatchObject({ error: null, result: null, state: 'failed' });
      expect(store.jobs.update(a.id, {})).toMatchObject({ id: a.id });
      expect(store.jobs.list(10).map((j) => j.id)).toEqual([b.id, a.id]);
      expect(store.jobs.list(1).map((j) => j.id)).toEqual([b.id]);
      expect(() => store.jobs.update(999, { progress: 0.5 })).toThrow(/no job 999/);
      expect(() => store.jobs.update(a.id, { state: 'exploded' as 'done' })).toThrow(/unknown job state/);
      expect(() => store.jobs.update(a.id, { progress: NaN })).toThrow(/NaN/);
      expect(store.jobs.markInterrupted()).toBe(0); // b belongs to this live process
      expect(store.jobs.markInterrupted(undefined, () => false)).toBe(1); // b was queued
      expect(store.jobs.get(b.id)!.state).toBe('interrupted');
      expect(store.jobs.get(404)).toBeNull();
    } finally {
      store.close();
    }
  });
});
