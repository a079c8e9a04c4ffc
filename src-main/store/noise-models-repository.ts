/**
 * Learned sensor noise models (docs/methods.md §8): one `noise_models` row each — the log it was
 * learnt from (kept when the log is deleted: the model no longer needs it), the method, what
 * learning reported, and the tables a simulation draws from (JSON: a few hundred kB for P-Reg,
 * a few MB for NP-Reg). Written in one statement when the learning job succeeds.
 */
import type Database from 'better-sqlite3';
import type { LearnedNoiseTables, NoiseLearnSummary, NoiseMethod, NoiseModelInfo } from '../../src-common/noise-model';
import type { ProjectStore } from './project-store';

interface NoiseModelRow {
  id: number;
  name: string;
  log_id: number | null;
  method: NoiseMethod;
  summary: string;
  created_at: string;
}

const COLUMNS = 'id, name, log_id, method, summary, created_at';

function toInfo(r: NoiseModelRow): NoiseModelInfo {
  return { id: r.id, name: r.name, logId: r.log_id ?? 0, method: r.method, createdAt: r.created_at, summary: JSON.parse(r.summary) as NoiseLearnSummary };
}

export class NoiseModelsRepository {
  private readonly stmts;

  constructor(db: Database.Database) {
    this.stmts = {
      insert: db.prepare<[string, number, string, string, string, number | null]>(
        `INSERT INTO noise_models (name, log_id, method, summary, tables, job_id) VALUES (?, ?, ?, ?, ?, ?)`,
      ),
      list: db.prepare<[], NoiseModelRow>(`SELECT ${COLUMNS} FROM noise_models ORDER BY id`),
      get: db.prepare<[number], NoiseModelRow>(`SELECT ${COLUMNS} FROM noise_models WHERE id = ?`),
      tables: db.prepare<[number], { tables: string }>(`SELECT tables FROM noise_models WHERE id = ?`),
    };
  }

  create(m: { name: string; logId: number; summary: NoiseLearnSummary; tables: LearnedNoiseTables; jobId: number | null }): NoiseModelInfo {
    const id = Number(this.stmts.insert.run(m.name, m.logId, m.summary.method, JSON.stringify(m.summary), JSON.stringify(m.tables), m.jobId).lastInsertRowid);
    return this.get(id)!;
  }

  list(): NoiseModelInfo[] {
    return this.stmts.list.all().map(toInfo);
  }

  get(id: number): NoiseModelInfo | null {
    const r = this.stmts.get.get(id);
    return r ? toInfo(r) : null;
  }

  /** The tables a simulation draws from, or null. */
  tables(id: number): LearnedNoiseTables | null {
    const r = this.stmts.tables.get(id);
    return r ? (JSON.parse(r.tables) as LearnedNoiseTables) : null;
  }
}

const repositories = new WeakMap<ProjectStore, NoiseModelsRepository>();

/** The project's noise models (one repository per open store). */
export function noiseModelsOf(store: ProjectStore): NoiseModelsRepository {
  let r = repositories.get(store);
  if (!r) {
    r = new NoiseModelsRepository(store.db);
    repositories.set(store, r);
  }
  return r;
}
