/**
 * A stated sensor model (--model) in the checks before an import's job exists: it needs a
 * calibration, it is checked against an Ouster capture's metadata JSON too, and a contradiction
 * is bad input naming the file and the reason (so no log row is ever made).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { prepareImport, type PrepareImportInput } from '../../../src-worker/tasks/prepare-import';
import { HAS_SHARED_DATA, dataFile } from '../../helpers/shared-data';

const text = (rel: string) => ({ name: rel.split('/').pop()!, text: readFileSync(dataFile(rel), 'utf8') });

describe.skipIf(!HAS_SHARED_DATA)('prepare-import with --model', () => {
  const kitti: PrepareImportInput = { name: 'vel000104.bin', path: dataFile('rellis3d/vel000104.bin'), calibration: null, poses: null };
  const ouster: PrepareImportInput = { name: 'lb.pcap', path: dataFile('ouster_sdk/OS-1-128_v2.3.0_1024x10_lb_n3.pcap'), calibration: null, poses: null };

  it('a stated model overrides the calibration’s detected one', () => {
    const r = prepareImport({ ...kitti, calibration: text('velodyne_calib/VeloView-VLP-32C.yaml'), model: 'hdl32e' });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.calibrationProfile!.groups[0]!.firingPeriod).toBeCloseTo(46.08e-6, 15);
    const detected = prepareImport({ ...kitti, calibration: text('velodyne_calib/VeloView-VLP-32C.yaml') });
    if (detected.ok) expect(detected.calibrationProfile!.groups[0]!.firingPeriod).toBeCloseTo(55.296e-6, 15);
  });

  it('without a calibration, or contradicting one, it is bad input naming the file', () => {
    expect(prepareImport({ ...kitti, model: 'vlp32c' })).toEqual({ ok: false, code: 'bad_input', message: 'vel000104.bin: --model vlp32c states the model of a calibration; give the calibration too (--calibration FILE)' });
    expect(prepareImport({ ...kitti, calibration: text('velodyne_calib/VLP16db.yaml'), model: 'hdl64e' })).toEqual({
      ok: false, code: 'bad_input', message: 'VLP16db.yaml: lasers: --model hdl64e has 64 lasers, but the file has 16 (fits: vlp16)',
    });
    expect(prepareImport({ ...kitti, calibration: text('velodyne_calib/VLP16db.yaml'), model: 'puck' })).toMatchObject({ ok: false, code: 'bad_input', message: expect.stringMatching(/^VLP16db\.yaml: unknown sensor model "puck"/) });
  });

  it('an Ouster capture’s metadata JSON is checked against the stated model too', () => {
    const json = text('ouster_sdk/OS-1-128_v2.3.0_1024x10.json');
    expect(prepareImport({ ...ouster, calibration: json, model: 'os1-128' })).toMatchObject({ ok: true, format: 'ouster-pcap', calibrationProfile: null });
    expect(prepareImport({ ...ouster, calibration: json, model: 'os1-128-2048' })).toEqual({
      ok: false, code: 'bad_input', message: "OS-1-128_v2.3.0_1024x10.json: --model os1-128-2048 states 2048 columns, but the capture's packets follow its lidar_mode (1024 columns)",
    });
    expect(prepareImport({ ...ouster, calibration: json, model: 'os1-128-1024' })).toMatchObject({ ok: true });
    expect(prepareImport({ ...ouster, calibration: json, model: 'os1-64' })).toEqual({
      ok: false, code: 'bad_input', message: 'OS-1-128_v2.3.0_1024x10.json: beam_altitude_angles: --model os1-64 has 64 beams, but the file has 128',
    });
  });
});
