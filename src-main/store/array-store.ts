/**
 * Big single typed arrays (a model's elements, a primitive's ellipsoids, a log's per-ray
 * labels) stored as rows of at most `chunkBytes` each: (owner_id, name, seq, dtype, data).
 *
 * Chunking keeps every BLOB far below SQLite's 1 GB limit and lets a write stream from the
 * caller's memory without a second full-size copy. One array is replaced as a whole,
 * in one transaction, so a reader never sees half of an old and half of a new array.
 */
import type Database from 'better-sqlite3';
import { ApiError } from '../api/contract';
import {
  BYTES_PER_ELEMENT,
  allocate,
  blobSlice,
  dtypeOf,
  isDtype,
  type AnyStorableArray,
  type Dtype,
  type DtypeArrays,
  type StorableArray,
} from './typed-blobs';
import { writeTransaction } from './write-transaction';

/** The only tables an ArrayStore may address: table names are interpolated into SQL. */
export const ARRAY_TABLES = ['log_arrays', 'model_arrays', 'primitive_arrays', 'scene_arrays'] as const;
export type ArrayTable = (typeof ARRAY_TABLES)[number];

export const DEFAULT_CHUNK_BYTES = 4 * 1024 * 1024;

/** Yields to the event loop: between two chunk writes or reads, other requests get their turn. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export interface StoredArrayInfo {
  name: string;
  dtype: Dtype;
  length: number;
  chunks: number;
}

interface ShapeRow {
  chunks: number;
  bytes: number | null;
  max_seq: number | null;
  dtypes: number;
  dtype: string | null;
}

export class ArrayStore {
  private readonly insertStmt: Database.Statement<[number, string, number, string, Buffer]>;
  private readonly deleteStmt: Database.Statement<[number, string]>;
  private readonly shapeStmt: Database.Statement<[number, string], ShapeRow>;
  private readonly dataStmt: Database.Statement<[number, string], { data: Buffer }>;
  private readonly chunkStmt: Database.Statement<[number, string, number], { data: Buffer }>;
  private readonly listStmt: Database.Statement<[number], StoredArrayInfo>;

  constructor(
    private readonly db: Database.Database,
    readonly table: ArrayTable,
  ) {
    if (!(ARRAY_TABLES as readonly string[]).includes(table)) {
      throw new Error(`not an array table: ${String(table)}`);
    }
    this.insertStmt = db.prepare<[number, string, number, string, Buffer]>(`INSERT INTO ${table} (owner_id, name, seq, dtype, data) VALUES (?, ?, ?, ?, ?)`);
    this.deleteStmt = db.prepare<[number, string]>(`DELETE FROM ${table} WHERE owner_id = ? AND name = ?`);
    this.shapeStmt = db.prepare<[number, string], ShapeRow>(
      `SELECT count(*) AS chunks, sum(length(data)) AS bytes, max(seq) AS max_seq,
              count(DISTINCT dtype) AS dtypes, min(dtype) AS dtype
       FROM ${table} WHERE owner_id = ? AND name = ?`,
    );
    this.dataStmt = db.prepare<[number, string], { data: Buffer }>(`SELECT data FROM ${table} WHERE owner_id = ? AND name = ? ORDER BY seq`);
    this.chunkStmt = db.prepare<[number, string, number], { data: Buffer }>(`SELECT data FROM ${table} WHERE owner_id = ? AND name = ? AND seq = ?`);
    this.listStmt = db.prepare<[number], StoredArrayInfo>(
      `SELECT name, min(dtype) AS dtype, sum(length(data)) AS length, count(*) AS chunks
       FROM ${table} WHERE owner_id = ? GROUP BY name ORDER BY name`,
    );
  }

  /** Stores `array` as `name` of owner `ownerId`, replacing any array of that name. */
  writeArray(ownerId: number, name: string, array: AnyStorableArray, chunkBytes = DEFAULT_CHUNK_BYTES): void {
    const writes = this.chunkWrites(ownerId, name, array, chunkBytes);
    writeTransaction(this.db, () => {
      for (const write of writes) write();
    });
  }

  /**
   * The same rows as writeArray, one chunk per turn of the event loop, each its own write: for an
   * owner no reader can see yet (a scene being written), whose row is published afterwards.
   */
  async writeArrayInTurns(ownerId: number, name: string, array: AnyStorableArray, chunkBytes = DEFAULT_CHUNK_BYTES): Promise<void> {
    for (const write of this.chunkWrites(ownerId, name, array, chunkBytes)) {
      write();
      await nextTurn();
    }
  }

  /** The writes that store `array`: the old rows' deletion, then a row per chunk. */
  private chunkWrites(ownerId: number, name: string, array: AnyStorableArray, chunkBytes: number): (() => void)[] {
    const dtype = dtypeOf(array);
    const size = BYTES_PER_ELEMENT[dtype];
    // Chunks hold whole elements so that each could be decoded on its own.
    const step = Math.floor(chunkBytes / size) * size;
    if (!(step > 0)) throw new ApiError('bad_input', `chunk size ${chunkBytes} holds no ${dtype} element`);
    const writes = [() => void this.deleteStmt.run(ownerId, name)];
    // An empty array still gets one (empty) row: "stored and empty" differs from "missing".
    let seq = 0;
    let offset = 0;
    do {
      const [at, from, end] = [seq++, offset, Math.min(offset + step, array.byteLength)];
      writes.push(() => void this.insertStmt.run(ownerId, name, at, dtype, blobSlice(array, from, end)));
      offset = end;
    } while (offset < array.byteLength);
    return writes;
  }

  /** The stored array, in a fresh ArrayBuffer, or null. With `dtype`, a mismatch throws. */
  readArray<D extends Dtype>(ownerId: number, name: string, dtype: D): DtypeArrays[D] | null;
  readArray(ownerId: number, name: string): StorableArray | null;
  readArray(ownerId: number, name: string, expected?: Dtype): StorableArray | null {
    return this.db.transaction(() => {
      const shaped = this.shaped(ownerId, name, expected);
      if (!shaped) return null;
      let offset = 0;
      for (const row of this.dataStmt.iterate(ownerId, name)) {
        shaped.target.set(row.data, offset);
        offset += row.data.byteLength;
      }
      return shaped.out;
    })();
  }

  /**
   * The same array, one chunk per turn of the event loop: for an owner nothing rewrites while it
   * is visible (a stored scene), so its chunks read one at a time are still one array.
   */
  async readArrayInTurns(ownerId: number, name: string): Promise<StorableArray | null> {
    const shaped = this.shaped(ownerId, name);
    if (!shaped) return null;
    let offset = 0;
    for (let seq = 0; seq < shaped.chunks; seq++) {
      const row = this.chunkStmt.get(ownerId, name, seq);
      if (!row) throw new Error(`${this.table} ${ownerId}/${name}: chunk ${seq} is missing`);
      shaped.target.set(row.data, offset);
      offset += row.data.byteLength;
      await nextTurn();
    }
    return shaped.out;
  }

  /** The stored array's shape checked, and a fresh array of that shape to read it into; null when absent. */
  private shaped(ownerId: number, name: string, expected?: Dtype): { out: StorableArray; target: Uint8Array; chunks: number } | null {
    const shape = this.shapeStmt.get(ownerId, name)!;
    if (shape.chunks === 0) return null;
    const where = `${this.table} ${ownerId}/${name}`;
    if (shape.dtypes !== 1 || !isDtype(shape.dtype)) throw new Error(`${where}: inconsistent dtype`);
    if (shape.max_seq !== shape.chunks - 1) throw new Error(`${where}: chunks are missing`);
    if (expected !== undefined && shape.dtype !== expected) {
      throw new ApiError('bad_input', `${where} holds ${shape.dtype}, not ${expected}`);
    }
    const size = BYTES_PER_ELEMENT[shape.dtype];
    const bytes = shape.bytes ?? 0;
    if (bytes % size !== 0) throw new Error(`${where}: ${bytes} bytes is not a whole number of ${shape.dtype}`);
    const out = allocate(shape.dtype, bytes / size);
    return { out, target: new Uint8Array(out.buffer), chunks: shape.chunks };
  }

  deleteArray(ownerId: number, name: string): boolean {
    return this.deleteStmt.run(ownerId, name).changes > 0;
  }

  /** The arrays of one owner, with their lengths in elements. */
  listArrays(ownerId: number): StoredArrayInfo[] {
    return this.listStmt.all(ownerId).map((r) => ({
      ...r,
      length: r.length / BYTES_PER_ELEMENT[r.dtype],
    }));
  }
}
