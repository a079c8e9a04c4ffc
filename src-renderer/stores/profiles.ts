/**
 * Sensor profiles: built-ins (always) and the open project's custom ones. Keeps itself in step
 * with the host: a `sensorProfiles` or `project` event reloads the list.
 */
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { ProfileFileData, ProfileSummary, SensorProfileData } from '../../src-main/api/contract';
import { api } from '../api';
import { useAppStore } from './app';

export const useProfilesStore = defineStore('profiles', () => {
  const list = ref<ProfileSummary[]>([]);
  const loading = ref(false);
  const loaded = ref(false);
  let subscribed = false;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const byId = computed(() => new Map(list.value.map((p) => [p.id, p])));

  async function refresh(): Promise<void> {
    loading.value = true;
    try {
      list.value = await api.call('profiles.list', {});
      loaded.value = true;
    } catch (e) {
      useAppStore().reportError('Cannot list sensor profiles', e);
    } finally {
      loading.value = false;
    }
  }

  /** Start listening to host events (once) and load the list. */
  function start(): void {
    if (!subscribed) {
      subscribed = true;
      api.onEvent((e) => {
        if (e.type !== 'project' || (e.entity !== 'sensorProfiles' && e.entity !== 'project')) return;
        if (timer) return;
        timer = setTimeout(() => {
          timer = null;
          void refresh();
        }, 100);
      });
    }
    void refresh();
  }

  const getFile = (id: string): Promise<ProfileFileData> => api.call('profiles.getFile', { id });

  /** Save (insert or replace a custom profile); throws the host's error so the editor can show it in place. */
  async function save(profile: ProfileFileData): Promise<SensorProfileData> {
    const saved = await api.call('profiles.save', { profile: profile as unknown as Record<string, unknown> });
    await refresh();
    return saved;
  }

  async function remove(id: string): Promise<boolean> {
    try {
      await api.call('profiles.delete', { id });
      list.value = list.value.filter((p) => p.id !== id);
      return true;
    } catch (e) {
      useAppStore().reportError(`Cannot delete the profile "${id}"`, e);
      return false;
    }
  }

  async function importFile(path: string): Promise<SensorProfileData | null> {
    const app = useAppStore();
    try {
      const p = await api.call('profiles.import', { path });
      app.clearError();
      await refresh();
      return p;
    } catch (e) {
      app.reportError(`Cannot import ${path}`, e);
      return null;
    }
  }

  /** An id not yet taken: "vlp16-copy", "vlp16-copy-2", … */
  function freeId(base: string): string {
    const stem = `${base}-copy`.slice(0, 58).replace(/-+$/, '');
    if (!byId.value.has(stem)) return stem;
    for (let i = 2; ; i++) if (!byId.value.has(`${stem}-${i}`)) return `${stem}-${i}`;
  }

  /** A custom copy of any profile (e.g. a built-in), saved in the open project. */
  async function duplicate(id: string): Promise<SensorProfileData | null> {
    const app = useAppStore();
    try {
      const file = await getFile(id);
      const copy: ProfileFileData = { ...file, id: freeId(id), name: `${file.name} (copy)`.slice(0, 200), description: file.description };
      const saved = await save(copy);
      app.clearError();
      return saved;
    } catch (e) {
      app.reportError(`Cannot duplicate "${id}"`, e);
      return null;
    }
  }

  return { list, loading, loaded, byId, refresh, start, getFile, save, remove, importFile, duplicate };
});
