/** Drive logs of the open project. Imports start host jobs; the list refreshes on events. */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { DriveLogInfo, JobInfo } from '../../src-main/api/contract';
import { api } from '../api';
import { useAppStore } from './app';
import { useJobsStore } from './jobs';
import { defaultImportOptions, importBytesFields, importFileFields, type ImportOptionsValue } from '../components/logs/import-options';

export const useLogsStore = defineStore('logs', () => {
  const list = ref<DriveLogInfo[]>([]);
  const loading = ref(false);

  async function refresh(): Promise<void> {
    loading.value = true;
    try {
      list.value = await api.call('logs.list', {});
    } catch (e) {
      // No project open is a normal state, not an error worth an alert.
      if ((e as { code?: string }).code === 'no_project') list.value = [];
      else useAppStore().reportError('Cannot list drive logs', e);
    } finally {
      loading.value = false;
    }
  }

  function clear(): void {
    list.value = [];
  }

  async function started(run: () => Promise<{ job: JobInfo }>, title: string): Promise<JobInfo | null> {
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

  const importFile = (path: string, options: ImportOptionsValue = defaultImportOptions()) =>
    started(() => api.call('logs.importFile', { path, ...importFileFields(options) }), `Cannot import ${path}`);

  const importBytes = (name: string, bytes: Uint8Array<ArrayBuffer>, options: ImportOptionsValue = defaultImportOptions()) =>
    started(() => api.call('logs.importBytes', { name: name.slice(0, 255), bytes, ...importBytesFields(options) }), `Cannot import ${name}`);

  async function remove(id: number): Promise<boolean> {
    try {
      await api.call('logs.delete', { id });
      list.value = list.value.filter((l) => l.id !== id);
      return true;
    } catch (e) {
      useAppStore().reportError('Cannot delete the drive log', e);
      return false;
    }
  }

  return { list, loading, refresh, clear, importFile, importBytes, remove };
});
