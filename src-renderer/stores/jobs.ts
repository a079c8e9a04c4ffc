/** Host jobs by id, kept live from `job` events; `jobs.list` fills it on load and project change. */
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { JobInfo } from '../../src-main/api/contract';
import { api } from '../api';
import { useAppStore } from './app';

export const ACTIVE_STATES: ReadonlySet<string> = new Set(['queued', 'running']);

export const useJobsStore = defineStore('jobs', () => {
  const byId = ref(new Map<number, JobInfo>());

  /** Newest first. */
  const list = computed(() => [...byId.value.values()].sort((a, b) => b.id - a.id));
  const activeCount = computed(() => list.value.filter((j) => ACTIVE_STATES.has(j.state)).length);

  function upsert(job: JobInfo): void {
    byId.value.set(job.id, job);
  }

  async function refresh(): Promise<void> {
    try {
      const jobs = await api.call('jobs.list', { limit: 100 });
      byId.value = new Map(jobs.map((j) => [j.id, j]));
    } catch (e) {
      if ((e as { code?: string }).code === 'no_project') byId.value = new Map();
      else useAppStore().reportError('Cannot list jobs', e);
    }
  }

  async function cancel(id: number): Promise<void> {
    try {
      upsert(await api.call('jobs.cancel', { id }));
    } catch (e) {
      useAppStore().reportError(`Cannot cancel job ${id}`, e);
    }
  }

  /** Removes the failed jobs' records (host and list). */
  async function clearFailed(): Promise<void> {
    try {
      const { cleared } = await api.call('jobs.clear', { states: ['failed'] });
      for (const id of cleared) byId.value.delete(id);
    } catch (e) {
      useAppStore().reportError('Cannot clear the failed jobs', e);
    }
  }

  return { byId, list, activeCount, upsert, refresh, cancel, clearFailed };
});
