/**
 * Annotations: named lists of annotated objects ({id, class, label, pose, box}, thesis 004's
 * scene annotation), either of a drive log (its ground truth, `log_id`; deleted with the log) or
 * standing alone (`log_id` NULL: a scene's, or authored). The entries are one JSON array: read
 * and written whole, never queried inside.
 */
import type Database from 'better-sqlite3';
import { ApiError, type AnnotationData, type AnnotationEntry, type AnnotationInfo } from '../api/contract';
import { EntityRows } from './entity-rows';
import { writeTransaction } from './write-transaction';

interface Row {
  id: number;
  name: string;
  log_id: number | null;
  count: number;
  created_at: string;
}

const COLUMNS = `id, name, log_id, json_array_length(entries) AS count, created_at`;

const toInfo = (r: Row): AnnotationInfo => ({ id: r.id, name: r.name, logId: r.log_id, count: r.count, createdAt: r.created_at });

export class AnnotationsRepository extends EntityRows<Row, AnnotationInfo> {
  private readonly stmts;

  constructor(private readonly db: Database.Database) {
    super(db, { table: 'annotations', columns: COLUMNS }, toInfo);
    this.stmts = {
      insert: db.prepare<[string, number | null, string]>(`INSERT INTO annotations (name, log_id, entries) VALUES (?, ?, ?)`),
      logExists: db.prepare<[number], number>(`SELECT 1 FROM drive_logs WHERE id = ?`).pluck(),
      listByLog: db.prepare<[number], Row>(`SELECT ${COLUMNS} FROM annotations WHERE log_id = ? ORDER BY id`),
      entries: db.prepare<[number], string>(`SELECT entries FROM annotations WHERE id = ?`).pluck(),
    };
  }

  /** Stores a list of entries; `logId` must name a log of this project (any status: a log being written may get its ground truth in the same transaction that finishes it). */
  create(name: string, logId: number | null, entries: readonly AnnotationEntry[]): AnnotationInfo {
    const trimmed = name.trim();
    if (trimmed === '') throw new ApiError('bad_input', 'an annotation needs a name');
    return writeTransaction(this.db, () => {
      if (logId !== null && !this.stmts.logExists.get(logId)) throw new ApiError('not_found', `no drive log ${logId}`);
      const id = Number(this.stmts.insert.run(trimmed, logId, JSON.stringify(entries)).lastInsertRowid);
      return this.get(id)!;
    });
  }

  /** Every annotation, or a log's, oldest first (without their entries). */
  override list(logId?: number): AnnotationInfo[] {
    return logId === undefined ? super.list() : this.stmts.listByLog.all(logId).map(toInfo);
  }

  /** The annotation with its entries, or null. */
  read(id: number): AnnotationData | null {
    const info = this.get(id);
    if (!info) return null;
    return { ...info, entries: JSON.parse(this.stmts.entries.get(id)!) as AnnotationEntry[] };
  }
}
