/**
 * Follows a demo started by demo.create through to its end for the app's demo card (DemoEvent):
 * the site job, the drives job, then — when asked — the Table 4.3 experiment as `thicket demo`
 * runs it (each step an ordinary job). A demo that fails or is cancelled before its drives are
 * stored leaves nothing: when demo.create had created the project file, it is closed and removed
 * (and dropped from the recent list), so the card can simply be tried again.
 */
import { rmSync } from 'node:fs';
import type { DemoEvent, DemoResult, JobInfo } from '../api/contract';
import type { ServiceContext } from './service-context';
import { runTable43, type ExperimentHost } from './experiment-service';

export interface DemoFollow {
  siteJob: number;
  seed: number;
  experiment: boolean;
  /** The project file demo.create created (null: it opened an existing one, which stays). */
  createdPath: string | null;
}

export async function followDemo(ctx: ServiceContext & ExperimentHost, f: DemoFollow): Promise<void> {
  const emit = (e: Omit<DemoEvent, 'type'>) => ctx.events.emit({ type: 'demo', ...e });
  const ended = async (job: JobInfo): Promise<boolean> => {
    if (job.state === 'done') return false;
    const removed = await removeCreated(ctx, f.createdPath);
    emit({ phase: job.state === 'cancelled' ? 'cancelled' : 'failed', jobId: job.id, removed, ...(job.error ? { message: job.error } : {}) });
    return true;
  };
  try {
    emit({ phase: 'site', jobId: f.siteJob, message: 'building the reference site' });
    const site = await ctx.whenJobSettled(f.siteJob);
    if (await ended(site)) return;
    const drivesJob = Number(site.result!.drivesJob);
    emit({ phase: 'drives', jobId: drivesJob, message: 'simulating the training and test drives' });
    const drives = await ctx.whenJobSettled(drivesJob);
    if (await ended(drives)) return;
    if (!f.experiment) {
      emit({ phase: 'done' });
      return;
    }
    // The drives are stored: from here a failure or a cancel keeps them and what finished.
    const x = await runTable43(ctx, drives.result as unknown as DemoResult, {
      seed: f.seed,
      note: (message) => emit({ phase: 'experiment', message, jobId: latestJob(ctx) }),
    });
    emit({ phase: 'done', table: x.table.map((r) => ({ scene: r.scene, simulator: r.simulator, f1: r.f1, pointCloudError: r.pointCloudError })) });
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    emit({ phase: /cancel/i.test(message) ? 'cancelled' : 'failed', message, removed: false });
  }
}

/** The newest job of the open project (the experiment's current step, to cancel from the card). */
function latestJob(ctx: ServiceContext): number | undefined {
  const jobs = ctx.session?.store.jobs.list() ?? [];
  return jobs.reduce<number | undefined>((m, j) => (m === undefined || j.id > m ? j.id : m), undefined);
}

async function removeCreated(ctx: ServiceContext, path: string | null): Promise<boolean> {
  if (path === null || ctx.session?.path !== path) return false;
  await ctx.session.close();
  ctx.session = null;
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
  ctx.recent.forget(path);
  ctx.events.emit({ type: 'project', entity: 'project' });
  return true;
}
