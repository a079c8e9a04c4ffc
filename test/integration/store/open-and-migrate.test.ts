import fs from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-main/api/contract';
import { SCHEMA_VERSION, THICKET_APPLICATION_ID, openProject } from '../../../src-main/store';
import { useTempDir } from './helpers';

const EXPECTED_TABLES = [
  'annotations', 'drive_logs', 'evaluation_arrays', 'evaluations', 'jobs', 'label_classes', 'label_versions', 'log_arrays',
  'log_chunks', 'log_sources', 'model_arrays', 'models', 'noise_models', 'primitive_arrays', 'primitives', 'risks', 'run_chunks',
  'runs', 'scene_arrays', 'scenes', 'segments', 'sensor_profiles', 'studies', 'study_run_arrays', 'study_runs',
];

function openError(path: string, create = false): ApiError {
  try {
    openProject(path, { create }).close();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error(`opening ${path} did not fail`);
}

describe('openProject', () => {
  const tmp = useTempDir();

  it('creates the latest schema in an empty file, with WAL and foreign keys', () => {
    const file = tmp.file('fresh.thicket');
    const store = openProject(file, { create: true });
    try {
      expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(store.db.pragma('application_id', { simple: true })).toBe(THICKET_APPLICATION_ID);
      expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(store.db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
      expect(store.db.pragma('busy_timeout', { simple: true })).toBe(5000);
      const tables = store.db
        .prepare<[], string>(`SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name`)
        .pluck()
        .all();
      expect(tables).toEqual(EXPECTED_TABLES);
      expect(store.db.pragma('foreign_key_check')).toEqual([]);
      expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
      const info = store.info();
      expect(info.name).toBe('fresh');
      expect(info.path).toBe(file);
      expect(info.schemaVersion).toBe(SCHEMA_VERSION);
      expect(Object.values(info.counts).every((n) => n === 0)).toBe(true);
      expect(Object.keys(info.counts).sort()).toEqual(
        ['annotations', 'driveLogs', 'evaluations', 'jobs', 'models', 'primitives', 'runs', 'scenes', 'sensorProfiles', 'studies'],
      );
    } finally {
      store.close();
    }
    const again = openProject(file, { create: false });
    expect(again.info().schemaVersion).toBe(SCHEMA_VERSION);
    expect(again.recovery).toEqual({ discardedImports: 0, discardedRuns: 0, discardedScenes: 0, discardedModels: 0, discardedPrimitives: 0, interruptedJobs: 0 });
    again.close();
    again.close(); // idempotent
  });

  it('refuses to create over an existing file and leaves it alone', () => {
    const file = tmp.file('taken.thicket');
    fs.writeFileSync(file, 'precious');
    const e = openError(file, true);
    expect(e.code).toBe('conflict');
    expect(e.message).toContain(file);
    expect(e.message).toContain('already exists');
    expect(fs.readFileSync(file, 'utf8')).toBe('precious');
  });

  it('reports a missing file or folder as not_found, naming the path', () => {
    const missing = tmp.file('nope.thicket');
    const e = openError(missing);
    expect(e.code).toBe('not_found');
    expect(e.message).toContain(missing);
    expect(e.message).toContain('no such file');
    expect(fs.existsSync(missing)).toBe(false);

    const inMissingDir = tmp.file('no/such/dir.thicket');
    const c = openError(inMissingDir, true);
    expect(c.code).toBe('not_found');
    expect(c.message).toContain('does not exist');
  });

  it('refuses a random file without modifying it', () => {
    const file = tmp.file('random.thicket');
    const junk = Buffer.alloc(8192);
    for (let i = 0; i < junk.length; i++) junk[i] = (i * 7919 + 13) & 0xff;
    fs.writeFileSync(file, junk);
    const e = openError(file);
    expect(e.code).toBe('bad_input');
    expect(e.message).toContain(file);
    expect(e.message).toContain('not a Thicket project');
    expect(e.message).toContain('not an SQLite database');
    expect(fs.readFileSync(file).equals(junk)).toBe(true);
  });

  it("refuses a plain SQLite database (no Thicket application id) without modifying it", () => {
    const file = tmp.file('other-app.thicket');
    const other = new Database(file);
    other.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES (\'hi\');');
    other.close();
    const before = fs.readFileSync(file);
    const e = openError(file);
    expect(e.code).toBe('bad_input');
    expect(e.message).toContain(file);
    expect(e.message).toContain("without Thicket's application id");
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
  });

  it('refuses a project written by a newer schema', () => {
    const file = tmp.file('future.thicket');
    openProject(file, { create: true }).close();
    const raw = new Database(file);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    const e = openError(file);
    expect(e.code).toBe('bad_input');
    expect(e.message).toContain(file);
    expect(e.message).toContain('newer Thicket');
    expect(e.message).toContain(`schema version ${SCHEMA_VERSION + 1}`);
  });

  // Guards a SQLite behaviour createFile relies on (a zero-length database's WAL is deleted, not replayed).
  it('ignores a stale WAL left beside a deleted project of the same name', () => {
    const file = tmp.file('reused.thicket');
    const old = openProject(file, { create: true });
    old.jobs.create('old', {});
    // Keep the WAL on disk as if the process had died: copy it while the connection is open.
    const wal = fs.readFileSync(`${file}-wal`);
    expect(wal.length).toBeGreaterThan(4096);
    old.close();
    fs.rmSync(file);
    fs.writeFileSync(`${file}-wal`, wal);
    const fresh = openProject(file, { create: true });
    expect(fresh.counts().jobs).toBe(0);
    expect(fresh.db.pragma('integrity_check', { simple: true })).toBe('ok');
    fresh.close();
  });
});
