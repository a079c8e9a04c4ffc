/**
 * Changes another process made to the open project — the CLI importing a log or finishing a job
 * while the app shows the project — reach the pages as ordinary events (docs/design.md, "Events").
 *
 * SQLite's `PRAGMA data_version` changes when another connection commits to the file, and never
 * for this connection's own writes (those emit their events where they happen). Polled once a
 * second while a project is open; on a change the entity counts are compared and each entity
 * whose count moved gets an event, and jobs always do (another process's job changes state
 * without changing their count).
 */
import type { ApiEvent, EntityName } from '../api/contract';
import type { ProjectStore } from '../store';

export class ExternalChanges {
  private version: number;
  private counts: Record<EntityName, number>;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly store: ProjectStore, private readonly emit: (e: ApiEvent) => void, intervalMs = 1000) {
    this.version = this.dataVersion();
    this.counts = store.info().counts;
    this.timer = setInterval(() => this.poll(), intervalMs);
    this.timer.unref();
  }

  private dataVersion(): number {
    return this.store.db.pragma('data_version', { simple: true }) as number;
  }

  /** Checks now (the timer calls it); true when another process had changed the project. */
  poll(): boolean {
    let v: number;
    try {
      v = this.dataVersion();
    } catch {
      return false; // closing, or a damaged file: the next open reports it
    }
    if (v === this.version) return false;
    this.version = v;
    const counts = this.store.info().counts;
    for (const entity of Object.keys(counts) as EntityName[]) {
      if (entity !== 'jobs' && counts[entity] !== this.counts[entity]) this.emit({ type: 'project', entity });
    }
    this.emit({ type: 'project', entity: 'jobs' });
    // Labels saved elsewhere change no count but what the log view colours.
    this.emit({ type: 'project', entity: 'driveLogs' });
    this.counts = counts;
    return true;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
