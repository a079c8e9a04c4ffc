import type { JobInfo } from '../../../src-main/api/contract';
import type { JobRecords } from '../../../src-main/jobs/job-runner';

/** In-memory JobRecords so the runner's behaviour is tested apart from SQLite. */
export class MemoryRecords implements JobRecords {
  rows = new Map<number, JobInfo>();
  history: JobInfo[] = [];
  private next = 1;

  create(kind: string, params: Record<string, unknown>): JobInfo {
    const job: JobInfo = {
      id: this.next++, kind, state: 'queued', progress: 0, message: 'queued', error: null, params, result: null,
      createdAt: new Date().toISOString(), startedAt: null, finishedAt: null,
    };
    this.rows.set(job.id, job);
    this.history.push(job);
    return job;
  }

  update(id: number, patch: Partial<JobInfo>): JobInfo {
    const job = { ...this.rows.get(id)!, ...patch };
    this.rows.set(id, job);
    this.history.push(job);
    return job;
  }

  get(id: number): JobInfo | null {
    return this.rows.get(id) ?? null;
  }
}
