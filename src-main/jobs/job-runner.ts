/**
 * The job runner: every long computation is a persisted job run by a task on the piscina pool.
 *
 * Life of a job: `queued` (row written) → `running` (the worker's first message) → `done` |
 * `failed` (error message kept) | `cancelled`; a host that dies leaves `running` rows, which the
 * store turns into `interrupted` when the project is next opened. Progress (fraction + message)
 * is persisted and broadcast, throttled. Cancellation sets a shared flag the task's loops poll;
 * if the task does not stop within `cancelGraceMs`, its worker is aborted.
 */
import { MessageChannel } from 'node:worker_threads';
import type { Piscina } from 'piscina';
import type { JobInfo, JobState } from '../api/contract';
import type { TaskName } from '../../src-worker/tasks/registry';
import type { TaskMessage } from '../../src-worker/tasks/protocol';
import { CANCELLED_MESSAGE } from '../../src-common/cancellation';
import { poolFor } from './lanes';

/** The persistence the runner needs (the store's jobs repository). */
export interface JobRecords {
  create(kind: string, params: Record<string, unknown>): JobInfo;
  update(
    id: number,
    patch: Partial<Pick<JobInfo, 'state' | 'progress' | 'message' | 'error' | 'result' | 'startedAt' | 'finishedAt'>>,
  ): JobInfo;
  get(id: number): JobInfo | null;
}

/** One task call on the pool. */
export interface TaskCall {
  task: TaskName;
  input: unknown;
  /** Buffers inside `input` to transfer rather than copy. */
  transfer?: ArrayBuffer[];
}

export interface JobSpec {
  kind: string;
  /** Persisted with the job: small and JSON-safe (never bulk arrays). */
  params: Record<string, unknown>;
  /** A single-task job … */
  task?: TaskName;
  input?: unknown;
  transfer?: ArrayBuffer[];
  /** … or a parallel one: every call goes to the pool at once (it queues what exceeds its
   * threads); progress is their mean; one cancel flag stops them all; the first failure stops
   * the rest and fails the job. */
  tasks?: TaskCall[];
  /** Main-thread handler for each streamed message (e.g. write a chunk), with the index of the
   * task that sent it. Synchronous so writes stay ordered within a task. */
  onMessage?: (message: TaskMessage, job: JobInfo, taskIndex: number) => void;
  /** Turns the task's return value (parallel: the array of return values in task order) into
   * the persisted result (may finalise store rows). May wait on a transient task (a fit's last
   * step runs in a worker); the job stays running until it resolves. */
  onSuccess?: (output: unknown, job: JobInfo) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** A parallel job's progress message for the user, from every task's fraction and the message of the task `index` that just reported; by default that message and "(k/n batches)". */
  progressMessage?: (fractions: ArrayLike<number>, index: number, message: string) => string;
  /** Cleanup after failure or cancellation, e.g. discard a half-imported log. */
  onAbort?: (job: JobInfo) => void;
}

export interface RunningJob {
  job: JobInfo;
  /** Settles with the final job row; never rejects. */
  done: Promise<JobInfo>;
}

interface Live {
  cancelFlag: Int32Array;
  abort: AbortController;
  cancelRequested: boolean;
  graceTimer?: NodeJS.Timeout;
}

const TERMINAL: ReadonlySet<JobState> = new Set(['done', 'failed', 'cancelled', 'interrupted']);
export const isTerminal = (s: JobState): boolean => TERMINAL.has(s);

export class JobRunner {
  private readonly live = new Map<number, Live>();
  private readonly settling = new Map<number, Promise<JobInfo>>();

  constructor(
    private readonly pool: Piscina,
    private readonly records: JobRecords,
    private readonly emit: (job: JobInfo) => void,
    private readonly opts: { progressIntervalMs?: number; cancelGraceMs?: number; interactive?: Piscina } = {},
  ) {}

