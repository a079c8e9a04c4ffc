/**
 * Packet chunks as rows: one row per PacketChunk, one BLOB column per array field.
 * Shared by recorded logs (log_chunks) and simulated runs (run_chunks), which have the
 * same shape. The element type of each column is fixed by the schema (CHUNK_DTYPES), so
 * no per-row dtype is stored.
 */
import type Database from 'better-sqlite3';
import { ApiError } from '../api/contract';
import { CHUNK_ARRAY_FIELDS, POSE_STRIDE, type ChunkArrayField, type PacketChunk } from '../../src-worker/formats/packets';
import { dtypeOrNull, fromBlob, toBlob, type Dtype } from './typed-blobs';

/** Allow-listed chunk tables and their owner column (names are interpolated into SQL). */
const CHUNK_TABLES = { log_chunks: 'log_id', run_chunks: 'run_id' } as const;
export type ChunkTableName = keyof typeof CHUNK_TABLES;

export const CHUNK_DTYPES = {
  packetTime: 'f64',
  packetPose: 'f64',
  rayStart: 'u32',
  rayDir: 'f32',
  rayRange: 'f32',
  rayIntensity: 'f32',
  rayTime: 'f32',
  rayRing: 'u16',
  rayReturn: 'u8',
  rayObject: 'u32',
  rayClass: 'u8',
} as const satisfies Record<ChunkArrayField, Dtype>;

const COLUMNS: Record<ChunkArrayField, string> = {
  packetTime: 'packet_time',
  packetPose: 'packet_pose',
  rayStart: 'ray_start',
  rayDir: 'ray_dir',
  rayRange: 'ray_range',
  rayIntensity: 'ray_intensity',
  rayTime: 'ray_time',
  rayRing: 'ray_ring',
  rayReturn: 'ray_return',
  rayObject: 'ray_object',
  rayClass: 'ray_class',
};

type ChunkRow = { packet_start: number; packet_count: number; ray_count: number } & Record<string, Buffer>;

/** Throws bad_input unless the chunk's arrays have the types and lengths its counts imply. */
export function validateChunk(chunk: PacketChunk, where: string): void {
  const { packetCount: p, rayCount: r, packetStart } = chunk;
  for (const [name, v] of [['packetStart', packetStart], ['packetCount', p], ['rayCount', r]] as const) {
    if (!Number.isSafeInteger(v) || v < 0) throw new ApiError('bad_input', `${where}: ${name} ${v} is not a count`);
  }
  const expected: Record<ChunkArrayField, number> = {
    packetTime: p,
    packetPose: POSE_STRIDE * p,
    rayStart: p + 1,
    rayDir: 3 * r,
    rayRange: r,
    rayIntensity: r,
    rayTime: r,
    rayRing: r,
    rayReturn: r,
    rayObject: r,
    rayClass: r,
  };
  for (const field of CHUNK_ARRAY_FIELDS) {
    const a = chunk[field] as unknown;
    if (dtypeOrNull(a) !== CHUNK_DTYPES[field]) {
      throw new ApiError('bad_input', `${where}: ${field} must be a ${CHUNK_DTYPES[field]} typed array`);
    }
    const length = (a as { length: number }).length;
    if (length !== expected[field]) {
      throw new ApiError('bad_input', `${where}: ${field} has ${length} elements, expected ${expected[field]}`);
    }
  }
  if (chunk.rayStart[0] !== 0 || chunk.rayStart[p] !== r) {
    throw new ApiError('bad_input', `${where}: rayStart must run from 0 to rayCount (${r})`);
  }
}

export class ChunkTable {
  private readonly insertStmt: Database.Statement<unknown[]>;
  private readonly readStmt: Database.Statement<[number, number], ChunkRow>;
  private readonly seqsStmt: Database.Statement<[number], number>;
  private readonly countStmt: Database.Statement<[number], number>;

