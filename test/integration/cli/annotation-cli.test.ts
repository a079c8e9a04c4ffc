/**
 * `thicket annotation list|import|export|compare|propose`: a real scan's labels through the CLI —
 * RELLIS-3D's .label imported with its class map, a proposal, the two compared, a file written and
 * read back; usage errors exit 2 and an existing file is not replaced without --force (exit 1).
 */
import { describe, expect, it } from 'vitest';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { cliTempHome, runCli, runCliOk } from '../../helpers/cli';
import { dataFile, HAS_SHARED_DATA } from '../../helpers/shared-data';

const { dir, env } = cliTempHome('thicket-annotation-cli-');

describe.skipIf(!HAS_SHARED_DATA)('thicket annotation', () => {
  it('imports, proposes, compares, lists and exports a scan’s labels', () => {
    const p = join(dir, 'p.thicket');
    runCliOk(['project', 'create', '--project', p, '--json'], env);
    const log = (runCliOk(['import', dataFile('rellis3d/000104.bin'), '--profile', 'os1-64-2048', '--project', p, '--json'], env).json as { log: number }).log;
    const L = ['--project', p, '--log', String(log)];
    const v1 = runCliOk(['annotation', 'import', dataFile('rellis3d/000104.label'), '--class-map-name', 'rellis3d', ...L, '--json'], env).json as { version: number; points: number; labelled: number };
    expect(v1).toMatchObject({ version: 1, points: 77708 });
    expect(v1.labelled).toBeGreaterThan(60_000);
    const v2 = runCliOk(['annotation', 'propose', ...L, '--json'], env).json as { version: number; ground: number };
    expect(v2.version).toBe(2);
    const cmp = runCliOk(['annotation', 'compare', '--versions', '1,2', ...L, '--json'], env).json as { points: number; perClass: { class: number }[] };
    expect(cmp.points).toBe(77708);
    expect(cmp.perClass.length).toBeGreaterThan(2);
    const list = runCliOk(['annotation', 'list', ...L, '--json'], env).json as { versions: { version: number; source: string }[] };
    expect(list.versions.map((v) => `${v.version}:${v.source}`)).toEqual(['1:import', '2:auto']);
    const out = join(dir, 'v1.label');
    runCliOk(['annotation', 'export', '--format', 'semantic-kitti', '--label-version', '1', '--out', out, ...L, '--json'], env);
    expect(statSync(out).size).toBe(4 * 64 * 2048);
    const again = runCli(['annotation', 'export', '--format', 'semantic-kitti', '--out', out, ...L], env);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('--force');
    const v3 = runCliOk(['annotation', 'import', out, ...L, '--json'], env).json as { version: number };
    const same = runCliOk(['annotation', 'compare', '--versions', `1,${v3.version}`, ...L, '--json'], env).json as { classChanged: number; objectChanged: number };
    expect([same.classChanged, same.objectChanged]).toEqual([0, 0]);
  }, 180_000);

  it('refuses a bad subcommand, format or class map as usage errors', () => {
    const p = join(dir, 'q.thicket');
    runCliOk(['project', 'create', '--project', p, '--json'], env);
    expect(runCli(['annotation', 'bogus', '--project', p, '--log', '1'], env).status).toBe(2);
    expect(runCli(['annotation', 'list', '--project', p], env).status).toBe(2);
    const fmt = runCli(['annotation', 'export', '--project', p, '--log', '1', '--format', 'las', '--out', join(dir, 'x')], env);
    expect(fmt.status).toBe(2);
    expect(fmt.stderr).toContain('not a label format');
    expect(runCli(['annotation', 'import', 'x.label', '--project', p, '--log', '1', '--class-map-name', 'kitti360'], env).status).toBe(2);
  }, 60_000);
});
