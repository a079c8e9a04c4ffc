import { describe, expect, it } from 'vitest';
import { StudyDefinition } from '../../../src-main/api/contract';
import { resolveStudyLayout } from '../../../src-main/services/study-layout';
import { parseMounts } from '../../../src-main/cli/commands/study';
import {
  DEFAULTS,
  DEFAULT_MOUNT,
  defaultLayout,
  defaultStudyForm,
  runCount,
  sensorMounts,
  studyRequest,
  sweepValues,
  withProfiles,
  type StudyForm,
} from '../../../src-renderer/components/studies/study-form';

function form(over: Partial<StudyForm> = {}): StudyForm {
  const f = defaultStudyForm();
  f.sceneId = 3;
  f.sensors = withProfiles([], ['lms291-180-1', 'vlp16']);
  return { ...f, ...over };
}

describe('study form defaults', () => {
  it('are the service schema’s own (90 s, seed 1, 2 m/s, mount 2 m / 0° / 0° at the centre)', () => {
    const f = defaultStudyForm();
    expect([f.seconds, f.seed, f.speed, f.loop, f.simulation]).toEqual([90, 1, 2, 'closed', 'physics']);
    expect(DEFAULT_MOUNT).toEqual({ height: 2, pitchDeg: 0, yawDeg: 0, x: 0, y: 0 });
    expect(DEFAULTS.grid).toMatchObject({ cellM: 0.5, width: 400, height: 400, hMax: 1.5 });
    expect(f.sweepOn).toBe(false);
  });

  it('keeps a kept profile’s mount and gives a new one the default mount', () => {
    const a = withProfiles([], ['vlp16']);
    a[0]!.mount.height = 1.2;
    const b = withProfiles(a, ['hdl64e', 'vlp16']);
    expect(b.map((s) => [s.profileId, s.mount.height])).toEqual([
      ['hdl64e', 2],
      ['vlp16', 1.2],
    ]);
  });
});

describe('sweepValues', () => {
  it('steps from … to inclusive, clean decimals', () => {
    expect(sweepValues({ on: true, from: 1, to: 3, step: 0.5 })).toEqual({ ok: true, value: [1, 1.5, 2, 2.5, 3] });
    expect(sweepValues({ on: true, from: -10, to: 10, step: 5 })).toEqual({ ok: true, value: [-10, -5, 0, 5, 10] });
    expect(sweepValues({ on: true, from: 0, to: 0.3, step: 0.1 })).toEqual({ ok: true, value: [0, 0.1, 0.2, 0.3] });
    expect(sweepValues({ on: true, from: 1, to: 2, step: 0.4 })).toEqual({ ok: true, value: [1, 1.4, 1.8] });
    expect(sweepValues({ on: true, from: 2, to: 2, step: null })).toEqual({ ok: true, value: [2] });
  });

  it('says what is wrong with an unusable axis', () => {
    expect(sweepValues({ on: true, from: 3, to: 1, step: 1 })).toMatchObject({ ok: false, reason: expect.stringContaining('below') });
    expect(sweepValues({ on: true, from: 1, to: 3, step: 0 })).toMatchObject({ ok: false, reason: expect.stringContaining('positive') });
    expect(sweepValues({ on: true, from: null, to: 3, step: 1 })).toMatchObject({ ok: false });
    expect(sweepValues({ on: true, from: 0, to: 1000, step: 1 })).toMatchObject({ ok: false, reason: expect.stringContaining('at most 256') });
  });
});

