import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProfileError, fromProfileFile, parseJsonText, parseProfileJson, quaternionToRpy, rpyToQuaternion, toProfileFile, validateProfile, validateProfileFile, type ProfileFileInput } from '../../../src-common/sensor-profile-schema';
import { BUILTIN_FILE_IDS, BUILTIN_IDS, builtinProfile, builtinProfiles } from '../../../src-common/builtin-profiles';
import { REPO_ROOT } from '../../helpers/shared-data';
import { thrownBy } from '../../helpers/errors';

const minimal = (): ProfileFileInput => ({
  format: 'thicket-sensor-profile',
  version: 1,
  id: 'my-lidar',
  name: 'My lidar',
  kind: 'spinning',
  rotationHz: 10,
  range: { min: 0.5, max: 80 },
  beam: { shape: 'circular', divergenceH: 3, divergenceV: 3 },
  returns: { mode: 'strongest', signalCutoff: 1 },
  groups: [{ name: 'lasers', firingPeriod: 0.05, lasers: [{ elevation: -10 }, { elevation: 0, timeOffset: 0.002 }, { elevation: 5, timeOffset: 0.004 }, { elevation: 10, timeOffset: 0.006 }] }],
});

const errorOf = (fn: () => unknown): ProfileError => thrownBy(ProfileError, fn);

describe('profile file schema', () => {
  it('fills defaults and converts degrees/ms/mrad to SI and back', () => {
    const file = validateProfileFile(minimal());
    expect(file.units).toEqual({ angle: 'deg', time: 'ms', rate: 'Hz', length: 'm', divergence: 'mrad' });
    expect(file.mount).toEqual({ xyz: [0, 0, 2], rpy: [0, 0, 0] });
    expect(file.azimuthStart).toBe(0);
    expect(file.azimuthEnd).toBe(360);
    expect(file.sequencesPerPacket).toBe(12);
    const si = fromProfileFile(file);
    expect(si.groups[0]!.firingPeriod).toBeCloseTo(50e-6, 15);
    expect(si.groups[0]!.lasers[1]!.timeOffset).toBeCloseTo(2e-6, 15);
    expect(si.groups[0]!.lasers[0]!.elevation).toBeCloseTo((-10 * Math.PI) / 180, 15);
    expect(si.beam.divergenceH).toBeCloseTo(3e-3, 15);
    expect(si.azimuthEnd).toBeCloseTo(2 * Math.PI, 15);
    expect(si.mount).toEqual([0, 0, 2, 0, 0, 0, 1]);
    expect(validateProfile(si)).toEqual(si);
    const back = toProfileFile(si);
    expect(back).toEqual(file);
  });

  it('names the field path and the reason of every problem', () => {
    const bad = minimal();
    bad.groups[0]!.lasers[3]!.elevation = 120;
    const e = errorOf(() => validateProfileFile(bad));
    expect(e.message).toBe('groups[0].lasers[3].elevation: expected a number between -90 and 90 degrees, got 120');
    expect(e.issues).toEqual([{ path: 'groups[0].lasers[3].elevation', reason: 'expected a number between -90 and 90 degrees, got 120' }]);

    const many = { ...minimal(), name: undefined, rotationHz: 'fast', beam: { shape: 'round', divergenceH: 3, divergenceV: 3, color: 'red' }, range: { min: 10, max: 5 } };
    const m = errorOf(() => validateProfileFile(many));
    expect(m.issues).toEqual(
      expect.arrayContaining([
        { path: 'name', reason: 'is missing (expected a non-empty text of at most 200 characters)' },
        { path: 'rotationHz', reason: 'expected a number greater than 0 and at most 200 Hz, got "fast"' },
        { path: 'beam.shape', reason: 'expected one of "circular", "rectangular", "elliptical", got "round"' },
        { path: 'beam.color', reason: 'unknown field' },
      ]),
    );
  });

  it('checks fields against each other', () => {
    const range = { ...minimal(), range: { min: 10, max: 5 } };
    expect(errorOf(() => validateProfileFile(range)).message).toBe('range.max: must be greater than range.min (10 m)');
    const late = minimal();
    late.groups[0]!.lasers[2]!.timeOffset = 0.05;
    expect(errorOf(() => validateProfileFile(late)).message).toBe("groups[0].lasers[2].timeOffset: must be less than the group's firingPeriod (0.05 ms), got 0.05");
    const window = { ...minimal(), azimuthStart: 90, azimuthEnd: 45 };
    expect(errorOf(() => validateProfileFile(window)).message).toContain('azimuthEnd: must be greater than azimuthStart (90 degrees)');
    const dense = { ...minimal(), rotationHz: 0.001 };
    expect(errorOf(() => validateProfileFile(dense)).message).toMatch(/^rotationHz: one revolution would fire 80,000,000 rays/);
    const units = { ...minimal(), units: { angle: 'rad', time: 'ms', rate: 'Hz', length: 'm', divergence: 'mrad' } };
    expect(errorOf(() => validateProfileFile(units)).message).toBe('units.angle: expected "deg"');
    expect(errorOf(() => validateProfileFile({ ...minimal(), id: 'My Lidar' })).message).toMatch(/^id: expected lowercase letters, digits and dashes/);
    expect(errorOf(() => validateProfileFile({ ...minimal(), groups: [] })).message).toBe('groups: expected 1 to 16 laser groups, got 0');
  });

  it('checks SI profiles in SI units', () => {
    const si = fromProfileFile(validateProfileFile(minimal()));
    si.groups[0]!.lasers[0]!.elevation = 2;
    si.mount = [0, 0, 2, 0, 0, 0.5, 0.5];
    const e = errorOf(() => validateProfile(si));
    expect(e.issues).toEqual([
      { path: 'groups[0].lasers[0].elevation', reason: 'expected a number between -1.5708 and 1.5708 rad, got 2' },
      { path: 'mount', reason: 'the rotation quaternion must have unit length, got 0.707107' },
    ]);
  });

  it('reports invalid JSON with its line and column', () => {
    const text = '{\n  "format": "thicket-sensor-profile",\n  "version": 1,\n  "id": "x",,\n}';
    expect(errorOf(() => parseProfileJson(text, 'mine.json')).message).toBe("mine.json: invalid JSON at line 4, column 13: expected a field name in double quotes, found ','");
    expect(errorOf(() => parseJsonText('{"a": [1, 2', 'f.json')).message).toBe("f.json: invalid JSON at line 1, column 12: expected ',' or ']', found the end of the file");
    expect(errorOf(() => parseJsonText('{"a": "x\ny"}', 'f.json')).message).toMatch(/line 1, column 9: a control character/);
    // A valid file parses through the same path.
    expect(parseProfileJson(JSON.stringify(minimal()), 'mine.json').id).toBe('my-lidar');
  });

  it('converts roll/pitch/yaw to quaternions and back', () => {
    for (const [r, p, y] of [
      [0, 0, 0],
      [10, -20, 30],
      [-170, 45, 179],
      [0, 0, -90],
    ] as const) {
      const q = rpyToQuaternion((r * Math.PI) / 180, (p * Math.PI) / 180, (y * Math.PI) / 180);
      expect(Math.hypot(...q)).toBeCloseTo(1, 12);
      expect(q[3]).toBeGreaterThanOrEqual(0);
      const back = quaternionToRpy(...q).map((a) => (a * 180) / Math.PI);
      expect(back[0]).toBeCloseTo(r, 9);
      expect(back[1]).toBeCloseTo(p, 9);
      expect(back[2]).toBeCloseTo(y, 9);
    }
    // Yaw 90°: x forward → y.
    const q = rpyToQuaternion(0, 0, Math.PI / 2);
    expect(q[2]).toBeCloseTo(Math.SQRT1_2, 12);
    expect(q[3]).toBeCloseTo(Math.SQRT1_2, 12);
  });
});

