/**
 * Simulation runs: the output of the engine, shaped like a drive log (packets in chunks). A run
 * is 'simulating' while its job streams chunks (batches from several workers arrive in any order
 * and are keyed by batch index, so the stored run is the same whatever the number of workers),
 * then 'ready'. Failure or cancel deletes it; recover() deletes runs of jobs that died.
 */
import type Database from 'better-sqlite3';
import { ApiError, type CloudTotals, type RunInfo } from '../api/contract';
import type { SimulationMode } from '../../src-common/modes';
import type { PacketChunk } from '../../src-common/packets';
import { ChunkTable, validateChunk, type ChunkMeta } from './chunk-table';
import { EntityRows } from './entity-rows';
import { TOTALS_COLUMNS, totalsOf, type TotalsRow } from './cloud-totals';
import { writeTransaction } from './write-transaction';

export interface BeginRun {
  name: string;
  sceneId: number | null;
  profileId: string;
  mode: SimulationMode;
  seed: number;
  trajectory: Record<string, unknown>;
  params: Record<string, unknown>;
  jobId: number | null;
}

export type RunTotals = CloudTotals;

interface RunRow extends TotalsRow {
  id: number;
  name: string;
  scene_id: number | null;
  mode: SimulationMode;
  seed: number;
  trajectory: string | null;
  params: string;
  created_at: string;
}

const COLUMNS = `id, name, scene_id, mode, seed, trajectory, params, ${TOTALS_COLUMNS}, created_at`;

function toInfo(r: RunRow): RunInfo {
  const params = JSON.parse(r.params) as Record<string, unknown>;
  return {
    id: r.id,
    name: r.name,
    sceneId: r.scene_id,
    profileId: typeof params.profileId === 'string' ? params.profileId : '',
    mode: r.mode,
    seed: r.seed,
    trajectory: r.trajectory ? (JSON.parse(r.trajectory) as Record<string, unknown>) : null,
    params,
    ...totalsOf(r),
    createdAt: r.created_at,
  };
}

export class RunsRepository extends EntityRows<RunRow, RunInfo> {
  private readonly chunkTable: ChunkTable;
  private readonly stmts;

  constructor(private readonly db: Database.Database) {
    // A run being simulated is not yet a run: lists, gets and deletes see only ready ones.
    super(db, { table: 'runs', columns: COLUMNS, visible: "status = 'ready'" }, toInfo);
    this.chunkTable = new ChunkTable(db, 'run_chunks');
    this.stmts = {
      // profile_id stays NULL: built-in profiles are not rows; params.profileId and params.profile
      // keep the id and the full profile so a run is reproducible on its own.
      insert: db.prepare<[string, number | null, string, number, string, string, number | null]>(
        `INSERT INTO runs (name, scene_id, mode, seed, trajectory, params, job_id, status)
         VALUES (?, ?, ?, ?, ?, ?, ?, 'simulating')`,
      ),
      finish: db.prepare<[number, number, number, number, number, string | null, number]>(
        `UPDATE runs SET status = 'ready', packets = ?, points = ?, hits = ?, misses = ?, duration_s = ?, bounds = ?
         WHERE id = ? AND status = 'simulating'`,
      ),
      status: db.prepare<[number], string>(`SELECT status FROM runs WHERE id = ?`).pluck(),
      deleteAny: db.prepare<[number]>(`DELETE FROM runs WHERE id = ?`),
      sceneExists: db.prepare<[number], number>(`SELECT 1 FROM scenes WHERE id = ?`).pluck(),
    };
  }

  begin(r: BeginRun): number {
    if (r.sceneId !== null && !this.stmts.sceneExists.get(r.sceneId)) throw new ApiError('not_found', `no scene ${r.sceneId} in this project`);
    const info = this.stmts.insert.run(
      r.name,
      r.sceneId,
      r.mode,
      r.seed,
      JSON.stringify(r.trajectory),
      JSON.stringify({ ...r.params, profileId: r.profileId }),
      r.jobId,
    );
    return Number(info.lastInsertRowid);
  }

  /** Stores one batch of packets; `seq` is the batch index (batches may arrive in any order). */
  appendChunk(runId: number, seq: number, chunk: PacketChunk): void {
    validateChunk(chunk, `run ${runId} chunk ${seq}`);
    writeTransaction(this.db, () => {
      if (this.stmts.status.get(runId) !== 'simulating') throw new ApiError('conflict', `run ${runId} is not being simulated`);
      this.chunkTable.insert(runId, seq, chunk);
    });
  }

  finish(runId: number, t: RunTotals): RunInfo {
    const changes = this.stmts.finish.run(t.packets, t.points, t.hits, t.misses, t.durationS, t.bounds ? JSON.stringify(t.bounds) : null, runId).changes;
    if (changes === 0) throw new ApiError('conflict', `run ${runId} is not being simulated`);
    return this.get(runId)!;
  }

  discard(runId: number): boolean {
    return this.stmts.deleteAny.run(runId).changes > 0;
  }

  *chunks(runId: number): Generator<PacketChunk> {
    yield* this.chunkTable.iterate(runId);
  }

  /** The chunks holding packets from ≤ index < to, in packet order. */
  chunksInRange(runId: number, from: number, to: number): Generator<PacketChunk, void, undefined> {
    return this.chunkTable.iterateRange(runId, from, to);
  }

  /** Per chunk the packets' times and poses and the rays' directions (for the timeline). */
  chunkMeta(runId: number): Generator<ChunkMeta, void, undefined> {
    return this.chunkTable.iterateMeta(runId);
  }
}
