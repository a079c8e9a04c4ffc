/**
 * `thicket project compact` (docs/design.md, "Robustness"): an older project's file, mostly unused
 * pages after a large log was removed, is rewritten without them and switched to incremental
 * auto-vacuum; what it holds is unchanged.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openProject } from '../../../src-main/store';
import { cliTempHome, runCliOk } from '../../helpers/cli';
import { makeChunk } from '../store/helpers';

const tmp = cliTempHome('thicket-compact-');

describe('thicket project compact', () => {
  it('gives the unused pages of a project without auto-vacuum back and keeps its logs', () => {
    const file = join(tmp.dir, 'old.thicket');
    const store = openProject(file, { create: true });
    // As a project created before auto-vacuum: none.
    store.db.pragma('auto_vacuum = NONE');
    store.db.exec('VACUUM');
    const chunk = makeChunk(0, 64, 256, 2);
    const kept = store.logs.beginImport({ name: 'kept', format: 'pcd', sourcePath: null, profileId: null, jobId: null });
    store.logs.appendChunk(kept, 0, chunk);
    store.logs.finishImport(kept, { packets: 64, points: 0, hits: 0, misses: 0, durationS: 0, bounds: null });
    const removed = store.logs.beginImport({ name: 'removed', format: 'pcd', sourcePath: null, profileId: null, jobId: null });
    for (let seq = 0; seq < 40; seq++) store.logs.appendChunk(removed, seq, { ...chunk, packetStart: seq * 64 });
    store.logs.discard(removed);
    store.close();
    const before = statSync(file).size;
    expect(before).toBeGreaterThan(15e6);

    const r = runCliOk(['project', 'compact', '--project', file, '--json'], tmp.env).json as { path: string; bytesBefore: number; bytesAfter: number; freeFractionBefore: number };
    expect(r.path).toBe(file);
    expect(r.bytesBefore).toBe(before);
    expect(r.freeFractionBefore).toBeGreaterThan(0.9);
    expect(r.bytesAfter).toBeLessThan(before / 10);
    expect(statSync(file).size).toBe(r.bytesAfter);

    const db = new Database(file, { readonly: true });
    expect(db.pragma('auto_vacuum', { simple: true })).toBe(2); // incremental from now on
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
    const info = runCliOk(['project', 'info', '--project', file, '--json'], tmp.env).json as { counts: { driveLogs: number } };
    expect(info.counts.driveLogs).toBe(1);
  });
});
