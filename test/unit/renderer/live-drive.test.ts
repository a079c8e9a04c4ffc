// The live drive's pure parts: frames grown into the run the studies' panel plays, the clock that
// never runs ahead of the slowest run, and the form's request.
import { describe, expect, it } from 'vitest';
import type { StudyLayout } from '../../../src-main/api/contract';
import type { StudyLiveFrame } from '../../../src-common/study-results';
import { LiveRun, advanceClock } from '../../../src-renderer/components/drive/live-run';
import { defaultDriveForm, driveFormFromQuery, driveRequest, withDriveProfiles } from '../../../src-renderer/components/drive/drive-form';

const layout: StudyLayout = {
  start: [0, 0],
  goal: [10, 0],
  startHeadingDeg: 0,
  grid: { originX: -50, originY: -50, cellM: 0.5, width: 200, height: 200, hMax: 1.5, lethalCost: 50, unknownCost: 10 },
  route: null,
};

function frame(k: number, plans: StudyLiveFrame['plans'] = []): StudyLiveFrame {
  return {
    frame: k,
    time: 0.1 * (k + 1),
    poseStart: Float64Array.from([0.1 * k, k, 0, 0, 0]),
    poseEnd: Float64Array.from([0.1 * (k + 1), k + 1, 0, 0, 0]),
    riseCell: Uint32Array.from([100 + k, 200 + k]),
    riseCost: Uint8Array.from([10 * k, 60]),
    plans,
    xyz: Float32Array.from([k, 1, 2]),
    classId: Uint8Array.from([k + 1]),
  };
}

describe('a live run', () => {
  it('grows frame by frame into the history a stored run has', () => {
    const run = new LiveRun({ seq: 1, profileId: 'vlp16', mount: { height: 2, pitchDeg: 0, yawDeg: 0, x: 0, y: 0 } });
    run.add(frame(0, [{ frame: 0, xy: Float32Array.from([0, 0, 10, 0]) }]));
    run.add(frame(1));
    run.add(frame(2, [{ frame: 3, xy: Float32Array.from([2, 0, 5, 5, 10, 0]) }, { frame: 3, xy: new Float32Array(0) }]));
    expect(run.frames).toBe(3);
    expect(run.knownUntil).toBeCloseTo(0.3, 12);
    const { run: r, result } = run.snapshot(layout, { length: 2.5, width: 1.5 });
    expect(Array.from(r.frameTime)).toEqual([0.1, 0.2, 0.30000000000000004]);
    // Every frame's start pose, then the newest frame's end pose.
    expect(Array.from(r.poses)).toEqual([0, 0, 0, 0, 0, 0.1, 1, 0, 0, 0, 0.2, 2, 0, 0, 0, 0.30000000000000004, 3, 0, 0, 0]);
    expect(Array.from(r.costEvents!.frameStart)).toEqual([0, 2, 4]);
    expect(Array.from(r.costEvents!.cell)).toEqual([100, 200, 101, 201, 102, 202]);
    expect(Array.from(r.costEvents!.cost)).toEqual([0, 60, 10, 60, 20, 60]);
    expect(Array.from(r.planFrame)).toEqual([0, 3, 3]);
    // plans + 1 entries, the last an empty plan (no path).
    expect(Array.from(r.planStart)).toEqual([0, 2, 5, 5]);
    expect(Array.from(r.planXY)).toEqual([0, 0, 10, 0, 2, 0, 5, 5, 10, 0]);
    expect(Array.from(r.cloud.frame)).toEqual([0, 1, 2]);
    expect(Array.from(r.cloud.classId)).toEqual([1, 2, 3]);
    expect(r.cloud.total).toBe(3);
    // Nothing has ended while the run goes on.
    expect(result.endTime).toBe(Number.POSITIVE_INFINITY);
    expect(result.scans).toBe(3);
  });

  it('refuses a frame out of order', () => {
    const run = new LiveRun({ seq: 0, profileId: 'vlp16', mount: { height: 2, pitchDeg: 0, yawDeg: 0, x: 0, y: 0 } });
    expect(() => run.add(frame(1))).toThrow(/frame 1 arrived after 0 frames/);
  });

  it('grows past its first storage without losing values', () => {
    const run = new LiveRun({ seq: 0, profileId: 'vlp16', mount: { height: 2, pitchDeg: 0, yawDeg: 0, x: 0, y: 0 } });
    for (let k = 0; k < 1500; k++) run.add(frame(k));
    const { run: r } = run.snapshot(layout, { length: 2.5, width: 1.5 });
    expect(r.costEvents!.cell.length).toBe(3000);
    expect(r.costEvents!.cell[2999]).toBe(200 + 1499);
    expect(r.frameTime[1499]).toBeCloseTo(150, 9);
  });
});

