/**
 * Evaluations of the open project: the list (refreshed on `project` events for evaluations, runs
 * and logs — deleting either deletes its evaluations — and when an 'evaluate' job is done),
 * starting one (a host job), loading one with its per-packet series, deleting one. Keeps itself
 * in step with the host from the first use (live-sync.ts covers the stores every page needs).
 */
import { defineStore } from 'pinia';
import { ref, watch } from 'vue';
import type { EvaluationData, EvaluationInfo, EvaluationParams, JobInfo } from '../../src-main/api/contract';
import { api } from '../api';
import { useAppStore } from './app';
import { useProjectStore } from './project';
import { startJob } from './scenes';

export const useEvaluationsStore = defineStore('evaluations', () => {
  const list = ref<EvaluationInfo[]>([]);
  const loading = ref(false);
  let synced = false;

  async function refresh(): Promise<void> {
    loading.value = true;
    try {
      list.value = await api.call('evaluations.list', {});
    } catch (e) {
      if ((e as { code?: string }).code === 'no_project') list.value = [];
      else useAppStore().reportError('Cannot list evaluations', e);
    } finally {
      loading.value = false;
    }
  }

  /** Subscribe to host events and project changes once; later calls only refresh. */
  function sync(): void {
    void refresh();
    if (synced) return;
    synced = true;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const soon = () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = null;
        void refresh();
      }, 120);
    };
    api.onEvent((event) => {
      if (event.type === 'job') {
        if (event.job.kind === 'evaluate' && event.job.state === 'done') soon();
      } else if (event.entity === 'evaluations' || event.entity === 'runs' || event.entity === 'driveLogs' || event.entity === 'project') {
        soon();
      }
    });
    const project = useProjectStore();
    watch(
      () => project.current?.path ?? null,
      (path) => {
        if (path) soon();
        else list.value = [];
      },
    );
  }

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

  async function remove(id: number): Promise<boolean> {
    try {
      await api.call('evaluations.delete', { id });
      list.value = list.value.filter((e) => e.id !== id);
      return true;
    } catch (e) {
      useAppStore().reportError('Cannot delete the evaluation', e);
      return false;
    }
  }

  return { list, loading, refresh, sync, start, load, remove };
});
