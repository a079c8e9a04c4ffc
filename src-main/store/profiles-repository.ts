/**
 * Sensor profiles stored in a project (`sensor_profiles`: id, name, builtin 0/1, json).
 *
 * Custom profiles live here. Built-in profiles live in resources/ and are listed from there; a
 * project holds a row for a built-in only once a drive log or a run references it (the
 * references are foreign keys), written by `storeBuiltin` and refreshed on each use. The JSON is
 * whatever the service gives (the SI SensorProfile); this layer does not interpret it.
 */
import type Database from 'better-sqlite3';
import { ApiError } from '../api/contract';
import { writeTransaction } from './write-transaction';

export interface StoredProfileRow {
  id: string;
  name: string;
  builtin: boolean;
  json: string;
  createdAt: string;
}

interface Row {
  id: string;
  name: string;
  builtin: number;
  json: string;
  created_at: string;
}

const toRow = (r: Row): StoredProfileRow => ({ id: r.id, name: r.name, builtin: r.builtin === 1, json: r.json, createdAt: r.created_at });

export class ProfilesRepository {
  private readonly stmts;

  constructor(private readonly db: Database.Database) {
    this.stmts = {
      list: db.prepare<[], Row>(`SELECT id, name, builtin, json, created_at FROM sensor_profiles ORDER BY builtin DESC, name COLLATE NOCASE, id`),
      get: db.prepare<[string], Row>(`SELECT id, name, builtin, json, created_at FROM sensor_profiles WHERE id = ?`),
      insert: db.prepare<[string, string, number, string]>(`INSERT INTO sensor_profiles (id, name, builtin, json) VALUES (?, ?, ?, ?)`),
      update: db.prepare<[string, string, string]>(`UPDATE sensor_profiles SET name = ?, json = ? WHERE id = ?`),
      delete: db.prepare<[string]>(`DELETE FROM sensor_profiles WHERE id = ? AND builtin = 0`),
      logUses: db.prepare<[string], { n: number }>(`SELECT count(*) AS n FROM drive_logs WHERE profile_id = ?`),
      runUses: db.prepare<[string], { n: number }>(`SELECT count(*) AS n FROM runs WHERE profile_id = ?`),
    };
  }

  list(): StoredProfileRow[] {
    return this.stmts.list.all().map(toRow);
  }

  get(id: string): StoredProfileRow | null {
    const r = this.stmts.get.get(id);
    return r ? toRow(r) : null;
  }

  /** Insert or replace a custom profile; a built-in's row is never overwritten. */
  saveCustom(id: string, name: string, json: string): 'inserted' | 'replaced' {
    return writeTransaction(this.db, () => {
      const old = this.stmts.get.get(id);
      if (old?.builtin === 1) throw new ApiError('conflict', `"${id}" is a built-in profile: save the custom profile under another id`);
      if (old) {
        this.stmts.update.run(name, json, id);
        return 'replaced' as const;
      }
      this.stmts.insert.run(id, name, 0, json);
      return 'inserted' as const;
    });
  }

  /** Keep a copy of a built-in that something in this project references (insert, or refresh the copy). */
  storeBuiltin(id: string, name: string, json: string): void {
    writeTransaction(this.db, () => {
      const old = this.stmts.get.get(id);
      if (old && old.builtin === 0) throw new ApiError('conflict', `this project has a custom profile "${id}" that shadows the built-in of that id`);
      if (old) {
        if (old.json !== json || old.name !== name) this.stmts.update.run(name, json, id);
      } else this.stmts.insert.run(id, name, 1, json);
    });
  }

  /** How many drive logs and runs reference the profile. */
  usage(id: string): { logs: number; runs: number } {
    return { logs: this.stmts.logUses.get(id)!.n, runs: this.stmts.runUses.get(id)!.n };
  }

  /**
   * Delete a custom profile. Refused for a built-in, and while drive logs or runs reference it
   * (deleting would silently detach them from the sensor they were recorded or simulated with).
   */
  deleteCustom(id: string): boolean {
    return writeTransaction(this.db, () => {
      const old = this.stmts.get.get(id);
      if (!old) return false;
      if (old.builtin === 1) throw new ApiError('conflict', `"${id}" is a built-in profile and cannot be deleted`);
      const { logs, runs } = this.usage(id);
      if (logs || runs) {
        const what = [logs ? `${logs} drive log${logs === 1 ? '' : 's'}` : '', runs ? `${runs} simulation run${runs === 1 ? '' : 's'}` : ''].filter(Boolean).join(' and ');
        throw new ApiError('conflict', `profile "${id}" is used by ${what}: delete those first`);
      }
      return this.stmts.delete.run(id).changes > 0;
    });
  }
}
