/**
 * Drive logs and their packet chunks.
 *
 * An import is a row in status 'importing' that collects chunks and becomes 'ready' when
 * finished. Everything outside the import (list, get, counts, delete) sees ready logs only,
 * so a half-imported log is never shown; a failed or cancelled import is discarded, and
 * one cut off by a crash is discarded by ProjectStore.recover() on the next open.
 */
import type { SensorProfile } from '../../src-common/sensor-profile';
import type Database from 'better-sqlite3';
import { ApiError, type CloudTotals, type DriveLogInfo } from '../api/contract';
import { LOG_FORMATS, type DriveLogFormat } from '../../src-common/formats';
import type { PacketChunk } from '../../src-common/packets';
import { ChunkTable, validateChunk, type ChunkMeta } from './chunk-table';
import { EntityRows } from './entity-rows';
import { TOTALS_COLUMNS, totalsOf, type TotalsRow } from './cloud-totals';
import { isSqliteError } from './sqlite-errors';
import { writeTransaction } from './write-transaction';

export type LogStatus = 'importing' | 'ready';

export interface BeginImport {
  name: string;
  /** null when the format is detected from the content during the import (see ImportTotals.format). */
  format: DriveLogFormat | null;
  sourcePath: string | null;
  profileId: string | null;
  jobId: number | null;
  /** Sensor mount pose on the vehicle (tx, ty, tz, qx, qy, qz, qw), if known. */
  mountPose?: readonly number[] | null;
}

export interface ImportTotals extends CloudTotals {
  /** The detected format; required if beginImport had none. */
  format?: DriveLogFormat;
  /** Importer's metadata (sensor, return mode, ...): replaces the log's info. */
  info?: Record<string, unknown>;
  /** The profile the log was decoded with, when it is one of the project's profiles. */
  profileId?: string | null;
  /** The profile that decodes the log's packed chunks (whole, so the log reads alike forever). */
  decodeProfile?: SensorProfile | null;
}

interface LogRow extends TotalsRow {
  id: number;
  name: string;
  format: DriveLogFormat;
  source_path: string | null;
  profile_id: string | null;
  info: string;
  created_at: string;
}

const INFO_COLUMNS = `id, name, format, source_path, profile_id, ${TOTALS_COLUMNS}, info, created_at`;

function checkFormat(format: string): void {
  // 'simulated': the demo's reference drives, written by the simulator rather than imported.
  if (format !== 'simulated' && !(LOG_FORMATS as readonly string[]).includes(format)) {
    throw new ApiError('bad_input', `unknown log format '${format}' (known: ${LOG_FORMATS.join(', ')})`);
  }
}

function toInfo(r: LogRow): DriveLogInfo {
  return {
    id: r.id,
    name: r.name,
    format: r.format,
    sourcePath: r.source_path,
    profileId: r.profile_id,
    ...totalsOf(r),
    info: JSON.parse(r.info) as Record<string, unknown>,
    createdAt: r.created_at,
  };
}

export class LogsRepository extends EntityRows<LogRow, DriveLogInfo> {
  private readonly chunkTable: ChunkTable;
  private readonly stmts;

  /** Decode profiles of logs with packed chunks, by log id (a profile is immutable once stored). */
  private readonly decodeProfiles = new Map<number, SensorProfile>();

  constructor(private readonly db: Database.Database) {
    // A log being imported is not yet a log: lists, gets and deletes see only ready ones (an
    // import in progress is cancelled through its job instead).
    super(db, { table: 'drive_logs', columns: INFO_COLUMNS, visible: "status = 'ready'" }, toInfo);
    this.chunkTable = new ChunkTable(db, 'log_chunks', (logId, seq) => ({ profile: this.decodeProfile(logId), origin: `drive log ${logId} chunk ${seq}` }));
    this.stmts = {
      decodeProfile: db.prepare<[number], string | null>(`SELECT decode_profile FROM drive_logs WHERE id = ?`).pluck(),
      setDecodeProfile: db.prepare<[string, number]>(`UPDATE drive_logs SET decode_profile = ? WHERE id = ?`),
      insert: db.prepare<[string, string | null, string | null, string | null, string | null, number | null]>(
        `INSERT INTO drive_logs (name, format, source_path, profile_id, mount_pose, job_id, status)
         VALUES (?, ?, ?, ?, ?, ?, 'importing')`,
      ),
      profileExists: db.prepare<[string], number>(`SELECT 1 FROM sensor_profiles WHERE id = ?`).pluck(),
      jobExists: db.prepare<[number], number>(`SELECT 1 FROM jobs WHERE id = ?`).pluck(),
      status: db.prepare<[number], LogStatus>(`SELECT status FROM drive_logs WHERE id = ?`).pluck(),
      finish: db.prepare<[string | null, number, number, number, number, number, string | null, string | null, number, string | null, number]>(
        `UPDATE drive_logs SET status = 'ready', format = coalesce(?, format), packets = ?, points = ?,
         hits = ?, misses = ?, duration_s = ?, bounds = ?, info = coalesce(?, info),
         profile_id = CASE WHEN ? THEN ? ELSE profile_id END WHERE id = ? AND status = 'importing'`,
      ),
      format: db.prepare<[number], string | null>(`SELECT format FROM drive_logs WHERE id = ?`).pluck(),
      deleteAny: db.prepare<[number]>(`DELETE FROM drive_logs WHERE id = ?`),
      // Half-imported logs whose job is no longer live (recover() has just interrupted orphans).
      deleteImporting: db.prepare<[]>(
        `DELETE FROM drive_logs WHERE status = 'importing'
           AND (job_id IS NULL OR job_id NOT IN (SELECT id FROM jobs WHERE state IN ('queued', 'running')))`,
      ),
    };
  }

