/**
 * Sensor profiles through the services (the same dispatch the IPC and WebSocket bindings use):
 * built-ins without a project, custom profiles saved/replaced/deleted in a project, calibration
 * import from a real file, beam patterns, and errors that name the field or the file.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProfileFile } from '../../../src-common/sensor-profile';
import { resolveProfileForUse } from '../../../src-main/services/profiles-service';
import { BUILTIN_IDS } from '../../../src-common/builtin-profiles';
import { HAS_SHARED_DATA, dataFile } from '../../helpers/shared-data';
import { useAppServices, expectApiError } from '../../helpers/app-services';

const app = useAppServices({ workers: 1, prefix: 'thicket-profiles-' });
const project = join(app.dir, 'sensors.thicket');

const custom = (): ProfileFile => ({
  format: 'thicket-sensor-profile',
  version: 1,
  units: { angle: 'deg', time: 'ms', rate: 'Hz', length: 'm', divergence: 'mrad' },
  id: 'bench-4',
  name: 'Bench 4-beam',
  description: 'a test profile',
  kind: 'spinning',
  rotationHz: 20,
  azimuthStart: 0,
  azimuthEnd: 360,
  range: { min: 0.3, max: 40, resolution: 0.01, noiseSigma: 0.02 },
  beam: { shape: 'circular', divergenceH: 2, divergenceV: 2 },
  returns: { mode: 'last', signalCutoff: 0.5 },
  intensity: { model: 'lambertian', scale: 1, rangeFalloff: true },
  mount: { xyz: [0.5, 0, 1.5], rpy: [0, 5, 0] },
  sequencesPerPacket: 10,
  source: 'hand-written',
  groups: [{ name: 'lasers', firingPeriod: 0.1, lasers: [-6, -2, 2, 6].map((e, i) => ({ elevation: e, azimuthOffset: 0, timeOffset: i * 0.01, rangeOffset: 0, verticalOffset: 0, horizontalOffset: 0 })) }],
});

describe('sensor profiles without a project', () => {
  it('lists and serves the built-ins', async () => {
    const list = await app.services.call('profiles.list', {});
    expect(list.map((p) => p.id)).toEqual([...BUILTIN_IDS]);
    expect(list.map((p) => p.id).slice(0, 6)).toEqual(['vlp16', 'vlp32c', 'hdl32e', 'hdl64e', 'vls128', 'os0-32-512']);
    const vlp = list[0]!;
    expect(vlp).toMatchObject({ builtin: true, kind: 'spinning', lasers: 16, rotationHz: 10, rangeMax: 100, raysPerRevolution: 28944 });
    expect(vlp.source).toContain('VLP16db.yaml');
    expect(vlp.elevationMinDeg).toBeCloseTo(-15, 9);
    expect(vlp.elevationMaxDeg).toBeCloseTo(15, 9);
    expect(list.find((p) => p.id === 'hdl64e')!.raysPerSecond).toBe(1_333_440);
    const si = await app.services.call('profiles.get', { id: 'hdl32e' });
    expect(si.groups[0]!.firingPeriod).toBeCloseTo(46.08e-6, 15);
    const file = await app.services.call('profiles.getFile', { id: 'hdl32e' });
    expect(file.groups[0]!.firingPeriod).toBeCloseTo(0.04608, 12);
    expect(file.groups[0]!.lasers[0]!.elevation).toBeCloseTo(-30.67, 9);
    await expectApiError(app.services.dispatch('profiles.get', { id: 'nope' }), 'not_found', 'no built-in sensor profile "nope"');
    await expectApiError(app.services.dispatch('profiles.get', { id: 'Bad Id' }), 'invalid_request', 'id: a profile id is');
    await expectApiError(app.services.dispatch('profiles.save', { profile: custom() }), 'no_project');
  });

  it('computes a decimated beam pattern in the vehicle frame', async () => {
    const p = await app.services.call('profiles.pattern', { id: 'hdl64e', maxRays: 10_000 });
    expect(p.totalRays).toBe(133_344);
    expect(p.ring.length).toBeLessThanOrEqual(10_000);
    expect(p.directions.length).toBe(3 * p.ring.length);
    expect(p.origin).toEqual([0, 0, 2]);
    expect(p.ringElevationsDeg).toHaveLength(64);
    expect(p.azimuthStepsDeg[0]).toBeCloseTo(0.1152, 6);
    expect(p.azimuthStepsDeg[1]).toBeCloseTo(0.3456, 6);
    await expectApiError(app.services.dispatch('profiles.pattern', {}), 'invalid_request', 'give either id or profile');
  });
});

describe('custom profiles in a project', () => {
  beforeAll(async () => {
    await app.services.call('project.create', { path: project });
  });

  it('saves a custom profile (file form), lists it, serves it in SI, replaces it', async () => {
    app.events.length = 0;
    const saved = await app.services.call('profiles.save', { profile: custom() as unknown as Record<string, unknown> });
    expect(saved).toMatchObject({ id: 'bench-4', builtin: false, rotationHz: 20 });
    expect(saved.mount[2]).toBe(1.5);
    expect(saved.mount[4]).toBeCloseTo(Math.sin((5 * Math.PI) / 180 / 2), 12); // pitch 5°
    expect(app.events).toContainEqual({ type: 'project', entity: 'sensorProfiles' });
    const list = await app.services.call('profiles.list', {});
    expect(list).toHaveLength(BUILTIN_IDS.length + 1);
    expect(list[BUILTIN_IDS.length]).toMatchObject({ id: 'bench-4', builtin: false, lasers: 4, raysPerRevolution: 4 * 500 });
    const si = await app.services.call('profiles.get', { id: 'bench-4' });
    expect(si.groups[0]!.lasers[3]!.elevation).toBeCloseTo((6 * Math.PI) / 180, 15);
    expect(await app.services.call('profiles.getFile', { id: 'bench-4' })).toEqual(custom());
    expect((await app.services.call('project.current', {}))!.counts.sensorProfiles).toBe(1);

    // Replace (same id), in SI this time.
    const changed = await app.services.call('profiles.save', { profile: { ...si, name: 'Bench v2', rotationHz: 10 } as unknown as Record<string, unknown> });
    expect(changed.name).toBe('Bench v2');
    expect((await app.services.call('profiles.get', { id: 'bench-4' })).rotationHz).toBe(10);
    expect((await app.services.call('profiles.list', {})).filter((p) => !p.builtin)).toHaveLength(1);
  });

  it('refuses invalid profiles with the field and the reason, and changes nothing', async () => {
    const bad = custom();
    bad.id = 'bench-bad';
    bad.groups[0]!.lasers[3]!.elevation = 120;
    (bad.range as Record<string, unknown>).max = -1;
    const e = await expectApiError(app.services.dispatch('profiles.save', { profile: bad }), 'bad_input');
    expect(e.message).toContain('groups[0].lasers[3].elevation: expected a number between -90 and 90 degrees, got 120');
    expect(e.message).toContain('range.max: expected a number greater than 0 and at most 10000 m, got -1');
    await expectApiError(app.services.dispatch('profiles.save', { profile: { ...custom(), id: 'x2', colour: 'red' } }), 'bad_input', 'colour: unknown field');
    await expectApiError(app.services.dispatch('profiles.get', { id: 'bench-bad' }), 'not_found');
    // The live check (pattern of an unsaved draft) reports the same issues.
    await expectApiError(app.services.dispatch('profiles.pattern', { profile: bad }), 'bad_input', 'groups[0].lasers[3].elevation');
    const draft = await app.services.call('profiles.pattern', { profile: custom() as unknown as Record<string, unknown> });
    expect(draft.totalRays).toBe(4 * 500);
    expect(draft.origin).toEqual([0.5, 0, 1.5]);
  });

  it('never overwrites or deletes a built-in', async () => {
    await expectApiError(app.services.dispatch('profiles.save', { profile: { ...custom(), id: 'vlp16' } }), 'conflict', '"vlp16" is a built-in profile');
    await expectApiError(app.services.dispatch('profiles.delete', { id: 'vlp16' }), 'conflict', 'cannot be deleted');
    // Repository level: a stored copy of a built-in (written when something references it) is protected too.
    const store = app.services.session!.store;
    resolveProfileForUse(store, 'hdl32e');
    expect(store.profiles.get('hdl32e')).toMatchObject({ builtin: true, name: 'Velodyne HDL-32E' });
    expect(() => store.profiles.saveCustom('hdl32e', 'mine', '{}')).toThrow(/built-in/);
    expect(() => store.profiles.deleteCustom('hdl32e')).toThrow(/built-in/);
    // The copy does not show twice in the list.
    expect((await app.services.call('profiles.list', {})).filter((p) => p.id === 'hdl32e')).toHaveLength(1);
  });

  it.skipIf(!HAS_SHARED_DATA)('imports a real calibration file as a saved custom profile', async () => {
    const p = await app.services.call('profiles.import', { path: dataFile('velodyne_calib/64e_s2.1-sztaki.xml') });
    expect(p).toMatchObject({ id: '64e-s2-1-sztaki', builtin: false, source: '64e_s2.1-sztaki.xml' });
    expect(p.groups.map((g) => g.lasers.length)).toEqual([32, 32]);
    expect((p.groups[0]!.lasers[0]!.elevation * 180) / Math.PI).toBeCloseTo(-8.7686234, 9);
    expect(p.groups[0]!.lasers[0]!.rangeOffset).toBeCloseTo(1.5195264, 9);
    expect(p.description).toContain('Velodyne HDL-64E (detected from 64 lasers)');
    expect((await app.services.call('profiles.list', {})).some((s) => s.id === '64e-s2-1-sztaki')).toBe(true);
    const o = await app.services.call('profiles.import', { path: dataFile('ouster_sdk/2_1_2_os1-991913000010-64.json'), id: 'my-os1-64', name: 'Ouster OS1-64' });
    expect(o).toMatchObject({ id: 'my-os1-64', name: 'Ouster OS1-64', rotationHz: 10, sequencesPerPacket: 16 });
    // A Thicket profile file imports as it is.
    const own = join(app.dir, 'bench-5.json');
    writeFileSync(own, JSON.stringify({ ...custom(), id: 'bench-5' }, null, 2));
    expect((await app.services.call('profiles.import', { path: own })).id).toBe('bench-5');
  });

  it('import errors name the file, the place and the reason', async () => {
    await expectApiError(app.services.dispatch('profiles.import', { path: join(app.dir, 'missing.yaml') }), 'not_found', 'missing.yaml: no such file');
    const broken = join(app.dir, 'broken.yaml');
    writeFileSync(broken, 'lasers:\n- {laser_id: 0, vert_correction: 0.1}\n- {laser_id: 1, vert_correction: oops}\n');
    await expectApiError(app.services.dispatch('profiles.import', { path: broken }), 'bad_input', 'broken.yaml: lasers[1].vert_correction (line 3): expected a number in radians, got "oops"');
    const badJson = join(app.dir, 'mine.json');
    writeFileSync(badJson, '{\n  "format": "thicket-sensor-profile",\n  "version": 1\n  "id": "x"\n}');
    await expectApiError(app.services.dispatch('profiles.import', { path: badJson }), 'bad_input', 'mine.json: invalid JSON at line 4, column 3');
    const badField = join(app.dir, 'field.json');
    writeFileSync(badField, JSON.stringify({ ...custom(), id: 'bench-6', rotationHz: -1 }));
    await expectApiError(app.services.dispatch('profiles.import', { path: badField }), 'bad_input', 'field.json: rotationHz: expected a number greater than 0');
  });

  it('deletes custom profiles, but not while a drive log uses one', async () => {
    const store = app.services.session!.store;
    const logId = store.logs.beginImport({ name: 'uses bench', format: 'pcd', sourcePath: null, profileId: 'bench-4', jobId: null });
    await expectApiError(app.services.dispatch('profiles.delete', { id: 'bench-4' }), 'conflict', 'profile "bench-4" is used by 1 drive log');
    store.logs.discard(logId);
    app.events.length = 0;
    expect(await app.services.call('profiles.delete', { id: 'bench-4' })).toEqual({ deleted: true });
    expect(app.events).toContainEqual({ type: 'project', entity: 'sensorProfiles' });
    await expectApiError(app.services.dispatch('profiles.get', { id: 'bench-4' }), 'not_found');
    await expectApiError(app.services.dispatch('profiles.delete', { id: 'bench-4' }), 'not_found');
  });

  it('custom profiles persist in the project file', async () => {
    await app.services.call('project.close', {});
    expect((await app.services.call('profiles.list', {})).every((p) => p.builtin)).toBe(true);
    await app.services.call('project.open', { path: project });
    const ids = (await app.services.call('profiles.list', {})).filter((p) => !p.builtin).map((p) => p.id);
    if (HAS_SHARED_DATA) expect(ids).toEqual(expect.arrayContaining(['64e-s2-1-sztaki', 'my-os1-64', 'bench-5']));
    expect(ids).not.toContain('bench-4');
  });
});
