/**
 * What a drive log's source file held that its packets do not (migration 7, table log_sources):
 * written in the import's finishing transaction, read by an export to the same format.
 */
import type Database from 'better-sqlite3';
import type { SourceRecord } from '../../src-common/source-record';

interface Row {
  format: string;
  meta: string;
  classes: Buffer | null;
}

export class LogSourcesRepository {
  private readonly stmts;

  constructor(db: Database.Database) {
    this.stmts = {
      put: db.prepare<[number, string, string, Uint8Array | null]>(
        `INSERT OR REPLACE INTO log_sources (log_id, format, meta, classes) VALUES (?, ?, ?, ?)`,
      ),
      get: db.prepare<[number], Row>(`SELECT format, meta, classes FROM log_sources WHERE log_id = ?`),
    };
  }

  put(logId: number, source: SourceRecord): void {
    this.stmts.put.run(logId, source.format, JSON.stringify(source.meta), source.classes);
  }

  get(logId: number): SourceRecord | null {
    const r = this.stmts.get.get(logId);
    if (!r) return null;
    const classes = r.classes ? new Uint8Array(r.classes.buffer.slice(r.classes.byteOffset, r.classes.byteOffset + r.classes.byteLength)) : null;
    return { format: r.format, meta: JSON.parse(r.meta) as Record<string, unknown>, classes };
  }
}
