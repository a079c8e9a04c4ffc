/**
 * A damaged project (docs/design.md, "Robustness"): a file whose pages fail SQLite's quick_check
 * opens read-only — its counts can be read — and every write is refused with the reason and
 * the way to recover, leaving the file byte for byte as it was.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, writeSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-main/api/contract';
import { openProject } from '../../../src-main/store';
import { cliTempHome, runCli, runCliOk } from '../../helpers/cli';
import { syntheticKitti } from '../../helpers/temp';
import { makeChunk } from './helpers';

const tmp = cliTempHome('thicket-damaged-');

/** A project with one log whose chunk table's root page is overwritten (its page type made invalid). */
function damagedProject(): string {
  const file = join(tmp.dir, 'damaged.thicket');
  const store = openProject(file, { create: true });
  const logId = store.logs.beginImport({ name: 'kept', format: 'pcd', sourcePath: null, profileId: null, jobId: null });
  for (let seq = 0; seq < 8; seq++) store.logs.appendChunk(logId, seq, { ...makeChunk(0, 16, 64, seq + 1), packetStart: seq * 16 });
  store.logs.finishImport(logId, { packets: 128, points: 0, hits: 0, misses: 0, durationS: 0, bounds: null });
  store.close();
  const db = new Database(file, { readonly: true });
  const root = db.prepare(`SELECT rootpage FROM sqlite_master WHERE name = 'log_chunks'`).pluck().get() as number;
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.close();
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(16, 0xff), 0, 16, (root - 1) * pageSize);
  closeSync(fd);
  return file;
}

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('a damaged project', () => {
  const file = damagedProject();

  it('opens read-only, says so, and refuses every write before it begins', () => {
    const store = openProject(file, { create: false });
    try {
      expect(store.damage).toMatch(/log_chunks|page/);
      expect(store.counts().driveLogs).toBe(1);
      expect(store.info().damaged).toContain('.recover');
      const e = (() => {
        try {
          store.logs.beginImport({ name: 'new', format: 'pcd', sourcePath: null, profileId: null, jobId: null });
        } catch (err) {
          return err;
        }
        return null;
      })();
      expect(e).toBeInstanceOf(ApiError);
      expect((e as ApiError).message).toContain(`project ${file} is damaged`);
    } finally {
      store.close();
    }
  });

  it('refuses an import with exit 1, the reason and a recovery hint, and leaves the file unchanged', () => {
    const before = sha(file);
    const scan = join(tmp.dir, 'scan.bin');
    writeFileSync(scan, syntheticKitti(1000));
    const r = runCli(['import', scan, '--project', file], tmp.env);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`project ${file} is damaged (SQLite's quick_check:`);
    expect(r.stderr).toContain('nothing was written');
    expect(r.stderr).toContain(`sqlite3 '${file}' .recover`);
    expect(sha(file)).toBe(before);

    const info = runCliOk(['project', 'info', '--project', file, '--json'], tmp.env).json as { damaged?: string; counts: { driveLogs: number } };
    expect(info.damaged).toContain('recovered.thicket');
    expect(info.counts.driveLogs).toBe(1);
    expect(sha(file)).toBe(before);
  });
});
