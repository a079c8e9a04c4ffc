/**
 * Side files (a calibration, a poses file, an extrinsic, a profile) and the log file itself are
 * read bounded: a device, a named pipe or a socket is refused before it is opened, a file past its
 * kind's limit from its size (docs/drive-logs.md, "Side files"). Each refusal names the file and
 * the reason, and leaves the project unchanged.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectApiError, useAppServices } from '../../helpers/app-services';
import { cliTempHome, runCli } from '../../helpers/cli';
import { syntheticKitti } from '../../helpers/temp';

const MiB = 1024 * 1024;

describe('side files of an import, bounded', () => {
  const fx = useAppServices({ workers: 1, prefix: 'thicket-side-', project: 'side.thicket' });
  const scan = () => {
    const p = join(fx.dir, 'scan.bin');
    writeFileSync(p, syntheticKitti(1000));
    return p;
  };
  /** A sparse file of `bytes` (no disk used). */
  const sparse = (name: string, bytes: number) => {
    const p = join(fx.dir, name);
    closeSync(openSync(p, 'w'));
    truncateSync(p, bytes);
    return p;
  };
  const fifo = (name: string) => {
    const p = join(fx.dir, name);
    expect(spawnSync('mkfifo', [p]).status).toBe(0);
    return p;
  };
  const importFile = (req: Record<string, unknown>) => fx.services.call('logs.importFile', req as never);

  it('refuses a calibration file past 16 MiB from its size', async () => {
    const big = sparse('big-calibration.yaml', 16 * MiB + 1);
    await expectApiError(importFile({ path: scan(), calibrationPath: big }), 'bad_input', `${big}: 16.0 MiB is too large for a calibration file (at most 16 MiB)`);
  });

  it('refuses a poses file past 64 MiB from its size', async () => {
    const big = sparse('big-poses.txt', 64 * MiB + 4096);
    await expectApiError(importFile({ path: scan(), posesPath: big }), 'bad_input', `${big}: 64.0 MiB is too large for a poses file (at most 64 MiB)`);
  });

  it('refuses a device as the calibration, a named pipe as the poses, the log or the extrinsic', async () => {
    await expectApiError(importFile({ path: scan(), calibrationPath: '/dev/zero' }), 'bad_input', '/dev/zero: not a regular file (a device), so it cannot be the calibration file');
    const poses = fifo('poses.fifo');
    await expectApiError(importFile({ path: scan(), posesPath: poses }), 'bad_input', `${poses}: not a regular file (a named pipe), so it cannot be the poses file`);
    const log = fifo('log.fifo');
    await expectApiError(importFile({ path: log }), 'bad_input', `${log}: not a regular file (a named pipe), so it cannot be the drive log`);
    const extrinsic = fifo('extrinsic.fifo');
    await expectApiError(importFile({ path: scan(), extrinsicPath: extrinsic }), 'bad_input', `${extrinsic}: not a regular file (a named pipe), so it cannot be the extrinsic file`);
  });

  it('refuses a device or an oversized file as a profile to import', async () => {
    await expectApiError(fx.services.call('profiles.import', { path: '/dev/zero' }), 'bad_input', '/dev/zero: not a regular file (a device), so it cannot be the calibration file');
    const big = sparse('big-profile.json', 17 * MiB);
    await expectApiError(fx.services.call('profiles.import', { path: big }), 'bad_input', 'too large for a calibration file');
  });

  it('left the project unchanged', async () => {
    expect(await fx.services.call('logs.list', {})).toEqual([]);
    expect(await fx.services.call('jobs.list', {})).toEqual([]);
    expect((await fx.services.call('profiles.list', {})).filter((p) => !p.builtin)).toEqual([]);
  });
});

describe('a study --mounts file, bounded', () => {
  const tmp = cliTempHome('thicket-mounts-');
  const study = (mounts: string) => runCli(['study', '--project', join(tmp.dir, 'none.thicket'), '--scene', '1', '--profiles', 'vlp16', '--mounts', mounts], tmp.env);

  it('refuses a device and a file past 1 MiB with exit 1, naming the file and the reason', () => {
    const dev = study('/dev/zero');
    expect(dev.status).toBe(1);
    expect(dev.stderr).toContain('--mounts /dev/zero: not a regular file (a device), so it cannot be the mounts file');
    const big = join(tmp.dir, 'mounts.json');
    closeSync(openSync(big, 'w'));
    truncateSync(big, 2 * MiB);
    const r = study(big);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`--mounts ${big}: 2 MiB is too large for a mounts file (at most 1 MiB)`);
  });
});
