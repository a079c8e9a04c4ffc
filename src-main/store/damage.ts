/**
 * A damaged project file (docs/design.md, "Robustness"): one whose pages fail SQLite's
 * `quick_check` (a disk error, a copy cut short, a bit flipped in storage). Such a project opens
 * read-only, so what is still readable can be looked at and exported, and every write is refused
 * with the reason and the way to recover — a write into a damaged b-tree can spread the damage.
 */
import type Database from 'better-sqlite3';
import { ApiError } from '../api/contract';
import { sqliteCode } from './sqlite-errors';

/** The connections of damaged projects, and what is wrong with each. */
const damaged = new WeakMap<Database.Database, string>();

/** What `quick_check` finds wrong with the file (its first few problems), or null when nothing. */
export function integrityProblem(db: Database.Database): string | null {
  try {
    const rows = db.pragma('quick_check(3)') as { quick_check: string }[];
    const found = rows.map((r) => r.quick_check);
    if (found.length === 1 && found[0] === 'ok') return null;
    // One line a problem, without SQLite's "*** in database main ***" heading.
    return found.flatMap((r) => r.split('\n')).filter((line) => line.trim() !== '' && !line.startsWith('***')).join('; ');
  } catch (e) {
    if (sqliteCode(e)?.startsWith('SQLITE_CORRUPT')) return e instanceof Error ? e.message : String(e);
    throw e;
  }
}

/** How to get the work back, for every message about a damaged project. */
export function recoveryHint(file: string): string {
  return (
    `Export what you need from it (thicket export works on it), restore it from a backup, or rebuild it with the sqlite3 shell: ` +
    `sqlite3 '${file}' .recover | sqlite3 '${file.replace(/\.thicket$/, '')}-recovered.thicket' and open the recovered file`
  );
}

/** Marks `db` as the connection of a damaged project: SQLite refuses its writes from now on. */
export function markDamaged(db: Database.Database, problem: string): void {
  db.pragma('query_only = ON');
  damaged.set(db, problem);
}

export function damageOf(db: Database.Database): string | null {
  return damaged.get(db) ?? null;
}

/** The error every write to a damaged project fails with. */
export function damagedError(db: Database.Database): ApiError {
  return new ApiError(
    'conflict',
    `project ${db.name} is damaged (SQLite's quick_check: ${damaged.get(db) ?? 'failed'}), so it is open read-only and nothing was written. ${recoveryHint(db.name)}`,
  );
}

/** A write the damaged project's connection refused (SQLITE_READONLY) as damagedError, or null. */
export function damagedWriteError(db: Database.Database, e: unknown): ApiError | null {
  return damaged.has(db) && sqliteCode(e)?.startsWith('SQLITE_READONLY') ? damagedError(db) : null;
}
