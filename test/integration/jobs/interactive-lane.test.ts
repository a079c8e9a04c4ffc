/**
 * The interactive lane: what a person waits on (a profile's beams, the format list) runs on its
 * own thread, so it answers while long jobs hold every thread of the job pool.
 */
import { describe, expect, it } from 'vitest';
import { INTERACTIVE_TASKS, poolFor } from '../../../src-main/jobs/lanes';
import { runTransient } from '../../../src-main/jobs/job-runner';
import { useAppServices } from '../../helpers/app-services';

describe('interactive lane', () => {
  const fixture = useAppServices({ workers: 1, prefix: 'thicket-lane-' });

  it('routes the page-facing tasks to the interactive pool and the rest to the job pool', () => {
    const { pools } = fixture.services;
    expect(poolFor(pools, 'profile-pattern')).toBe(pools.interactive);
    expect(poolFor(pools, 'display-cloud')).toBe(pools.interactive);
    expect(poolFor(pools, 'simulate-batch')).toBe(pools.jobs);
    expect(poolFor(pools, 'fit-model')).toBe(pools.jobs);
    expect(poolFor({ jobs: pools.jobs }, 'profile-pattern')).toBe(pools.jobs);
    expect(INTERACTIVE_TASKS.has('import-log')).toBe(false);
  });

  it('answers a beam pattern while a long task holds the only job thread', async () => {
    const services = fixture.services;
    let spinDone = false;
    // A busy loop on the job pool's only thread, long enough to outlast the request below.
    const spinning = runTransient(services.pools.jobs, 'spin', { steps: 400, work: 2_000_000 }).then(() => (spinDone = true));
    await new Promise((r) => setTimeout(r, 200));
    const pattern = await services.call('profiles.pattern', { id: 'vlp16', maxRays: 2000 });
    expect(pattern.totalRays).toBeGreaterThan(20_000);
    expect(spinDone).toBe(false);
    await spinning;
  }, 120_000);
});
