/**
 * The Label page's edits of the selection, each one step of the undo history (stores/labels.ts):
 * assign the picked class, unlabel (class 0, no object), make a new object (the next free id),
 * and merge objects — those checked in the list, or else those the selection touches — into the
 * lowest id; split an object by Euclidean clustering (clusters become new ids, the largest keeps
 * the old one) or at the middle of its box's long axis; group objects into a shrub patch and
 * ungroup it; set an object's box by hand or back to the fitted one. `notice` says why an edit
 * could not be made. A cut splits by the plane through the camera and a line drawn on the screen.
 */
import { ref, type Ref } from 'vue';
import { useLabelsStore } from '../../stores/labels';
import { formatCount } from '../../format';
import { nextInstanceId, type BoxValues, type ObjectMeta } from './label-edits';
import { euclideanClusters, halfAlongLength, objectIndices, sideOfScreenLine } from './object-split';
import type { Point2, ScreenView } from '../../../src-common/label-selection';
import type { LabelSelection } from './use-label-selection';

export function useLabelActions(sel: LabelSelection, picked: Ref<number>, checked: Ref<number[]>, notice: Ref<string>, tolerance: Ref<number> = ref(0.5)) {
  const store = useLabelsStore();

  /** The objects an edit acts on: those checked in the list (when at least `min`), or else those the selection touches. */
  function targets(min = 1): Set<number> {
    const c = store.cloud;
    if (checked.value.length >= min || !c) return new Set(checked.value);
    const ids = new Set<number>();
    const m = sel.mask.value;
    for (let i = 0; i < m.length; i++) if (m[i] && c.instances[i]) ids.add(c.instances[i]!);
    return ids;
  }

  /** The one object a split acts on, or null (with a notice) when there is not exactly one. */
  function one(what: string): number | null {
    const ids = targets();
    if (ids.size === 1) return [...ids][0]!;
    notice.value = `${what} needs one object: check it in the list, or select points of it.`;
    return null;
  }

  const metaOf = (id: number): ObjectMeta | undefined => store.edits?.objects.get(id);
  /** An object's attributes without a box set by hand (its points change, so it is fitted again). */
  const refit = (id: number): ObjectMeta | undefined => {
    const m = metaOf(id);
    return m?.patch ? { patch: true } : undefined;
  };

  function splitClusters(): void {
    const c = store.cloud;
    const id = c && one('Split');
    if (!c || id === null || id === undefined) return;
    const idx = objectIndices(c.instances, id);
    const { cluster, count } = euclideanClusters(c.positions, idx, tolerance.value);
    if (count < 2) {
      notice.value = `Object #${id} is one cluster at ${tolerance.value} m: lower the tolerance to split it.`;
      return;
    }
    const first = nextInstanceId(c.instances);
    const meta = new Map<number, ObjectMeta | undefined>([[id, refit(id)]]);
    for (let k = 1; k < count; k++) meta.set(first + k - 1, undefined);
    store.apply(`Split #${id} into ${count} clusters (${tolerance.value} m)`, idx, null, (o, j) => (cluster[j] ? first + cluster[j]! - 1 : o), meta);
    notice.value = `Object #${id} split into ${count}: #${id} and #${first}${count > 2 ? `–#${first + count - 2}` : ''}.`;
  }

  function splitHalf(): void {
    const c = store.cloud;
    const id = c && one('Split');
    if (!c || id === null || id === undefined) return;
    const box = store.objectBoxes().find((b) => b.id === id);
    if (!box) return;
    const idx = objectIndices(c.instances, id);
    const half = halfAlongLength(c.positions, c.origin, idx, box);
    const moved = half.reduce((s, v) => s + v, 0);
    if (moved === 0 || moved === idx.length) {
      notice.value = `Object #${id} has points on one side of its middle only.`;
      return;
    }
    const next = nextInstanceId(c.instances);
    store.apply(`Split #${id} at its middle into #${id} and #${next}`, idx, null, (o, j) => (half[j] ? next : o), new Map([[id, refit(id)], [next, undefined]]));
    notice.value = '';
  }

  /** Split an object by the plane through the camera and a line drawn on the screen: the part left of a → b becomes a new object. */
  function splitByLine(a: Point2, b: Point2, view: ScreenView): void {
    const c = store.cloud;
    const id = c && one('Cut');
    if (!c || id === null || id === undefined) return;
    const idx = objectIndices(c.instances, id);
    const side = sideOfScreenLine(c.positions, idx, view, a, b);
    const moved = side.reduce((s, v) => s + v, 0);
    if (moved === 0 || moved === idx.length) {
      notice.value = `The line does not cut object #${id}: drag it across the object.`;
      return;
    }
    const next = nextInstanceId(c.instances);
    store.apply(`Cut #${id} into #${id} and #${next}`, idx, null, (o, j) => (side[j] ? next : o), new Map([[id, refit(id)], [next, undefined]]));
    notice.value = '';
  }

  function group(): void {
    const c = store.cloud;
    if (!c) return;
    const ids = targets(2);
    if (ids.size < 2) {
      notice.value = 'A patch needs two objects or more: check them in the list, or select points of each.';
      return;
    }
    let into = Infinity;
    for (const id of ids) into = Math.min(into, id);
    const pts: number[] = [];
    for (let i = 0; i < c.instances.length; i++) if (ids.has(c.instances[i]!)) pts.push(i);
    const indices = Uint32Array.from(pts);
    const kept = [...ids].flatMap((id): [number, ObjectMeta][] => {
      const m = metaOf(id);
      return m ? [[id, m]] : [];
    });
    const parts = { indices, ids: Uint32Array.from(pts, (i) => c.instances[i]!), meta: kept };
    const meta = new Map<number, ObjectMeta | undefined>([...ids].map((id) => [id, undefined]));
    meta.set(into, { patch: true, parts });
    store.apply(`Patch #${into} of ${ids.size} objects`, indices, null, into, meta);
    checked.value = [into];
    notice.value = '';
  }

  /** Ungroup a patch: back to the objects grouped into it in this session, or else its Euclidean clusters. */
  function ungroup(): void {
    const c = store.cloud;
    const id = c && one('Ungroup');
    if (!c || id === null || id === undefined) return;
    const m = metaOf(id);
    if (!m?.patch) {
      notice.value = `Object #${id} is not a patch.`;
      return;
    }
    const parts = m.parts;
    if (parts) {
      const keep = parts.indices.filter((i) => c.instances[i] === id);
      const back = new Map<number, number>();
      for (let j = 0; j < parts.indices.length; j++) back.set(parts.indices[j]!, parts.ids[j]!);
      const meta = new Map<number, ObjectMeta | undefined>([[id, undefined], ...parts.meta]);
      store.apply(`Ungroup patch #${id}`, keep, null, (o, j) => back.get(keep[j]!) ?? o, meta);
    } else {
      const idx = objectIndices(c.instances, id);
      const { cluster } = euclideanClusters(c.positions, idx, tolerance.value);
      const first = nextInstanceId(c.instances);
      store.apply(`Ungroup patch #${id} into clusters`, idx, null, (o, j) => (cluster[j] ? first + cluster[j]! - 1 : o), new Map([[id, undefined]]));
    }
    notice.value = '';
  }

  /** Set an object's box by hand, or (undefined) back to the one fitted from its points. */
  function setBox(id: number, box: BoxValues | undefined): void {
    const m = metaOf(id);
    const after: ObjectMeta = { ...m };
    if (box) after.box = box;
    else delete after.box;
    store.apply(box ? `Box of #${id} set` : `Box of #${id} fitted`, new Uint32Array(0), null, null, new Map([[id, after.patch || after.box || after.parts ? after : undefined]]));
  }

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
    // A new id starts with no attributes (an object of that id may have gone with a box set).
    store.apply(`New object #${id} (${formatCount(idx.length)} points)`, idx, null, id, new Map([[id, undefined]]));
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
    // The merged objects go; the one they go into is fitted again (its patch flag stays).
    const gone = new Map<number, ObjectMeta | undefined>([...ids].map((id) => [id, id === into ? refit(id) : undefined]));
    store.apply(`Merge ${ids.size} objects into #${into}`, Uint32Array.from(pts), null, into, gone);
    checked.value = [into];
    notice.value = '';
  }

  return { assign, unlabel, newObject, merge, splitClusters, splitHalf, splitByLine, group, ungroup, setBox, targets };
}
