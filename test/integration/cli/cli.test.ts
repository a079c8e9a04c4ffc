import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliTempHome, runCli } from '../../helpers/cli';
import { syntheticKitti } from '../../helpers/temp';
import { HAS_SHARED_DATA, dataFile } from '../../helpers/shared-data';
import pkg from '../../../package.json';

const tmp = cliTempHome();
const { env } = tmp;

describe('thicket CLI', () => {
  it('--help lists the commands; --version prints the version', () => {
    const help = runCli(['--help'], env);
    expect(help.status).toBe(0);
    for (const c of ['project create', 'project info', 'import FILE']) expect(help.stdout).toContain(c);
    const v = runCli(['--version'], env);
    expect(v.stdout.trim()).toBe(`thicket ${pkg.version}`);
    expect(runCli(['--version', '--json'], env).json).toEqual({ version: pkg.version });
  });

  it('project create and info print one JSON object with the schema version and entity counts', () => {
    const p = join(tmp.dir, 'cli.thicket');
    const created = runCli(['project', 'create', '--project', p, '--json'], env);
    expect(created.status).toBe(0);
    expect(created.json).toMatchObject({ path: p, name: 'cli', schemaVersion: expect.any(Number) });
    const info = runCli(['project', 'info', '--project', p, '--json'], env);
    expect(info.status).toBe(0);
    const counts = (info.json as { counts: Record<string, number> }).counts;
    expect(counts).toMatchObject({ driveLogs: 0, jobs: 0, primitives: 0, scenes: 0, runs: 0 });
    expect(Object.keys(counts).sort()).toEqual(
      ['annotations', 'driveLogs', 'evaluations', 'jobs', 'models', 'primitives', 'runs', 'scenes', 'sensorProfiles', 'studies'],
    );
  });

  it('usage errors exit 2 with a message; failures exit 1 naming the file and reason', () => {
    expect(runCli(['frobnicate'], env)).toMatchObject({ status: 2 });
    expect(runCli(['frobnicate'], env).stderr).toContain('unknown command "frobnicate"');
    expect(runCli(['project', 'info', '--json'], env).stderr).toContain('--project FILE is required');
    const p = join(tmp.dir, 'cli.thicket');
    const bad = join(tmp.dir, 'cut.bin');
    // Less than one 16-byte point: nothing to keep (a longer cut keeps its whole points, with a warning).
    writeFileSync(bad, syntheticKitti(10).subarray(0, 10));
    const r = runCli(['import', bad, '--project', p, '--json'], env);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('cut.bin');
    expect((r.json as { error: string }).error).toMatch(/cut\.bin.*(not a multiple of 16|truncated)/);
    const info = runCli(['project', 'info', '--project', p, '--json'], env).json as { counts: Record<string, number> };
    expect(info.counts.driveLogs).toBe(0);
    expect(runCli(['project', 'info', '--project', join(tmp.dir, 'none.thicket')], env).stderr).toContain('no such project file');
  });

  it.skipIf(!HAS_SHARED_DATA)('imports the KITTI scan and a PCD: {log, format, packets, points}; progress on stderr', () => {
    const p = join(tmp.dir, 'real.thicket');
    runCli(['project', 'create', '--project', p], env);
    const k = runCli(['import', dataFile('overlapnet_kitti/000000.bin'), '--project', p, '--json'], env);
    expect(k.status).toBe(0);
    expect(k.json).toMatchObject({ log: 1, format: 'kitti-bin', packets: 1, points: 124_668 });
    expect(k.stderr).toMatch(/import #\d+: 100%/);
    const pcd = runCli(['import', dataFile('fast_gicp/251370668.pcd'), '--project', p, '--json'], env);
    expect(pcd.status).toBe(0);
    expect(pcd.json).toMatchObject({ log: 2, format: 'pcd', packets: 1 });
    const info = runCli(['project', 'info', '--project', p, '--json'], env).json as { counts: Record<string, number> };
    expect(info.counts).toMatchObject({ driveLogs: 2, jobs: 2 });
  });
});
