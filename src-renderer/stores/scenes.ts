/**
 * Scenes of the open project. Generating one starts a host job; the list refreshes on
 * `project` events (entity 'scenes') and when a 'generate-scene' job is done (live-sync.ts).
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { JobInfo, Request, SceneInfo } from '../../src-main/api/contract';
import { api } from '../api';
import { useAppStore } from './app';
import { useJobsStore } from './jobs';

/** Start a host job: it shows in the jobs panel at once; a failure shows in the app's error alert. */
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

export const useScenesStore = defineStore('scenes', () => {
  const list = ref<SceneInfo[]>([]);
  const loading = ref(false);
  /** The scene the Simulate form uses (chosen by clicking a row). */
  const selectedId = ref<number | null>(null);

  async function refresh(): Promise<void> {
    loading.value = true;
    try {
      list.value = await api.call('scenes.list', {});
      if (selectedId.value !== null && !list.value.some((s) => s.id === selectedId.value)) selectedId.value = null;
    } catch (e) {
      if ((e as { code?: string }).code === 'no_project') list.value = [];
      else useAppStore().reportError('Cannot list scenes', e);
    } finally {
      loading.value = false;
    }
  }

  function clear(): void {
    list.value = [];
    selectedId.value = null;
  }

  const generate = (req: Request<'scenes.generate'>) => startJob(() => api.call('scenes.generate', req), 'Cannot generate the scene');

  async function remove(id: number): Promise<boolean> {
    try {
      await api.call('scenes.delete', { id });
      list.value = list.value.filter((s) => s.id !== id);
      if (selectedId.value === id) selectedId.value = null;
      return true;
    } catch (e) {
      useAppStore().reportError('Cannot delete the scene', e);
      return false;
    }
  }

  return { list, loading, selectedId, refresh, clear, generate, remove };
});