  submit(spec: JobSpec): RunningJob {
    const job = this.records.create(spec.kind, spec.params);
    this.emit(job);
    const live: Live = {
      cancelFlag: new Int32Array(new SharedArrayBuffer(4)),
      abort: new AbortController(),
      cancelRequested: false,
    };
    this.live.set(job.id, live);
    const done = this.execute(job, spec, live).finally(() => {
      clearTimeout(live.graceTimer);
      this.live.delete(job.id);
      this.settling.delete(job.id);
    });
    this.settling.set(job.id, done);
    return { job, done };
  }

  /** Request cancellation; the job row reaches `cancelled` when the task has stopped. */
  cancel(id: number): JobInfo | null {
    const live = this.live.get(id);
    const job = this.records.get(id);
    if (!live || !job) return job;
    if (!live.cancelRequested) {
      live.cancelRequested = true;
      Atomics.store(live.cancelFlag, 0, 1);
      const updated = this.records.update(id, { message: 'cancelling…' });
      this.emit(updated);
      // Only the flag: a task still in piscina's queue sees it before it starts (entry.ts) and
      // ends at once. Aborting through the signal is kept for a task that ignores the flag,
      // because aborting a task that has just started terminates its worker mid-reply.
      live.graceTimer = setTimeout(() => live.abort.abort(), this.opts.cancelGraceMs ?? 5_000);
      return updated;
    }
    return job;
  }

  /** Cancel everything and wait until every job has settled (closing a project, quitting). */
  async cancelAll(): Promise<void> {
    for (const id of [...this.live.keys()]) this.cancel(id);
    await Promise.all([...this.settling.values()]);
  }

  /** The final row of a job: waits if it is still live. */
  async settled(id: number): Promise<JobInfo> {
    const pending = this.settling.get(id);
    if (pending) return pending;
    const job = this.records.get(id);
    if (!job) throw new Error(`no job ${id}`);
    return job;
  }

  get activeCount(): number {
    return this.live.size;
  }

  /**
   * Run a task without a persisted job (interactive requests such as a display cloud):
   * returns the task's output and the named outputs it streamed.
   */
  runTransient(task: TaskName, input: unknown, transfer: ArrayBuffer[] = []): Promise<TransientResult> {
    return runTransient(poolFor({ jobs: this.pool, interactive: this.opts.interactive }, task), task, input, transfer);
  }

