/**
 * Sensor profiles: built-ins (always) and the open project's custom ones. Keeps itself in step
 * with the host: a `sensorProfiles` or `project` event reloads the list.
 */
import { defineStore } from 'pinia';
import type { ProfileSummary } from '../../src-main/api/contract';
import type { ProfileFile, SensorProfile } from '../../src-common/sensor-profile';
import { api } from '../api';
import { useAppStore } from './app';
import { useEntityList } from './entity-list';

export const useProfilesStore = defineStore('profiles', () => {
  const profiles = useEntityList<ProfileSummary, string>({
    list: () => api.call('profiles.list', {}),
    listError: 'Cannot list sensor profiles',
    remove: (id) => api.call('profiles.delete', { id }),
    removeError: (id) => `Cannot delete the profile "${id}"`,
    debounceMs: 100,
  });
  const { byId, refresh } = profiles;

  /** Start listening to host events (once) and load the list. */
  const start = (): void => profiles.follow((e) => e.type === 'project' && (e.entity === 'sensorProfiles' || e.entity === 'project'));

  const getFile = (id: string): Promise<ProfileFile> => api.call('profiles.getFile', { id });

  /** Save (insert or replace a custom profile); throws the host's error so the editor can show it in place. */
  async function save(profile: ProfileFile): Promise<SensorProfile> {
    const saved = await api.call('profiles.save', { profile: profile as unknown as Record<string, unknown> });
    await refresh();
    return saved;
  }

  /** Import a calibration file on the host; `model` states the sensor model instead of detecting it. */
  async function importFile(path: string, model?: string | null): Promise<SensorProfile | null> {
    const app = useAppStore();
    try {
      const p = await api.call('profiles.import', { path, ...(model ? { model } : {}) });
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
  async function duplicate(id: string): Promise<SensorProfile | null> {
    const app = useAppStore();
    try {
      const file = await getFile(id);
      const copy: ProfileFile = { ...file, id: freeId(id), name: `${file.name} (copy)`.slice(0, 200), description: file.description };
      const saved = await save(copy);
      app.clearError();
      return saved;
    } catch (e) {
      app.reportError(`Cannot duplicate "${id}"`, e);
      return null;
    }
  }

  return { ...profiles, start, getFile, save, importFile, duplicate };
});
