/**
 * The profile-read task (what `thicket profile import` and *Import calibration…* run) with a
 * stated model: passed to the calibration importer, reported back, refused for a Thicket profile
 * JSON (which states its own timing), and every refusal answered as `{ error }` naming the file.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { profileReadTask } from '../../../src-worker/tasks/profile-read';
import { toProfileFile } from '../../../src-common/sensor-profile-schema';
import { builtinProfile } from '../../../src-common/builtin-profiles';
import { HAS_SHARED_DATA, dataFile } from '../../helpers/shared-data';

describe('profile-read with --model', () => {
  it.skipIf(!HAS_SHARED_DATA)('detected, stated, and a contradiction as { error }', () => {
    const text = readFileSync(dataFile('velodyne_calib/VeloView-VLP-32C.yaml'), 'utf8');
    expect(profileReadTask({ text, name: 'VeloView-VLP-32C.yaml' })).toMatchObject({ model: 'vlp32c', format: 'ROS velodyne calibration YAML' });
    expect(profileReadTask({ text, name: 'VeloView-VLP-32C.yaml', model: 'hdl32e' })).toMatchObject({ model: 'hdl32e' });
    expect(profileReadTask({ text, name: 'VeloView-VLP-32C.yaml', model: 'vls128' })).toEqual({ error: 'VeloView-VLP-32C.yaml: lasers: --model vls128 has 128 lasers, but the file has 32 (fits: vlp32c)' });
  });

  it('a Thicket profile JSON states its own timing: --model is refused', () => {
    const text = JSON.stringify(toProfileFile(builtinProfile('vlp16')!));
    expect(profileReadTask({ text, name: 'mine.json' })).toMatchObject({ model: 'file', format: 'Thicket profile JSON' });
    expect(profileReadTask({ text, name: 'mine.json', model: 'vlp16' })).toEqual({ error: 'mine.json: --model vlp16 applies to calibration files; a Thicket profile JSON states its own timing' });
  });
});
