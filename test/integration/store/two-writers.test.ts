import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-main/api/contract';
import { openProject } from '../../../src-main/store';
import { useTempDir } from './helpers';

const WRITER = fileURLToPath(new URL('../../fixtures/store/import-writer.ts', import.meta.url));

interface WriterResult {
  done: number;
  errors: string[];
}

function writer(file: string, tag: string, imports: number, chunks: number): Promise<WriterResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', WRITER, file, tag, String(imports), String(chunks)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`writer ${tag} exited ${code}: ${stderr}`));
      else resolve(JSON.parse(stdout.trim().split('\n').pop()!) as WriterResult);
    });
  });
}

// docs/design.md, "Robustness": write transactions begin IMMEDIATE, so a second process's
// writes queue for the lock instead of failing with "database is locked".
describe('two processes importing into one project at the same time', () => {
  const tmp = useTempDir();

  it('keeps every import of both, round after round', async () => {
    const file = tmp.file('shared.thicket');
    openProject(file, { create: true }).close();
    const rounds = 3, imports = 4, chunks = 40;
    for (let round = 0; round < rounds; round++) {
      const results = await Promise.all([writer(file, `a${round}`, imports, chunks), writer(file, `b${round}`, imports, chunks)]);
      for (const r of results) {
        expect(r.errors).toEqual([]);
        expect(r.done).toBe(imports);
      }
    }
    const store = openProject(file, { create: false });
    try {
      const logs = store.logs.list();
      expect(logs).toHaveLength(2 * rounds * imports);
      for (const log of logs) {
        expect(log.packets).toBe(chunks * 16);
        expect(store.logs.chunkCount(log.id)).toBe(chunks);
      }
    } finally {
      store.close();
    }
  });

  it('names the project when another process holds the lock past the wait', () => {
    const file = tmp.file('held.thicket');
    const store = openProject(file, { create: true });
    const other = new Database(file, { fileMustExist: true });
    try {
      store.db.pragma('busy_timeout = 20'); // the test's own wait, not the default 5 s
      other.exec('BEGIN IMMEDIATE');
      let error: unknown = null;
      try {
        store.logs.beginImport({ name: 'late', format: 'pcd', sourcePath: null, profileId: null, jobId: null });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe('conflict');
      expect((error as ApiError).message).toContain(`project ${file} is busy`);
      // A single statement outside a transaction fails as SQLite says; the host explains it the same way.
      let single: unknown = null;
      try {
        store.jobs.create('import');
      } catch (e) {
        single = e;
      }
      expect(store.refusedWrite(single)?.message).toContain(`project ${file} is busy`);
      other.exec('ROLLBACK');
      expect(store.logs.beginImport({ name: 'now', format: 'pcd', sourcePath: null, profileId: null, jobId: null })).toBeGreaterThan(0);
    } finally {
      other.close();
      store.close();
    }
  });
});
