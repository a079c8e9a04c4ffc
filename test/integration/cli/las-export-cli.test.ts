/**
 * `thicket export --format las --las-version 1.2`: LAS 1.2 point format 3, read by loaders.gl's
 * default decoder (which refuses 1.4); a version other than 1.2 or 1.4, or the flag on another
 * format, is a usage error (exit 2) naming the flag.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliTempHome, runCli, runCliOk } from '../../helpers/cli';
import { dataFile, HAS_SHARED_DATA } from '../../helpers/shared-data';
import { readLasBySpec, readWithLoadersGl } from '../../helpers/las-readers';

const { dir, env } = cliTempHome('thicket-las-cli-');

describe.skipIf(!HAS_SHARED_DATA)('thicket export --las-version', () => {
  it('writes LAS 1.2 point format 3 on request and refuses what it cannot write', async () => {
    const p = join(dir, 'p.thicket');
    runCliOk(['project', 'create', '--project', p, '--json'], env);
    const imported = runCliOk(['import', dataFile('lidR_als/MixedConifer.laz'), '--project', p, '--json'], env).json as { log: number };
    const out = join(dir, 'mixed.las');
    runCliOk(['export', '--project', p, '--log', String(imported.log), '--format', 'las', '--las-version', '1.2', '--out', out, '--json'], env);
    const bytes = new Uint8Array(readFileSync(out));
    const spec = readLasBySpec(bytes);
    expect([spec.version, spec.pointFormat, spec.count]).toEqual(['1.2', 3, 37657]);
    const las = await readWithLoadersGl(bytes, 'laz-perf');
    expect(las.classification.filter((c) => c === 2).length).toBe(5820);

    const bad = runCli(['export', '--project', p, '--log', String(imported.log), '--format', 'las', '--las-version', '1.3', '--out', join(dir, 'x.las')], env);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--las-version: give 1\.2 \(point format 3\) or 1\.4/);
    const ply = runCli(['export', '--project', p, '--log', String(imported.log), '--format', 'ply', '--las-version', '1.2', '--out', join(dir, 'x.ply')], env);
    expect(ply.status).toBe(2);
  }, 120_000);
});
