/**
 * Simulation runs of the open project. Starting a simulation is a host job; the list refreshes
 * on `project` events (entity 'runs') and when a 'simulate' job is done (live-sync.ts).
 */
import { defineStore } from 'pinia';
import type { Request, RunInfo } from '../../src-main/api/contract';
import { api } from '../api';
import { useEntityList } from './entity-list';
import { startJob } from './start-job';

export const useRunsStore = defineStore('runs', () => {
  const runs = useEntityList<RunInfo>({
    list: () => api.call('runs.list', {}),
    listError: 'Cannot list simulation runs',
    remove: (id) => api.call('runs.delete', { id }),
    removeError: () => 'Cannot delete the simulation run',
  });

  const simulate = (req: Request<'simulate.start'>) => startJob(() => api.call('simulate.start', req), 'Cannot start the simulation');

  return { ...runs, simulate };
});
