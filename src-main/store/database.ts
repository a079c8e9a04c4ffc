/**
 * Opening and creating project files.
 *
 * An existing file is checked with reads only (SQLite header, application_id,
 * user_version) before anything is written, so pointing Thicket at someone else's file
 * (another app's SQLite database, a random file) fails without modifying it.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ApiError } from '../api/contract';
import { SCHEMA_VERSION, THICKET_APPLICATION_ID, migrate, schemaVersion } from './migrations';
import { ProjectStore } from './project-store';
import { sqliteCode } from './sqlite-errors';
import { WalCheckpointer } from './wal-checkpointer';

export interface OpenOptions {
  /** true: make a new project (the file must not exist); false: open an existing one. */
  create: boolean;
}

/** How long a statement waits for another connection's lock before failing with SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5000;

const SIDECARS = ['-wal', '-shm', '-journal'];

export function openProject(file: string, opts: OpenOptions): ProjectStore {
  const abs = path.resolve(file);
  const db = opts.create ? createFile(abs) : openExisting(abs);
  try {
    configure(db, abs);
    migrate(db);
    const store = new ProjectStore(abs, db);
    store.recovery = store.recover();
    store.checkpointer = new WalCheckpointer(db, abs);
    return store;
  } catch (e) {
    db.close();
    if (opts.create) removeProjectFiles(abs);
    if (e instanceof ApiError) throw e;
    throw new ApiError('bad_input', `cannot ${opts.create ? 'create' : 'open'} project ${abs}: ${describe(e)}`);
  }
}

function createFile(abs: string): Database.Database {
  try {
    // 'wx' creates exclusively: no race with another process creating the same path.
    fs.closeSync(fs.openSync(abs, 'wx'));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new ApiError('conflict', `cannot create project ${abs}: a file already exists there`);
    if (code === 'ENOENT') {
      throw new ApiError('not_found', `cannot create project ${abs}: the folder ${path.dirname(abs)} does not exist`);
    }
    throw new ApiError('bad_input', `cannot create project ${abs}: ${describe(e)}`);
  }
  // A stale -wal beside the new, empty file is not replayed: SQLite deletes the WAL of a
  // zero-length database (tested in open-and-migrate.test.ts).
  return new Database(abs, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
}

function openExisting(abs: string): Database.Database {
  const fail = (code: 'not_found' | 'bad_input', reason: string): never => {
    throw new ApiError(code, `cannot open project ${abs}: ${reason}`);
  };
  let stat: fs.Stats;
  try {
    stat = fs.statSync(abs);
  } catch {
    return fail('not_found', 'no such file');
  }
  if (!stat.isFile()) fail('bad_input', 'not a file');
  try {
    fs.accessSync(abs, fs.constants.R_OK | fs.constants.W_OK);
  } catch {
    fail('bad_input', 'the file is not readable and writable by this user');
  }

  const db = new Database(abs, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  try {
    let appId: number;
    let version: number;
    try {
      appId = db.pragma('application_id', { simple: true }) as number;
      version = schemaVersion(db);
    } catch (e) {
      if (sqliteCode(e) === 'SQLITE_NOTADB') return fail('bad_input', 'not a Thicket project (not an SQLite database)');
      throw e;
    }
    if (appId !== THICKET_APPLICATION_ID) {
      fail('bad_input', "not a Thicket project (an SQLite database without Thicket's application id)");
    }
    if (version > SCHEMA_VERSION) {
      fail(
        'bad_input',
        `it was written by a newer Thicket (schema version ${version}; this build reads up to ${SCHEMA_VERSION})`,
      );
    }
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

function configure(db: Database.Database, abs: string): void {
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.pragma('foreign_keys = ON');
  // WAL: readers (a second window, the CLI) never block the writer nor it them.
  const mode = db.pragma('journal_mode = WAL', { simple: true });
  if (mode !== 'wal') {
    throw new ApiError('bad_input', `cannot open project ${abs}: its file system does not support WAL (journal mode ${String(mode)})`);
  }
  // NORMAL is durable against application crashes in WAL mode; only a power cut can lose
  // the last transactions, never corrupt the file.
  db.pragma('synchronous = NORMAL');
}

function removeProjectFiles(abs: string): void {
  for (const suffix of ['', ...SIDECARS]) fs.rmSync(abs + suffix, { force: true });
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
