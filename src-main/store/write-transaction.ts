/**
 * Write transactions that queue behind other writers (docs/design.md, "Robustness").
 *
 * A deferred transaction (SQLite's default BEGIN) starts as a read and takes the write lock at
 * its first write; when another connection has committed in between, SQLite cannot upgrade it
 * and fails at once with SQLITE_BUSY, without waiting for the busy timeout. Beginning every
 * write transaction IMMEDIATE takes the write lock first, so a second writer (another process
 * importing into the same project) waits up to the busy timeout for its turn instead. Nested
 * calls become savepoints of the outer transaction, as better-sqlite3 does for every kind.
 * A damaged project (damage.ts) refuses every write transaction before it begins.
 */
import type Database from 'better-sqlite3';
import { ApiError } from '../api/contract';
import { sqliteCode } from './sqlite-errors';
import { damageOf, damagedError } from './damage';

export function writeTransaction<T>(db: Database.Database, fn: () => T): T {
  if (damageOf(db) !== null) throw damagedError(db);
  try {
    return db.transaction(fn).immediate();
  } catch (e) {
    throw busyError(db, e) ?? e;
  }
}

/** SQLITE_BUSY as an error that names the project, or null for any other error. */
export function busyError(db: Database.Database, e: unknown): ApiError | null {
  if (!sqliteCode(e)?.startsWith('SQLITE_BUSY')) return null;
  return new ApiError(
    'conflict',
    `project ${db.name} is busy: another process kept it locked for longer than the wait allows (${e instanceof Error ? e.message : String(e)}); try again when it has finished`,
  );
}
