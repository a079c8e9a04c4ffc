/**
 * Evaluations of simulation runs against real drive logs: the `evaluations` row (log, run, the
 * options as used, the metrics JSON, the job) and its per-packet series as whole typed arrays in
 * `evaluation_arrays` (migration 4), written together in one transaction when the evaluation's
 * job succeeds, so an evaluation is never stored half. Deleting a log or a run deletes its
 * evaluations (foreign keys cascade), and their arrays with them.
 */
import type Database from 'better-sqlite3';
import type { EvaluationInfo } from '../api/contract';
import type { EvaluationMetrics } from '../../src-common/metrics';
import { dtypeOf, fromBlob, isDtype, toBlob, type AnyStorableArray, type StorableArray } from './typed-blobs';
import { writeTransaction } from './write-transaction';

interface EvaluationRow {
  id: number;
  real_log_id: number;
  run_id: number;
  log_name: string | null;
  run_name: string | null;
  params: string;
  metrics: string;
  job_id: number | null;
  created_at: string;
}

export interface NewEvaluation {
  realLogId: number;
  runId: number;
  params: Record<string, unknown>;
  metrics: EvaluationMetrics;
  jobId: number | null;
}

const SELECT = `SELECT e.id, e.real_log_id, e.run_id, l.name AS log_name, r.name AS run_name, e.params, e.metrics, e.job_id, e.created_at
  FROM evaluations e LEFT JOIN drive_logs l ON l.id = e.real_log_id LEFT JOIN runs r ON r.id = e.run_id`;

function toInfo(r: EvaluationRow): EvaluationInfo {
  return {
    id: r.id,
    realLogId: r.real_log_id,
    runId: r.run_id,
    realLogName: r.log_name,
    runName: r.run_name,
    params: JSON.parse(r.params) as Record<string, unknown>,
    metrics: JSON.parse(r.metrics) as EvaluationMetrics,
    jobId: r.job_id,
    createdAt: r.created_at,
  };
}

export class EvaluationsRepository {
  private readonly stmts;

  constructor(private readonly db: Database.Database) {
    this.stmts = {
      insert: db.prepare<[number, number, string, string, number | null]>(
        `INSERT INTO evaluations (real_log_id, run_id, params, metrics, job_id) VALUES (?, ?, ?, ?, ?)`,
      ),
      insertArray: db.prepare<[number, string, string, Buffer]>(`INSERT INTO evaluation_arrays (evaluation_id, name, dtype, data) VALUES (?, ?, ?, ?)`),
      list: db.prepare<[number | null, number | null, number | null, number | null], EvaluationRow>(
        `${SELECT} WHERE (? IS NULL OR e.run_id = ?) AND (? IS NULL OR e.real_log_id = ?) ORDER BY e.id`,
      ),
      get: db.prepare<[number], EvaluationRow>(`${SELECT} WHERE e.id = ?`),
      arrays: db.prepare<[number], { name: string; dtype: string; data: Buffer }>(`SELECT name, dtype, data FROM evaluation_arrays WHERE evaluation_id = ? ORDER BY name`),
      delete: db.prepare<[number]>(`DELETE FROM evaluations WHERE id = ?`),
    };
  }

  /** Stores an evaluation and its arrays in one transaction; returns it as listed. */
  create(e: NewEvaluation, arrays: Record<string, AnyStorableArray>): EvaluationInfo {
    const id = writeTransaction(this.db, () => {
      const id = Number(this.stmts.insert.run(e.realLogId, e.runId, JSON.stringify(e.params), JSON.stringify(e.metrics), e.jobId).lastInsertRowid);
      for (const [name, array] of Object.entries(arrays)) this.stmts.insertArray.run(id, name, dtypeOf(array), toBlob(array));
      return id;
    });
    return this.get(id)!;
  }

  list(filter: { runId?: number; realLogId?: number } = {}): EvaluationInfo[] {
    const run = filter.runId ?? null, log = filter.realLogId ?? null;
    return this.stmts.list.all(run, run, log, log).map(toInfo);
  }

  get(id: number): EvaluationInfo | null {
    const row = this.stmts.get.get(id);
    return row ? toInfo(row) : null;
  }

  /** The evaluation's arrays by name (fresh buffers). */
  arrays(id: number): Record<string, StorableArray> {
    const out: Record<string, StorableArray> = {};
    for (const row of this.stmts.arrays.all(id)) {
      if (!isDtype(row.dtype)) throw new Error(`evaluation ${id}: array ${row.name} has an unknown dtype ${row.dtype}`);
      out[row.name] = fromBlob(row.data, row.dtype, `evaluation ${id} ${row.name}`);
    }
    return out;
  }

  delete(id: number): boolean {
    return this.stmts.delete.run(id).changes > 0;
  }
}
