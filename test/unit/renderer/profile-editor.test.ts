// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { effectScope, nextTick } from 'vue';
import type { ProfileFile } from '../../../src-common/sensor-profile';
import { fake, hostError } from './fake-api';
import hdl32e from '../../../resources/profiles/hdl32e.json';

vi.mock('../../../src-renderer/api', () => import('./fake-api'));

const { useProfileEditor, MAX_RAYS } = await import('../../../src-renderer/components/sensors/use-profile-editor');

const stored = hdl32e as unknown as ProfileFile;
const file = (): ProfileFile => ({ ...structuredClone(stored), id: 'hdl32e-copy', name: 'HDL-32E (copy)' });
const pattern = (tag: string) => ({ tag, origin: [0, 0, 1.8], totalRays: 69_120, stride: 1, ringElevationsDeg: [] });

describe('useProfileEditor', () => {
  let scope: ReturnType<typeof effectScope>;
  let onDisk: ProfileFile;
  let editable: boolean;

  beforeEach(() => {
    vi.useFakeTimers();
    setActivePinia(createPinia());
    fake.reset();
    onDisk = file();
    editable = true;
    fake.handle('profiles.getFile', () => structuredClone(onDisk));
    fake.handle('profiles.list', () => []);
    // The host checks a draft the way profiles.save does: a range limit must be positive.
    fake.handle('profiles.pattern', (req) => {
      const p = req.profile as ProfileFile | undefined;
      if (p && !(p.range.max > 0)) throw hostError('invalid_request', 'two lasers share an id; range.max: must be > 0');
      return pattern(p ? `draft ${p.range.max}` : `stored ${String(req.id)}`);
    });
    fake.handle('profiles.save', (req) => {
      onDisk = JSON.parse(JSON.stringify(req.profile)) as ProfileFile; // it crosses the wire
      return { id: onDisk.id, name: onDisk.name };
    });
    scope = effectScope();
  });
  afterEach(() => {
    scope.stop();
    vi.useRealTimers();
  });

  async function loaded() {
    const editor = scope.run(() => useProfileEditor({ editable: () => editable }))!;
    await editor.load('hdl32e-copy');
    return editor;
  }
  /** Let the debounced host check run. */
  const settle = async () => {
    await nextTick();
    await vi.advanceTimersByTimeAsync(300);
  };

  it('loads the stored file and its pattern into a clean draft', async () => {
    const editor = await loaded();
    expect(fake.calls.find((c) => c.method === 'profiles.pattern')?.req).toEqual({ id: 'hdl32e-copy', maxRays: MAX_RAYS });
    expect(editor.saved.value).toEqual(onDisk);
    expect(editor.draft.value).toEqual(onDisk);
    expect(editor.draft.value).not.toBe(editor.saved.value);
    expect(editor.dirty.value).toBe(false);
    expect((editor.pattern.value as unknown as { tag: string }).tag).toBe('stored hdl32e-copy');
  });

  it('edits by path; the host checks the draft and its pattern replaces the shown one', async () => {
    const editor = await loaded();
    editor.setField(['range', 'max'], 120);
    expect(editor.draft.value!.range.max).toBe(120);
    expect(editor.saved.value!.range.max).toBe(stored.range.max);
    expect(editor.dirty.value).toBe(true);
    await settle();
    expect((editor.pattern.value as unknown as { tag: string }).tag).toBe('draft 120');
    expect(editor.patternStale.value).toBe(false);
    expect(editor.issues.value).toEqual([]);
  });

  it('validates: a bad draft gives issues by field, keeps the last good pattern marked stale', async () => {
    const editor = await loaded();
    editor.setField(['range', 'max'], -5);
    await settle();
    expect(editor.issuesFrom.value).toBe('check');
    expect(editor.fieldIssues.value).toEqual([{ path: 'range.max', reason: 'must be > 0' }]);
    expect(editor.generalIssues.value).toEqual([{ path: '', reason: 'two lasers share an id' }]);
    expect(editor.errorMap.value.get('range.max')).toBe('must be > 0');
    expect(editor.patternStale.value).toBe(true);
    expect((editor.pattern.value as unknown as { tag: string }).tag).toBe('stored hdl32e-copy');
  });

  it('does not check a read-only profile', async () => {
    editable = false;
    const editor = await loaded();
    const before = fake.calls.length;
    editor.setField(['range', 'max'], -5);
    await settle();
    expect(fake.calls.length).toBe(before);
  });

  it('undoes edit by edit (typing in one field is one step) and reverts to the stored file', async () => {
    const editor = await loaded();
    editor.setField(['name'], 'H');
    editor.setField(['name'], 'HD'); // same field within a second: same step
    editor.setField(['range', 'max'], 90);
    expect(editor.history.value).toHaveLength(2);
    editor.undo();
    expect(editor.draft.value!.range.max).toBe(stored.range.max);
    expect(editor.draft.value!.name).toBe('HD');
    editor.undo();
    expect(editor.draft.value!.name).toBe('HDL-32E (copy)');
    expect(editor.dirty.value).toBe(false);

    editor.setField(['range', 'max'], -1);
    await settle();
    expect(editor.patternStale.value).toBe(true);
    const before = fake.calls.length;
    editor.revert();
    expect(editor.draft.value).toEqual(onDisk);
    expect(editor.history.value).toEqual([]);
    expect(editor.issues.value).toEqual([]);
    // The stale pattern was the draft's last good one: the stored profile's is fetched again
    // (and the reverted draft is checked like any other change).
    expect(fake.calls[before]).toEqual({ method: 'profiles.getFile', req: { id: 'hdl32e-copy' } });
    expect(fake.calls[before + 1]).toEqual({ method: 'profiles.pattern', req: { id: 'hdl32e-copy', maxRays: MAX_RAYS } });
    await settle();
    expect((editor.pattern.value as unknown as { tag: string }).tag).toBe(`draft ${stored.range.max}`);
    expect(editor.patternStale.value).toBe(false);
  });

  it('saves the draft (clean afterwards), or keeps it with the host’s problems', async () => {
    const editor = await loaded();
    editor.setField(['range', 'max'], 100);
    const saved = await editor.save();
    expect(saved).toEqual({ id: 'hdl32e-copy', name: 'HDL-32E (copy)' });
    expect(onDisk.range.max).toBe(100);
    expect(editor.saved.value!.range.max).toBe(100);
    expect(editor.dirty.value).toBe(false);
    expect(editor.history.value).toEqual([]);

    fake.handle('profiles.save', () => Promise.reject(new Error('groups[0].lasers[3].elevation: out of range')));
    editor.setField(['name'], 'renamed');
    expect(await editor.save()).toBeNull();
    expect(editor.issuesFrom.value).toBe('save');
    expect(editor.fieldIssues.value).toEqual([{ path: 'groups[0].lasers[3].elevation', reason: 'out of range' }]);
    expect(editor.dirty.value).toBe(true);
    expect(editor.saving.value).toBe(false);
  });

  it('marks a profile that no longer exists as missing', async () => {
    fake.handle('profiles.getFile', () => Promise.reject(hostError('not_found', 'no profile "gone"')));
    const editor = scope.run(() => useProfileEditor({ editable: () => true }))!;
    await editor.load('gone');
    expect(editor.missing.value).toBe(true);
    expect(editor.draft.value).toBeNull();
  });
});
