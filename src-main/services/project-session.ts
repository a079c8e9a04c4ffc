import { openProject, type ProjectStore } from '../store';
import { JobRunner } from '../jobs/job-runner';
import type { WorkerPools } from '../jobs/lanes';
import type { EventBus } from './event-bus';
import { ExternalChanges } from './external-changes';

/** An open project: its store and the runner whose jobs it persists. One at a time per host. */
export class ProjectSession {
  readonly runner: JobRunner;
  /** Another process's commits to the file, turned into events. */
  readonly external: ExternalChanges;

  private constructor(
    readonly path: string,
    readonly store: ProjectStore,
    pools: WorkerPools,
    events: EventBus,
  ) {
    this.runner = new JobRunner(pools.jobs, store.jobs, (job) => events.emit({ type: 'job', job }), { interactive: pools.interactive });
    this.external = new ExternalChanges(store, (e) => events.emit(e));
  }

  /** Opens (or creates) the file; opening also recovers from a crash (see ProjectStore.recover). */
  static open(path: string, create: boolean, pools: WorkerPools, events: EventBus): ProjectSession {
    const store = openProject(path, { create });
    return new ProjectSession(path, store, pools, events);
  }

  /** Cancels running jobs, waits for them, then closes the database. */
  async close(): Promise<void> {
    this.external.stop();
    await this.runner.cancelAll();
    this.store.close();
  }
}
