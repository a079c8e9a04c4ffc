import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-main/api/contract';
import { openProject, type ProjectStore } from '../../../src-main/store';
import { makeChunk, tempDir } from './helpers';

const count = (store: ProjectStore, table: string): number =>
  store.db.prepare<[], number>(`SELECT count(*) FROM ${table}`).pluck().get()!;

function expectApiError(fn: () => unknown, code: string, text?: RegExp): void {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).code).toBe(code);
    if (text) expect((e as ApiError).message).toMatch(text);
    return;
  }
  throw new Error('expected an ApiError');
}

describe('multi-row writes are all or nothing', () => {
  let tmp: ReturnType<typeof tempDir>;
  let store: ProjectStore;
  beforeEach(() => {
    tmp = tempDir();
    store = openProject(tmp.file('atomic.thicket'), { create: true });
  });
  afterEach(() => {
    store.close();
    tmp.cleanup();
  });

  it('a writeArray that fails at its 4th chunk leaves the previous array intact', () => {
    const modelId = Number(store.db.prepare(`INSERT INTO models (name, kind) VALUES ('m', 'hybrid')`).run().lastInsertRowid);
    const arrays = store.arrays('model_arrays');
    const original = new Float32Array(1000).map((_, i) => i);
    arrays.writeArray(modelId, 'elements', original, 400); // 10 chunks
    expect(count(store, 'model_arrays')).toBe(10);

    // Inject a failure on the 4th row of the next write (TEMP: this connection only, not the file).
    store.db.exec(`CREATE TEMP TRIGGER fail_4th BEFORE INSERT ON main.model_arrays WHEN NEW.seq = 3
                   BEGIN SELECT RAISE(ABORT, 'injected failure'); END`);
    expect(() => arrays.writeArray(modelId, 'elements', new Float32Array(2000).fill(7), 400)).toThrow(/injected failure/);
    store.db.exec('DROP TRIGGER temp.fail_4th');

    expect(count(store, 'model_arrays')).toBe(10);
    expect(Array.from(arrays.readArray(modelId, 'elements', 'f32')!)).toEqual(Array.from(original));
  });

  it('a transaction of several chunks that fails on the 3rd keeps none of them', () => {
    const logId = store.logs.beginImport({ name: 'l', format: 'kitti-bin', sourcePath: null, profileId: null, jobId: null });
    store.logs.appendChunk(logId, 0, makeChunk(0, 4, 16));
    expect(count(store, 'log_chunks')).toBe(1);

    expectApiError(
      () =>
        store.transaction(() => {
          store.logs.appendChunk(logId, 1, makeChunk(4, 4, 16));
          store.logs.appendChunk(logId, 2, makeChunk(8, 4, 16));
          store.logs.appendChunk(logId, 0, makeChunk(12, 4, 16)); // seq 0 again: conflict
        }),
      'conflict',
      /already has a chunk 0/,
    );
    expect(count(store, 'log_chunks')).toBe(1);
    expect([...store.logs.chunks(logId)].map((c) => c.packetStart)).toEqual([0]);
  });

  it('an appendChunk whose insert fails writes nothing', () => {
    const logId = store.logs.beginImport({ name: 'l', format: 'pcd', sourcePath: null, profileId: null, jobId: null });
    store.db.exec(`CREATE TEMP TRIGGER fail_chunk BEFORE INSERT ON main.log_chunks
                   BEGIN SELECT RAISE(ABORT, 'disk on fire'); END`);
    expect(() => store.logs.appendChunk(logId, 0, makeChunk(0, 2, 8))).toThrow(/disk on fire/);
    store.db.exec('DROP TRIGGER temp.fail_chunk');
    expect(count(store, 'log_chunks')).toBe(0);
  });

  it('rejects malformed chunks and bad references before writing', () => {
    const logId = store.logs.beginImport({ name: 'l', format: 'pcd', sourcePath: null, profileId: null, jobId: null });
    const bad = makeChunk(0, 2, 8);
    expectApiError(() => store.logs.appendChunk(logId, 0, { ...bad, rayRange: new Float32Array(3) }), 'bad_input', /rayRange has 3/);
    expectApiError(
      () => store.logs.appendChunk(logId, 0, { ...bad, rayRing: new Uint8Array(16) as unknown as Uint16Array<ArrayBuffer> }),
      'bad_input',
      /rayRing must be a u16/,
    );
    expectApiError(() => store.logs.appendChunk(logId + 1, 0, bad), 'not_found', /no drive log/);
    expectApiError(
      () => store.logs.beginImport({ name: 'l', format: 'pcd', sourcePath: null, profileId: 'ghost', jobId: null }),
      'not_found',
      /sensor profile 'ghost'/,
    );
    expectApiError(
      () => store.logs.beginImport({ name: 'l', format: 'pcap' as 'pcd', sourcePath: null, profileId: null, jobId: null }),
      'bad_input',
      /unknown log format/,
    );
    expect(count(store, 'log_chunks')).toBe(0);
    expect(count(store, 'drive_logs')).toBe(1);
  });

  it('beginImport + chunks then discard leaves nothing; unfinished logs are invisible', () => {
    const job = store.jobs.create('import', { path: 'a.bin' });
    const logId = store.logs.beginImport({ name: 'half', format: null, sourcePath: 'a.bin', profileId: null, jobId: job.id });
    for (let seq = 0; seq < 5; seq++) store.logs.appendChunk(logId, seq, makeChunk(seq * 3, 3, 32, seq));
    expect(store.logs.list()).toEqual([]);
    expect(store.logs.get(logId)).toBeNull();
    expect(store.logs.status(logId)).toBe('importing');
    expect(store.counts().driveLogs).toBe(0);
    expect(store.logs.delete(logId)).toBe(false); // user delete only touches finished logs

    expect(store.logs.discard(logId)).toBe(true);
    expect(count(store, 'drive_logs')).toBe(0);
    expect(count(store, 'log_chunks')).toBe(0);
    expect(store.logs.status(logId)).toBeNull();
  });

  it('finishImport needs a format, makes the log visible, and deleting it cascades', () => {
    const logId = store.logs.beginImport({ name: 'ok', format: null, sourcePath: null, profileId: null, jobId: null });
    store.logs.appendChunk(logId, 0, makeChunk(0, 2, 8));
    const totals = { packets: 2, points: 16, hits: 10, misses: 6, durationS: 0.1, bounds: null };
    expectApiError(() => store.logs.finishImport(logId, totals), 'bad_input', /did not determine a format/);
    const info = store.logs.finishImport(logId, { ...totals, format: 'kitti-bin' });
    expect(info).toMatchObject({ id: logId, format: 'kitti-bin', packets: 2, bounds: null });
    expectApiError(() => store.logs.finishImport(logId, totals), 'conflict', /already imported/);
    expectApiError(() => store.logs.appendChunk(logId, 1, makeChunk(2, 1, 8)), 'conflict');
    expect(store.logs.list().map((l) => l.id)).toEqual([logId]);
    expect(store.counts().driveLogs).toBe(1);
    expect(store.logs.delete(logId)).toBe(true);
    expect(count(store, 'log_chunks')).toBe(0);
  });
});
