/**
 * The scene editor's state and gestures (docs/design.md, *Scene editor*): the document and its
 * history (editor-state.ts, edit-history.ts), the selection, the tool (select, place, draw a
 * scatter polygon), the terrain's height grid from the host (scenes.terrain), the keyboard, and
 * saving as a new scene (scenes.author, a job) — then opening it on the Scenes page.
 */
import { computed, onBeforeUnmount, ref, shallowRef, watch, type Ref } from 'vue';
import { useRouter } from 'vue-router';
import type { PrimitiveInfo } from '../../../src-main/api/contract';
import { placementProblem, type TerrainGrid } from '../../../src-common/scene-authoring';
import { api } from '../../api';
import { useAppStore } from '../../stores/app';
import { useJobsStore } from '../../stores/jobs';
import { usePrimitivesStore } from '../../stores/primitives';
import { useScenesStore } from '../../stores/scenes';
import { EditHistory } from './edit-history';
import { copyPlacements, cutPlacements, pasteClip, type Clip } from './clipboard';
import * as edit from './editor-state';
import { scatter, type Xy } from './scatter';
import type { EditorGestures, Handles, HandleKind, ProxyBox } from './editor-scene';

export type Tool = 'select' | 'place' | 'polygon';

/** What the keyboard reaches in the 3D view: the ground under the pointer (a paste goes there), and the camera bookmarks. */
export interface EditorViewKeys {
  pointerGround(): [number, number] | null;
  saveView(slot: number): void;
  goToView(slot: number): void;
}

/** Keyboard steps: Q / E turn by 15°, + / − scale by 10 %. */
const YAW_STEP = Math.PI / 12;
const SCALE_STEP = 1.1;