describe('studyRequest', () => {
  it('sends every profile with its own mount, and leaves start/goal to the service when empty', () => {
    const f = form();
    f.sensors[1]!.mount.height = 1.5;
    const r = studyRequest(f);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const d = r.value.definition!;
    expect(d.sensors).toEqual([
      { profileId: 'lms291-180-1', mount: DEFAULT_MOUNT },
      { profileId: 'vlp16', mount: { ...DEFAULT_MOUNT, height: 1.5 } },
    ]);
    expect(d.vehicle).toEqual({ speed: 2 });
    expect('grid' in d).toBe(false);
    expect(StudyDefinition.safeParse(d).success).toBe(true);
  });

  it('crosses a sweep like the CLI’s --mounts object (height slowest), for each profile in turn', () => {
    const f = form({ sweepOn: true });
    f.sweep.height = { on: true, from: 1, to: 3, step: 1 };
    f.sweep.pitchDeg = { on: true, from: -10, to: 10, step: 10 };
    f.sensors[0]!.mount.yawDeg = 15; // unswept fields keep the sensor's own value
    const r = studyRequest(f);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const sensors = r.value.definition!.sensors;
    expect(sensors.length).toBe(2 * 9);
    expect(runCount(f)).toBe(18);
    const cli = parseMounts(JSON.stringify({ height: [1, 2, 3], pitchDeg: [-10, 0, 10] }), 'm.json');
    expect(sensors.slice(9).map((s) => s.mount)).toEqual(cli);
    expect(sensors.slice(0, 9).map((s) => s.mount)).toEqual(cli.map((m) => ({ ...m, yawDeg: 15 })));
    expect(sensors.map((s) => s.profileId)).toEqual([...Array(9).fill('lms291-180-1'), ...Array(9).fill('vlp16')]);
  });

  it('accepts one profile when its mount is swept, but not a single run', () => {
    const one = form({ sensors: withProfiles([], ['vlp16']) });
    expect(studyRequest(one)).toMatchObject({ ok: false, reason: expect.stringContaining('at least 2 runs') });
    one.sweepOn = true;
    expect(studyRequest(one).ok).toBe(true);
    expect(runCount(one)).toBe(25); // 1–3 m by 0.5 × −10…10° by 5
  });

  it('names the field that is out of range or missing', () => {
    const f = form();
    f.sensors[0]!.mount.height = 0.1;
    expect(studyRequest(f)).toMatchObject({ ok: false, reason: 'lms291-180-1: height is 0.2 to 10 m' });
    f.sensors[0]!.mount.height = null;
    expect(studyRequest(f)).toMatchObject({ ok: false, reason: expect.stringContaining('height') });
    const g = form({ sweepOn: true });
    g.sweep.pitchDeg = { on: true, from: -100, to: 0, step: 50 };
    expect(studyRequest(g)).toMatchObject({ ok: false, reason: expect.stringContaining('-100 is outside') });
    expect(studyRequest(form({ sceneId: null }))).toMatchObject({ ok: false, reason: 'Choose a scene' });
    expect(studyRequest(form({ speed: 3 }))).toMatchObject({ ok: false, reason: expect.stringContaining('2 m/s') });
    expect(studyRequest(form({ start: [1, null] }))).toMatchObject({ ok: false, reason: expect.stringContaining('start') });
    expect(studyRequest(form({ sensors: withProfiles([], ['a', 'b', 'c', 'd', 'e']) }))).toMatchObject({ ok: false, reason: expect.stringContaining('At most 4') });
    // limits only the schema knows: its own message
    expect(studyRequest(form({ hMax: 50 }))).toMatchObject({ ok: false, reason: expect.stringContaining('grid.hMax') });
  });

  it('passes start, goal, heading, loop, grid and vehicle fields through', () => {
    const r = studyRequest(form({ start: [1, 2], goal: [30, 4], headingDeg: 10, loop: 'open', simulation: 'hybrid', seconds: 5, seed: 7, hMax: 1, gridCells: 200, vehicleWidth: 1.2, name: '  trial ' }));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.definition).toMatchObject({
      name: 'trial',
      loop: 'open',
      simulation: 'hybrid',
      seconds: 5,
      seed: 7,
      vehicle: { speed: 2, start: [1, 2], goal: [30, 4], startHeadingDeg: 10, width: 1.2 },
      grid: { hMax: 1, width: 200, height: 200 },
    });
  });

  it('sensorMounts refuses a null field only when it is not swept', () => {
    const f = form({ sweepOn: true });
    f.sensors[0]!.mount.height = null; // swept: ignored
    expect(sensorMounts(f, f.sensors[0]!).ok).toBe(true);
    f.sweep.height.on = false;
    expect(sensorMounts(f, f.sensors[0]!).ok).toBe(false);
  });
});

describe('defaultLayout: the service’s defaults (src-common/study-defaults.ts), as the form shows them', () => {
  const def = StudyDefinition.parse({ sceneId: 1, sensors: [{ profileId: 'vlp16' }] });

  it('on a trail: start 5 % in (≤ 10 m), goal 130 m on or 2 m before the end, heading along it', () => {
    const trail = Array.from({ length: 40 }, (_, i) => [i * 5, 10 + Math.sin(i / 5) * 8, 0, 0, 0, 0, 1]);
    const meta = { trail, bounds: { min: [0, 0, 0], max: [200, 40, 5] } };
    const mine = defaultLayout(meta);
    const host = resolveStudyLayout(def, meta, [0, 0, 0, 200, 40, 5]);
    expect(mine.from).toBe('trail');
    expect(mine.start).toEqual(host.start);
    expect(mine.goal).toEqual(host.goal);
    expect(mine.headingDeg).toBeCloseTo(host.startHeadingDeg, 9);
    const short = { trail: trail.slice(0, 8) };
    expect(defaultLayout(short).goal).toEqual(resolveStudyLayout(def, short, null).goal);
  });

  it('without a trail: from the bounds’ south-west toward the north-east, at most 130 m', () => {
    for (const b of [
      [0, 0, 0, 40, 30, 2],
      [-500, -500, 0, 500, 500, 9],
    ]) {
      const mine = defaultLayout({ bounds: { min: b.slice(0, 3), max: b.slice(3) } });
      const host = resolveStudyLayout(def, {}, b);
      expect(mine.from).toBe('bounds');
      expect(mine.start[0]).toBeCloseTo(host.start[0], 9);
      expect(mine.start[1]).toBeCloseTo(host.start[1], 9);
      expect(mine.goal[0]).toBeCloseTo(host.goal[0], 9);
      expect(mine.goal[1]).toBeCloseTo(host.goal[1], 9);
      expect(Math.hypot(mine.goal[0] - mine.start[0], mine.goal[1] - mine.start[1])).toBeLessThanOrEqual(130 + 1e-9);
    }
  });
});
