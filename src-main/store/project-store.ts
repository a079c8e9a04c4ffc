/**
 * An open project: one SQLite connection and the repositories over it.
 * Created by openProject() (database.ts), which validates, migrates and recovers the file.
 */
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { EntityName, ProjectInfo } from '../api/contract';
import { ArrayStore, type ArrayTable } from './array-store';
import { JobsRepository } from './jobs-repository';
import { LogsRepository } from './logs-repository';
import { RunsRepository } from './runs-repository';
import { ScenesRepository } from './scenes-repository';
import { ProfilesRepository } from './profiles-repository';
import { AnnotationsRepository } from './annotations-repository';
import { PrimitivesRepository } from './primitives-repository';
import { ModelsRepository } from './models-repository';
import { StudiesRepository } from './studies-repository';
import { EvaluationsRepository } from './evaluations-repository';
import { schemaVersion } from './migrations';
import type { WalCheckpointer } from './wal-checkpointer';
import { writeTransaction } from './write-transaction';

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
}

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
  readonly models: ModelsRepository;
  readonly primitives: PrimitivesRepository;
  readonly studies: StudiesRepository;
  readonly evaluations: EvaluationsRepository;
  /** Runs the WAL's checkpoints off the host thread (set by openProject). */
  checkpointer: WalCheckpointer | null = null;
  /** What recover() did when the project was opened. */
  recovery: RecoveryReport = { discardedImports: 0, discardedRuns: 0, discardedScenes: 0, discardedModels: 0, discardedPrimitives: 0, interruptedJobs: 0 };

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
    this.models = new ModelsRepository(db, this.arrays('model_arrays'));
    this.primitives = new PrimitivesRepository(db, this.arrays('primitive_arrays'));
    this.studies = new StudiesRepository(db);
    this.evaluations = new EvaluationsRepository(db);
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
    return this.transaction(() => {
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
  }

  counts(): Record<EntityName, number> {
    return { ...this.countsStmt.get()! };
  }

  info(): ProjectInfo {
    return { path: this.path, name: this.name, schemaVersion: schemaVersion(this.db), counts: this.counts() };
  }

  /** Closes the connection (SQLite checkpoints the WAL into the file). Idempotent. */
  close(): void {
    if (!this.db.open) return;
    try {
      this.checkpointer?.close(); // first: the host's connection must be the last one
      this.checkpointer = null;
      this.db.pragma('optimize');
    } finally {
      this.db.close();
    }
  }
}
