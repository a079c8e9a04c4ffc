import { describe, expect, it } from 'vitest';
import { requestSchemas } from '../../../src-main/api/contract';
import { defaultSimulateForm, simulateRequest, type SimulateForm } from '../../../src-renderer/components/scenes/scene-format';
import { SOURCE_OPTIONS, defaultNeighbourLog, sourceFields, trajectoryChoices } from '../../../src-renderer/components/scenes/simulate-source';

/** The Simulate form with every source's pick filled in; `source` decides which one goes out. */
const filled: SimulateForm = { ...defaultSimulateForm(), sceneId: 3, modelId: 5, neighbourLogId: 7, logId: 9 };

describe('simulate form: the source', () => {
  it('sends exactly one source, in the mode it is simulated in', () => {
    const scene = simulateRequest({ ...filled, source: 'scene', trajectoryKind: 'rays', profileId: null });
    expect(scene.ok && scene.value).toEqual({ sceneId: 3, mode: 'hybrid', seed: 1, raysFromLogId: 9, rangeSampler: 'along-ray' });
    const model = simulateRequest({ ...filled, source: 'model', mode: 'voxel', trajectoryKind: 'rays', profileId: null });
    expect(model.ok && model.value).toEqual({ modelId: 5, mode: 'voxel', seed: 1, raysFromLogId: 9, rangeSampler: 'along-ray' });
    // The neighbour simulator is its own mode (the form's scene mode is not sent) and takes no range sampler.
    const replay = simulateRequest({ ...filled, source: 'neighbour', mode: 'voxel', trajectoryKind: 'rays', profileId: 'os1-128', seed: 4 });
    expect(replay.ok && replay.value).toEqual({ neighbourLogId: 7, profileId: 'os1-128', mode: 'neighbour', seed: 4, raysFromLogId: 9 });
    for (const c of [scene, model, replay]) expect(c.ok && requestSchemas['simulate.start'].safeParse(c.value).success).toBe(true);
  });

  it("sends the neighbour simulator's radius and leave-out only when set, and checks them", () => {
    const f = { ...filled, source: 'neighbour' as const, trajectoryKind: 'rays' as const };
    const r = simulateRequest({ ...f, neighbourRadius: 0.25, neighbourLeaveOutS: 0.05 });
    expect(r.ok && r.value).toMatchObject({ neighbourLogId: 7, neighbourRadius: 0.25, neighbourLeaveOutS: 0.05 });
    expect(r.ok && requestSchemas['simulate.start'].safeParse(r.value).success).toBe(true);
    // 0 s leaves nothing out: the field is not sent (the API's 0 = off).
    const off = simulateRequest({ ...f, neighbourLeaveOutS: 0 });
    expect(off.ok && 'neighbourLeaveOutS' in off.value).toBe(false);
    expect(sourceFields({ ...f, neighbourRadius: 0 })).toEqual({ ok: false, reason: 'Neighbour radius is above 0, at most 5 m' });
    expect(sourceFields({ ...f, neighbourRadius: 6 })).toEqual({ ok: false, reason: 'Neighbour radius is above 0, at most 5 m' });
    expect(sourceFields({ ...f, neighbourLeaveOutS: -1 })).toEqual({ ok: false, reason: 'Leave-out is 0 to 3600 s' });
    // The scene and model sources never send the neighbour options, whatever the fields hold.
    const model = simulateRequest({ ...filled, source: 'model', trajectoryKind: 'rays', neighbourRadius: 0.3, neighbourLeaveOutS: 1 });
    expect(model.ok && Object.keys(model.value).filter((k) => k.startsWith('neighbour'))).toEqual([]);
  });

  it('names the missing pick of each source', () => {
    const none = { ...defaultSimulateForm(), trajectoryKind: 'rays' as const, logId: 9 };
    expect(simulateRequest({ ...none, source: 'scene' })).toEqual({ ok: false, reason: 'Choose a scene' });
    expect(simulateRequest({ ...none, source: 'model' })).toEqual({ ok: false, reason: 'Choose a fitted model (Fit model… on a drive log)' });
    expect(simulateRequest({ ...none, source: 'neighbour' })).toEqual({ ok: false, reason: 'Choose the drive log to replay' });
    expect(SOURCE_OPTIONS.map((o) => o.value)).toEqual(['scene', 'model', 'neighbour']);
  });
});

