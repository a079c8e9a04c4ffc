/**
 * A project saved before a built-in of the same id existed (a custom "vlp32c" imported from a
 * calibration) keeps its own profile: listed once, as custom, and served and used as it was.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { useAppServices } from '../../helpers/app-services';
import { HAS_SHARED_DATA, dataFile } from '../../helpers/shared-data';
import { importCalibration } from '../../../src-worker/sensors/calibration';

const app = useAppServices({ workers: 1, project: 'shadow.thicket' });

describe.skipIf(!HAS_SHARED_DATA)('a custom profile with a built-in’s id', () => {
  it('is listed once, as custom, and is the profile the project gets', async () => {
    const { services } = app;
    // As an older Thicket stored it: the HDL-32E timing guessed for nebula's VLP32.yaml, under the id "vlp32c".
    const old = importCalibration(readFileSync(dataFile('nebula_velodyne/VLP32.yaml'), 'utf8'), 'VLP32.yaml', { id: 'vlp32c', model: 'hdl32e' }).profile;
    services.requireSession().store.profiles.saveCustom('vlp32c', old.name, JSON.stringify(old));
    const list = await services.call('profiles.list', {});
    const rows = list.filter((p) => p.id === 'vlp32c');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ builtin: false, name: 'Velodyne HDL-32E (VLP32.yaml)' });
    const got = await services.call('profiles.get', { id: 'vlp32c' });
    expect(got.builtin).toBe(false);
    expect(got.groups[0]!.firingPeriod).toBeCloseTo(46.08e-6, 15);
    // Used for an import: no conflict with the built-in of that id.
    const { job } = await services.call('logs.importFile', { path: dataFile('rellis3d/vel000104.bin'), profileId: 'vlp32c' });
    expect((await services.whenJobSettled(job.id)).state).toBe('done');
    // Other built-ins are untouched.
    expect(list.filter((p) => p.builtin).length).toBe(36);
  });
});
