/**
 * Opening and creating project files.
 *
 * An existing file is checked with reads only (SQLite header, application_id,
 * user_version) before anything is written, so pointing Thicket at someone else's file
 * (another app's SQLite database, a random file) fails without modifying it. Then SQLite's
 * quick_check reads every page: a damaged file opens read-only (damage.ts). Opening never
 * depends on being able to write (docs/design.md, "Robustness"): when the clean-up after a
 * stopped host cannot be written (a full disk, another process holding the lock), the project
 * opens without it and the next open does it.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ApiError } from '../api/contract';
import { SCHEMA_VERSION, THICKET_APPLICATION_ID, migrate, schemaVersion } from './migrations';
import { NOTHING_RECOVERED, ProjectStore, type RecoveryReport } from './project-store';
import { sqliteCode } from './sqlite-errors';
import { integrityProblem, markDamaged, recoveryHint } from './damage';
import { WalCheckpointer } from './wal-checkpointer';

export interface OpenOptions {
  /** true: make a new project (the file must not exist); false: open an existing one. */
  create: boolean;
}

/** How long a statement waits for another connection's lock before failing with SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5000;

const SIDECARS = ['-wal', '-shm', '-journal'];

/** Connections opened in EXCLUSIVE locking mode because the -shm file could not be rebuilt. */
const privateIndex = new WeakSet<Database.Database>();

export function openProject(file: string, opts: OpenOptions): ProjectStore {
  const abs = path.resolve(file);
  const db = opts.create ? createFile(abs) : openExisting(abs);
  try {
    configure(db, abs);
    const problem = opts.create ? null : integrityProblem(db);
    if (problem !== null) return openDamaged(abs, db, problem);
    migrate(db);
    const store = new ProjectStore(abs, db);
    store.recovery = recoverIfWritable(store);
    // A connection with the log's index in its own memory is the only one: no checkpoint thread.
    if (!privateIndex.has(db)) store.checkpointer = new WalCheckpointer(db, abs);
    return store;
  } catch (e) {
    db.close();
    if (opts.create) removeProjectFiles(abs);
    if (e instanceof ApiError) throw e;
    const damaged = sqliteCode(e)?.startsWith('SQLITE_CORRUPT') ? ` ${recoveryHint(abs)}` : '';
    throw new ApiError('bad_input', `cannot ${opts.create ? 'create' : 'open'} project ${abs}: ${describe(e)}${damaged}`);
  }
}

/** A damaged project, read-only: no migration, no clean-up, no checkpoints (they all write). */
function openDamaged(abs: string, db: Database.Database, problem: string): ProjectStore {
  if (schemaVersion(db) < SCHEMA_VERSION) {
    throw new ApiError('bad_input', `cannot open project ${abs}: it is damaged (SQLite's quick_check: ${problem}) and needs an upgrade, which would write into it. ${recoveryHint(abs)}`);
  }
  markDamaged(db, problem);
  return new ProjectStore(abs, db);
}

/** Errors that mean "cannot write now", not "the file is wrong": open without the clean-up. */
const CANNOT_WRITE_NOW = ['SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_BUSY', 'SQLITE_READONLY'];

function recoverIfWritable(store: ProjectStore): RecoveryReport {
  try {
    return store.recover();
  } catch (e) {
    const code = sqliteCode(e) ?? (e instanceof ApiError && e.code === 'conflict' ? 'SQLITE_BUSY' : null);
    if (!code || !CANNOT_WRITE_NOW.some((c) => code.startsWith(c))) throw e;
    // Half-written rows stay hidden (lists show ready rows only) until an open can remove them.
    return { ...NOTHING_RECOVERED, deferred: describe(e) };
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
  const db = new Database(abs, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  // Before the first table: pages that deletions free can be given back to the file system
  // (ProjectStore.reclaim); an existing project switches by `thicket project compact`.
  db.pragma('auto_vacuum = INCREMENTAL');
  return db;
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

  let db = new Database(abs, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  try {
    let appId: number;
    let version: number;
    try {
      try {
        appId = db.pragma('application_id', { simple: true }) as number;
      } catch (e) {
        if (!sqliteCode(e)?.startsWith('SQLITE_IOERR_SHM')) throw e;
        // The first reader after a stopped host rebuilds the log's shared index (the -shm file),
        // which needs disk space; without it (a full disk) keep the index in this process's memory.
        // EXCLUSIVE locking mode does that, at the price of other processes until this one closes.
        db.close();
        db = new Database(abs, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
        db.pragma('locking_mode = EXCLUSIVE');
        privateIndex.add(db);
        appId = db.pragma('application_id', { simple: true }) as number;
      }
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
