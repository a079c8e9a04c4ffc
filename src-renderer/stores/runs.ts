/**
 * Simulation runs of the open project. Starting a simulation is a host job; the list refreshes
 * on `project` events (entity 'runs') and when a 'simulate' job is done (live-sync.ts).
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { Request, RunInfo } from '../../src-main/api/contract';
import { api } from '../api';
import { useAppStore } from './app';
import { startJob } from './scenes';

export const useRunsStore = defineStore('runs', () => {
  const list = ref<RunInfo[]>([]);
  const loading = ref(false);

  async function refresh(): Promise<void> {
    loading.value = true;
    try {
      list.value = await api.call('runs.list', {});
    } catch (e) {
      if ((e as { code?: string }).code === 'no_project') list.value = [];
      else useAppStore().reportError('Cannot list simulation runs', e);
    } finally {
      loading.value = false;
    }
  }

  function clear(): void {
    list.value = [];
  }

  const simulate = (req: Request<'simulate.start'>) => startJob(() => api.call('simulate.start', req), 'Cannot start the simulation');

  async function remove(id: number): Promise<boolean> {
    try {
      await api.call('runs.delete', { id });
      list.value = list.value.filter((r) => r.id !== id);
      return true;
    } catch (e) {
      useAppStore().reportError('Cannot delete the simulation run', e);
      return false;
    }
  }

  return { list, loading, refresh, clear, simulate, remove };
});
