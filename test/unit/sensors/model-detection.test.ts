/**
 * Sensor model detection from every real calibration file under ../shared/data (skipped, with a
 * message, when that folder is absent), the model's timing and range in the profile, and the
 * stated model (--model): overriding detection, and refused where it contradicts the file.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { CalibrationError, importCalibration } from '../../../src-worker/sensors/calibration';
import { vlp32cLaserTime, vls128LaserTime } from '../../../src-worker/sensors/devices';
import { parseSensorModel } from '../../../src-worker/sensors/models';
import { HAS_SHARED_DATA, dataFile } from '../../helpers/shared-data';
import { thrownBy } from '../../helpers/errors';

const read = (rel: string) => readFileSync(dataFile(rel), 'utf8');
const load = (rel: string, model?: string) => importCalibration(read(rel), rel.split('/').pop()!, model ? { model } : {});
const US = 1e-6;

/** Each real calibration file and the model it must be detected as, with its laser count. */
const FILES: [string, string, number][] = [
  ['velodyne_calib/VLP16db.yaml', 'vlp16', 16],
  ['velodyne_calib/VLP16_hires_db.yaml', 'vlp16', 16],
  ['velodyne_calib/32db.yaml', 'hdl32e', 32],
  ['velodyne_calib/32db.xml', 'hdl32e', 32],
  ['velodyne_calib/VeloView-VLP-32C.yaml', 'vlp32c', 32],
  ['velodyne_calib/64e_s2.1-sztaki.yaml', 'hdl64e', 64],
  ['velodyne_calib/64e_s2.1-sztaki.xml', 'hdl64e', 64],
  ['velodyne_calib/64e_s3-xiesc.yaml', 'hdl64e', 64],
  ['velodyne_calib/64e_utexas.yaml', 'hdl64e', 64],
  ['velodyne_calib/VLS128.yaml', 'vls128', 128],
  ['nebula_velodyne/VLP16.yaml', 'vlp16', 16],
  ['nebula_velodyne/VLP32.yaml', 'vlp32c', 32],
  ['nebula_velodyne/HDL32.yaml', 'hdl32e', 32],
  ['nebula_velodyne/HDL64e_s2.yaml', 'hdl64e', 64],
  ['nebula_velodyne/HDL64e_s3.yaml', 'hdl64e', 64],
  ['nebula_velodyne/VLS128.yaml', 'vls128', 128],
  ['veloview/VLP-16.xml', 'vlp16', 16],
  ['veloview/HDL-32.xml', 'hdl32e', 32],
  ['ouster_sdk/OS-1-128_v2.3.0_1024x10.json', 'os1-128', 128],
  ['ouster_sdk/2_1_2_os1-991913000010-64.json', 'os1-64', 64],
  ['rust_lidar_utils/ouster_example.json', 'os1-64', 64],
];

