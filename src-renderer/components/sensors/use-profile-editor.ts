/**
 * Editing one sensor profile, apart from any page: the stored file and a draft of it (file units:
 * degrees, µs, mrad), edits by field path with undo (edits to one field within a second are one
 * step), revert, a live check of the draft by the host (profiles.pattern with the draft runs the
 * same checks as profiles.save and returns its beam pattern; the last good pattern stays, marked
 * stale, while the draft has problems), and save. Problems come back as issues per field path.
 *
 *   const editor = useProfileEditor({ editable: () => isCustom.value });
 *   await editor.load('vlp16');  editor.setField(['range', 'max'], 120);  await editor.save();
 *
 * Must be called in a component's setup or an effect scope (its timers stop with the scope).
 */
import { computed, onScopeDispose, ref, shallowRef, watch } from 'vue';
import type { ProfilePattern, ProfileFile, SensorProfile } from '../../../src-common/sensor-profile';
import { api } from '../../api';
import { useProfilesStore } from '../../stores/profiles';
import { useAppStore } from '../../stores/app';
import { parseIssues, pathKey, setAt, type Issue } from './profile-fields';

/** Most rays of a pattern to draw. */
export const MAX_RAYS = 60_000;
/** Edits to one field closer together than this are one undo step. */
const COALESCE_MS = 1000;
/** Quiet time after an edit before the host checks the draft. */
const CHECK_DELAY_MS = 300;

export interface ProfileEditorOptions {
  /** Whether the loaded profile may be edited (a custom profile, with a project open). */
  editable: () => boolean;
}

export function useProfileEditor(opts: ProfileEditorOptions) {
  const profiles = useProfilesStore();
  const app = useAppStore();

  const loadedId = ref<string | null>(null);
  const saved = shallowRef<ProfileFile | null>(null);
  const draft = ref<ProfileFile | null>(null);
  const history = ref<string[]>([]);
  const pattern = shallowRef<ProfilePattern | null>(null);
  const patternLoading = ref(false);
  const patternStale = ref(false);
  const issues = ref<Issue[]>([]);
  const issuesFrom = ref<'save' | 'check'>('check');
  const saving = ref(false);
  const missing = ref(false);

  const dirty = computed(() => !!draft.value && !!saved.value && JSON.stringify(draft.value) !== JSON.stringify(saved.value));
  const errorMap = computed(() => new Map(issues.value.filter((i) => i.path).map((i) => [i.path, i.reason])));
  const generalIssues = computed(() => issues.value.filter((i) => !i.path));
  const fieldIssues = computed(() => issues.value.filter((i) => i.path));

  let loadSeq = 0;
  async function load(id: string): Promise<void> {
    const mine = ++loadSeq;
    loadedId.value = id;
    missing.value = false;
    issues.value = [];
    history.value = [];
    patternStale.value = false;
    patternLoading.value = true;
    try {
      const [file, pat] = await Promise.all([profiles.getFile(id), api.call('profiles.pattern', { id, maxRays: MAX_RAYS })]);
      if (mine !== loadSeq) return;
      saved.value = file;
      draft.value = structuredClone(file);
      pattern.value = pat;
    } catch (e) {
      if (mine !== loadSeq) return;
      forget();
      if ((e as { code?: string }).code === 'not_found') missing.value = true;
      else app.reportError(`Cannot load the profile "${id}"`, e);
    } finally {
      if (mine === loadSeq) patternLoading.value = false;
    }
  }

  /** Drop the loaded profile (it was deleted, or could not be read). */
  function forget(): void {
    saved.value = null;
    draft.value = null;
    pattern.value = null;
  }

  let lastEdit = { key: '', at: 0 };

  function setField(path: (string | number)[], value: unknown): void {
    if (!draft.value) return;
    const key = pathKey(path);
    const now = performance.now();
    if (key !== lastEdit.key || now - lastEdit.at > COALESCE_MS) history.value.push(JSON.stringify(draft.value));
    lastEdit = { key, at: now };
    setAt(draft.value, path, value);
  }

  function undo(): void {
    const prev = history.value.pop();
    if (prev && draft.value) {
      draft.value = JSON.parse(prev) as ProfileFile;
      lastEdit = { key: '', at: 0 };
    }
  }

  function revert(): void {
    if (saved.value) draft.value = structuredClone(saved.value);
    history.value = [];
    issues.value = [];
    lastEdit = { key: '', at: 0 };
    // The pattern on screen is the last good draft's: fetch the stored profile's again.
    if (loadedId.value && patternStale.value) void load(loadedId.value);
  }

  let checkTimer: ReturnType<typeof setTimeout> | null = null;
  let checkSeq = 0;
  watch(
    draft,
    () => {
      if (!opts.editable() || !draft.value) return;
      if (checkTimer) clearTimeout(checkTimer);
      checkTimer = setTimeout(() => void check(), CHECK_DELAY_MS);
    },
    { deep: true },
  );

  /** The host checks the draft exactly as profiles.save would, and returns its pattern. */
  async function check(): Promise<void> {
    const d = draft.value;
    if (!d) return;
    const mine = ++checkSeq;
    patternLoading.value = true;
    try {
      const p = await api.call('profiles.pattern', { profile: d as unknown as Record<string, unknown>, maxRays: MAX_RAYS });
      if (mine !== checkSeq) return;
      pattern.value = p;
      patternStale.value = false;
      issues.value = []; // the draft changed since any earlier save attempt, and passes every check
    } catch (e) {
      if (mine !== checkSeq) return;
      issues.value = parseIssues(e instanceof Error ? e.message : String(e));
      issuesFrom.value = 'check';
      patternStale.value = true;
    } finally {
      if (mine === checkSeq) patternLoading.value = false;
    }
  }

  /** Save the draft; the saved profile, or null with the host's problems in `issues`. */
  async function save(): Promise<SensorProfile | null> {
    if (!draft.value) return null;
    saving.value = true;
    try {
      const result = await profiles.save(draft.value);
      saved.value = await profiles.getFile(result.id);
      draft.value = structuredClone(saved.value);
      history.value = [];
      issues.value = [];
      app.clearError();
      return result;
    } catch (e) {
      issues.value = parseIssues(e instanceof Error ? e.message : String(e));
      issuesFrom.value = 'save';
      return null;
    } finally {
      saving.value = false;
    }
  }

  onScopeDispose(() => {
    loadSeq++;
    if (checkTimer) clearTimeout(checkTimer);
  });

  return {
    saved,
    draft,
    history,
    pattern,
    patternLoading,
    patternStale,
    issues,
    issuesFrom,
    saving,
    missing,
    dirty,
    errorMap,
    generalIssues,
    fieldIssues,
    load,
    forget,
    setField,
    undo,
    revert,
    check,
    save,
  };
}
