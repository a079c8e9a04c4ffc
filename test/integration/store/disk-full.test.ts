/**
 * A full disk and a killed import (docs/design.md, "Robustness"): a project opens even when the
 * clean-up after an import cut off by a kill cannot be written, and once it can, the import's
 * pages go back to the file system.
 */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openProject } from '../../../src-main/store';
import { useTempDir } from './helpers';

const ACTIONS = fileURLToPath(new URL('../../fixtures/store/project-actions.ts', import.meta.url));

/** Runs a project action in its own process; `limitKiB` caps the size any file may grow to (a full disk). */
function action(args: string[], limitKiB?: number): { status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string } {
  const node = [process.execPath, '--import', 'tsx', ACTIONS, ...args].map((a) => `'${a}'`).join(' ');
  // Writes past the limit fail with EFBIG (Node ignores SIGXFSZ), as they would with ENOSPC.
  const script = limitKiB === undefined ? `exec ${node}` : `ulimit -f ${limitKiB} && exec ${node}`;
  const r = spawnSync('bash', ['-c', script], { encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

function freePages(file: string): { free: number; pages: number } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return { free: db.pragma('freelist_count', { simple: true }) as number, pages: db.pragma('page_count', { simple: true }) as number };
  } finally {
    db.close();
  }
}

describe.skipIf(process.platform === 'win32')('a killed import and a full disk', () => {
  const tmp = useTempDir();

  /** A project whose import of ~30 MB was cut off by SIGKILL; returns its file and its size then (with the log). */
  function killedImport(): { file: string; cutOff: number } {
    const file = tmp.file('cut.thicket');
    openProject(file, { create: true }).close();
    const killed = action(['killed-import', file, '60']);
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    const cutOff = statSync(file).size + statSync(`${file}-wal`).size;
    expect(cutOff).toBeGreaterThan(20e6);
    return { file, cutOff };
  }

  it('opens while nothing can be written, and cleans up once it can', () => {
    const { file } = killedImport();
    // The disk is full: no file may grow past 1 KiB, so neither the log's shared index nor the
    // clean-up can be written.
    const full = action(['open', file], 1);
    const whileFull = JSON.parse(full.stdout.trim()) as { opened: boolean; error?: string; recovery: { discardedImports: number; deferred?: string }; counts: { driveLogs: number } };
    expect(whileFull.error).toBeUndefined();
    expect(whileFull.opened).toBe(true);
    expect(whileFull.recovery.deferred).toBeDefined();
    expect(whileFull.recovery.discardedImports).toBe(0);
    expect(whileFull.counts.driveLogs).toBe(0); // the half-imported log stays hidden

    // Space is back: the open removes the cut-off import.
    const store = openProject(file, { create: false });
    expect(store.recovery).toMatchObject({ discardedImports: 1, interruptedJobs: 1 });
    expect(store.recovery.deferred).toBeUndefined();
    store.close();
  });

  it("gives a killed import's pages back to the file system when it removes the import", () => {
    const { file, cutOff } = killedImport();
    const store = openProject(file, { create: false });
    expect(store.recovery.discardedImports).toBe(1);
    store.close();
    const { free, pages } = freePages(file);
    expect(free).toBe(0);
    expect(pages * 4096).toBeLessThan(cutOff / 20);
    expect(statSync(file).size).toBeLessThan(cutOff / 20);
  });
});
