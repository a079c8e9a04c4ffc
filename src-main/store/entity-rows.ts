/**
 * What every entity table answers alike: its rows in id order, one row by id, and delete by id,
 * each from one prepared statement over the table's columns, rows mapped to what the API returns.
 * A repository extends it and adds what is particular to its entity (arrays, chunks, the
 * transactions that write them); one that returns more than the row from `get` overrides it.
 */
import type Database from 'better-sqlite3';

export interface EntityRowsSpec {
  /** The table rows are deleted from. */
  table: string;
  columns: string;
  /** FROM clause when it is more than the table (a join); `id` then names the table's id column. */
  from?: string;
  id?: string;
  /** The rows list, get and delete may see, e.g. "status = 'ready'" (an import in progress is not yet a log). */
  visible?: string;
}

export class EntityRows<Row, Info> {
  private readonly rowStmts: { list: Database.Statement<[], Row>; get: Database.Statement<[number], Row>; delete: Database.Statement<[number]> };

  constructor(
    db: Database.Database,
    spec: EntityRowsSpec,
    protected readonly toInfo: (row: Row) => Info,
  ) {
    const id = spec.id ?? 'id';
    const and = spec.visible ? ` AND ${spec.visible}` : '';
    this.rowStmts = {
      list: db.prepare<[], Row>(`SELECT ${spec.columns} FROM ${spec.from ?? spec.table}${spec.visible ? ` WHERE ${spec.visible}` : ''} ORDER BY ${id}`),
      get: db.prepare<[number], Row>(`SELECT ${spec.columns} FROM ${spec.from ?? spec.table} WHERE ${id} = ?${and}`),
      delete: db.prepare<[number]>(`DELETE FROM ${spec.table} WHERE id = ?${and}`),
    };
  }

  list(): Info[] {
    return this.rowStmts.list.all().map((r) => this.toInfo(r));
  }

  get(id: number): Info | null {
    const row = this.row(id);
    return row ? this.toInfo(row) : null;
  }

  delete(id: number): boolean {
    return this.rowStmts.delete.run(id).changes > 0;
  }

  protected row(id: number): Row | null {
    return this.rowStmts.get.get(id) ?? null;
  }
}
