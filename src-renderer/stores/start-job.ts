/** Start a host job: it shows in the jobs panel at once; a failure shows in the app's error alert. */
import type { JobInfo } from '../../src-main/api/contract';
import { useAppStore } from './app';
import { useJobsStore } from './jobs';

export async function startJob(run: () => Promise<{ job: JobInfo }>, title: string): Promise<JobInfo | null> {
  const app = useAppStore();
  try {
    const { job } = await run();
    useJobsStore().upsert(job);
    app.clearError();
    return job;
  } catch (e) {
    app.reportError(title, e);
    return null;
  }
}
