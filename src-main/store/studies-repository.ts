/**
 * Sensor studies: a definition (the `studies` row: name, scene, params JSON = the definition and
 * its resolved layout), and once run, one `study_runs` row per sensor and mount with its metrics
 * and its history as whole typed arrays (`study_run_arrays`). Results are written in one
 * transaction when the study's job succeeds, replacing any earlier results, so a study never
 * holds half a run; a failed or cancelled run leaves the definition as it was.
 */
import type Database from 'better-sqlite3';
import type { StudyInfo, StudyMount, StudySensorResult, StudyState } from '../api/contract';
import type { StudyLoop } from '../../src-common/modes';
import { dtypeOf, fromBlob, isDtype, toBlob, type AnyStorableArray, type StorableArray } from './typed-blobs';
import { EntityRows } from './entity-rows';
import { writeTransaction } from './write-transaction';

interface StudyRow {
  id: number;
  name: string;
  scene_id: number | null;
  params: string;
  result: string | null;
  job_id: number | null;
  job_state: string | null;
  created_at: string;
}

export interface StoredStudy {
  info: StudyInfo;
  params: Record<string, unknown>;
  results: StudySensorResult[] | null;
}

export interface StudyRunRecord {
  seq: number;
  profileId: string;
  mount: StudyMount;
  metrics: StudySensorResult;
  arrays: Record<string, AnyStorableArray>;
}

const COLUMNS = `s.id, s.name, s.scene_id, s.params, s.result, s.job_id, j.state AS job_state, s.created_at`;

function toStored(r: StudyRow): StoredStudy {
  const params = JSON.parse(r.params) as Record<string, unknown>;
  const def = (params.definition ?? {}) as { loop?: StudyLoop; seconds?: number; sensors?: unknown[] };
  const results = r.result ? ((JSON.parse(r.result) as { sensors?: StudySensorResult[] }).sensors ?? []) : null;
  const state: StudyState = results ? 'done' : ((r.job_state as StudyState | null) ?? 'defined');
  return {
    info: {
      id: r.id,
      name: r.name,
      sceneId: r.scene_id,
      loop: def.loop ?? 'closed',
      seconds: def.seconds ?? 0,
      runs: Array.isArray(def.sensors) ? def.sensors.length : 0,
      state,
      jobId: r.job_id,
      createdAt: r.created_at,
    },
    params,
    results,
  };
}

export class StudiesRepository extends EntityRows<StudyRow, StudyInfo> {
  private readonly stmts;

  constructor(private readonly db: Database.Database) {
    super(db, { table: 'studies', columns: COLUMNS, from: 'studies s LEFT JOIN jobs j ON j.id = s.job_id', id: 's.id' }, (r) => toStored(r).info);
    this.stmts = {
      insert: db.prepare<[string, number, string]>(`INSERT INTO studies (name, scene_id, params) VALUES (?, ?, ?)`),
      setJob: db.prepare<[number | null, number]>(`UPDATE studies SET job_id = ? WHERE id = ?`),
      setResult: db.prepare<[string | null, number]>(`UPDATE studies SET result = ? WHERE id = ?`),
      deleteRuns: db.prepare<[number]>(`DELETE FROM study_runs WHERE study_id = ?`),
      insertRun: db.prepare<[number, number, string, string, string]>(`INSERT INTO study_runs (study_id, seq, profile_id, mount, metrics) VALUES (?, ?, ?, ?, ?)`),
      insertArray: db.prepare<[number, string, string, Buffer]>(`INSERT INTO study_run_arrays (run_id, name, dtype, data) VALUES (?, ?, ?, ?)`),
      runId: db.prepare<[number, number], number>(`SELECT id FROM study_runs WHERE study_id = ? AND seq = ?`).pluck(),
      array: db.prepare<[number, string], { dtype: string; data: Buffer }>(`SELECT dtype, data FROM study_run_arrays WHERE run_id = ? AND name = ?`),
    };
  }

  create(name: string, sceneId: number, params: Record<string, unknown>): StoredStudy {
    const id = Number(this.stmts.insert.run(name, sceneId, JSON.stringify(params)).lastInsertRowid);
    return this.read(id)!;
  }

  setJob(id: number, jobId: number): void {
    this.stmts.setJob.run(jobId, id);
  }

  /** The study with its definition and results. */
  read(id: number): StoredStudy | null {
    const row = this.row(id);
    return row ? toStored(row) : null;
  }

  /** Replaces the study's results: every run with its arrays, and the summary, in one transaction. */
  storeResults(id: number, runs: readonly StudyRunRecord[]): void {
    writeTransaction(this.db, () => {
      this.stmts.deleteRuns.run(id);
      for (const r of runs) {
        const runId = Number(this.stmts.insertRun.run(id, r.seq, r.profileId, JSON.stringify(r.mount), JSON.stringify(r.metrics)).lastInsertRowid);
        for (const [name, array] of Object.entries(r.arrays)) this.stmts.insertArray.run(runId, name, dtypeOf(array), toBlob(array));
      }
      this.stmts.setResult.run(JSON.stringify({ sensors: runs.map((r) => r.metrics) }), id);
    });
  }

  /** One array of a run (a fresh buffer), or null when the run or the array is missing. */
  readRunArray(id: number, seq: number, name: string): StorableArray | null {
    const runId = this.stmts.runId.get(id, seq);
    if (runId === undefined) return null;
    const row = this.stmts.array.get(runId, name);
    if (!row) return null;
    if (!isDtype(row.dtype)) throw new Error(`study ${id} run ${seq}: array ${name} has an unknown dtype ${row.dtype}`);
    return fromBlob(row.data, row.dtype, `study ${id} run ${seq} ${name}`);
  }
}
