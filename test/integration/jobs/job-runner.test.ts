import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Piscina } from 'piscina';
import { createPool } from '../../../src-main/jobs/pool';
import { JobRunner } from '../../../src-main/jobs/job-runner';
import type { JobInfo } from '../../../src-main/api/contract';
import { MemoryRecords } from './memory-records';

// A real piscina pool running src-worker/tasks/entry.ts (through tsx, as in development).
let pool: Piscina;
beforeAll(() => {
  pool = createPool(2);
});
afterAll(async () => {
  await pool.destroy();
});

function setup(opts: { cancelGraceMs?: number } = {}) {
  const records = new MemoryRecords();
  const events: JobInfo[] = [];
  const runner = new JobRunner(pool, records, (j) => events.push(j), { progressIntervalMs: 0, ...opts });
  return { records, events, runner };
}

const waitFor = async (cond: () => boolean, ms = 20_000) => {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('JobRunner on piscina', () => {
  it('runs a job through queued → running → done with increasing progress and keeps the result', async () => {
    const { runner, events } = setup();
    const { job, done } = runner.submit({ kind: 'spin', params: { steps: 20 }, task: 'spin', input: { steps: 20, work: 20_000 } });
    expect(job.state).toBe('queued');
    const final = await done;
    expect(final.state).toBe('done');
    expect(final.progress).toBe(1);
    expect(final.result).toMatchObject({ steps: 20 });
    expect(typeof (final.result as { checksum: number }).checksum).toBe('number');
    const states = events.map((e) => e.state);
    expect(states[0]).toBe('queued');
    expect(states).toContain('running');
    expect(states.at(-1)).toBe('done');
    const progress = events.filter((e) => e.state === 'running').map((e) => e.progress);
    expect(progress.length).toBeGreaterThan(3);
    for (let i = 1; i < progress.length; i++) expect(progress[i]!).toBeGreaterThanOrEqual(progress[i - 1]!);
    expect(final.startedAt).not.toBeNull();
    expect(final.finishedAt).not.toBeNull();
  });

  it('cancellation reaches the worker loop (the job stops long before the abort fallback)', async () => {
    // The grace period is a minute, so only the task's own checkCancelled() can end it in time.
    const { runner } = setup({ cancelGraceMs: 60_000 });
    const { job, done } = runner.submit({ kind: 'spin', params: {}, task: 'spin', input: { steps: 1_000_000, work: 50_000 } });
    await waitFor(() => runner.activeCount === 1 && (runner as unknown as { live: Map<number, unknown> }).live.has(job.id));
    await new Promise((r) => setTimeout(r, 300)); // let it run
    const t0 = Date.now();
    runner.cancel(job.id);
    const final = await done;
    expect(final.state).toBe('cancelled');
    expect(final.error).toBeNull();
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(final.progress).toBeLessThan(1);
  });

  it('a failing task fails the job and keeps its error message', async () => {
    const { runner } = setup();
    const { done } = runner.submit({ kind: 'spin', params: {}, task: 'spin', input: { steps: 10, work: 1000, failAt: 3 } });
    const final = await done;
    expect(final.state).toBe('failed');
    expect(final.error).toContain('spin failed on purpose at step 3');
  });

  it('cleanup runs after failure and an error in a message handler fails the job', async () => {
    const { runner } = setup();
    let cleaned = 0;
    const { done } = runner.submit({
      kind: 'spin', params: {}, task: 'spin', input: { steps: 5, work: 1000, failAt: 2 }, onAbort: () => { cleaned++; },
    });
    expect((await done).state).toBe('failed');
    expect(cleaned).toBe(1);
  });

  it('a queued job can be cancelled before it starts', async () => {
    const { runner } = setup();
    const long = [0, 1].map(() => runner.submit({ kind: 'spin', params: {}, task: 'spin', input: { steps: 30, work: 400_000 } }));
    const queued = runner.submit({ kind: 'spin', params: {}, task: 'spin', input: { steps: 30, work: 400_000 } });
    runner.cancel(queued.job.id);
    expect((await queued.done).state).toBe('cancelled');
    for (const l of long) expect((await l.done).state).toBe('done');
  });

  it('typed arrays are transferred to the worker, not copied', async () => {
    const { runner } = setup();
    const values = new Float64Array(1_000_000).map((_, i) => i);
    const { result } = await runner.runTransient('sum-array', { values }, [values.buffer]);
    expect(values.buffer.byteLength).toBe(0); // detached: ownership moved to the worker
    expect(result).toEqual({ sum: (999_999 * 1_000_000) / 2, length: 1_000_000 });
  });

  it('an unknown task fails with a clear message', async () => {
    const { runner } = setup();
    const { done } = runner.submit({ kind: 'x', params: {}, task: 'nope' as never, input: {} });
    const final = await done;
    expect(final.state).toBe('failed');
    expect(final.error).toContain('unknown worker task "nope"');
  });

  it('a parallel job runs its tasks on the pool, aggregates progress and returns outputs in task order', async () => {
    const { runner, events } = setup();
    const tasks = [5, 10, 15, 20, 25, 30].map((steps) => ({ task: 'spin' as const, input: { steps, work: 10_000 } }));
    const messages: number[] = [];
    const { done } = runner.submit({
      kind: 'batch', params: {}, tasks,
      onMessage: (_m, _j, i) => messages.push(i),
      onSuccess: (outputs) => ({ steps: (outputs as { steps: number }[]).map((o) => o.steps) }),
    });
    const final = await done;
    expect(final.state).toBe('done');
    expect(final.result).toEqual({ steps: [5, 10, 15, 20, 25, 30] });
    const progress = events.filter((e) => e.state === 'running').map((e) => e.progress);
    for (let i = 1; i < progress.length; i++) expect(progress[i]!).toBeGreaterThanOrEqual(progress[i - 1]! - 1e-12);
    expect(messages).toEqual([]); // spin streams nothing but progress
  });

  it('the first failing task of a parallel job fails the job, stops its siblings and runs cleanup once', async () => {
    const { runner } = setup({ cancelGraceMs: 60_000 });
    let cleaned = 0;
    const tasks = [
      { task: 'spin' as const, input: { steps: 1_000_000, work: 50_000 } },
      { task: 'spin' as const, input: { steps: 100, work: 1_000, failAt: 20 } },
      { task: 'spin' as const, input: { steps: 1_000_000, work: 50_000 } },
    ];
    const t0 = Date.now();
    const { done } = runner.submit({ kind: 'batch', params: {}, tasks, onAbort: () => { cleaned++; } });
    const final = await done;
    expect(final.state).toBe('failed');
    expect(final.error).toContain('spin failed on purpose at step 20');
    expect(cleaned).toBe(1);
    expect(Date.now() - t0).toBeLessThan(20_000); // the endless siblings were stopped
  });

  it('cancelling a parallel job stops every task', async () => {
    const { runner } = setup({ cancelGraceMs: 60_000 });
    const tasks = [0, 1, 2, 3].map(() => ({ task: 'spin' as const, input: { steps: 1_000_000, work: 50_000 } }));
    const { job, done } = runner.submit({ kind: 'batch', params: {}, tasks });
    await new Promise((r) => setTimeout(r, 300));
    runner.cancel(job.id);
    expect((await done).state).toBe('cancelled');
  });
});
