// scripts/start.js decides between Electron and browser mode without `require('electron')`
// (which would try to download the binary). THICKET_START_DRY_RUN=1 makes it print the
// decision and exit.
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'thicket-start-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function dryRun(env: Record<string, string>) {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'start.js'), '--project', 'x.thicket'], {
    cwd: ROOT,
    env: { ...process.env, ...env, THICKET_START_DRY_RUN: '1' },
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  return { decision: JSON.parse(r.stdout.trim()) as Record<string, unknown>, stderr: r.stderr };
}

describe('npm start', () => {
  it('falls back to browser mode, saying why, when the Electron binary is absent', () => {
    const { decision, stderr } = dryRun({ ELECTRON_OVERRIDE_DIST_PATH: join(tmp, 'no-electron-here') });
    expect(decision).toMatchObject({ mode: 'web', electron: null, args: ['--project', 'x.thicket'] });
    expect(decision.reason).toContain('does not exist');
    expect(stderr).toContain('The Electron runtime is not installed');
    expect(stderr).toContain('starting browser mode instead');
  });

  it('chooses Electron when the binary exists', () => {
    const dist = mkdtempSync(join(tmp, 'dist-'));
    writeFileSync(join(dist, 'electron'), '');
    const { decision, stderr } = dryRun({ ELECTRON_OVERRIDE_DIST_PATH: dist });
    expect(decision).toMatchObject({ mode: 'electron', electron: join(dist, 'electron'), message: null });
    expect(stderr).toBe('');
  });
});
