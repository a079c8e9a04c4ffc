/**
 * Calibration importers on the real files under ../shared/data (skipped, with a message, when
 * that folder is absent) and on broken inputs: exact laser counts, exact per-laser numbers, and
 * errors that name the file, the place and the reason.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { CalibrationError, importCalibration, parseOusterJson, parseVelodyneXml, parseVelodyneYaml, idFromFileName } from '../../../src-worker/sensors/calibration';
import { HDL32E_TIMING, HDL64E_TIMING, VLP16_TIMING } from '../../../src-worker/sensors/devices';
import { HAS_SHARED_DATA, dataFile } from '../../helpers/shared-data';
import { thrownBy } from '../../helpers/errors';

const DEG = Math.PI / 180;
const read = (rel: string) => readFileSync(dataFile(rel), 'utf8');
const elevDeg = (l: { elevation: number }) => l.elevation / DEG;

const failure = (fn: () => unknown): CalibrationError => thrownBy(CalibrationError, fn);

describe.skipIf(!HAS_SHARED_DATA)('calibration files under ../shared/data', () => {
  it('VLP16db.yaml: 16 lasers −15°…+15° every 2°, in firing order, VLP-16 timing', () => {
    const c = parseVelodyneYaml(read('velodyne_calib/VLP16db.yaml'), 'VLP16db.yaml');
    expect(c.lasers).toHaveLength(16);
    expect(c.lasers[0]!.elevation).toBe(-0.2617993877991494);
    expect(c.lasers[1]!.elevation).toBe(0.017453292519943295);
    expect(c.lasers.map((l) => Math.round(elevDeg(l)))).toEqual([-15, 1, -13, 3, -11, 5, -9, 7, -7, 9, -5, 11, -3, 13, -1, 15]);
    const { profile, model } = importCalibration(read('velodyne_calib/VLP16db.yaml'), 'VLP16db.yaml');
    expect(model).toBe('vlp16');
    expect(profile.id).toBe('vlp16db');
    expect(profile.builtin).toBe(false);
    expect(profile.groups[0]!.firingPeriod).toBe(VLP16_TIMING.sequencePeriod);
    expect(profile.groups[0]!.lasers[15]!.timeOffset).toBeCloseTo(15 * 2.304e-6, 15);
    expect(profile.description).toContain('Velodyne VLP-16 (detected from 16 lasers)');
    // The nebula copy of the same calibration gives the same lasers.
    expect(parseVelodyneYaml(read('nebula_velodyne/VLP16.yaml'), 'VLP16.yaml').lasers).toEqual(c.lasers);
  });

  it('32db.yaml and 32db.xml: the same 32 lasers, −30.67°…+10.67°', () => {
    const y = parseVelodyneYaml(read('velodyne_calib/32db.yaml'), '32db.yaml');
    const x = parseVelodyneXml(read('velodyne_calib/32db.xml'), '32db.xml');
    expect(y.lasers).toHaveLength(32);
    expect(x.lasers).toHaveLength(32); // the file holds 64 items, 32 enabled
    expect(y.lasers[0]!.elevation).toBe(-0.5352924815866609);
    expect(elevDeg(x.lasers[0]!)).toBeCloseTo(-30.67, 12);
    expect(elevDeg(x.lasers[1]!)).toBeCloseTo(-9.3299999, 12);
    expect(elevDeg(y.lasers[31]!)).toBeCloseTo(10.67, 6);
    for (let i = 0; i < 32; i++) expect(x.lasers[i]!.elevation).toBeCloseTo(y.lasers[i]!.elevation, 6);
    expect(y.distanceResolution).toBe(0.002);
    expect(x.distanceResolution).toBeCloseTo(0.002, 15); // distLSB_ 0.2 cm
    const { profile, model } = importCalibration(read('velodyne_calib/32db.xml'), '32db.xml');
    expect(model).toBe('hdl32e');
    expect(profile.groups[0]!.firingPeriod).toBe(HDL32E_TIMING.sequencePeriod);
    expect(profile.range).toMatchObject({ min: 1, max: 70 });
  });

  it('64e_s2.1-sztaki: YAML (rad, m) and db.xml (deg, cm) agree on every correction', () => {
    const y = parseVelodyneYaml(read('velodyne_calib/64e_s2.1-sztaki.yaml'), '64e_s2.1-sztaki.yaml');
    const x = parseVelodyneXml(read('velodyne_calib/64e_s2.1-sztaki.xml'), '64e_s2.1-sztaki.xml');
    expect(y.lasers).toHaveLength(64);
    expect(x.lasers).toHaveLength(64);
    expect(y.lasers[0]).toEqual({
      elevation: -0.15304134919741974,
      azimuthOffset: -0.1248942899601548,
      rangeOffset: 1.5195264000000002,
      verticalOffset: 0.19548199,
      horizontalOffset: 0.025999999,
    });
    expect(elevDeg(x.lasers[0]!)).toBeCloseTo(-8.7686234, 12);
    expect(x.lasers[0]!.azimuthOffset / DEG).toBeCloseTo(-7.1559157, 12);
    expect(x.lasers[0]!.rangeOffset).toBeCloseTo(1.5195264, 12);
    for (let i = 0; i < 64; i++) {
      const a = y.lasers[i]!;
      const b = x.lasers[i]!;
      expect(b.elevation).toBeCloseTo(a.elevation, 6);
      expect(b.azimuthOffset).toBeCloseTo(a.azimuthOffset, 6);
      expect(b.rangeOffset).toBeCloseTo(a.rangeOffset, 6);
      expect(b.verticalOffset).toBeCloseTo(a.verticalOffset, 6);
      expect(b.horizontalOffset).toBeCloseTo(a.horizontalOffset, 6);
    }
    const { profile, model } = importCalibration(read('velodyne_calib/64e_s2.1-sztaki.yaml'), '64e_s2.1-sztaki.yaml');
    expect(model).toBe('hdl64e');
    expect(profile.id).toBe('64e-s2-1-sztaki');
    expect(profile.groups.map((g) => [g.name, g.lasers.length, g.firingPeriod])).toEqual([
      ['upper', 32, HDL64E_TIMING.upperPeriod],
      ['lower', 32, HDL64E_TIMING.lowerPeriod],
    ]);
    expect(profile.groups[1]!.lasers[0]!.elevation).toBe(y.lasers[32]!.elevation);
  });

  it('64e_utexas.yaml: 64 lasers without horizontal offsets (they default to 0)', () => {
    const c = parseVelodyneYaml(read('velodyne_calib/64e_utexas.yaml'), '64e_utexas.yaml');
    expect(c.lasers).toHaveLength(64);
    expect(c.lasers[0]).toEqual({ elevation: -0.124932751059532, azimuthOffset: -0.0698131695389748, rangeOffset: 0.100000001490116, verticalOffset: 0, horizontalOffset: 0 });
  });

  it('VLS128.yaml: 128 lasers are a VLS-128 (groups of 8 lasers 2.665 µs apart, 53.3 µs sequences)', () => {
    const { profile, model } = importCalibration(read('velodyne_calib/VLS128.yaml'), 'VLS128.yaml');
    expect(model).toBe('vls128');
    expect(profile.groups[0]!.lasers).toHaveLength(128);
    expect(profile.groups[0]!.firingPeriod).toBeCloseTo(53.3e-6, 12);
    expect(profile.sequencesPerPacket).toBe(3);
    expect(profile.range.resolution).toBe(0.007);
    expect(profile.description).toContain('Velodyne VLS-128 (detected from 128 lasers)');
  });

  it('laser counts that match no model get generic timing, and say so', () => {
    const lasers = Array.from({ length: 24 }, (_, i) => `- {laser_id: ${i}, vert_correction: ${(-0.2 + i * 0.01).toFixed(3)}}`).join('\n');
    const { profile, model } = importCalibration(`lasers:\n${lasers}\n`, 'odd24.yaml');
    expect(model).toBe('generic');
    expect(profile.groups[0]!.lasers).toHaveLength(24);
    expect(profile.description).toContain('24 lasers match no known Velodyne model');
  });

  it('veloview db.xml files: only the enabled lasers', () => {
    expect(parseVelodyneXml(read('veloview/VLP-16.xml'), 'VLP-16.xml').lasers).toHaveLength(16);
    expect(parseVelodyneXml(read('veloview/HDL-32.xml'), 'HDL-32.xml').lasers).toHaveLength(32);
  });

  it('Ouster metadata: nested fw 2.1, flat fw 2.3 and legacy layouts', () => {
    const nested = parseOusterJson(read('ouster_sdk/2_1_2_os1-991913000010-64.json'), 'os1-64.json');
    expect(nested.lasers).toHaveLength(64);
    expect(elevDeg(nested.lasers[0]!)).toBeCloseTo(16.729, 12);
    expect(nested.lasers[0]!.azimuthOffset / DEG).toBeCloseTo(-3.073, 12); // beam azimuth is subtracted
    expect(nested).toMatchObject({ columnsPerTurn: 1024, turnsPerSecond: 10, columnsPerPacket: 16, prodLine: 'OS-1-64', beamOriginMm: 12.163 });
    const flat = parseOusterJson(read('ouster_sdk/OS-1-128_v2.3.0_1024x10.json'), 'os1-128.json');
    expect(flat.lasers).toHaveLength(128);
    expect(elevDeg(flat.lasers[0]!)).toBeCloseTo(20.95, 12);
    expect(flat).toMatchObject({ columnsPerTurn: 1024, turnsPerSecond: 10, prodLine: 'OS-1-128' });
    const legacy = parseOusterJson(read('rust_lidar_utils/ouster_example.json'), 'ouster_example.json');
    expect(legacy.lasers).toHaveLength(64);
    expect(elevDeg(legacy.lasers[63]!)).toBeCloseTo(-16.611999999999998, 12);
    expect(legacy.format).toContain('legacy');

    const { profile, model } = importCalibration(read('ouster_sdk/OS-1-128_v2.3.0_1024x10.json'), 'OS-1-128_v2.3.0_1024x10.json');
    expect(model).toBe('os1-128');
    expect(profile.groups[0]!.firingPeriod).toBeCloseTo(1 / 10240, 15);
    expect(profile.sequencesPerPacket).toBe(16);
    expect(profile.spin).toBe('cw');
    expect(profile.description).toContain('not in the file, assumed'.replace('not', 'Not'));
  });
});

describe('calibration errors name the file, the place and the reason', () => {
  const yaml = (lasers: string) => `lasers:\n${lasers}num_lasers: 2\n`;

  it('YAML syntax errors give the line and column', () => {
    const e = failure(() => parseVelodyneYaml('lasers:\n  - {laser_id: 0, vert_correction: [0.1\n', 'broken.yaml'));
    expect(e.file).toBe('broken.yaml');
    expect(e.place).toMatch(/^line \d+, column \d+$/);
    expect(e.message).toMatch(/^broken\.yaml: line \d+, column \d+: not valid YAML: /);
    expect(failure(() => parseVelodyneYaml('lasers:\n  - laser_id: 0\n  vert: [\n', 'b.yaml')).message).toMatch(/^b\.yaml: line [23], column \d+: not valid YAML/);
  });

  it('YAML fields: key path and line', () => {
    const text = yaml('- {laser_id: 0, vert_correction: 0.1}\n- {laser_id: 1, vert_correction: "up"}\n');
    expect(failure(() => parseVelodyneYaml(text, 'x.yaml')).message).toBe('x.yaml: lasers[1].vert_correction (line 3): expected a number in radians, got "up"');
    const degrees = yaml('- {laser_id: 0, vert_correction: -15}\n- {laser_id: 1, vert_correction: 1}\n');
    expect(failure(() => parseVelodyneYaml(degrees, 'x.yaml')).message).toMatch(/lasers\[0\]\.vert_correction \(line 2\): -15 is outside ±1\.57\d+ radians \(is this file in degrees\?/);
    const gap = yaml('- {laser_id: 0, vert_correction: 0.1}\n- {laser_id: 2, vert_correction: 0.1}\n');
    expect(failure(() => parseVelodyneYaml(gap, 'x.yaml')).message).toContain('laser ids must run 0…1 without gaps; laser 1 is missing');
    const count = 'lasers:\n- {laser_id: 0, vert_correction: 0.1}\nnum_lasers: 2\n';
    expect(failure(() => parseVelodyneYaml(count, 'x.yaml')).message).toBe('x.yaml: num_lasers (line 3): says 2 lasers but the list has 1');
    expect(failure(() => parseVelodyneYaml('foo: 1\n', 'x.yaml')).message).toBe('x.yaml: no `lasers` list: not a ROS velodyne calibration YAML');
    const missing = 'lasers:\n- {laser_id: 0, rot_correction: 0.1}\n';
    expect(failure(() => parseVelodyneYaml(missing, 'x.yaml')).message).toBe('x.yaml: lasers[0].vert_correction: missing (expected a number in radians)');
  });

  it('db.xml: syntax errors by line, fields by key path and line', () => {
    expect(failure(() => parseVelodyneXml('<DB>\n<points_>\n</DB>', 'db.xml')).message).toMatch(/^db\.xml: line 3, column \d+: not valid XML: /);
    const px = (id: number, vert: string) => `<item><px><id_>${id}</id_><rotCorrection_>0</rotCorrection_><vertCorrection_>${vert}</vertCorrection_></px></item>`;
    const doc = `<boost_serialization>\n<DB>\n<points_>\n${px(0, '-15')}\n${px(1, 'abc')}\n</points_>\n</DB>\n</boost_serialization>`;
    expect(failure(() => parseVelodyneXml(doc, 'db.xml')).message).toBe('db.xml: DB.points_.item[1].px.vertCorrection_ (line 5): expected a number in degrees, got "abc"');
    expect(failure(() => parseVelodyneXml('<root/>', 'db.xml')).message).toBe('db.xml: no <DB> element: not a Velodyne db.xml calibration');
  });

  it('Ouster JSON: syntax by line and column, fields by key path', () => {
    expect(failure(() => parseOusterJson('{\n "beam_altitude_angles": [1, 2,]\n}', 'o.json')).message).toBe("o.json: invalid JSON at line 2, column 32: expected a value, found ']'");
    const uneven = JSON.stringify({ beam_altitude_angles: [1, 2, 3], beam_azimuth_angles: [0, 0], lidar_mode: '1024x10' });
    expect(failure(() => parseOusterJson(uneven, 'o.json')).message).toBe('o.json: beam_azimuth_angles: has 2 entries but beam_altitude_angles has 3');
    const mode = JSON.stringify({ beam_intrinsics: { beam_altitude_angles: [1], beam_azimuth_angles: [0] }, config_params: { lidar_mode: 'fast' } });
    expect(failure(() => parseOusterJson(mode, 'o.json')).message).toBe('o.json: config_params.lidar_mode: expected a mode like "1024x10" (columns per turn × turns per second), got "fast"');
    const angle = JSON.stringify({ beam_altitude_angles: [1, 'x'], beam_azimuth_angles: [0, 0] });
    expect(failure(() => parseOusterJson(angle, 'o.json')).message).toBe('o.json: beam_altitude_angles[1]: expected a number in degrees, got "x"');
  });

  it('unknown formats and ids', () => {
    expect(failure(() => importCalibration('hello', 'notes.txt')).message).toContain('notes.txt: unknown calibration format');
    expect(idFromFileName('/a/b/64e_s2.1-sztaki.yaml')).toBe('64e-s2-1-sztaki');
    expect(idFromFileName('VLP16db.yaml')).toBe('vlp16db');
    expect(idFromFileName('___.yaml')).toBe('imported');
  });
});
