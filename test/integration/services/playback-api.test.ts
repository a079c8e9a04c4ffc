// The playback methods through AppServices.dispatch: logs/runs.timeline (packet times, sweeps,
// trajectory) and logs/runs.cloud over a packet range with the range's misses as rays.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Timeline } from '../../../src-main/api/contract';
import { decodeFrame, encodeFrame } from '../../../src-main/api/wire';
import { spinningLog } from '../../helpers/spinning-log';
import { expectApiError, useAppServices } from '../../helpers/app-services';

const app = useAppServices({ workers: 1, project: 'playback.thicket' });
let logId: number;
let runId: number;

// 100 packets, 24 per turn, 4 rings, every 5th ray a miss: 400 rays, 80 misses, 320 hits.
const LOG = { packets: 100, packetsPerSweep: 24, rings: 4, chunkPackets: 16, dt: 0.01, speed: 2, range: 10 } as const;

beforeAll(async () => {
  const store = app.services.session!.store;
  logId = store.logs.beginImport({ name: 'spin', format: 'kitti-bin', sourcePath: null, profileId: null, jobId: null });
  spinningLog(LOG).forEach((c, i) => store.logs.appendChunk(logId, i, c));
  store.logs.finishImport(logId, { packets: 100, points: 400, hits: 320, misses: 80, durationS: 1, bounds: null });
  // A run stored like the simulator does: chunks keyed by batch, here written out of order, clockwise spin.
  runId = store.runs.begin({ name: 'sim', sceneId: null, profileId: 'vlp16', mode: 'physics', seed: 1, trajectory: {}, params: {}, jobId: null });
  const runChunks = spinningLog({ ...LOG, spin: -1, startAz: 1 });
  [...runChunks.keys()].reverse().forEach((i) => store.runs.appendChunk(runId, i, runChunks[i]!));
  store.runs.finish(runId, { packets: 100, points: 400, hits: 320, misses: 80, durationS: 1, bounds: null });
});

describe('logs.timeline / runs.timeline', () => {
  it('gives packet times, sweeps where the azimuth wraps, and a decimated trajectory', async () => {
    const t = await app.services.call('logs.timeline', { id: logId, maxPoses: 20 });
    expect(t.source).toEqual({ kind: 'log', id: logId });
    expect(t.packets).toBe(100);
    expect(t.packetTime.length).toBe(100);
    expect(t.packetTime[50]).toBeCloseTo(0.5, 12);
    expect([...t.sweepStart]).toEqual([0, 24, 48, 72, 96]);
    expect(t.sweepBy).toBe('azimuth');
    expect(t.trajectory.packet.length).toBeLessThanOrEqual(20);
    expect(t.trajectory.packet[t.trajectory.packet.length - 1]).toBe(99);
    expect(t.trajectory.position[0]).toBe(0);
    expect(t.trajectory.position[2]).toBe(1.5);
    // Asked again: the same timeline (cached per project and log).
    expect(await app.services.call('logs.timeline', { id: logId, maxPoses: 20 })).toBe(t);
  });

  it('reads a run alike (chunks stored out of order, clockwise spin)', async () => {
    const t = await app.services.call('runs.timeline', { id: runId });
    expect(t.source).toEqual({ kind: 'run', id: runId });
    expect([...t.sweepStart]).toEqual([0, 24, 48, 72, 96]);
    expect(t.trajectory.packet.length).toBe(100); // under the default 10 000 poses: every packet
  });

  it('crosses the WebSocket framing with its typed arrays intact', async () => {
    const t = await app.services.call('logs.timeline', { id: logId });
    const back = decodeFrame(encodeFrame(t)) as Timeline;
    expect(back.packetTime).toBeInstanceOf(Float64Array);
    expect(back.sweepStart).toBeInstanceOf(Uint32Array);
    expect([...back.sweepStart]).toEqual([...t.sweepStart]);
    expect(back.trajectory.position[3 * 99]).toBe(t.trajectory.position[3 * 99]);
  });

  it('refuses unknown ids and bad requests', async () => {
    await expectApiError(app.services.dispatch('logs.timeline', { id: 999 }), 'not_found');
    await expectApiError(app.services.dispatch('runs.timeline', { id: logId + runId + 10 }), 'not_found');
    await expectApiError(app.services.dispatch('logs.timeline', { id: logId, maxPoses: 1 }), 'invalid_request');
  });
});

describe('logs.cloud / runs.cloud over a packet range', () => {
  it('the whole log carries ring and class per point and no range', async () => {
    const c = await app.services.call('logs.cloud', { id: logId, budget: 1_000 });
    expect(c.totalPoints).toBe(320);
    expect(c.ring.length).toBe(320);
    expect(c.packets).toBeNull();
    expect(c.misses).toBeNull();
    expect(new Set(c.ring)).toEqual(new Set([0, 1, 2, 3]));
    expect(new Set(c.classId)).toEqual(new Set([1, 2, 3]));
  });

  it('one sweep with its misses as rays of the asked length', async () => {
    const c = await app.services.call('logs.cloud', { id: logId, budget: 1_000, packets: { from: 24, to: 48 }, misses: true, missLengthM: 5 });
    expect(c.packets).toEqual({ from: 24, to: 48 });
    // 24 packets · 4 rays = 96 rays (rays 96 … 191): misses at every 5th, 19 of them.
    expect(c.totalPoints).toBe(96 - 19);
    expect(c.misses!.total).toBe(19);
    const s = c.misses!.segments;
    expect(s.length).toBe(19 * 6);
    for (let j = 0; j < 19; j++) {
      expect(Math.abs(Math.hypot(s[6 * j + 3]! - s[6 * j]!, s[6 * j + 4]! - s[6 * j + 1]!, s[6 * j + 5]! - s[6 * j + 2]!) - 5)).toBeLessThan(1e-5);
    }
    const times = [...c.time];
    expect(Math.min(...times)).toBeGreaterThanOrEqual(0.24 - 1e-6);
    expect(Math.max(...times)).toBeLessThan(0.48);
  });

  it('caps the misses at missBudget and works for runs', async () => {
    const c = await app.services.call('runs.cloud', { id: runId, budget: 1_000, packets: { from: 0, to: 100 }, misses: true, missBudget: 100 });
    expect(c.source).toEqual({ kind: 'run', id: runId });
    expect(c.totalPoints).toBe(320);
    expect(c.misses!.total).toBe(80);
    expect(c.misses!.segments.length).toBe(80 * 6);
  });

  it('refuses an empty or reversed range', async () => {
    await expectApiError(app.services.dispatch('logs.cloud', { id: logId, packets: { from: 5, to: 5 } }), 'invalid_request', 'packets');
    await expectApiError(app.services.dispatch('runs.cloud', { id: runId, packets: { from: -1, to: 5 } }), 'invalid_request');
  });
});
