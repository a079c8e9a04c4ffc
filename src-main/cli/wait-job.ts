import type { AppServices } from '../services/app-services';
import { CliError } from './cli-error';
import type { ProgressReporter } from './progress';

/** Follow a job's progress on stderr until it settles; its result, or a CliError with its error. */
export async function waitForJob(services: AppServices, id: number, progress: ProgressReporter): Promise<Record<string, unknown>> {
  const off = services.onEvent((e) => {
    if (e.type === 'job' && e.job.id === id) progress.job(e.job);
  });
  try {
    const final = await services.whenJobSettled(id);
    if (final.state !== 'done') throw new CliError(final.error ?? `job ${id} ${final.state}`);
    return final.result ?? {};
  } finally {
    off();
  }
}
