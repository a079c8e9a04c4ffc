/**
 * The labels of the log open on the Label page (docs/labeling.md): the cloud with its per-point
 * classes and objects as labels.cloud returns them, the project's class list, the saved versions,
 * the edit history (components/labels/label-edits.ts) and saving: 3 s after the last edit, on
 * leaving the page and on demand, each save a new version on top of the one the edits started
 * from. When another version was saved meanwhile the host refuses (a conflict) and the page asks
 * whether to save over it or load it.
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type { LabelClass, LabelCloud, LabelVersionInfo } from '../../src-main/api/contract';
import { api } from '../api';
import { LabelEdits, type ObjectMeta } from '../components/labels/label-edits';
import { fitObjectBoxes, metaFromEntries, toEntry, withMeta } from '../components/labels/object-boxes';

export const AUTOSAVE_MS = 3000;

export const useLabelsStore = defineStore('labels', () => {
  const logId = ref<number | null>(null);
  const cloud = shallowRef<LabelCloud | null>(null);
  const classes = ref<LabelClass[]>([]);
  const versions = ref<LabelVersionInfo[]>([]);
  const edits = shallowRef<LabelEdits | null>(null);
  /** Bumped on every edit, undo and redo. */
  const revision = ref(0);
  const savedRevision = ref(0);
  /** The version new saves go on top of (null: none saved yet). */
  const baseVersion = ref<number | null>(null);
  /** The version the labels in memory are, until edited (null: none saved; the log's own classes). */
  const version = ref<number | null>(null);
  const loading = ref(false);
  const loadError = ref('');
  const saving = ref(false);
  const saveError = ref('');
  /** The host's message when a newer version was saved meanwhile. */
  const conflict = ref<string | null>(null);
  const lastSaved = ref<LabelVersionInfo | null>(null);
  const dirty = computed(() => revision.value !== savedRevision.value);
  let timer: ReturnType<typeof setTimeout> | null = null;

  const newest = () => versions.value.reduce<number | null>((m, v) => (m === null || v.version > m ? v.version : m), null);
  const className = (id: number) => classes.value.find((c) => c.id === id)?.name ?? (id === 0 ? 'unlabelled' : `class ${id}`);

  async function refreshVersions(): Promise<void> {
    if (logId.value !== null) versions.value = await api.call('labels.versions', { logId: logId.value });
  }

  /** Load a log's labels: the newest version, or version `at` (whose edits then save on top of the newest). */
  async function load(id: number, at?: number): Promise<void> {
    cancelTimer();
    logId.value = id;
    loading.value = true;
    loadError.value = '';
    conflict.value = null;
    try {
      const [c, cls, vs] = await Promise.all([
        api.call('labels.cloud', at === undefined ? { logId: id } : { logId: id, version: at }),
        api.call('labels.classes', {}),
        api.call('labels.versions', { logId: id }),
      ]);
      if (logId.value !== id) return;
      classes.value = cls;
      versions.value = vs;
      cloud.value = c;
      // Patch flags and boxes set by hand come back from the version's entries.
      edits.value = new LabelEdits(c.classes, c.instances, undefined, metaFromEntries(c.entries));
      baseVersion.value = newest() ?? c.version;
      version.value = c.version;
      revision.value = savedRevision.value = 0;
    } catch (e) {
      loadError.value = (e as Error).message;
      cloud.value = null;
      edits.value = null;
    } finally {
      loading.value = false;
    }
  }

  function changed(): void {
    revision.value = edits.value?.revision ?? revision.value + 1;
    saveError.value = '';
    cancelTimer();
    timer = setTimeout(() => void save(), AUTOSAVE_MS);
  }

  function apply(title: string, indices: Uint32Array, cls: number | null, instance: number | ((old: number, j: number) => number) | null, meta?: ReadonlyMap<number, ObjectMeta | undefined>): boolean {
    const e = edits.value?.apply(title, indices, cls, instance, meta) ?? null;
    if (e) changed();
    return e !== null;
  }

  function undo(): boolean {
    const e = edits.value?.undo() ?? null;
    if (e) changed();
    return e !== null;
  }

  function redo(): boolean {
    const e = edits.value?.redo() ?? null;
    if (e) changed();
    return e !== null;
  }

  function goTo(doneCount: number): void {
    if (!edits.value) return;
    const before = edits.value.revision;
    edits.value.goTo(doneCount);
    if (edits.value.revision !== before) changed();
  }

  function cancelTimer(): void {
    if (timer) clearTimeout(timer);
    timer = null;
  }

  /** The objects with their boxes: fitted from their points, or as set by hand; patches flagged. */
  function objectBoxes() {
    const c = cloud.value;
    if (!c) return [];
    return withMeta(fitObjectBoxes(c.positions, c.origin, c.classes, c.instances), edits.value?.objects ?? new Map());
  }

  /** The objects as annotation entries. */
  function entries() {
    return objectBoxes().map((b) => toEntry(b, className(b.class)));
  }

  /** Save the edits as a new version; `over` saves on top of the newest version whatever the edits started from. */
  async function save(over = false): Promise<LabelVersionInfo | null> {
    cancelTimer();
    const c = cloud.value;
    const id = logId.value;
    if (!c || id === null || saving.value) return null;
    saving.value = true;
    saveError.value = '';
    const rev = revision.value;
    try {
      if (over) {
        await refreshVersions();
        baseVersion.value = newest();
      }
      const info = await api.call('labels.save', { logId: id, baseVersion: baseVersion.value, classes: c.classes.slice(), instances: c.instances.slice(), entries: entries() as unknown as Record<string, unknown>[], author: '', note: '' });
      if (logId.value !== id) return info;
      savedRevision.value = rev;
      baseVersion.value = info.version;
      version.value = info.version;
      lastSaved.value = info;
      conflict.value = null;
      await refreshVersions();
      return info;
    } catch (e) {
      if ((e as { code?: string }).code === 'conflict') conflict.value = (e as Error).message;
      else saveError.value = (e as Error).message;
      return null;
    } finally {
      saving.value = false;
      // Edits made while saving wait for the next save.
      if (dirty.value && !conflict.value && !saveError.value && !timer) timer = setTimeout(() => void save(), AUTOSAVE_MS);
    }
  }

  /** Save now if anything is unsaved (leaving the page, before export or a proposal). */
  async function flush(): Promise<boolean> {
    cancelTimer();
    while (saving.value) await new Promise((r) => setTimeout(r, 50));
    if (!dirty.value) return true;
    return (await save()) !== null;
  }

  function close(): void {
    cancelTimer();
    logId.value = null;
    cloud.value = null;
    edits.value = null;
  }

  return {
    logId, cloud, classes, versions, edits, revision, baseVersion, version, loading, loadError, saving, saveError, conflict, lastSaved, dirty,
    className, load, refreshVersions, apply, objectBoxes, undo, redo, goTo, save, flush, close,
  };
});
