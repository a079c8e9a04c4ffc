import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openProject } from '../../../src-main/store/database';
import { adoptProfile } from '../../../src-main/services/profiles-service';
import { builtinProfile } from '../../../src-common/builtin-profiles';
import type { ProjectStore } from '../../../src-main/store/project-store';

const open: ProjectStore[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function project(): ProjectStore {
  const dir = mkdtempSync(join(tmpdir(), 'thicket-adopt-'));
  dirs.push(dir);
  const store = openProject(join(dir, 'p.thicket'), { create: true });
  open.push(store);
  return store;
}

describe('adoptProfile: a calibration\'s profile kept as the log\'s', () => {
  const unit = { ...builtinProfile('vlp16')!, id: 'vlp16-unit-7', name: 'VLP-16 (unit 7 calibration)' };

  it('stores it once, and finds it again', () => {
    const store = project();
    expect(adoptProfile(store, unit)).toBe('vlp16-unit-7');
    expect(adoptProfile(store, unit)).toBe('vlp16-unit-7');
    expect(store.profiles.list().filter((p) => p.id.startsWith('vlp16-unit-7')).map((p) => p.id)).toEqual(['vlp16-unit-7']);
    expect(JSON.parse(store.profiles.get('vlp16-unit-7')!.json).builtin).toBe(false);
  });

  it('gives another calibration under the same id the next free id, and never takes a built-in\'s', () => {
    const store = project();
    adoptProfile(store, unit);
    const other = { ...unit, range: { ...unit.range, max: 80 } };
    expect(adoptProfile(store, other)).toBe('vlp16-unit-7-2');
    expect(adoptProfile(store, other)).toBe('vlp16-unit-7-2');
    expect(JSON.parse(store.profiles.get('vlp16-unit-7-2')!.json).range.max).toBe(80);
    // A calibration whose profile takes a built-in's id (a detected VLP-16) is saved beside it.
    expect(adoptProfile(store, { ...builtinProfile('vlp16')!, name: 'VLP-16 from a calibration', range: { ...unit.range, max: 90 } })).toBe('vlp16-2');
  });
});
