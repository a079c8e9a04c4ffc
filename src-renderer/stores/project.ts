/** The open project and the recent-projects list. */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { ProjectInfo, RecentProject } from '../../src-main/api/contract';
import { api } from '../api';
import { useAppStore } from './app';

export const useProjectStore = defineStore('project', () => {
  const current = ref<ProjectInfo | null>(null);
  const recent = ref<RecentProject[]>([]);
  const busy = ref(false);
  const loaded = ref(false);

  async function refresh(): Promise<void> {
    try {
      const [cur, rec] = await Promise.all([api.call('project.current', {}), api.call('project.recent', {})]);
      current.value = cur;
      recent.value = rec;
      loaded.value = true;
    } catch (e) {
      useAppStore().reportError('Cannot load the project state', e);
    }
  }

  /** Runs a project action; on success the app error is cleared and the recent list refreshed. */
  async function act(title: string, run: () => Promise<ProjectInfo | null>): Promise<boolean> {
    const app = useAppStore();
    busy.value = true;
    try {
      current.value = await run();
      app.clearError();
      recent.value = await api.call('project.recent', {});
      return true;
    } catch (e) {
      app.reportError(title, e);
      return false;
    } finally {
      busy.value = false;
    }
  }

  const create = (path: string) => act('Cannot create the project', () => api.call('project.create', { path }));
  const open = (path: string) => act('Cannot open the project', () => api.call('project.open', { path }));
  const close = () =>
    act('Cannot close the project', async () => {
      await api.call('project.close', {});
      return null;
    });

  return { current, recent, busy, loaded, refresh, create, open, close };
});
