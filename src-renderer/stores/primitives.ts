/**
 * The primitive library of the open project (docs/methods.md §3): the list, the primitive shown in the
 * preview (its elements fetched on demand, the last few kept), deleting, extracting from a fitted
 * model (a job) and generating the mesh baseline (synchronous). Also the fitted models and
 * annotations the Extract and Generate forms pick from.
 *
 * Keeps itself in step with the host from the first use (live-sync.ts covers the stores every
 * page needs): `primitives`, `models`, `annotations` and `project` events, and a finished
 * 'extract-primitives' job, reload what they touch.
 */
import { defineStore } from 'pinia';
import { ref, watch } from 'vue';
import type { AnnotationInfo, JobInfo, ModelInfo, PrimitiveData, PrimitiveInfo, Request } from '../../src-main/api/contract';
import { api } from '../api';
import { useAppStore } from './app';
import { useProjectStore } from './project';
import { useEntityList } from './entity-list';
import { debounced } from './debounced';
import { startJob } from './start-job';

/** Primitives with elements kept in memory (the preview flips between a few). */
const DATA_CACHE = 6;

const noProject = (e: unknown) => (e as { code?: string }).code === 'no_project';

export const usePrimitivesStore = defineStore('primitives', () => {
  const cache = new Map<number, Promise<PrimitiveData | null>>();
  // `selectedId` is the primitive the preview shows.
  const primitives = useEntityList<PrimitiveInfo>({
    list: () => api.call('primitives.list', {}),
    listError: 'Cannot list primitives',
    onRefreshed: (list) => {
      const ids = new Set(list.map((p) => p.id));
      for (const id of [...cache.keys()]) if (!ids.has(id)) cache.delete(id);
    },
  });
  const { list, selectedId, refresh } = primitives;
  const models = ref<ModelInfo[]>([]);
  const annotations = ref<AnnotationInfo[]>([]);
  let synced = false;

  /** Fitted models and annotations (what the forms offer). */
  async function refreshSources(): Promise<void> {
    try {
      [models.value, annotations.value] = await Promise.all([api.call('models.list', {}), api.call('annotations.list', {})]);
    } catch (e) {
      if (noProject(e)) {
        models.value = [];
        annotations.value = [];
      } else useAppStore().reportError('Cannot list models and annotations', e);
    }
  }

  /** Subscribe to host events and project changes once; later calls only refresh. */
  function sync(): void {
    void refresh();
    void refreshSources();
    if (synced) return;
    synced = true;
    const soonList = primitives.refreshSoon;
    const soonSources = debounced(() => void refreshSources());
    api.onEvent((event) => {
      if (event.type === 'job') {
        if (event.job.state === 'done' && event.job.kind === 'extract-primitives') soonList();
        if (event.job.state === 'done' && /fit/.test(event.job.kind)) soonSources();
      } else if (event.type !== 'project') return;
      else if (event.entity === 'primitives') soonList();
      else if (event.entity === 'models' || event.entity === 'annotations' || event.entity === 'driveLogs') soonSources();
      else if (event.entity === 'project') {
        soonList();
        soonSources();
      }
    });
    const project = useProjectStore();
    watch(
      () => project.current?.path ?? null,
      (path) => {
        cache.clear();
        selectedId.value = null;
        if (path) {
          soonList();
          soonSources();
        } else {
          list.value = [];
          models.value = [];
          annotations.value = [];
        }
      },
    );
  }

  /** A primitive with its elements (cached); null when it is gone. */
  function load(id: number): Promise<PrimitiveData | null> {
    let p = cache.get(id);
    if (!p) {
      p = api.call('primitives.get', { id }).catch((e: unknown) => {
        cache.delete(id);
        if ((e as { code?: string }).code !== 'not_found') useAppStore().reportError(`Cannot read primitive ${id}`, e);
        return null;
      });
      cache.set(id, p);
      while (cache.size > DATA_CACHE) cache.delete(cache.keys().next().value!);
    }
    return p;
  }

  async function remove(ids: number[]): Promise<number> {
    if (!ids.length) return 0;
    try {
      const { deleted } = await api.call('primitives.delete', { ids });
      primitives.forget(ids);
      for (const id of ids) cache.delete(id);
      return deleted;
    } catch (e) {
      useAppStore().reportError('Cannot delete the primitives', e);
      return 0;
    }
  }

  const extract = (req: Request<'primitives.extract'>): Promise<JobInfo | null> =>
    startJob(() => api.call('primitives.extract', req), 'Cannot extract primitives');

  async function generateMesh(req: Request<'primitives.generateMesh'>): Promise<PrimitiveInfo[] | null> {
    try {
      const { primitives } = await api.call('primitives.generateMesh', req);
      useAppStore().clearError();
      void refresh();
      return primitives;
    } catch (e) {
      useAppStore().reportError('Cannot generate the mesh library', e);
      return null;
    }
  }

  return { ...primitives, models, annotations, refreshSources, sync, load, remove, extract, generateMesh };
});
