/**
 * Packet chunks as rows: one row per PacketChunk, one BLOB column per array field.
 * Shared by recorded logs (log_chunks) and simulated runs (run_chunks), which have the
 * same shape. The element type of each column is fixed by the schema (CHUNK_DTYPES), so
 * no per-row dtype is stored.
 */
import type Database from 'better-sqlite3';
import { ApiError } from '../api/contract';
import { CHUNK_ARRAY_FIELDS, POSE_STRIDE, type ChunkArrayField, type PacketChunk, type PackedRays, PACKED_STRIDE } from '../../src-common/packets';
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

/** The part of a chunk a timeline reads. */
export type ChunkMeta = Pick<PacketChunk, 'packetStart' | 'packetCount' | 'rayCount' | 'packetTime' | 'packetPose' | 'rayStart' | 'rayDir'>;

type ChunkRow = { packet_start: number; packet_count: number; ray_count: number; packed_codec?: string | null; packed?: Buffer | null; label_class?: Buffer | null; label_object?: Buffer | null } & Record<string, Buffer>;

/**
 * What decodes a packed chunk of an owner (the owner knows the profile it was imported with), and
 * where the chunk is. The store attaches it to the chunk; the worker that reads the chunk decodes.
 */
export type PackedDecoder = (ownerId: number, seq: number) => NonNullable<PackedRays['decoder']>;

