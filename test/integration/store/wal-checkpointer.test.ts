import { mkdtempSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { WalCheckpointer } from '../../../src-main/store/wal-checkpointer';
import { openProject } from '../../../src-main/store/database';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'thicket-wal-'));
  dirs.push(dir);
  return join(dir, 'p.thicket');
}

function walDb(): { db: Database.Database; file: string } {
  const file = tempFile();
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, b BLOB)');
  return { db, file };
}

/** A PASSIVE checkpoint of nothing new reports the log's frames and how many are in the file. */
const walFrames = (db: Database.Database): { log: number; checkpointed: number } => {
  const [row] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
  return row!;
};

async function until(pred: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const MiB = 1 << 20;

describe('WalCheckpointer', () => {
  it('turns checkpoints off on the host connection, so its commits only append to the log', () => {
    const { db, file } = walDb();
    const cp = new WalCheckpointer(db, file, { thresholdBytes: 1 << 30 });
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    const insert = db.prepare('INSERT INTO t (b) VALUES (?)');
    for (let i = 0; i < 12; i++) insert.run(Buffer.alloc(MiB, i));
    // 12 MiB committed, three times SQLite's own threshold, and no checkpoint ran on this thread.
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(12 * MiB);
    expect(cp.threadRunning).toBe(false);
    cp.close();
    db.close();
  });

  it('starts its thread once the log passes the threshold; the thread copies the log into the file', async () => {
    const { db, file } = walDb();
    const cp = new WalCheckpointer(db, file, { thresholdBytes: 2 * MiB, periodMs: 20 });
    const insert = db.prepare('INSERT INTO t (b) VALUES (?)');
    for (let i = 0; i < 4; i++) insert.run(Buffer.alloc(MiB, i));
    await until(() => cp.threadRunning);
    await until(() => statSync(file).size > 4 * MiB); // the 4 MiB reached the database file
    const { log, checkpointed } = walFrames(db);
    expect(checkpointed).toBe(log);
    cp.close();
    expect(cp.threadRunning).toBe(false);
    db.close();
    // The host's connection was the last one: SQLite removed the log when it closed.
    expect(existsSync(`${file}-wal`)).toBe(false);
    const again = new Database(file, { readonly: true });
    expect(again.prepare('SELECT count(*) FROM t').pluck().get()).toBe(4);
    again.close();
  });

  it('runs for every opened project and leaves no log behind when the project closes', async () => {
    const file = tempFile();
    const store = openProject(file, { create: true });
    expect(store.checkpointer).not.toBeNull();
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    store.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
  });
});
