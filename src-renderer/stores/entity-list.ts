/**
 * The state every entity list of the open project shares, for use inside a Pinia setup store: the
 * list, loading/loaded flags, a selected id and `byId`; `refresh` (no open project empties the list
 * instead of raising an alert; a selection that left the list is dropped), `clear`, `remove` (the
 * host deletes, then the entity leaves the list and the selection) and `follow` (reload soon on the
 * host events that touch the list, subscribed once).
 *
 *   export const useRunsStore = defineStore('runs', () => {
 *     const runs = useEntityList<RunInfo>({
 *       list: () => api.call('runs.list', {}), listError: 'Cannot list simulation runs',
 *       remove: (id) => api.call('runs.delete', { id }), removeError: () => 'Cannot delete the simulation run',
 *     });
 *     return { ...runs, simulate };
 *   });
 */
import { computed, ref, watch } from 'vue';
import type { Ref } from 'vue';
import type { ApiEvent } from '../../src-main/api/contract';
import { api } from '../api';
import { useAppStore } from './app';
import { useProjectStore } from './project';
import { debounced } from './debounced';

export interface EntityListOptions<T, K> {
  list: () => Promise<T[]>;
  /** The alert's title when listing fails. */
  listError: string;
  remove?: (id: K) => Promise<unknown>;
  removeError?: (id: K) => string;
  /** After each successful listing (inside its try: a rejection is reported like a listing error). */
  onRefreshed?: (list: T[]) => void | Promise<void>;
  /** Whenever the list is emptied (cleared, or no project open). */
  onEmptied?: () => void;
  /** How long `refreshSoon` waits to coalesce events. */
  debounceMs?: number;
}

const isNoProject = (e: unknown) => (e as { code?: string }).code === 'no_project';

export function useEntityList<T extends { id: K }, K = number>(opts: EntityListOptions<T, K>) {
  const list = ref([]) as Ref<T[]>;
  const loading = ref(false);
  const loaded = ref(false);
  const selectedId = ref(null) as Ref<K | null>;
  const byId = computed(() => new Map(list.value.map((x) => [x.id, x])));

  function clear(): void {
    list.value = [];
    selectedId.value = null;
    opts.onEmptied?.();
  }

  async function refresh(): Promise<void> {
    loading.value = true;
    try {
      list.value = await opts.list();
      loaded.value = true;
      if (selectedId.value !== null && !byId.value.has(selectedId.value)) selectedId.value = null;
      await opts.onRefreshed?.(list.value);
    } catch (e) {
      if (isNoProject(e)) clear();
      else useAppStore().reportError(opts.listError, e);
    } finally {
      loading.value = false;
    }
  }
  const refreshSoon = debounced(() => void refresh(), opts.debounceMs);

  /** Drop entities the host has deleted from the list and the selection. */
  function forget(ids: readonly K[]): void {
    const gone = new Set(ids);
    list.value = list.value.filter((x) => !gone.has(x.id));
    if (selectedId.value !== null && gone.has(selectedId.value)) selectedId.value = null;
  }

  async function remove(id: K): Promise<boolean> {
    try {
      await opts.remove!(id);
      forget([id]);
      return true;
    } catch (e) {
      useAppStore().reportError(opts.removeError?.(id) ?? `Cannot delete ${String(id)}`, e);
      return false;
    }
  }

  let following = false;
  /**
   * Reload now, and soon after every host event `touches` accepts (subscribed on the first call).
   * With `project`, a project change also reloads (or, closed, empties) the list.
   */
  function follow(touches: (e: ApiEvent) => boolean, { project = false } = {}): void {
    void refresh();
    if (following) return;
    following = true;
    api.onEvent((e) => {
      if (touches(e)) refreshSoon();
    });
    if (!project) return;
    const projects = useProjectStore();
    watch(
      () => projects.current?.path ?? null,
      (path) => (path ? refreshSoon() : clear()),
    );
  }

  return { list, loading, loaded, selectedId, byId, refresh, refreshSoon, clear, forget, remove, follow };
}
