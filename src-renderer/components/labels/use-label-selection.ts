/**
 * The Label page's point selection: one byte per point of the whole log, changed by the tools
 * (src-common/label-selection.ts) with a mode (replace, add, subtract), limited to the points in view (one
 * sweep's in the per-sweep view) and, with the height filter on, to points at least `minHeight`
 * above the ground. `count` and `ms` (the last selection's time) are live for the toolbar.
 */
import { ref, shallowRef } from 'vue';
import type { LabelCloud } from '../../../src-main/api/contract';
import type { BoxValues } from './label-edits';
import { boxSelect } from './object-split';
import { combineSelection, heightMask, instanceMask, pickPoint, projectOntoMask, rasterize, type ScreenView, type SelectMode, type SelectShape } from '../../../src-common/label-selection';

export function useLabelSelection(range: () => readonly [number, number], hidden: () => ReadonlySet<number> = () => new Set()) {
  const mask = shallowRef<Uint8Array>(new Uint8Array(0));
  const count = ref(0);
  const ms = ref(0);
  /** Bumped on every change (views recolour on it). */
  const revision = ref(0);
  const heightFilter = ref(false);
  const minHeight = ref(0.2);
  let cloud: LabelCloud | null = null;
  let hits = new Uint8Array(0);
  let allowCache: { h: number; m: Uint8Array } | null = null;

  function reset(c: LabelCloud | null): void {
    cloud = c;
    const n = c?.points ?? 0;
    mask.value = new Uint8Array(n);
    hits = new Uint8Array(n);
    allowCache = null;
    count.value = 0;
    revision.value++;
  }

  /** Points the tools may take: above the height when the filter is on, and of a shown class. */
  function allow(): Uint8Array | undefined {
    if (!cloud) return undefined;
    const hide = hidden();
    let m: Uint8Array | undefined;
    if (heightFilter.value) {
      if (!allowCache || allowCache.h !== minHeight.value) allowCache = { h: minHeight.value, m: heightMask(cloud.heightAboveGround, minHeight.value) };
      m = allowCache.m;
    }
    if (hide.size === 0) return m;
    const out = m ? m.slice() : new Uint8Array(cloud.points).fill(1);
    for (let i = 0; i < out.length; i++) if (hide.has(cloud.classes[i]!)) out[i] = 0;
    return out;
  }

  function commit(mode: SelectMode, t0: number): void {
    count.value = combineSelection(mask.value, hits, mode);
    ms.value = performance.now() - t0;
    revision.value++;
  }

  /** Select the points whose projection falls in a screen shape. */
  function applyShape(shape: SelectShape, view: ScreenView, mode: SelectMode): void {
    if (!cloud) return;
    const t0 = performance.now();
    hits.fill(0);
    projectOntoMask(cloud.positions, view, rasterize(shape, view.width, view.height), hits, range(), allow());
    commit(mode, t0);
  }

  /** Select the object (instance) of the point under the cursor; false when there is none there or it is in no object. */
  function selectSegmentAt(x: number, y: number, view: ScreenView, mode: SelectMode): boolean {
    if (!cloud) return false;
    const t0 = performance.now();
    const i = pickPoint(cloud.positions, view, x, y, 8, range());
    const id = i < 0 ? 0 : cloud.instances[i]!;
    if (id === 0) return false;
    instanceMask(cloud.instances, id, range(), hits);
    commit(mode, t0);
    return true;
  }

  /** Select given objects' points. */
  function selectObjects(ids: ReadonlySet<number>, mode: SelectMode): void {
    if (!cloud) return;
    const t0 = performance.now();
    hits.fill(0);
    const [a, b] = range();
    for (let i = a; i < b; i++) if (ids.has(cloud.instances[i]!)) hits[i] = 1;
    commit(mode, t0);
  }

  /** The points inside an oriented 3D box (world frame), of those in view and allowed. */
  function selectInBox(box: BoxValues, mode: SelectMode): void {
    if (!cloud) return;
    const t0 = performance.now();
    hits.fill(0);
    boxSelect(cloud.positions, cloud.origin, box, range(), hits, allow());
    commit(mode, t0);
  }

  /** Every point in view (passing the height filter when it is on). */
  function selectAll(mode: SelectMode = 'replace'): void {
    if (!cloud) return;
    const t0 = performance.now();
    const al = allow();
    hits.fill(0);
    const [a, b] = range();
    for (let i = a; i < b; i++) if (!al || al[i]) hits[i] = 1;
    commit(mode, t0);
  }

  function invert(): void {
    if (!cloud) return;
    const t0 = performance.now();
    const [a, b] = range();
    const al = allow();
    hits.fill(0);
    for (let i = a; i < b; i++) hits[i] = mask.value[i] || (al && !al[i]) ? 0 : 1;
    // Points outside the view keep their state.
    for (let i = 0; i < a; i++) hits[i] = mask.value[i]!;
    for (let i = b; i < hits.length; i++) hits[i] = mask.value[i]!;
    commit('replace', t0);
  }

  function clear(): void {
    if (count.value === 0) return;
    mask.value.fill(0);
    count.value = 0;
    revision.value++;
  }

  /** The selected points' indices. */
  function indices(): Uint32Array {
    const out = new Uint32Array(count.value);
    const m = mask.value;
    for (let i = 0, k = 0; i < m.length && k < out.length; i++) if (m[i]) out[k++] = i;
    return out;
  }

  return { mask, count, ms, revision, heightFilter, minHeight, reset, applyShape, selectSegmentAt, selectObjects, selectInBox, selectAll, invert, clear, indices };
}

export type LabelSelection = ReturnType<typeof useLabelSelection>;