  private async execute(job: JobInfo, spec: JobSpec, live: Live): Promise<JobInfo> {
    const parallel = !!spec.tasks;
    const calls: TaskCall[] = spec.tasks ?? [{ task: spec.task!, input: spec.input, transfer: spec.transfer }];
    let current = job;
    let handlerError: Error | null = null;
    let closed = false;
    let lastPersist = 0;
    const interval = this.opts.progressIntervalMs ?? 100;
    const fractions = new Float64Array(calls.length);

    const persist = (patch: Parameters<JobRecords['update']>[1]) => {
      current = this.records.update(job.id, patch);
      this.emit(current);
    };

    const channels = calls.map((_, i) => {
      const { port1, port2 } = new MessageChannel();
      let resolveEnded!: () => void;
      const ended = new Promise<void>((r) => (resolveEnded = r));
      const channel = { port1, port2, ended, started: false };
      port1.on('message', (m: TaskMessage) => {
        channel.started = true;
        if (m.type === 'end') return resolveEnded();
        if (current.state === 'queued') persist({ state: 'running', startedAt: new Date().toISOString() });
        if (m.type === 'progress') {
          fractions[i] = m.fraction;
          const now = Date.now();
          const total = fractions.reduce((a, b) => a + b, 0) / calls.length;
          if (now - lastPersist >= interval || total >= 1) {
            lastPersist = now;
            const message = !parallel ? m.message : spec.progressMessage ? spec.progressMessage(fractions, i, m.message) : `${m.message} (${fractions.filter((f) => f >= 1).length}/${calls.length} batches)`;
            if (!live.cancelRequested) persist({ progress: total, message });
          }
          return;
        }
        if (closed || handlerError || !spec.onMessage) return;
        try {
          spec.onMessage(m, current, i);
        } catch (e) {
          // A failed write (disk full, constraint) must stop the tasks and fail the job.
          handlerError = e as Error;
          Atomics.store(live.cancelFlag, 0, 1);
        }
      });
      return channel;
    });

    // A failing call stops its siblings through the shared flag (queued ones end before they
    // start, running ones at their next checkCancelled()); the job-wide abort signal is only the
    // grace-period fallback for a task that ignores the flag.
    let firstError: unknown = null; // in time, not task order: siblings then fail with 'cancelled'
    const runs = calls.map((call, i) =>
      this.pool
        .run(
          { task: call.task, input: call.input, port: channels[i]!.port2, cancel: live.cancelFlag },
          { transferList: [channels[i]!.port2, ...(call.transfer ?? [])] as never, signal: live.abort.signal },
        )
        .catch((e: unknown) => {
          if (firstError === null && !isAbortError(e)) firstError = e;
          Atomics.store(live.cancelFlag, 0, 1);
          throw e;
        }),
    );
    const settled = await Promise.allSettled(runs);
    try {
      const failure = settled.find((r) => r.status === 'rejected');
      if (failure) throw (failure as PromiseRejectedResult).reason;
      await Promise.all(channels.map((c) => c.ended));
      if (handlerError) throw handlerError;
      if (live.cancelRequested) throw new Error(CANCELLED_MESSAGE);
      const outputs = settled.map((r) => (r as PromiseFulfilledResult<unknown>).value);
      const output = parallel ? outputs : outputs[0];
      const result = spec.onSuccess ? await spec.onSuccess(output, current) : ((output ?? {}) as Record<string, unknown>);
      persist({ state: 'done', progress: 1, message: 'done', result, finishedAt: new Date().toISOString() });
    } catch (e) {
      // A task that started and threw still posts 'end' (unless its worker was terminated): wait
      // for those so no streamed chunk lands after the cleanup below. Tasks aborted in the queue
      // never started and send nothing.
      const startedEnds = channels.filter((c) => c.started).map((c) => c.ended);
      await Promise.race([Promise.all(startedEnds), new Promise((r) => setTimeout(r, 2_000))]);
      closed = true;
      const err = handlerError ?? (firstError as Error | null) ?? (e as Error);
      const cancelled = live.cancelRequested && !handlerError;
      try {
        spec.onAbort?.(current);
      } catch (cleanupError) {
        // Keep the original error: it is what the user needs to see; the cleanup failure is appended.
        err.message += ` (and cleaning up failed: ${(cleanupError as Error).message})`;
      }
      persist({
        state: cancelled ? 'cancelled' : 'failed',
        message: cancelled ? 'cancelled' : 'failed',
        error: cancelled ? null : errorMessage(err),
        finishedAt: new Date().toISOString(),
      });
    } finally {
      for (const c of channels) c.port1.close();
    }
    return current;
  }
}

export interface TransientResult {
  result: unknown;
  outputs: Map<string, unknown>;
}

/** A task on the pool with no job row (also used without an open project, e.g. validations). */
export async function runTransient(
  pool: Piscina,
  task: TaskName,
  input: unknown,
  transfer: ArrayBuffer[] = [],
  onProgress?: (fraction: number, message: string) => void,
): Promise<TransientResult> {
  const outputs = new Map<string, unknown>();
  const { port1, port2 } = new MessageChannel();
  const ended = new Promise<void>((resolve) => {
    port1.on('message', (m: TaskMessage) => {
      if (m.type === 'output') outputs.set(m.name, m.value);
      else if (m.type === 'progress') onProgress?.(m.fraction, m.message);
      else if (m.type === 'end') resolve();
    });
  });
  const cancel = new Int32Array(new SharedArrayBuffer(4));
  try {
    const result = await pool.run({ task, input, port: port2, cancel }, { transferList: [port2, ...transfer] as never });
    await ended;
    return { result, outputs };
  } finally {
    port1.close();
  }
}

function isAbortError(e: unknown): boolean {
  return e instanceof Error && (e.name === 'AbortError' || /aborted/i.test(e.message));
}

function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message || e.name;
  return String(e);
}
