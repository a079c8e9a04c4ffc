/**
 * Scenes: a JSON description plus the scene's typed arrays (acceleration structures included,
 * so a stored scene is simulated without rebuilding). Any nesting of plain objects, arrays and
 * typed arrays is stored: typed arrays go to scene_arrays under their dotted path and are
 * replaced in the JSON by {"$array": path}.
 */
import type Database from 'better-sqlite3';
import { ApiError, type SceneInfo } from '../api/contract';
import type { ArrayStore } from './array-store';
import { EntityRows } from './entity-rows';
import { dtypeOrNull, type AnyStorableArray } from './typed-blobs';

interface SceneRow {
  id: number;
  name: string;
  json: string;
  created_at: string;
}

export interface StoredScene {
  info: SceneInfo;
  data: Record<string, unknown>;
}

export class ScenesRepository extends EntityRows<SceneRow, SceneInfo> {
  private readonly stmts;

  constructor(
    private readonly db: Database.Database,
    private readonly arrays: ArrayStore,
  ) {
    super(db, { table: 'scenes', columns: 'id, name, json, created_at' }, toInfo);
    this.stmts = {
      insert: db.prepare<[string, string]>(`INSERT INTO scenes (name, json) VALUES (?, ?)`),
      updateJson: db.prepare<[string, number]>(`UPDATE scenes SET json = ? WHERE id = ?`),
    };
  }

  /** One transaction: the scene row and all of its arrays, or nothing. */
  create(name: string, meta: Record<string, unknown>, data: Record<string, unknown>): SceneInfo {
    return this.db.transaction(() => {
      const id = Number(this.stmts.insert.run(name, '{}').lastInsertRowid);
      const json = this.flatten(id, data, 'data');
      this.stmts.updateJson.run(JSON.stringify({ meta, data: json }), id);
      return this.get(id)!;
    })();
  }

  /** The scene with its arrays read back (fresh buffers). */
  read(id: number): StoredScene | null {
    const row = this.row(id);
    if (!row) return null;
    const parsed = JSON.parse(row.json) as { data?: unknown };
    return { info: toInfo(row), data: this.revive(id, parsed.data ?? {}) as Record<string, unknown> };
  }

  private flatten(id: number, value: unknown, path: string): unknown {
    if (ArrayBuffer.isView(value)) {
      if (!dtypeOrNull(value)) throw new ApiError('bad_input', `scene ${path}: unsupported array type ${value.constructor.name}`);
      this.arrays.writeArray(id, path, value as AnyStorableArray);
      return { $array: path };
    }
    if (Array.isArray(value)) return value.map((v, i) => this.flatten(id, v, `${path}.${i}`));
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.flatten(id, v, `${path}.${k}`);
      return out;
    }
    return value;
  }

  private revive(id: number, value: unknown): unknown {
    if (Array.isArray(value)) return value.map((v) => this.revive(id, v));
    if (value && typeof value === 'object') {
      if ('$array' in value && typeof (value as { $array: unknown }).$array === 'string') {
        const path = (value as { $array: string }).$array;
        const arr = this.arrays.readArray(id, path);
        if (!arr) throw new ApiError('internal', `scene ${id}: array ${path} is missing`);
        return arr;
      }
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.revive(id, v);
      return out;
    }
    return value;
  }
}

function toInfo(r: SceneRow): SceneInfo {
  const parsed = JSON.parse(r.json) as { meta?: Record<string, unknown> };
  return { id: r.id, name: r.name, meta: parsed.meta ?? {}, createdAt: r.created_at };
}
