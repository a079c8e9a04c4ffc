/**
 * An open project: one SQLite connection and the repositories over it.
 * Created by openProject() (database.ts), which validates, migrates and recovers the file.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { ApiError, CompactResult, EntityName, ProjectInfo } from '../api/contract';
import { ArrayStore, type ArrayTable } from './array-store';
import { JobsRepository } from './jobs-repository';
import { LogsRepository } from './logs-repository';
import { RunsRepository } from './runs-repository';
import { ScenesRepository } from './scenes-repository';
import { ProfilesRepository } from './profiles-repository';
import { LabelsRepository } from './labels-repository';
import { AnnotationsRepository } from './annotations-repository';
import { PrimitivesRepository } from './primitives-repository';
import { ModelsRepository } from './models-repository';
import { StudiesRepository } from './studies-repository';
import { EvaluationsRepository } from './evaluations-repository';
import { RisksRepository } from './risks-repository';
import { schemaVersion } from './migrations';
import type { WalCheckpointer } from './wal-checkpointer';
import { busyError, writeTransaction } from './write-transaction';
import { damageOf, damagedError, damagedWriteError, recoveryHint } from './damage';

export interface RecoveryReport {
  /** Drive logs left in 'importing' by a host that stopped mid-import, now deleted. */
  discardedImports: number;
  /** Simulation runs left in 'simulating', now deleted. */
  discardedRuns: number;
  /** Scenes and fitted models left in 'writing' (their host stopped mid-write), now deleted. */
  discardedScenes: number;
  discardedModels: number;
  discardedPrimitives: number;
  /** Queued or running jobs of a host that stopped, now 'interrupted'. */
  interruptedJobs: number;
  /** Why the clean-up could not be written this time (a full disk, a lock held too long); the next open does it. */
  deferred?: string;
}

export const NOTHING_RECOVERED: RecoveryReport = { discardedImports: 0, discardedRuns: 0, discardedScenes: 0, discardedModels: 0, discardedPrimitives: 0, interruptedJobs: 0 };

/** Counts per entity; logs and runs count only when complete. Keys are fixed SQL, not input. */
const COUNT_SQL: Record<EntityName, string> = {
  sensorProfiles: `SELECT count(*) FROM sensor_profiles`,
  driveLogs: `SELECT count(*) FROM drive_logs WHERE status = 'ready'`,
  annotations: `SELECT count(*) FROM annotations`,
  models: `SELECT count(*) FROM models WHERE status = 'ready'`,
  primitives: `SELECT count(*) FROM primitives WHERE status = 'ready'`,
  scenes: `SELECT count(*) FROM scenes WHERE status = 'ready'`,
  runs: `SELECT count(*) FROM runs WHERE status = 'ready'`,
  evaluations: `SELECT count(*) FROM evaluations`,
  studies: `SELECT count(*) FROM studies`,
  jobs: `SELECT count(*) FROM jobs`,
};
const ENTITIES = Object.keys(COUNT_SQL) as EntityName[];

export class ProjectStore {
  readonly logs: LogsRepository;
  readonly jobs: JobsRepository;
  readonly runs: RunsRepository;
  readonly scenes: ScenesRepository;
  readonly profiles: ProfilesRepository;
  readonly annotations: AnnotationsRepository;
  readonly labels: LabelsRepository;
  readonly models: ModelsRepository;
  readonly primitives: PrimitivesRepository;
  readonly studies: StudiesRepository;
  readonly evaluations: EvaluationsRepository;
  readonly risks: RisksRepository;
  /** Runs the WAL's checkpoints off the host thread (set by openProject). */
  checkpointer: WalCheckpointer | null = null;
  /** What recover() did when the project was opened. */
  recovery: RecoveryReport = { ...NOTHING_RECOVERED };

  private readonly countsStmt: Database.Statement<[], Record<EntityName, number>>;
  private readonly discardRunsStmt: Database.Statement<[]>;
  private readonly arrayStores = new Map<ArrayTable, ArrayStore>();

  /**
   * @param path absolute path of the project file
   * @param db the connection; store-internal (other layers go through the repositories)
   */
  constructor(
    readonly path: string,
    readonly db: Database.Database,
  ) {
    this.logs = new LogsRepository(db);
    this.jobs = new JobsRepository(db);
    this.runs = new RunsRepository(db);
    this.scenes = new ScenesRepository(db, this.arrays('scene_arrays'));
    this.profiles = new ProfilesRepository(db);
    this.annotations = new AnnotationsRepository(db);
    this.labels = new LabelsRepository(db);
    this.models = new ModelsRepository(db, this.arrays('model_arrays'));
    this.primitives = new PrimitivesRepository(db, this.arrays('primitive_arrays'));
    this.studies = new StudiesRepository(db);
    this.evaluations = new EvaluationsRepository(db);
    this.risks = new RisksRepository(db);
    this.discardRunsStmt = db.prepare<[]>(
      `DELETE FROM runs WHERE status = 'simulating'
         AND (job_id IS NULL OR job_id NOT IN (SELECT id FROM jobs WHERE state IN ('queued', 'running')))`,
    );
    this.countsStmt = db.prepare(`SELECT ${ENTITIES.map((e) => `(${COUNT_SQL[e]}) AS ${e}`).join(', ')}`);
  }