describe.skipIf(!HAS_SHARED_DATA)('the sensor model of every real calibration file', () => {
  for (const [file, model, lasers] of FILES) {
    it(`${file} → ${model}`, () => {
      const r = load(file);
      expect(r.model).toBe(model);
      expect(r.stated).toBe(false);
      expect(r.profile.groups.reduce((n, g) => n + g.lasers.length, 0)).toBe(lasers);
      expect(r.profile.description).toContain(model.startsWith('os') ? `model ${model}` : 'detected from');
    });
  }

  it('VeloView-VLP-32C.yaml: a VLP-32C — paired firings 2.304 µs apart, 55.296 µs sequences, 200 m', () => {
    const { profile } = load('velodyne_calib/VeloView-VLP-32C.yaml');
    expect(profile.name).toBe('Velodyne VLP-32C (VeloView-VLP-32C.yaml)');
    const g = profile.groups[0]!;
    expect(g.firingPeriod).toBeCloseTo(55.296 * US, 15);
    // Channels 2k and 2k + 1 fire together; the 16th pair at 15 · 2.304 µs.
    expect(g.lasers[0]!.timeOffset).toBe(0);
    expect(g.lasers[1]!.timeOffset).toBe(0);
    expect(g.lasers[2]!.timeOffset).toBeCloseTo(2.304 * US, 15);
    expect(g.lasers[31]!.timeOffset).toBeCloseTo(15 * 2.304 * US, 15);
    expect(g.lasers.map((_, i) => vlp32cLaserTime(i))).toEqual(g.lasers.map((l) => l.timeOffset));
    expect(profile.range.max).toBe(200);
    expect(profile.sequencesPerPacket).toBe(12);
  });

  it('VLS128.yaml: a VLS-128 — groups of 8 lasers 2.665 µs apart, a maintenance slot after group 8, 53.3 µs sequences, 245 m', () => {
    const { profile } = load('velodyne_calib/VLS128.yaml');
    const g = profile.groups[0]!;
    expect(g.firingPeriod).toBeCloseTo(53.3 * US, 15);
    expect(g.lasers[7]!.timeOffset).toBe(0);
    expect(g.lasers[8]!.timeOffset).toBeCloseTo(2.665 * US, 15);
    expect(g.lasers[63]!.timeOffset).toBeCloseTo(7 * 2.665 * US, 15);
    expect(g.lasers[64]!.timeOffset).toBeCloseTo(9 * 2.665 * US, 15); // group 8 waits one slot
    expect(g.lasers[127]!.timeOffset).toBeCloseTo(16 * 2.665 * US, 15);
    expect(vls128LaserTime(127)).toBeLessThan(53.3 * US);
    expect(profile.range.max).toBe(245);
    expect(profile.sequencesPerPacket).toBe(3);
  });

  it('Ouster: the product line, beam count and lidar_mode; a legacy file by its field of view', () => {
    const os128 = load('ouster_sdk/OS-1-128_v2.3.0_1024x10.json');
    expect(os128.profile.groups[0]!.firingPeriod).toBeCloseTo(1 / 10240, 15);
    expect(os128.profile.range.max).toBe(120);
    expect(os128.profile.description).toContain('prod_line OS-1-128');
    const legacy = load('rust_lidar_utils/ouster_example.json');
    expect(legacy.profile.description).toMatch(/no prod_line; a 33\.\d° vertical field of view/);
  });

  it('a stated model overrides detection', () => {
    const r = load('velodyne_calib/32db.yaml', 'vlp32c');
    expect(r).toMatchObject({ model: 'vlp32c', stated: true });
    expect(r.profile.groups[0]!.firingPeriod).toBeCloseTo(55.296 * US, 15);
    expect(r.profile.description).toContain('stated (--model vlp32c)');
    const os = load('rust_lidar_utils/ouster_example.json', 'os1-64-2048');
    expect(os).toMatchObject({ model: 'os1-64', stated: true });
    expect(os.profile.groups[0]!.firingPeriod).toBeCloseTo(1 / 20480, 15);
    expect(os.profile.description).toContain("mode 2048x10, stated; the file's lidar_mode is 1024x10");
  });

  it('a stated model that contradicts the file is a clear error', () => {
    const e = thrownBy(CalibrationError, () => load('velodyne_calib/VLP16db.yaml', 'vlp32c'));
    expect(e.message).toBe('VLP16db.yaml: lasers: --model vlp32c has 32 lasers, but the file has 16 (fits: vlp16)');
    expect(thrownBy(CalibrationError, () => load('ouster_sdk/OS-1-128_v2.3.0_1024x10.json', 'os1-64')).message).toBe(
      'OS-1-128_v2.3.0_1024x10.json: beam_altitude_angles: --model os1-64 has 64 beams, but the file has 128',
    );
    expect(thrownBy(CalibrationError, () => load('ouster_sdk/OS-1-128_v2.3.0_1024x10.json', 'os2-128')).message).toBe(
      'OS-1-128_v2.3.0_1024x10.json: prod_line: --model os2-128 is an OS2, but the file says OS-1-128',
    );
    expect(thrownBy(CalibrationError, () => load('velodyne_calib/32db.yaml', 'os1-32')).message).toContain('--model os1-32 is an Ouster model, but this is a Velodyne calibration');
    expect(thrownBy(CalibrationError, () => load('velodyne_calib/32db.yaml', 'hdl-32')).message).toMatch(/^32db\.yaml: unknown sensor model "hdl-32" \(--model\): expected one of vlp16, vlp32c, hdl32e/);
  });
});

describe('ambiguous calibrations and model ids', () => {
  it('32 lasers whose span fits neither the HDL-32E nor the VLP-32C: says which models share the count and asks for --model', () => {
    const lasers = Array.from({ length: 32 }, (_, i) => `- {laser_id: ${i}, vert_correction: ${((-28 + (40 * i) / 31) * Math.PI / 180).toFixed(6)}}`).join('\n');
    const e = thrownBy(CalibrationError, () => importCalibration(`lasers:\n${lasers}\n`, 'odd32.yaml'));
    expect(e.message).toBe(
      'odd32.yaml: lasers: 32 lasers from −28.00° to +12.00° fit none of the 32-laser models vlp32c (−25.00° … +15.00°), hdl32e (−30.67° … +10.67°); state the model with --model vlp32c|hdl32e',
    );
    expect(importCalibration(`lasers:\n${lasers}\n`, 'odd32.yaml', { model: 'hdl32e' }).model).toBe('hdl32e');
  });

  it('parses model ids with and without an Ouster column mode', () => {
    expect(parseSensorModel('VLP32C')).toEqual({ vendor: 'velodyne', model: 'vlp32c' });
    expect(parseSensorModel('os0-128-512')).toEqual({ vendor: 'ouster', line: 'os0', beams: 128, columns: 512 });
    expect(parseSensorModel('os2-64')).toEqual({ vendor: 'ouster', line: 'os2', beams: 64, columns: null });
    expect(parseSensorModel('os1-48')).toBeNull();
    expect(parseSensorModel('os1-64-4096')).toBeNull();
  });
});