  /** Creates a log in status 'importing' and returns its id. */
  beginImport(args: BeginImport): number {
    if (args.format !== null) checkFormat(args.format);
    const name = args.name.trim();
    if (name === '') throw new ApiError('bad_input', 'a drive log needs a name');
    if (args.mountPose && (args.mountPose.length !== 7 || !args.mountPose.every(Number.isFinite))) {
      throw new ApiError('bad_input', 'a mount pose is 7 finite numbers (tx, ty, tz, qx, qy, qz, qw)');
    }
    return writeTransaction(this.db, () => {
      // Checked here rather than left to the foreign key so the error says which reference is wrong.
      if (args.profileId !== null && !this.stmts.profileExists.get(args.profileId)) {
        throw new ApiError('not_found', `no sensor profile '${args.profileId}' in this project`);
      }
      if (args.jobId !== null && !this.stmts.jobExists.get(args.jobId)) {
        throw new ApiError('not_found', `no job ${args.jobId} in this project`);
      }
      const mountPose = args.mountPose ? JSON.stringify(args.mountPose) : null;
      const info = this.stmts.insert.run(name, args.format, args.sourcePath, args.profileId, mountPose, args.jobId);
      return Number(info.lastInsertRowid);
    });
  }

  /** Appends chunk `seq` to an importing log, in one transaction. */
  appendChunk(logId: number, seq: number, chunk: PacketChunk): void {
    if (!Number.isSafeInteger(seq) || seq < 0) throw new ApiError('bad_input', `chunk seq ${seq} is not a count`);
    validateChunk(chunk, `drive log ${logId} chunk ${seq}`);
    writeTransaction(this.db, () => {
      this.requireImporting(logId);
      try {
        this.chunkTable.insert(logId, seq, chunk);
      } catch (e) {
        if (isSqliteError(e, 'SQLITE_CONSTRAINT_PRIMARYKEY')) {
          throw new ApiError('conflict', `drive log ${logId} already has a chunk ${seq}`);
        }
        throw e;
      }
    });
  }

  /** Records the totals and makes the log visible (status 'ready'). */
  finishImport(logId: number, totals: ImportTotals): DriveLogInfo {
    for (const key of ['packets', 'points', 'hits', 'misses', 'durationS'] as const) {
      const v = totals[key];
      if (!Number.isFinite(v) || v < 0) throw new ApiError('bad_input', `import total ${key} = ${v} is not a count`);
    }
    if (totals.format !== undefined) checkFormat(totals.format);
    return writeTransaction(this.db, () => {
      this.requireImporting(logId);
      const format = totals.format ?? this.stmts.format.get(logId) ?? null;
      if (format === null) throw new ApiError('bad_input', `drive log ${logId}: the import did not determine a format`);
      const bounds = totals.bounds ? JSON.stringify({ min: totals.bounds.min, max: totals.bounds.max }) : null;
      const { packets, points, hits, misses, durationS } = totals;
      const info = totals.info ? JSON.stringify(totals.info) : null;
      if (totals.profileId && !this.stmts.profileExists.get(totals.profileId)) {
        throw new ApiError('not_found', `no sensor profile '${totals.profileId}' in this project`);
      }
      const setProfile = totals.profileId !== undefined ? 1 : 0;
      this.stmts.finish.run(format, packets, points, hits, misses, durationS, bounds, info, setProfile, totals.profileId ?? null, logId);
      if (totals.decodeProfile) this.stmts.setDecodeProfile.run(JSON.stringify(totals.decodeProfile), logId);
      return this.get(logId)!;
    });
  }

  /** Deletes a log whatever its status (a failed or cancelled import); chunks go with it. */
  discard(logId: number): boolean {
    return this.stmts.deleteAny.run(logId).changes > 0;
  }

  /** Deletes every log still importing; only safe when no import can be running. Returns the count. */
  discardUnfinished(): number {
    return this.stmts.deleteImporting.run().changes;
  }

  status(id: number): LogStatus | null {
    return this.stmts.status.get(id) ?? null;
  }

  /** The log's chunks in seq order, as fresh transferable typed arrays. */
  chunks(logId: number): Generator<PacketChunk, void, undefined> {
    return this.chunkTable.iterate(logId);
  }

  /** The chunks holding packets from ≤ index < to, in packet order. */
  chunksInRange(logId: number, from: number, to: number): Generator<PacketChunk, void, undefined> {
    return this.chunkTable.iterateRange(logId, from, to);
  }

  /** Per chunk the packets' times and poses and the rays' directions (for the timeline). */
  chunkMeta(logId: number): Generator<ChunkMeta, void, undefined> {
    return this.chunkTable.iterateMeta(logId);
  }

  /** Chunk `seq` (0 … chunkCount − 1, as the import wrote them), or null. */
  chunkAt(logId: number, seq: number): PacketChunk | null {
    return this.chunkTable.read(logId, seq);
  }

  chunkCount(logId: number): number {
    return this.chunkTable.count(logId);
  }

  private decodeProfile(logId: number): SensorProfile {
    let p = this.decodeProfiles.get(logId);
    if (!p) {
      const json = this.stmts.decodeProfile.get(logId);
      if (!json) throw new ApiError('internal', `drive log ${logId} has packed chunks but no decode profile`);
      p = JSON.parse(json) as SensorProfile;
      this.decodeProfiles.set(logId, p);
    }
    return p;
  }

  private requireImporting(logId: number): void {
    const status = this.stmts.status.get(logId);
    if (status === undefined) throw new ApiError('not_found', `no drive log ${logId}`);
    if (status !== 'importing') throw new ApiError('conflict', `drive log ${logId} is already imported`);
  }
}