  get name(): string {
    return path.basename(this.path, path.extname(this.path));
  }

  get isOpen(): boolean {
    return this.db.open;
  }

  /** What SQLite's quick_check found wrong with the file when it was opened, or null (damage.ts). */
  get damage(): string | null {
    return damageOf(this.db);
  }

  /**
   * A write that this project refused — it is damaged, or another process held its lock past the
   * busy timeout — as the error that names the project and says why; else null.
   */
  refusedWrite(e: unknown): ApiError | null {
    return damagedWriteError(this.db, e) ?? busyError(this.db, e);
  }

  /** The chunked typed-array store over one of the allow-listed `*_arrays` tables. */
  arrays(table: ArrayTable): ArrayStore {
    let store = this.arrayStores.get(table);
    if (!store) {
      store = new ArrayStore(this.db, table);
      this.arrayStores.set(table, store);
    }
    return store;
  }

  /**
   * Runs `fn` in one write transaction (a savepoint when nested): all of its writes or none.
   * It begins IMMEDIATE, so it waits its turn behind another process's writes
   * (write-transaction.ts). `fn` must be synchronous; better-sqlite3 rejects a function that
   * returns a promise.
   */
  transaction<T>(fn: () => T): T {
    return writeTransaction(this.db, fn);
  }

  /**
   * Cleans up after a host that stopped without finishing its work: deletes half-imported
   * logs and half-written runs (with their chunks) and marks unfinished jobs interrupted. Runs on open, when no
   * job of this process can be running yet.
   */
  recover(): RecoveryReport {
    // Jobs first: the logs and runs to discard are those whose job is no longer live.
    const report: RecoveryReport = this.transaction(() => {
      const interruptedJobs = this.jobs.markInterrupted();
      return {
        interruptedJobs,
        discardedImports: this.logs.discardUnfinished(),
        discardedRuns: this.discardRunsStmt.run().changes,
        discardedScenes: this.scenes.discardUnfinished(),
        discardedModels: this.models.discardUnfinished(),
        discardedPrimitives: this.primitives.discardUnfinished(),
      };
    });
    if (report.discardedImports + report.discardedRuns + report.discardedScenes + report.discardedModels + report.discardedPrimitives > 0) this.reclaim();
    return report;
  }

  /**
   * Gives the pages that deletions freed back to the file system (a project created with
   * incremental auto-vacuum; a no-op in an older one until `compact`). Best effort: a failure
   * (a full disk) leaves them for the next time.
   */
  reclaim(): void {
    try {
      this.db.pragma('incremental_vacuum');
    } catch {
      // the pages stay free inside the file; nothing is lost
    }
  }

  /**
   * Rewrites the file without its free pages (VACUUM), switching an older project to
   * incremental auto-vacuum on the way, and folds the write-ahead log back in so the file
   * shrinks now. The host must have no job running: VACUUM needs the connection to itself.
   */
  compact(): CompactResult {
    if (this.damage !== null) throw damagedError(this.db);
    const pages = this.db.pragma('page_count', { simple: true }) as number;
    const free = this.db.pragma('freelist_count', { simple: true }) as number;
    const bytesBefore = fs.statSync(this.path).size;
    try {
      this.db.pragma('auto_vacuum = INCREMENTAL');
      this.db.exec('VACUUM');
      this.db.pragma('wal_checkpoint(TRUNCATE)');
    } catch (e) {
      throw busyError(this.db, e) ?? e;
    }
    return { path: this.path, bytesBefore, bytesAfter: fs.statSync(this.path).size, freeFractionBefore: pages > 0 ? free / pages : 0 };
  }

  counts(): Record<EntityName, number> {
    return { ...this.countsStmt.get()! };
  }

  info(): ProjectInfo {
    const damage = this.damage;
    return { path: this.path, name: this.name, schemaVersion: schemaVersion(this.db), counts: this.counts(), ...(damage !== null ? { damaged: `${damage}. ${recoveryHint(this.path)}` } : {}) };
  }

  /** Closes the connection (SQLite checkpoints the WAL into the file). Idempotent. */
  close(): void {
    if (!this.db.open) return;
    try {
      this.checkpointer?.close(); // first: the host's connection must be the last one
      this.checkpointer = null;
      // An optimisation only: a full disk or a read-only (damaged) project must still close.
      if (this.damage === null) {
        try {
          this.db.pragma('optimize');
        } catch {
          // skipped this time
        }
      }
    } finally {
      this.db.close();
    }
  }
}