/** Throws bad_input unless the chunk's arrays have the types and lengths its counts imply. */
export function validateChunk(chunk: PacketChunk, where: string): void {
  const { packetCount: p, rayCount: r, packetStart } = chunk;
  for (const [name, v] of [['packetStart', packetStart], ['packetCount', p], ['rayCount', r]] as const) {
    if (!Number.isSafeInteger(v) || v < 0) throw new ApiError('bad_input', `${where}: ${name} ${v} is not a count`);
  }
  // A packed chunk's rays live in its payloads: its ray arrays are empty.
  const rays = chunk.packed ? 0 : r;
  if (chunk.packed) {
    const stride = PACKED_STRIDE[chunk.packed.codec];
    if (stride === undefined) throw new ApiError('bad_input', `${where}: unknown packed codec '${String(chunk.packed.codec)}'`);
    if (!(chunk.packed.bytes instanceof Uint8Array) || chunk.packed.bytes.length !== stride * p) {
      throw new ApiError('bad_input', `${where}: packed payloads must be ${stride} bytes per packet`);
    }
  }
  const expected: Record<ChunkArrayField, number> = {
    packetTime: p,
    packetPose: POSE_STRIDE * p,
    rayStart: p + 1,
    rayDir: 3 * rays,
    rayRange: rays,
    rayIntensity: rays,
    rayTime: rays,
    rayRing: rays,
    rayReturn: rays,
    rayObject: rays,
    rayClass: rays,
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
  private readonly rangeSeqsStmt: Database.Statement<[number, number, number], number>;
  private readonly metaStmt: Database.Statement<[number, number], ChunkRow>;

  /**
   * `decoder` is given for tables that hold packed chunks (log_chunks): their rows carry the
   * packed_codec and packed columns, and reads attach what decodes them.
   */
  constructor(db: Database.Database, table: ChunkTableName, private readonly decoder: PackedDecoder | null = null) {
    const owner = CHUNK_TABLES[table];
    if (owner === undefined) throw new Error(`not a chunk table: ${String(table)}`);
    const cols = [...CHUNK_ARRAY_FIELDS.map((f) => COLUMNS[f]), ...(decoder ? ['packed_codec', 'packed'] : [])];
    // A log's saved labels (docs/labeling.md) are read beside its chunks, never inserted with them.
    const readCols = decoder ? [...cols, 'label_class', 'label_object'] : cols;
    this.insertStmt = db.prepare<unknown[]>(
      `INSERT INTO ${table} (${owner}, seq, packet_start, packet_count, ray_count, ${cols.join(', ')})
       VALUES (${Array(5 + cols.length).fill('?').join(', ')})`,
    );
    this.readStmt = db.prepare<[number, number], ChunkRow>(
      `SELECT packet_start, packet_count, ray_count, ${readCols.join(', ')} FROM ${table} WHERE ${owner} = ? AND seq = ?`,
    );
    this.seqsStmt = db.prepare<[number], number>(`SELECT seq FROM ${table} WHERE ${owner} = ? ORDER BY seq`).pluck();
    this.countStmt = db.prepare<[number], number>(`SELECT count(*) FROM ${table} WHERE ${owner} = ?`).pluck();
    // The counts come before the BLOBs in a row, so rows outside the range cost no BLOB reads.
    this.rangeSeqsStmt = db
      .prepare<[number, number, number], number>(
        `SELECT seq FROM ${table} WHERE ${owner} = ? AND packet_start < ? AND packet_start + packet_count > ? ORDER BY packet_start`,
      )
      .pluck();
    const meta = [...(['packetTime', 'packetPose', 'rayStart', 'rayDir'] as const).map((f) => COLUMNS[f]), ...(decoder ? ['packed_codec', 'packed'] : [])];
    this.metaStmt = db.prepare<[number, number], ChunkRow>(
      `SELECT packet_start, packet_count, ray_count, ${meta.join(', ')} FROM ${table} WHERE ${owner} = ? AND seq = ?`,
    );
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
      ...(this.decoder ? [chunk.packed?.codec ?? null, chunk.packed ? toBlob(chunk.packed.bytes) : null] : []),
    );
  }

  read(ownerId: number, seq: number): PacketChunk | null {
    const row = this.readStmt.get(ownerId, seq);
    if (!row) return null;
    const blob = (f: ChunkArrayField): Buffer => row[COLUMNS[f]]!;
    const where = `chunk ${seq}`;
    const chunk: PacketChunk = {
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
    return this.withDecoder(chunk, row, ownerId, seq);
  }

  /**
   * A packed row's chunk with its payloads and their decoder; other rows as they are. Saved
   * labels replace the imported classes and object ids: in place for stored rays, through the
   * decoder for packed ones.
   */
  private withDecoder(chunk: PacketChunk, row: ChunkRow, ownerId: number, seq: number): PacketChunk {
    const lc = row.label_class, lo = row.label_object;
    const labels = lc && lo
      ? { rayClass: fromBlob(lc, 'u8', `chunk ${seq} label_class`), rayObject: fromBlob(lo, 'u32', `chunk ${seq} label_object`) }
      : null;
    if (labels && (labels.rayClass.length !== chunk.rayCount || labels.rayObject.length !== chunk.rayCount)) {
      throw new ApiError('bad_input', `chunk ${seq}: ${labels.rayClass.length} saved labels for ${chunk.rayCount} rays`);
    }
    if (!this.decoder || !row.packed || !row.packed_codec) {
      return labels ? { ...chunk, rayClass: labels.rayClass as Uint8Array<ArrayBuffer>, rayObject: labels.rayObject as Uint32Array<ArrayBuffer> } : chunk;
    }
    const bytes = fromBlob(row.packed, 'u8', `chunk ${seq} packed`);
    return {
      ...chunk,
      packed: {
        codec: row.packed_codec as PackedRays['codec'],
        bytes,
        decoder: this.decoder(ownerId, seq),
        ...(labels ? { labels: labels as NonNullable<PackedRays['labels']> } : {}),
      },
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

  /** Chunks holding any packet from ≤ index < to, in packet order (whole chunks: the caller clips). */
  *iterateRange(ownerId: number, from: number, to: number): Generator<PacketChunk, void, undefined> {
    for (const seq of this.rangeSeqsStmt.all(ownerId, to, from)) {
      const chunk = this.read(ownerId, seq);
      if (chunk) yield chunk;
    }
  }

  /** Per chunk only the packets' times and poses and the rays' directions (what a timeline needs). */
  *iterateMeta(ownerId: number): Generator<ChunkMeta, void, undefined> {
    for (const seq of this.seqsStmt.all(ownerId)) {
      const row = this.metaStmt.get(ownerId, seq);
      if (!row) continue;
      const blob = (f: ChunkArrayField): Buffer => row[COLUMNS[f]]!;
      if (row.packed) {
        // Directions of a packed chunk exist only decoded: the reader gets the payloads.
        const full = this.read(ownerId, seq);
        if (full) yield full;
        continue;
      }
      yield {
        packetStart: row.packet_start,
        packetCount: row.packet_count,
        rayCount: row.ray_count,
        packetTime: fromBlob(blob('packetTime'), CHUNK_DTYPES.packetTime, `chunk ${seq} packetTime`),
        packetPose: fromBlob(blob('packetPose'), CHUNK_DTYPES.packetPose, `chunk ${seq} packetPose`),
        rayStart: fromBlob(blob('rayStart'), CHUNK_DTYPES.rayStart, `chunk ${seq} rayStart`),
        rayDir: fromBlob(blob('rayDir'), CHUNK_DTYPES.rayDir, `chunk ${seq} rayDir`),
      };
    }
  }

  count(ownerId: number): number {
    return this.countStmt.get(ownerId) ?? 0;
  }
}
