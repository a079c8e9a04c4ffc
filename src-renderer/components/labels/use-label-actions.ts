/**
 * The Label page's edits of the selection, each one step of the undo history (stores/labels.ts):
 * assign the picked class, unlabel (class 0, no object), make a new object (the next free id),
 * and merge objects — those checked in the list, or else those the selection touches — into the
 * lowest id. `notice` says why an edit could not be made.
 */
import type { Ref } from 'vue';
import { useLabelsStore } from '../../stores/labels';
import { formatCount } from '../../format';
import { nextInstanceId } from './label-edits';
import type { LabelSelection } from './use-label-selection';

export function useLabelActions(sel: LabelSelection, picked: Ref<number>, checked: Ref<number[]>, notice: Ref<string>) {
  const store = useLabelsStore();

  function assign(cls = picked.value): void {
    const idx = sel.indices();
    if (idx.length) store.apply(`${store.className(cls)} → ${formatCount(idx.length)} points`, idx, cls, null);
  }

  function unlabel(): void {
    const idx = sel.indices();
    if (idx.length) store.apply(`Unlabel ${formatCount(idx.length)} points`, idx, 0, 0);
  }

  function newObject(): void {
    const c = store.cloud;
    const idx = sel.indices();
    if (!c || !idx.length) return;
    const id = nextInstanceId(c.instances);
    store.apply(`New object #${id} (${formatCount(idx.length)} points)`, idx, null, id);
  }

  function merge(): void {
    const c = store.cloud;
    if (!c) return;
    let ids = new Set(checked.value);
    if (ids.size < 2) {
      ids = new Set();
      const m = sel.mask.value;
      for (let i = 0; i < m.length; i++) if (m[i] && c.instances[i]) ids.add(c.instances[i]!);
    }
    if (ids.size < 2) {
      notice.value = 'Merge needs two objects or more: check them in the list, or select points of each.';
      return;
    }
    let into = Infinity;
    for (const id of ids) into = Math.min(into, id);
    const pts: number[] = [];
    for (let i = 0; i < c.instances.length; i++) if (c.instances[i] !== into && ids.has(c.instances[i]!)) pts.push(i);
    store.apply(`Merge ${ids.size} objects into #${into}`, Uint32Array.from(pts), null, into);
    checked.value = [into];
    notice.value = '';
  }

  return { assign, unlabel, newObject, merge };
}