describe('simulate form: trajectories per source', () => {
  it('offers a trail for a scene that has one and for a model, never for a neighbour replay, and says why', () => {
    const trail = (source: 'scene' | 'model' | 'neighbour', has: boolean) => trajectoryChoices(source, has).find((c) => c.kind === 'trail')!;
    expect(trail('scene', true).disabled).toBe(false);
    expect(trail('scene', false)).toMatchObject({ disabled: true, title: 'This scene has no trail (off-road and hybrid-strip scenes do)' });
    expect(trail('model', false).disabled).toBe(false);
    expect(trail('neighbour', true)).toMatchObject({ disabled: true, title: expect.stringMatching(/^The neighbour simulator replays a drive log and has no scene trail/) });
    for (const source of ['scene', 'model', 'neighbour'] as const) {
      expect(trajectoryChoices(source, true).filter((c) => c.kind !== 'trail').every((c) => !c.disabled)).toBe(true);
    }
  });

  it('builds a request the contract accepts for every trajectory a source offers, and none for one it does not', () => {
    let offered = 0;
    for (const source of ['scene', 'model', 'neighbour'] as const) {
      for (const choice of trajectoryChoices(source, true)) {
        const c = simulateRequest({ ...filled, source, trajectoryKind: choice.kind, profileId: choice.kind === 'rays' ? null : 'vlp16' });
        if (choice.disabled) {
          expect(c.ok, `${source} × ${choice.kind}`).toBe(false);
          continue;
        }
        offered++;
        expect(c.ok, `${source} × ${choice.kind}`).toBe(true);
        const parsed = requestSchemas['simulate.start'].safeParse(c.ok ? c.value : null);
        expect(parsed.success, `${source} × ${choice.kind}: ${parsed.error?.message}`).toBe(true);
      }
    }
    expect(offered).toBe(14); // 5 for a scene with a trail, 5 for a model, 4 for a neighbour replay
    const refused = simulateRequest({ ...filled, source: 'neighbour', trajectoryKind: 'trail' });
    expect(!refused.ok && refused.reason).toBe('The neighbour simulator has no trail: choose Drive log');
  });

  it('places the sensor with any source but a log’s rays', () => {
    const mount = simulateRequest({ ...filled, source: 'neighbour', trajectoryKind: 'log', placement: 'mount', mountText: '0,0,2,0,0,0' });
    expect(mount.ok && mount.value).toMatchObject({ neighbourLogId: 7, mode: 'neighbour', mount: [0, 0, 2, 0, 0, 0], trajectory: { kind: 'log', logId: 9 } });
    expect(mount.ok && requestSchemas['simulate.start'].safeParse(mount.value).success).toBe(true);
    const rays = simulateRequest({ ...filled, source: 'model', trajectoryKind: 'rays', placement: 'mount', mountText: '0,0,2,0,0,0' });
    expect(rays.ok && 'mount' in rays.value).toBe(false);
  });

  it('replays by default the newest log other than the one whose rays are fired', () => {
    // A capture (1) split into its training (2) and test (3) halves: scan 3's rays replay log 2.
    expect(defaultNeighbourLog([1, 2, 3], 3)).toBe(2);
    expect(defaultNeighbourLog([1, 2, 3], 1)).toBe(3);
    expect(defaultNeighbourLog([1, 2, 3], null)).toBe(3);
    expect(defaultNeighbourLog([4], 4)).toBe(4);
    expect(defaultNeighbourLog([], 4)).toBe(null);
  });
});