describe('built-in profiles', () => {
  const dir = join(REPO_ROOT, 'resources/profiles');

  it('every file in resources/profiles validates and is bundled', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files.sort()).toEqual(BUILTIN_FILE_IDS.map((id) => `${id}.json`).sort());
    for (const f of files) {
      const file = validateProfileFile(JSON.parse(readFileSync(join(dir, f), 'utf8')), f);
      expect(`${file.id}.json`).toBe(f);
      const si = fromProfileFile(file, true);
      expect(validateProfile(si)).toEqual(si);
    }
  });

  it('holds the LMS-291 modes, the VLP-16, VLP-32C, HDL-32E, HDL-64E, VLS-128 and the Ouster OS0 / OS1 / OS2 in three column modes', () => {
    const ouster = ['os0', 'os1', 'os2'].flatMap((l) => [32, 64, 128].flatMap((b) => [`${l}-${b}`, `${l}-${b}-512`, `${l}-${b}-2048`]));
    expect([...BUILTIN_IDS].sort()).toEqual(
      ['hdl32e', 'hdl64e', 'lms291-100-025', 'lms291-100-05', 'lms291-100-1', 'lms291-180-05', 'lms291-180-1', 'vlp16', 'vlp32c', 'vls128', ...ouster].sort(),
    );
    for (const p of builtinProfiles()) {
      expect(p.builtin).toBe(true);
      expect(p.mount).toEqual([0, 0, 2, 0, 0, 0, 1]);
      expect(Object.isFrozen(p)).toBe(true);
    }
    const hdl64 = builtinProfile('hdl64e')!;
    expect(hdl64.groups.map((g) => [g.name, g.lasers.length])).toEqual([
      ['upper', 32],
      ['lower', 32],
    ]);
    expect(hdl64.groups[1]!.firingPeriod / hdl64.groups[0]!.firingPeriod).toBeCloseTo(3, 12);
    expect(hdl64.range).toMatchObject({ min: 1, max: 100, resolution: 0.002 });
    const hdl32 = builtinProfile('hdl32e')!;
    expect(hdl32.range).toMatchObject({ min: 1, max: 70 });
    expect(hdl32.beam).toEqual({ shape: 'rectangular', divergenceH: 3.3e-3, divergenceV: 0.7e-3 });
    expect(hdl32.returns.signalCutoff).toBe(1);
    const lms = builtinProfile('lms291-100-05')!;
    expect(lms).toMatchObject({ kind: 'planar', rotationHz: 37.5, returns: { mode: 'first', signalCutoff: 1.6 }, range: { max: 80 } });
    expect(lms.beam).toEqual({ shape: 'circular', divergenceH: 12.9e-3, divergenceV: 12.9e-3 });
    expect((lms.azimuthStart * 180) / Math.PI).toBeCloseTo(-50, 9);
    // A copy: callers may change it without touching the bundle.
    lms.name = 'changed';
    expect(builtinProfile('lms291-100-05')!.name).not.toBe('changed');
  });
});
