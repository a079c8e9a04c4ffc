import type { Piscina } from 'piscina';
import { openProject, type ProjectStore } from '../store';
import { JobRunner } from '../jobs/job-runner';
import type { EventBus } from './event-bus';

/** An open project: its store and the runner whose jobs it persists. One at a time per host. */
export class ProjectSession {
  readonly runner: JobRunner;

  private constructor(
    readonly path: string,
    readonly store: ProjectStore,
    pool: Piscina,
    events: EventBus,
  ) {
    this.runner = new JobRunner(pool, store.jobs, (job) => events.emit({ type: 'job', job }));
  }

  /** Opens (or creates) the file; opening also recovers from a crash (see ProjectStore.recover). */
  static open(path: string, create: boolean, pool: Piscina, events: EventBus): ProjectSession {
    const store = openProject(path, { create });
    return new ProjectSession(path, store, pool, events);
  }

  /** Cancels running jobs, waits for them, then closes the database. */
  async close(): Promise<void> {
    await this.runner.cancelAll();
    this.store.close();
  }
}
