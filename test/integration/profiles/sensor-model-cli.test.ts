/**
 * Sensor models as a user meets them (bin/thicket.js in a child process, real files in
 * ../shared/data): `profile import` detects the model, `--model` states it on `profile import`
 * and on `import --calibration`, a contradiction fails with the file and the reason and leaves
 * the project unchanged, and an organised scan imports its empty cells as misses.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { cliTempHome, runCli, runCliOk } from '../../helpers/cli';
import { HAS_SHARED_DATA, dataFile } from '../../helpers/shared-data';

const tmp = cliTempHome('thicket-sensor-model-cli-');
const { env } = tmp;

interface FileForm {
  id: string;
  name: string;
  range: { max: number };
  sequencesPerPacket: number;
  groups: { firingPeriod: number; lasers: { timeOffset: number }[] }[];
  description: string;
}

describe.skipIf(!HAS_SHARED_DATA)('thicket --model and detected sensor models', () => {
  const project = join(tmp.dir, 'models.thicket');

  it('profile import VeloView-VLP-32C.yaml gives a VLP-32C (55.296 µs, paired firings, 200 m); --model hdl32e states otherwise', () => {
    const r = runCliOk(['profile', 'import', dataFile('velodyne_calib/VeloView-VLP-32C.yaml'), '--json'], env);
    const p = r.json as FileForm;
    expect(p.name).toBe('Velodyne VLP-32C (VeloView-VLP-32C.yaml)');
    expect(p.groups[0]!.firingPeriod).toBe(0.055296); // ms in the file form
    expect(p.groups[0]!.lasers.slice(0, 4).map((l) => l.timeOffset)).toEqual([0, 0, 0.002304, 0.002304]);
    expect(p.range.max).toBe(200);
    expect(r.stderr).toContain('model vlp32c');
    const stated = runCliOk(['profile', 'import', dataFile('velodyne_calib/VeloView-VLP-32C.yaml'), '--model', 'hdl32e', '--json'], env);
    expect((stated.json as FileForm).groups[0]!.firingPeriod).toBe(0.04608);
    expect(stated.stderr).toContain('model hdl32e, stated');
  });

  it('profile import VLS128.yaml gives a VLS-128; a contradicting --model fails with the reason', () => {
    const p = runCliOk(['profile', 'import', dataFile('velodyne_calib/VLS128.yaml'), '--json'], env).json as FileForm;
    expect(p.name).toBe('Velodyne VLS-128 (VLS128.yaml)');
    expect(p.groups[0]!.firingPeriod).toBeCloseTo(0.0533, 12);
    expect(p.sequencesPerPacket).toBe(3);
    const bad = runCli(['profile', 'import', dataFile('velodyne_calib/VLS128.yaml'), '--model', 'vlp32c', '--json'], env);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('VLS128.yaml: lasers: --model vlp32c has 32 lasers, but the file has 128 (fits: vls128)');
  });

  it('import --calibration --model: a contradiction leaves the project unchanged; a stated model decodes', () => {
    runCliOk(['project', 'create', '--project', project, '--json'], env);
    const bad = runCli(['import', dataFile('rellis3d/vel000104.bin'), '--project', project, '--calibration', dataFile('velodyne_calib/VeloView-VLP-32C.yaml'), '--model', 'vlp16', '--json'], env);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('VeloView-VLP-32C.yaml: lasers: --model vlp16 has 16 lasers, but the file has 32');
    const info = runCliOk(['project', 'info', '--project', project, '--json'], env).json as { counts: { driveLogs: number } };
    expect(info.counts.driveLogs).toBe(0);
    const ok = runCliOk(['import', dataFile('rellis3d/vel000104.bin'), '--project', project, '--calibration', dataFile('velodyne_calib/VeloView-VLP-32C.yaml'), '--model', 'vlp32c', '--json'], env);
    const r = ok.json as { hits: number; misses: number; rebuiltMisses: number };
    // The RELLIS-3D VLP-32C scan: 37,334 hits; its misses rebuilt on the VLP-32C's 1,809 firings a turn.
    expect(r.hits).toBe(37_334);
    expect(r.rebuiltMisses).toBe(r.misses);
    expect(r.hits + r.misses).toBeGreaterThan(0.95 * 32 * 1809);
    expect(r.hits + r.misses).toBeLessThan(1.05 * 32 * 1809);
  });

  it('the built-in vlp32c decodes nebula’s VLP-32C bag as its own calibration does', () => {
    const bag = dataFile('nebula_velodyne/vlp32/1713492677464078412_0.db3');
    const builtin = runCliOk(['import', bag, '--project', project, '--profile', 'vlp32c', '--json'], env).json as Record<string, number>;
    const calibrated = runCliOk(['import', bag, '--project', project, '--calibration', dataFile('nebula_velodyne/VLP32.yaml'), '--json'], env).json as Record<string, number>;
    expect(builtin.hits).toBeGreaterThan(26_216); // nebula's PCD keeps 26,216 after its range filters
    expect({ hits: builtin.hits, misses: builtin.misses, packets: builtin.packets }).toEqual({ hits: calibrated.hits, misses: calibrated.misses, packets: calibrated.packets });
  });

  it('import of the organised RELLIS-3D OS1-64 scan with os1-64-2048: 131,072 rays, its zero cells as misses, none rebuilt', () => {
    const ok = runCliOk(['import', dataFile('rellis3d/000104.bin'), '--project', project, '--profile', 'os1-64-2048', '--json'], env);
    expect(ok.json).toMatchObject({ packets: 1, hits: 77_708, misses: 53_364, rebuiltMisses: 0 });
  });
});