export function useSceneEditor(sceneId: Ref<number | null>, viewKeys?: EditorViewKeys) {
  const app = useAppStore();
  const primitives = usePrimitivesStore();
  const scenes = useScenesStore();
  const jobs = useJobsStore();
  const router = useRouter();
  primitives.sync();

  const history = new EditHistory<edit.EditorState>(edit.emptyState());
  const state = shallowRef(history.state);
  /** Bumped on every history move, so the history list re-renders. */
  const historyTick = ref(0);
  const selection = ref(new Set<number>());
  const tool = ref<Tool>('select');
  const placing = ref<number | null>(null);
  const polygon = shallowRef<Xy[]>([]);
  const polygonClosed = ref(false);
  const grid = shallowRef<TerrainGrid | null>(null);
  const terrainError = ref('');
  const loadNote = ref('');
  const drag = shallowRef<{ dx: number; dy: number } | null>(null);
  const handleDrag = shallowRef<{ kind: HandleKind; x: number; y: number } | null>(null);
  const saving = ref(false);
  const saveJobId = ref<number | null>(null);
  const name = ref('');
  const editedFrom = ref<number | null>(null);
  /** What the last copy, cut or paste did (how many, how many left out). */
  const clipNote = ref('');

  const library = computed(() => new Map<number, PrimitiveInfo>(primitives.list.map((p) => [p.id, p])));
  const inside = (x: number, y: number) => edit.onGrid(grid.value, x, y);

  function commit(label: string, next: edit.EditorState, select?: number[]): void {
    if (history.push(label, next)) {
      state.value = history.state;
      historyTick.value++;
    }
    if (select) selection.value = new Set(select);
  }
  function jump(to: edit.EditorState): void {
    state.value = to;
    clipNote.value = ''; // what a paste said is stale once the history moves
    historyTick.value++;
    const keys = new Set(to.placements.map((p) => p.key));
    selection.value = new Set([...selection.value].filter((k) => keys.has(k)));
  }
  const canUndo = computed(() => historyTick.value >= 0 && history.canUndo);
  const canRedo = computed(() => historyTick.value >= 0 && history.canRedo);
  const undo = () => jump(history.undo());
  const redo = () => jump(history.redo());
  const goTo = (i: number) => jump(history.at(i));

  // The document to start from: an authored scene's terrain and placements, or an empty flat terrain.
  watch(
    () => [sceneId.value, scenes.list.length] as const,
    ([id]) => {
      if (id === null) return;
      if (editedFrom.value === id) return;
      const scene = scenes.list.find((s) => s.id === id);
      if (!scene) return;
      editedFrom.value = id;
      name.value = `${scene.name} (edited)`;
      const start = edit.stateFromMeta(scene.meta);
      if (start) {
        history.reset(start, `Opened “${scene.name}”`);
        loadNote.value = '';
      } else {
        history.reset(edit.emptyState(), 'Start');
        loadNote.value = `“${scene.name}” was not made in the editor (${String(scene.meta.kind ?? 'unknown kind')}): its objects cannot be edited here, so this starts from an empty terrain and saves a new scene.`;
      }
      jump(history.state);
    },
    { immediate: true },
  );

  // A new scene is built for the mode the library can fill: mesh when it has only mesh primitives.
  watch(
    () => primitives.list,
    (list) => {
      if (editedFrom.value !== null || history.list.length > 1 || !list.length) return;
      const mode = list.some((p) => p.counts.ellipsoids > 0) ? 'hybrid' : list.some((p) => p.counts.triangles > 0) ? 'mesh' : null;
      if (mode && mode !== state.value.mode) {
        history.reset({ ...state.value, mode });
        jump(history.state);
      }
    },
    { immediate: true },
  );

  // The terrain's height grid, fetched whenever the terrain changes.
  let terrainAsked = 0;
  watch(
    () => JSON.stringify(state.value.terrain),
    async () => {
      const ask = ++terrainAsked;
      terrainError.value = '';
      try {
        const g = await api.call('scenes.terrain', { terrain: state.value.terrain });
        if (ask === terrainAsked) grid.value = g;
      } catch (e) {
        if (ask === terrainAsked) terrainError.value = (e as Error).message;
      }
    },
    { immediate: true },
  );

  /** The selection's first placement: its handles are drawn, and dragging them edits the whole selection. */
  const anchor = computed(() => state.value.placements.find((p) => selection.value.has(p.key)) ?? null);

  /** The document as drawn: with the drag or handle drag in progress applied (the same edit that releasing records). */
  const shown = computed(() => {
    const s = state.value, d = drag.value, h = handleDrag.value, a = anchor.value;
    if (d) return edit.move(s, selection.value, d.dx, d.dy, inside);
    if (h && a) return edit.dragHandle(s, selection.value, library.value, a, h.kind, h.x, h.y);
    return s;
  });

  /** What the view draws: every placement as a box of its primitive's extents × scale on the ground. */
  const boxes = computed<ProxyBox[]>(() => {
    const lib = library.value, sel = selection.value, g = grid.value;
    const out: ProxyBox[] = [];
    for (const p of shown.value.placements) {
      const prim = lib.get(p.primitiveId);
      if (!prim) continue;
      out.push({
        key: p.key, x: p.x, y: p.y, z: edit.footZ(g, p), yaw: p.yaw,
        size: [prim.extents[0] * p.scale, prim.extents[1] * p.scale, prim.extents[2] * p.scale],
        cls: prim.class, selected: sel.has(p.key),
      });
    }
    return out;
  });

  /** The anchor's turn and scale handles, in the select tool. */
  const handles = computed<Handles | null>(() => {
    const a0 = anchor.value;
    if (!a0 || tool.value !== 'select' || drag.value) return null;
    const a = shown.value.placements.find((p) => p.key === a0.key)!;
    const prim = library.value.get(a.primitiveId);
    if (!prim) return null;
    const h = edit.handlePoints(a, prim.extents);
    return { foot: [a.x, a.y, edit.footZ(grid.value, a)], rotate: h.rotate, scale: h.scale };
  });

  const selected = computed(() => state.value.placements.filter((p) => selection.value.has(p.key)));

  function startPlacing(id: number): void {
    placing.value = id;
    tool.value = 'place';
  }
  function setTool(t: Tool): void {
    tool.value = t;
    if (t !== 'place') placing.value = null;
    if (t === 'polygon') {
      polygon.value = [];
      polygonClosed.value = false;
    }
  }

  const gestures: EditorGestures = {
    groundClick(x, y, shift) {
      if (tool.value === 'place' && placing.value !== null) {
        if (!Number.isFinite(x) || !inside(x, y)) return;
        const r = edit.place(state.value, library.value, placing.value, x, y);
        commit(`Place ${library.value.get(placing.value)?.label ?? 'primitive'}`, r.state, r.keys);
        setTool('select');
      } else if (tool.value === 'polygon') {
        if (!Number.isFinite(x) || polygonClosed.value) return;
        polygon.value = [...polygon.value, [x, y]];
      } else if (!shift) selection.value = new Set();
    },
    placementDown(key, shift) {
      if (tool.value !== 'select') return 'ignore';
      const sel = new Set(selection.value);
      if (shift) {
        if (sel.has(key)) sel.delete(key);
        else sel.add(key);
        selection.value = sel;
        return 'select';
      }
      if (!sel.has(key)) selection.value = new Set([key]);
      return 'drag';
    },
    drag(dx, dy, done) {
      if (!done) {
        drag.value = { dx, dy };
        return;
      }
      drag.value = null;
      const n = selection.value.size;
      commit(n === 1 ? 'Move' : `Move ${n}`, edit.move(state.value, selection.value, dx, dy, inside));
    },
    groundDoubleClick() {
      if (tool.value === 'polygon' && polygon.value.length >= 3) polygonClosed.value = true;
    },
    handle(kind, x, y, done) {
      const a = anchor.value;
      if (!done) {
        handleDrag.value = { kind, x, y };
        return;
      }
      handleDrag.value = null;
      if (!a || !Number.isFinite(x)) return;
      commit(kind === 'rotate' ? 'Turn' : 'Resize', edit.dragHandle(state.value, selection.value, library.value, a, kind, x, y));
    },
  };

  function closePolygon(): void {
    if (polygon.value.length >= 3) polygonClosed.value = true;
  }

  /** The history entry the last scatter made (re-seeding replaces it while it is the newest edit). */
  let lastScatter = -1;

  /**
   * Scatter a class in the closed polygon as one edit; with `reseed`, the scatter just made is
   * replaced (the same edit, a new seed). Returns the problem (nothing to scatter, too many), or ''.
   */
  function scatterIn(candidates: readonly PrimitiveInfo[], density: number, seed: number, reseed = false): string {
    if (!polygonClosed.value) return 'Draw a polygon on the ground first (click its corners, double-click or Enter to close it)';
    try {
      const items = scatter({ polygon: polygon.value, density, seed, candidates, onTerrain: inside });
      if (reseed && lastScatter === history.index && history.index === history.list.length - 1) history.undo();
      const r = edit.addScattered(history.state, items);
      const label = candidates[0]?.label ?? 'primitives';
      commit(`Scatter ${items.length} ${label} (seed ${seed})`, r.state, r.keys);
      state.value = history.state;
      lastScatter = history.index;
      return '';
    } catch (e) {
      return (e as Error).message;
    }
  }

  const setFields = (key: number, f: Parameters<typeof edit.setFields>[3], label: string) => commit(label, edit.setFields(state.value, key, library.value, f, inside));
  const rotateSelected = (d: number) => commit('Rotate', edit.rotate(state.value, selection.value, d));
  const scaleSelected = (f: number) => commit('Scale', edit.rescale(state.value, selection.value, f, library.value));
  function duplicateSelected(): void {
    if (!selection.value.size) return;
    const r = edit.duplicate(state.value, selection.value, 1, inside);
    commit(`Duplicate ${selection.value.size}`, r.state, r.keys);
  }
  function deleteSelected(): void {
    const n = selection.value.size;
    if (n) commit(n === 1 ? 'Delete' : `Delete ${n}`, edit.remove(state.value, selection.value), []);
  }

  /** The copied placements (kept across undo, deletes and terrain changes), and what the last copy or paste did. */
  const clip = shallowRef<Clip | null>(null);
  const count = (n: number) => (n === 1 ? '1 placement' : `${n} placements`);
  function copySelected(): void {
    const c = copyPlacements(state.value, selection.value);
    if (!c) return;
    clip.value = c;
    clipNote.value = `Copied ${count(c.items.length)}`;
  }
  function cutSelected(): void {
    const r = cutPlacements(state.value, selection.value);
    if (!r.clip) return;
    clip.value = r.clip;
    commit(`Cut ${r.clip.items.length}`, r.state, []);
    clipNote.value = `Cut ${count(r.clip.items.length)}`;
  }
  /** Pastes the clip centred at `at` (world x, y), or beside the originals when null; selects what was pasted. */
  function paste(at: [number, number] | null): void {
    const c = clip.value;
    if (!c) return;
    const r = pasteClip(state.value, c, at, inside);
    if (r.keys.length) commit(`Paste ${r.keys.length}`, r.state, r.keys);
    const out = r.leftOut ? ` · ${r.leftOut} left out: off the terrain` : '';
    clipNote.value = r.keys.length ? `Pasted ${count(r.keys.length)}${out}` : `Nothing pasted: all ${count(r.leftOut)} would stand off the terrain`;
  }

  const setTerrain = (t: edit.EditorState['terrain'], label: string) => commit(label, { ...state.value, terrain: t });
  const setMode = (m: edit.EditorState['mode']) => commit(`Build for ${m}`, { ...state.value, mode: m });

  const modelTriangles = computed(() => {
    const t = state.value.terrain;
    return t.kind === 'model' ? (primitives.models.find((m) => m.id === t.modelId)?.counts.triangles ?? null) : null;
  });
  const estimate = computed(() => edit.estimate(state.value, library.value, grid.value, modelTriangles.value));

  /** Why the document cannot be saved as it is (the host's own checks, and the mode's elements), or ''. */
  const problem = computed(() => {
    const s = state.value, lib = library.value;
    const p = placementProblem(s.placements, lib, inside, 'the terrain shown');
    if (p) return p;
    const has = (c: PrimitiveInfo['counts']) => (s.mode === 'hybrid' ? c.ellipsoids : s.mode === 'voxel' ? c.voxels : c.triangles) > 0;
    const k = s.placements.findIndex((q) => !has(lib.get(q.primitiveId)!.counts));
    return k < 0 ? '' : `placement ${k + 1}: primitive ${s.placements[k]!.primitiveId} has no elements for the ${s.mode} mode (choose another mode, or delete it)`;
  });

  async function save(): Promise<void> {
    if (saving.value || problem.value) return;
    saving.value = true;
    const job = await scenes.author(edit.authorRequest(state.value, name.value, editedFrom.value));
    if (!job) saving.value = false;
    else saveJobId.value = job.id;
  }
  const saveJob = computed(() => (saveJobId.value === null ? null : (jobs.byId.get(saveJobId.value) ?? null)));
  watch(saveJob, (j) => {
    if (!j || j.state === 'queued' || j.state === 'running') return;
    saving.value = false;
    saveJobId.value = null;
    if (j.state === 'done') {
      const id = Number(j.result?.scene);
      void scenes.refresh().then(() => router.push(`/scenes?scene=${id}`));
    } else app.reportError('Cannot save the scene', new Error(j.error ?? j.state));
  });

  function onKey(e: KeyboardEvent): void {
    const t = e.target as HTMLElement | null;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.isContentEditable)) return;
    const mod = e.ctrlKey || e.metaKey;
    const k = e.key.toLowerCase();
    let handled = true;
    if (mod && k === 'z' && e.shiftKey) redo();
    else if (mod && (k === 'z' || k === 'y')) (k === 'y' ? redo : undo)();
    else if (mod && k === 'd') duplicateSelected();
    else if (mod && k === 'c' && selection.value.size) copySelected();
    else if (mod && k === 'x' && selection.value.size) cutSelected();
    else if (mod && k === 'v' && clip.value) paste(viewKeys?.pointerGround() ?? null);
    else if (viewKeys && !e.altKey && !e.shiftKey && /^[1-4]$/.test(k)) (mod ? viewKeys.saveView : viewKeys.goToView)(Number(k) - 1);
    else if (k === 'delete' || k === 'backspace') deleteSelected();
    else if (k === 'escape') {
      if (tool.value !== 'select') setTool('select');
      else selection.value = new Set();
    } else if (k === 'enter' && tool.value === 'polygon') closePolygon();
    else if (!mod && k === 'q') rotateSelected(YAW_STEP);
    else if (!mod && k === 'e') rotateSelected(-YAW_STEP);
    else if (!mod && (k === '+' || k === '=')) scaleSelected(SCALE_STEP);
    else if (!mod && (k === '-' || k === '_')) scaleSelected(1 / SCALE_STEP);
    else handled = false;
    if (handled) e.preventDefault();
  }
  window.addEventListener('keydown', onKey);
  onBeforeUnmount(() => window.removeEventListener('keydown', onKey));

  return {
    history, historyTick, state, selection, selected, tool, placing, polygon, polygonClosed, grid, terrainError, loadNote,
    library, boxes, handles, estimate, problem, saving, saveJob, name, editedFrom, gestures,
    canUndo, canRedo, undo, redo, goTo, startPlacing, setTool, closePolygon, scatterIn, setFields, rotateSelected, scaleSelected,
    duplicateSelected, deleteSelected, setTerrain, setMode, save, clip, clipNote, copySelected, cutSelected, paste,
  };
}
