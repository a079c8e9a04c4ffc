/**
 * Evaluations of the open project: the list (refreshed on `project` events for evaluations, runs
 * and logs — deleting either deletes its evaluations — and when an 'evaluate' job is done),
 * starting one (a host job), loading one with its per-packet series, deleting one. Keeps itself
 * in step with the host from the first use (live-sync.ts covers the stores every page needs).
 */
import { defineStore } from 'pinia';
import type { EvaluationData, EvaluationInfo, EvaluationParams, JobInfo } from '../../src-main/api/contract';
import { api } from '../api';
import { useAppStore } from './app';
import { useEntityList } from './entity-list';
import { startJob } from './start-job';

/** Deleting a run or a log deletes its evaluations. */
const TOUCHING = new Set(['evaluations', 'runs', 'driveLogs', 'project']);

export const useEvaluationsStore = defineStore('evaluations', () => {
  const evaluations = useEntityList<EvaluationInfo>({
    list: () => api.call('evaluations.list', {}),
    listError: 'Cannot list evaluations',
    remove: (id) => api.call('evaluations.delete', { id }),
    removeError: () => 'Cannot delete the evaluation',
  });

  /** Subscribe to host events and project changes once; later calls only refresh. */
  const sync = (): void =>
    evaluations.follow((e) => (e.type === 'job' ? e.job.kind === 'evaluate' && e.job.state === 'done' : e.type === 'project' && TOUCHING.has(e.entity)), { project: true });

  const start = (realLogId: number, runId: number, params: EvaluationParams = {}): Promise<JobInfo | null> =>
    startJob(() => api.call('evaluate.start', { realLogId, runId, params }), 'Cannot start the evaluation');

  async function load(id: number): Promise<EvaluationData | null> {
    try {
      return await api.call('evaluations.get', { id });
    } catch (e) {
      if ((e as { code?: string }).code !== 'not_found') useAppStore().reportError('Cannot load the evaluation', e);
      return null;
    }
  }

  return { ...evaluations, sync, start, load };
});
