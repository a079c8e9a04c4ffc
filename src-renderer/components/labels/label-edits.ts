/**
 * The labels being edited (a class and an object id per point, plus per object a patch flag and a
 * box set by hand) and their history: every edit is stored as the points it touched with their
 * values before and after, and the objects whose attributes it changed likewise, so undo and redo
 * restore exactly those whatever the cloud's size. The history keeps at most `maxPoints` touched
 * points in all (the oldest edits go first) and forgets the redo branch on a new edit.
 */

/** A box set by hand (world frame, as annotation entries store it): centre, length × width × height (m), yaw (rad). */
export interface BoxValues {
  center: [number, number, number];
  size: [number, number, number];
  yaw: number;
}

/** An object's attributes beyond its points: a shrub patch (docs/labeling.md), a box set by hand. */
export interface ObjectMeta {
  patch?: boolean;
  box?: BoxValues;
  /** A patch grouped in this session: its points' object ids before and those objects' attributes, for ungrouping. */
  parts?: { indices: Uint32Array; ids: Uint32Array; meta: [number, ObjectMeta][] };
}

/** An object's attributes before and after an edit (undefined: none). */
export interface MetaChange {
  id: number;
  before: ObjectMeta | undefined;
  after: ObjectMeta | undefined;
}

export interface LabelEdit {
  /** What the history list shows: "Class ground → 1,204 points". */
  title: string;
  indices: Uint32Array;
  beforeClass: Uint8Array;
  beforeInstance: Uint32Array;
  afterClass: Uint8Array;
  afterInstance: Uint32Array;
  meta: MetaChange[];
}

export class LabelEdits {
  private done: LabelEdit[] = [];
  private undone: LabelEdit[] = [];
  /** Bumped on every change, so views can watch one number. */
  revision = 0;

  constructor(
    readonly classes: Uint8Array,
    readonly instances: Uint32Array,
    // 10 M points: about 140 MB of history (14 bytes a point).
    private readonly maxPoints = 10_000_000,
    /** Object id → attributes (only objects that have some). */
    readonly objects: Map<number, ObjectMeta> = new Map(),
  ) {}

  get canUndo(): boolean {
    return this.done.length > 0;
  }

  get canRedo(): boolean {
    return this.undone.length > 0;
  }

  /** Titles, oldest first, of the edits done (then those undone, which redo brings back). */
  get history(): { done: string[]; undone: string[] } {
    return { done: this.done.map((e) => e.title), undone: this.undone.map((e) => e.title).reverse() };
  }

  /**
   * Apply new values to the points `indices`: `cls` (a class id, or null to keep each point's) and
   * `instance` (an object id, a function of the old one and the point's place j in `indices`, or
   * null to keep), and objects' new attributes `meta` (id → attributes, undefined to clear).
   * Points that would not change are left out; returns the edit, or null when nothing changed.
   */
  apply(title: string, indices: Uint32Array, cls: number | null, instance: number | ((old: number, j: number) => number) | null, meta: ReadonlyMap<number, ObjectMeta | undefined> = new Map()): LabelEdit | null {
    const m = indices.length;
    const idx = new Uint32Array(m);
    const beforeClass = new Uint8Array(m);
    const beforeInstance = new Uint32Array(m);
    const afterClass = new Uint8Array(m);
    const afterInstance = new Uint32Array(m);
    let k = 0;
    for (let j = 0; j < m; j++) {
      const i = indices[j]!;
      const c0 = this.classes[i]!;
      const o = this.instances[i]!;
      const c = cls ?? c0;
      const n = instance === null ? o : typeof instance === 'function' ? instance(o, j) : instance;
      if (c === c0 && n === o) continue;
      idx[k] = i;
      beforeClass[k] = c0;
      beforeInstance[k] = o;
      afterClass[k] = c;
      afterInstance[k] = n;
      k++;
    }
    const changes: MetaChange[] = [];
    for (const [id, after] of meta) {
      const before = this.objects.get(id);
      if (!sameMeta(before, after)) changes.push({ id, before, after });
    }
    if (k === 0 && changes.length === 0) return null;
    // Copies of the used part, so the history holds no more than the points changed.
    const edit: LabelEdit = { title, indices: idx.slice(0, k), beforeClass: beforeClass.slice(0, k), beforeInstance: beforeInstance.slice(0, k), afterClass: afterClass.slice(0, k), afterInstance: afterInstance.slice(0, k), meta: changes };
    this.write(edit, 'after');
    this.done.push(edit);
    this.undone = [];
    this.trim();
    this.revision++;
    return edit;
  }

  undo(): LabelEdit | null {
    const e = this.done.pop();
    if (!e) return null;
    this.write(e, 'before');
    this.undone.push(e);
    this.revision++;
    return e;
  }

  redo(): LabelEdit | null {
    const e = this.undone.pop();
    if (!e) return null;
    this.write(e, 'after');
    this.done.push(e);
    this.revision++;
    return e;
  }

  /** Undo or redo until `doneCount` edits are done (a click in the history list). */
  goTo(doneCount: number): void {
    while (this.done.length > doneCount && this.undo());
    while (this.done.length < doneCount && this.redo());
  }

  private write(e: LabelEdit, side: 'before' | 'after'): void {
    const cls = side === 'before' ? e.beforeClass : e.afterClass;
    const inst = side === 'before' ? e.beforeInstance : e.afterInstance;
    for (let k = 0; k < e.indices.length; k++) {
      const i = e.indices[k]!;
      this.classes[i] = cls[k]!;
      this.instances[i] = inst[k]!;
    }
    for (const m of e.meta) {
      const v = side === 'before' ? m.before : m.after;
      if (v && (v.patch || v.box || v.parts)) this.objects.set(m.id, v);
      else this.objects.delete(m.id);
    }
  }

  private trim(): void {
    let total = this.done.reduce((s, e) => s + e.indices.length, 0);
    while (this.done.length > 1 && total > this.maxPoints) total -= this.done.shift()!.indices.length;
  }
}

function sameBox(a: BoxValues | undefined, b: BoxValues | undefined): boolean {
  if (!a || !b) return a === b;
  return a.yaw === b.yaw && a.center.every((v, i) => v === b.center[i]) && a.size.every((v, i) => v === b.size[i]);
}

function sameMeta(a: ObjectMeta | undefined, b: ObjectMeta | undefined): boolean {
  return !!a?.patch === !!b?.patch && sameBox(a?.box, b?.box) && a?.parts === b?.parts;
}

/** The smallest object id above every one in use. */
export function nextInstanceId(instances: Uint32Array): number {
  let max = 0;
  for (let i = 0; i < instances.length; i++) if (instances[i]! > max) max = instances[i]!;
  return max + 1;
}
