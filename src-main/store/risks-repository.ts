/**
 * Application-level risks of simulation runs against drive logs (docs/methods.md,
 * "Application-level risk"): one `risks` row (migration 9) per computation — the log, the run,
 * the application, the options as used, the result JSON (risk, every α sample with its objectives,
 * α̂* and the transfer gap), the job. Written once when the job succeeds. Deleting a log or a run
 * deletes its risks (foreign keys cascade).
 */
import type Database from 'better-sqlite3';
import type { RiskInfo, RiskResult } from '../../src-common/application-risk';
import { EntityRows } from './entity-rows';

interface RiskRow {
  id: number;
  real_log_id: number;
  run_id: number;
  application: string;
  params: string;
  result: string;
  seconds: number;
  job_id: number | null;
  created_at: string;
}

export interface NewRisk {
  realLogId: number;
  runId: number;
  params: Record<string, unknown>;
  result: RiskResult;
  seconds: number;
  jobId: number | null;
}

function toInfo(r: RiskRow): RiskInfo {
  return {
    ...(JSON.parse(r.result) as RiskResult),
    id: r.id,
    realLogId: r.real_log_id,
    runId: r.run_id,
    params: JSON.parse(r.params) as Record<string, unknown>,
    seconds: r.seconds,
    jobId: r.job_id,
    createdAt: r.created_at,
  };
}

export class RisksRepository extends EntityRows<RiskRow, RiskInfo> {
  private readonly stmts;

  constructor(db: Database.Database) {
    super(db, { table: 'risks', columns: 'id, real_log_id, run_id, application, params, result, seconds, job_id, created_at' }, toInfo);
    this.stmts = {
      insert: db.prepare<[number, number, string, string, string, number, number | null]>(
        `INSERT INTO risks (real_log_id, run_id, application, params, result, seconds, job_id) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ),
    };
  }

  create(r: NewRisk): RiskInfo {
    const id = Number(this.stmts.insert.run(r.realLogId, r.runId, r.result.application, JSON.stringify(r.params), JSON.stringify(r.result), r.seconds, r.jobId).lastInsertRowid);
    return this.get(id)!;
  }
}
