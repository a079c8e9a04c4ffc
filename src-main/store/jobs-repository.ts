/**
 * Persistent job records: what the job runner reports (state, progress, errors, results)
 * outlives the process, so a crash leaves a visible 'interrupted' job instead of a job
 * that claims to run forever.
 */
import { hostname } from 'node:os';
import type Database from 'better-sqlite3';
import { ApiError, JOB_STATES, type JobInfo, type JobState } from '../api/contract';
import { writeTransaction } from './write-transaction';

export interface JobPatch {
  state?: JobState;
  /** Fraction done, clamped to [0, 1]. */
  progress?: number;
  message?: string;
  error?: string | null;
  result?: Record<string, unknown> | null;
  startedAt?: string | null;
  finishedAt?: string | null;
}

interface JobRow {
  id: number;
  kind: string;
  state: JobState;
  progress: number;
  message: string;
  error: string | null;
  params: string;
  result: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** Patch keys and their columns: the only names that reach the UPDATE's SQL text. */
const PATCH_COLUMNS: Record<keyof JobPatch, string> = {
  state: 'state',
  progress: 'progress',
  message: 'message',
  error: 'error',
  result: 'result',
  startedAt: 'started_at',
  finishedAt: 'finished_at',
};

export const INTERRUPTED_MESSAGE = 'interrupted: Thicket stopped before this job finished';

function toInfo(r: JobRow): JobInfo {
  return {
    id: r.id,
    kind: r.kind,
    state: r.state,
    progress: r.progress,
    message: r.message,
    error: r.error,
    params: JSON.parse(r.params) as Record<string, unknown>,
    result: r.result === null ? null : (JSON.parse(r.result) as Record<string, unknown>),
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
  };
}

function columnValue(key: keyof JobPatch, value: unknown): unknown {
  switch (key) {
    case 'state':
      if (!(JOB_STATES as readonly unknown[]).includes(value)) throw new ApiError('bad_input', `unknown job state '${String(value)}'`);
      return value;
    case 'progress': {
      const p = Number(value);
      if (Number.isNaN(p)) throw new ApiError('bad_input', 'job progress is NaN');
      // Accumulated float fractions overshoot 1 by an ulp; the CHECK would reject that.
      return Math.min(1, Math.max(0, p));
    }
    case 'result':
      return value === null ? null : JSON.stringify(value);
    default:
      return value;
  }
}

export class JobsRepository {
  private readonly stmts;
  private readonly updates = new Map<string, Database.Statement<unknown[]>>();

  constructor(private readonly db: Database.Database) {
    this.stmts = {
      insert: db.prepare<[string, string, string]>(`INSERT INTO jobs (kind, params, owner) VALUES (?, ?, ?)`),
      unfinished: db.prepare<[], { id: number; owner: string | null }>(`SELECT id, owner FROM jobs WHERE state IN ('queued', 'running')`),
      get: db.prepare<[number], JobRow>(`SELECT * FROM jobs WHERE id = ?`),
      list: db.prepare<[number], JobRow>(`SELECT * FROM jobs ORDER BY id DESC LIMIT ?`),
      interrupt: db.prepare<[string, string, number]>(
        `UPDATE jobs SET state = 'interrupted', message = ?, finished_at = ? WHERE id = ? AND state IN ('queued', 'running')`,
      ),
    };
  }

  create(kind: string, params: Record<string, unknown> = {}): JobInfo {
    if (kind.trim() === '') throw new ApiError('bad_input', 'a job needs a kind');
    const info = this.stmts.insert.run(kind, JSON.stringify(params), currentOwner());
    return this.get(Number(info.lastInsertRowid))!;
  }

  /** Applies the fields present in `patch` (undefined = unchanged, null = cleared). */
  update(id: number, patch: JobPatch): JobInfo {
    const keys = (Object.keys(patch) as (keyof JobPatch)[]).filter(
      (k) => Object.prototype.hasOwnProperty.call(PATCH_COLUMNS, k) && patch[k] !== undefined,
    );
    return writeTransaction(this.db, () => {
      if (keys.length > 0) {
        const values = keys.map((k) => columnValue(k, patch[k]));
        const changes = this.updateStatement(keys).run(...values, id).changes;
        if (changes === 0) throw new ApiError('not_found', `no job ${id}`);
      }
      const job = this.get(id);
      if (!job) throw new ApiError('not_found', `no job ${id}`);
      return job;
    });
  }

  get(id: number): JobInfo | null {
    const row = this.stmts.get.get(id);
    return row ? toInfo(row) : null;
  }

  /** The newest `limit` jobs, newest first. */
  list(limit = 100): JobInfo[] {
    return this.stmts.list.all(Math.max(0, Math.floor(limit))).map(toInfo);
  }

  /** Deletes the finished jobs in `states` (never a queued or running one); returns their ids. What they made keeps its rows (job_id becomes null). */
  clear(states: readonly JobState[]): number[] {
    const finished = states.filter((s) => s !== 'queued' && s !== 'running');
    if (!finished.length) return [];
    const marks = finished.map(() => '?').join(', ');
    return writeTransaction(this.db, () => {
      const ids = this.db.prepare<JobState[], { id: number }>(`SELECT id FROM jobs WHERE state IN (${marks}) ORDER BY id`).all(...finished).map((r) => r.id);
      this.db.prepare<JobState[]>(`DELETE FROM jobs WHERE state IN (${marks})`).run(...finished);
      return ids;
    });
  }

  /**
   * Marks interrupted every queued or running job whose owning host process is gone (see
   * ownerAlive); returns how many. Jobs of a host still running are left to it.
   */
  markInterrupted(message = INTERRUPTED_MESSAGE, alive: (owner: string | null) => boolean = ownerAlive): number {
    const now = new Date().toISOString();
    let n = 0;
    for (const job of this.stmts.unfinished.all()) {
      if (!alive(job.owner)) n += this.stmts.interrupt.run(message, now, job.id).changes;
    }
    return n;
  }

  /** One prepared UPDATE per set of patched columns, reused (progress updates are frequent). */
  private updateStatement(keys: (keyof JobPatch)[]): Database.Statement<unknown[]> {
    const signature = keys.join(',');
    let stmt = this.updates.get(signature);
    if (!stmt) {
      const sets = keys.map((k) => `${PATCH_COLUMNS[k]} = ?`).join(', ');
      stmt = this.db.prepare<unknown[]>(`UPDATE jobs SET ${sets} WHERE id = ?`);
      this.updates.set(signature, stmt);
    }
    return stmt;
  }
}

/** 'hostname pid' of this process, recorded on every job it creates. */
export function currentOwner(): string {
  return `${hostname()} ${process.pid}`;
}

/**
 * Whether the host process that owns a job still runs. A job from another machine, or without
 * an owner, counts as orphaned: a project is worked on from one machine at a time. (A reused
 * pid can make a dead owner look alive; the job then stays 'running' until that process ends.)
 */
export function ownerAlive(owner: string | null): boolean {
  if (!owner) return false;
  const sep = owner.lastIndexOf(' ');
  const host = owner.slice(0, sep);
  const pid = Number(owner.slice(sep + 1));
  if (host !== hostname() || !Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0); // signal 0: existence check only
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