  constructor(db: Database.Database, table: ChunkTableName) {
    const owner = CHUNK_TABLES[table];
    if (owner === undefined) throw new Error(`not a chunk table: ${String(table)}`);
    const cols = CHUNK_ARRAY_FIELDS.map((f) => COLUMNS[f]);
    this.insertStmt = db.prepare<unknown[]>(
      `INSERT INTO ${table} (${owner}, seq, packet_start, packet_count, ray_count, ${cols.join(', ')})
       VALUES (${Array(5 + cols.length).fill('?').join(', ')})`,
    );
    this.readStmt = db.prepare<[number, number], ChunkRow>(
      `SELECT packet_start, packet_count, ray_count, ${cols.join(', ')} FROM ${table} WHERE ${owner} = ? AND seq = ?`,
    );
    this.seqsStmt = db.prepare<[number], number>(`SELECT seq FROM ${table} WHERE ${owner} = ? ORDER BY seq`).pluck();
    this.countStmt = db.prepare<[number], number>(`SELECT count(*) FROM ${table} WHERE ${owner} = ?`).pluck();
  }

  /** Inserts one validated chunk (the caller owns the transaction and the validation). */
  insert(ownerId: number, seq: number, chunk: PacketChunk): void {
    this.insertStmt.run(
      ownerId,
      seq,
      chunk.packetStart,
      chunk.packetCount,
      chunk.rayCount,
      ...CHUNK_ARRAY_FIELDS.map((f) => toBlob(chunk[f])),
    );
  }

  read(ownerId: number, seq: number): PacketChunk | null {
    const row = this.readStmt.get(ownerId, seq);
    if (!row) return null;
    const blob = (f: ChunkArrayField): Buffer => row[COLUMNS[f]]!;
    const where = `chunk ${seq}`;
    return {
      packetStart: row.packet_start,
      packetCount: row.packet_count,
      rayCount: row.ray_count,
      packetTime: fromBlob(blob('packetTime'), CHUNK_DTYPES.packetTime, `${where} packetTime`),
      packetPose: fromBlob(blob('packetPose'), CHUNK_DTYPES.packetPose, `${where} packetPose`),
      rayStart: fromBlob(blob('rayStart'), CHUNK_DTYPES.rayStart, `${where} rayStart`),
      rayDir: fromBlob(blob('rayDir'), CHUNK_DTYPES.rayDir, `${where} rayDir`),
      rayRange: fromBlob(blob('rayRange'), CHUNK_DTYPES.rayRange, `${where} rayRange`),
      rayIntensity: fromBlob(blob('rayIntensity'), CHUNK_DTYPES.rayIntensity, `${where} rayIntensity`),
      rayTime: fromBlob(blob('rayTime'), CHUNK_DTYPES.rayTime, `${where} rayTime`),
      rayRing: fromBlob(blob('rayRing'), CHUNK_DTYPES.rayRing, `${where} rayRing`),
      rayReturn: fromBlob(blob('rayReturn'), CHUNK_DTYPES.rayReturn, `${where} rayReturn`),
      rayObject: fromBlob(blob('rayObject'), CHUNK_DTYPES.rayObject, `${where} rayObject`),
      rayClass: fromBlob(blob('rayClass'), CHUNK_DTYPES.rayClass, `${where} rayClass`),
    };
  }

  /**
   * Chunks in seq order. Each is fetched by its own lookup rather than from one open
   * cursor: better-sqlite3 refuses other statements on a connection while an iterator is
   * open, and a consumer of a long log will want to write (progress, results) as it goes.
   */
  *iterate(ownerId: number): Generator<PacketChunk, void, undefined> {
    for (const seq of this.seqsStmt.all(ownerId)) {
      const chunk = this.read(ownerId, seq);
      if (chunk) yield chunk; // a chunk deleted since the seq list was read is skipped
    }
  }

  count(ownerId: number): number {
    return this.countStmt.get(ownerId) ?? 0;
  }
}