describe('the drive clock', () => {
  it('runs at the pace, held back by the slowest run still going', () => {
    const runs = [{ knownUntil: 5, ended: false }, { knownUntil: 2, ended: false }];
    expect(advanceClock(1, 0.5, 1, runs)).toEqual({ t: 1.5, waiting: false });
    expect(advanceClock(1, 0.5, 2, runs)).toEqual({ t: 2, waiting: false });
    expect(advanceClock(1.9, 0.5, 1, runs)).toEqual({ t: 2, waiting: true });
    // A run that ended does not hold the clock back; the clock stops at the last run's end.
    expect(advanceClock(1.9, 0.5, 1, [{ knownUntil: 5, ended: false }, { knownUntil: 2, ended: true }])).toEqual({ t: 2.4, waiting: false });
    expect(advanceClock(4.9, 0.5, 1, [{ knownUntil: 5, ended: true }, { knownUntil: 2, ended: true }])).toEqual({ t: 5, waiting: false });
    // "As simulated": straight to what every run has sent.
    expect(advanceClock(0, 0.016, Number.POSITIVE_INFINITY, runs)).toEqual({ t: 2, waiting: false });
    // Never backwards.
    expect(advanceClock(3, 0.1, 1, runs).t).toBe(3);
  });
});

describe('the drive form', () => {
  it('sends a closed-loop study definition, or says why not', () => {
    const f = defaultDriveForm(7, ['vlp16']);
    const ok = driveRequest(f);
    expect(ok.ok).toBe(true);
    if (!ok.ok) return;
    expect(ok.value.definition).toMatchObject({ sceneId: 7, loop: 'closed', simulation: 'hybrid', sensors: [{ profileId: 'vlp16', mount: { height: 2, pitchDeg: 0 } }] });
    expect(ok.value.definition.vehicle).toEqual({ speed: 2 });
    f.start = [1, 2];
    f.goal = [1.5, 2];
    expect(driveRequest(f)).toEqual({ ok: false, reason: 'The goal must be at least 1 m from the start' });
    f.goal = [20, 2];
    const placed = driveRequest(f);
    expect(placed.ok && placed.value.definition.vehicle).toEqual({ speed: 2, start: [1, 2], goal: [20, 2] });
    f.sensors = withDriveProfiles(f.sensors, ['vlp16', 'hdl32e', 'hdl64e', 'lms291-180-1']);
    expect(f.sensors.map((s) => s.height)).toEqual([2, 2, 2, 2]);
    f.sensors[1]!.height = 20;
    expect(driveRequest(f)).toEqual({ ok: false, reason: 'hdl32e: height is 0.2 to 10 m' });
    f.sensors = [];
    expect(driveRequest(f).ok).toBe(false);
    expect(driveRequest({ ...defaultDriveForm(1, ['vlp16']), speed: 3 })).toEqual({ ok: false, reason: 'Speed: above 0, at most 2 m/s' });
  });
});

describe('the drive form from a link', () => {
  it('takes the editor sensor and vehicle, and keeps the defaults for what is missing or unreadable', () => {
    const f = driveFormFromQuery(3, { profile: 'hdl32e', height: '1.5', pitch: '5', start: '4.5,-2' });
    expect(f.sensors).toEqual([{ profileId: 'hdl32e', height: 1.5, pitchDeg: 5 }]);
    expect(f.start).toEqual([4.5, -2]);
    expect(f.goal).toBeNull();
    const g = driveFormFromQuery(3, { height: 'x', start: '4.5', pitch: ['1'] });
    expect(g.sensors).toEqual([{ profileId: 'vlp16', height: 2, pitchDeg: 0 }]);
    expect(g.start).toBeNull();
  });
});
