import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { cliTempHome, runCli, spawnCli } from '../../helpers/cli';
import { syntheticKitti } from '../../helpers/temp';
import { createAppServices } from '../../../src-main/services/app-services';

const tmp = cliTempHome();
const { env } = tmp;

describe('killing the host in the middle of an import', () => {
  it('leaves the project readable, without the half-imported log, and the job interrupted', async () => {
    const project = join(tmp.dir, 'kill.thicket');
    expect(runCli(['project', 'create', '--project', project], env).status).toBe(0);
    const big = join(tmp.dir, 'big.bin');
    writeFileSync(big, syntheticKitti(8_000_000)); // 128 MB
    const child = spawnCli(['import', big, '--project', project], env);
    const exited = new Promise<number | null>((r) => child.on('exit', (_c, signal) => r(signal ? -1 : _c)));

    // Watch the file from a second connection until the import has begun writing, then kill -9.
    const reader = new Database(project, { readonly: true, fileMustExist: true });
    const t0 = Date.now();
    let seen = false;
    while (!seen && Date.now() - t0 < 60_000) {
      const row = reader.prepare("SELECT count(*) AS n FROM drive_logs WHERE status = 'importing'").get() as { n: number };
      seen = row.n > 0;
      if (!seen) await new Promise((r) => setTimeout(r, 5));
    }
    reader.close();
    expect(seen).toBe(true);
    child.kill('SIGKILL');
    expect(await exited).toBe(-1);

    const services = await createAppServices({ shell: 'cli', homeDir: env.THICKET_HOME, workers: 1 });
    try {
      const info = await services.call('project.open', { path: project });
      expect(info.counts.driveLogs).toBe(0);
      expect(await services.call('logs.list', {})).toEqual([]);
      const jobs = await services.call('jobs.list', {});
      expect(jobs).toHaveLength(1);
      expect(jobs[0]).toMatchObject({ kind: 'import', state: 'interrupted' });
    } finally {
      await services.close();
    }
    const db = new Database(project, { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect((db.prepare('SELECT count(*) AS n FROM log_chunks').get() as { n: number }).n).toBe(0);
    db.close();
  });
});
