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
import { dtypeOrNull, type AnyStorableArray, type StorableArray } from './typed-blobs';
import { writeTransaction } from './write-transaction';

interface SceneRow {
  id: number;
  name: string;
  json: string;
  created_at: string;
}

/** A scene written but not yet visible: its id, its metadata and its data's JSON (arrays by reference). */
export interface StagedScene {
  id: number;
  meta: Record<string, unknown>;
  data: unknown;
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
    super(db, { table: 'scenes', columns: 'id, name, json, created_at', visible: "status = 'ready'" }, toInfo);
    this.stmts = {
      insert: db.prepare<[string, string]>(`INSERT INTO scenes (name, json) VALUES (?, ?)`),
      updateJson: db.prepare<[string, number]>(`UPDATE scenes SET json = ? WHERE id = ?`),
      insertWriting: db.prepare<[string, number | null]>(`INSERT INTO scenes (name, json, status, job_id) VALUES (?, '{}', 'writing', ?)`),
      publish: db.prepare<[string, number]>(`UPDATE scenes SET json = ?, status = 'ready' WHERE id = ? AND status = 'writing'`),
      discard: db.prepare<[number]>(`DELETE FROM scenes WHERE id = ? AND status = 'writing'`),
      // Scenes being written whose job is no longer live (recover() has just interrupted orphans).
      discardWriting: db.prepare<[]>(
        `DELETE FROM scenes WHERE status = 'writing'
           AND (job_id IS NULL OR job_id NOT IN (SELECT id FROM jobs WHERE state IN ('queued', 'running')))`,
      ),
    };
  }

  /** One transaction: the scene row and all of its arrays, or nothing. */
  create(name: string, meta: Record<string, unknown>, data: Record<string, unknown>): SceneInfo {
    return writeTransaction(this.db, () => {
      const id = Number(this.stmts.insert.run(name, '{}').lastInsertRowid);
      const arrays: [string, AnyStorableArray][] = [];
      const json = this.collect(data, 'data', arrays);
      for (const [path, array] of arrays) this.arrays.writeArray(id, path, array);
      this.stmts.updateJson.run(JSON.stringify({ meta, data: json }), id);
      return this.get(id)!;
    });
  }

  /**
   * Writes a scene a piece at a time: its row hidden ('writing'), then every array one chunk
   * per turn of the event loop, so a scene of any size never holds the host up for long. Returns
   * the staged scene that `publish` makes visible — alone, or inside the transaction that stores
   * the rows that come with it. On failure the staged rows go.
   */
  async stage(name: string, meta: Record<string, unknown>, data: Record<string, unknown>, jobId: number | null = null): Promise<StagedScene> {
    const id = Number(this.stmts.insertWriting.run(name, jobId).lastInsertRowid);
    try {
      const arrays: [string, AnyStorableArray][] = [];
      const refs = this.collect(data, 'data', arrays);
      for (const [path, array] of arrays) await this.arrays.writeArrayInTurns(id, path, array);
      return { id, meta, data: refs };
    } catch (e) {
      this.discard(id);
      throw e;
    }
  }

  /**
   * Makes a staged scene visible, with its metadata as staged or `meta` (which may name rows
   * stored in the same transaction); run it inside the transaction of the rows that come with it.
   */
  publish(staged: StagedScene, meta: Record<string, unknown> = staged.meta): SceneInfo {
    const json = JSON.stringify({ meta, data: staged.data });
    if (this.stmts.publish.run(json, staged.id).changes !== 1) throw new ApiError('internal', `scene ${staged.id} is not being written`);
    return this.get(staged.id)!;
  }

  /** Stages and publishes: a scene written a piece at a time. */
  async createInTurns(name: string, meta: Record<string, unknown>, data: Record<string, unknown>, jobId: number | null = null): Promise<SceneInfo> {
    const staged = await this.stage(name, meta, data, jobId);
    try {
      return this.publish(staged);
    } catch (e) {
      this.discard(staged.id);
      throw e;
    }
  }

  /** Drops a staged scene that will not be published (its arrays cascade). */
  discard(id: number): boolean {
    return this.stmts.discard.run(id).changes > 0;
  }

  /** Drops the scenes still being written by jobs no longer live (on open, after interrupting orphans). */
  discardUnfinished(): number {
    return this.stmts.discardWriting.run().changes;
  }

  /** The scene with its arrays read one chunk per turn of the event loop (fresh buffers). */
  async readInTurns(id: number): Promise<StoredScene | null> {
    const row = this.row(id);
    if (!row) return null;
    const data = (JSON.parse(row.json) as { data?: unknown }).data ?? {};
    const arrays = new Map<string, StorableArray | null>();
    for (const path of arrayPaths(data)) arrays.set(path, await this.arrays.readArrayInTurns(id, path));
    return { info: toInfo(row), data: revive(id, data, (path) => arrays.get(path) ?? null) as Record<string, unknown> };
  }

  /** The scene with its arrays read back (fresh buffers). */
  read(id: number): StoredScene | null {
    const row = this.row(id);
    if (!row) return null;
    const data = (JSON.parse(row.json) as { data?: unknown }).data ?? {};
    return { info: toInfo(row), data: revive(id, data, (path) => this.arrays.readArray(id, path)) as Record<string, unknown> };
  }

  /** The value with every typed array replaced by `{ $array: path }`, the arrays listed in `out`. */
  private collect(value: unknown, path: string, out: [string, AnyStorableArray][]): unknown {
    if (ArrayBuffer.isView(value)) {
      if (!dtypeOrNull(value)) throw new ApiError('bad_input', `scene ${path}: unsupported array type ${value.constructor.name}`);
      out.push([path, value as AnyStorableArray]);
      return { $array: path };
    }
    if (Array.isArray(value)) return value.map((v, i) => this.collect(v, `${path}.${i}`, out));
    if (value && typeof value === 'object') {
      const o: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) o[k] = this.collect(v, `${path}.${k}`, out);
      return o;
    }
    return value;
  }
}

const isArrayRef = (value: object): value is { $array: string } => '$array' in value && typeof (value as { $array: unknown }).$array === 'string';

/** The paths of the arrays a stored scene's JSON refers to. */
function arrayPaths(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => arrayPaths(v, out));
  else if (value && typeof value === 'object') {
    if (isArrayRef(value)) out.push(value.$array);
    else Object.values(value).forEach((v) => arrayPaths(v, out));
  }
  return out;
}

/** The stored JSON with its array references replaced by the arrays `read` gives. */
function revive(id: number, value: unknown, read: (path: string) => StorableArray | null): unknown {
  if (Array.isArray(value)) return value.map((v) => revive(id, v, read));
  if (value && typeof value === 'object') {
    if (isArrayRef(value)) {
      const arr = read(value.$array);
      if (!arr) throw new ApiError('internal', `scene ${id}: array ${value.$array} is missing`);
      return arr;
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = revive(id, v, read);
    return out;
  }
  return value;
}

function toInfo(r: SceneRow): SceneInfo {
  const parsed = JSON.parse(r.json) as { meta?: Record<string, unknown> };
  return { id: r.id, name: r.name, meta: parsed.meta ?? {}, createdAt: r.created_at };
}
