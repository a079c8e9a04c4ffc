import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { RecentProjects } from '../../../src-main/services/recent-projects';
import { tempDir } from '../../helpers/temp';

const TOUCHER = fileURLToPath(new URL('../../fixtures/services/recent-toucher.ts', import.meta.url));

function toucher(home: string, tag: string, times: number): Promise<{ errors: string[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', TOUCHER, home, tag, String(times)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(stdout.trim()) as { errors: string[] }) : reject(new Error(`toucher ${tag} exited ${code}: ${stderr}`)))),
  );
}

describe('the recent-projects list shared by processes', () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());

  it('is written by four processes at once without a failed rename, and stays a list', async () => {
    const home = join(tmp.dir, 'home');
    mkdirSync(home);
    const results = await Promise.all(['a', 'b', 'c', 'd'].map((tag) => toucher(home, tag, 300)));
    expect(results.flatMap((r) => r.errors)).toEqual([]);
    const list = new RecentProjects(home).list();
    expect(list.length).toBeGreaterThan(0);
    expect(list.length).toBeLessThanOrEqual(20);
    // No temp file is left behind.
    expect(readdirSync(home)).toEqual(['recent-projects.json']);
  });
});
