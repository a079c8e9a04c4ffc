/**
 * The evaluation API in process: evaluate.start (a job whose result is the metrics), and
 * evaluations.list / get (with the per-packet series, also across the WebSocket's binary frames)
 * / delete; an evaluation goes with its run; a cancelled evaluation stores nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp';
import { createAppServices, type AppServices } from '../../../src-main/services/app-services';
import type { EvaluationData, JobInfo } from '../../../src-main/api/contract';
import { decodeFrame, encodeFrame } from '../../../src-main/api/wire';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

async function settled(services: AppServices, job: JobInfo): Promise<JobInfo> {
  return services.whenJobSettled(job.id);
}

describe('evaluations API', () => {
  let services: AppServices;
  let logId: number;
  let runId: number;
  let result: Record<string, unknown>;

  beforeAll(async () => {
    services = await createAppServices({ shell: 'cli', homeDir: join(tmp.dir, 'home'), workers: 1 });
    await services.call('project.create', { path: join(tmp.dir, 'api.thicket') });
    const demo = await settled(services, (await services.call('demo.create', { small: true, seed: 2 })).job);
    const drives = await services.whenJobSettled(Number(demo.result!.drivesJob));
    expect(drives.state, drives.error ?? '').toBe('done');
    logId = (drives.result as { logs: { log: number }[] }).logs[1]!.log;
    const scene = (drives.result as { site: { scene: number } }).site.scene;
    const sim = await settled(services, (await services.call('simulate.start', { sceneId: scene, profileId: 'hdl32e', mode: 'physics', seed: 4, trajectory: { kind: 'log', logId } })).job);
    expect(sim.state, sim.error ?? '').toBe('done');
    runId = Number(sim.result!.run);
    const ev = await settled(services, (await services.call('evaluate.start', { realLogId: logId, runId })).job);
    expect(ev.state, ev.error ?? '').toBe('done');
    expect(ev.kind).toBe('evaluate');
    result = ev.result!;
  }, 180_000);
  afterAll(async () => services?.close());

  it('the job result is the metrics with the evaluation id; the stored row has the options as used', async () => {
    expect(result).toMatchObject({ packets: expect.any(Number), evaluation: expect.any(Number) });
    expect(result.f1 as number).toBeGreaterThan(0.98);
    const list = await services.call('evaluations.list', { runId });
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id: result.evaluation, realLogId: logId, runId, realLogName: expect.stringContaining('test drive') });
    expect(list[0]!.params).toMatchObject({ directionToleranceDeg: 0.2, packetPairing: 'time', targetCap: 1_000_000, queryCap: 200_000 });
    expect(list[0]!.metrics.packetError).toBe(result.packetError);
    expect(await services.call('evaluations.list', { realLogId: logId + 100 })).toEqual([]);
  });

  it('get returns one series entry per paired packet, along the drive, and it crosses the wire intact', async () => {
    const data = await services.call('evaluations.get', { id: Number(result.evaluation) });
    const n = data.metrics.packets;
    const s = data.perPacket;
    for (const a of Object.values(s)) expect(a.length).toBe(n);
    for (let i = 1; i < n; i++) {
      expect(s.time[i]!).toBeGreaterThan(s.time[i - 1]!);
      expect(s.distance[i]!).toBeGreaterThanOrEqual(s.distance[i - 1]!);
      expect(s.realPacket[i]).toBe(s.realPacket[i - 1]! + 1);
    }
    // the log figure is the mean of the per-packet errors that exist (float32 storage: ~1e-7 relative)
    let sum = 0, k = 0;
    for (const e of s.error) {
      if (!Number.isFinite(e)) continue;
      sum += e;
      k++;
    }
    expect(k).toBe(data.metrics.packetsWithTrueHits);
    expect(Math.abs(sum / k - data.metrics.packetError!)).toBeLessThan(1e-6);
    const th = s.trueHits.reduce((a, b) => a + b, 0);
    expect(th).toBe(data.metrics.trueHits);
    const back = decodeFrame(encodeFrame({ result: data })) as { result: EvaluationData };
    expect(back.result.perPacket.error).toBeInstanceOf(Float32Array);
    expect(Array.from(back.result.perPacket.distance)).toEqual(Array.from(s.distance));
  });

  it('a cloud larger than its sample is read a second time: the point-cloud error stays exact', async () => {
    const full = result as unknown as EvaluationData['metrics'];
    expect(full.pointCloud).toMatchObject({ exact: true });
    const small = await settled(services, (await services.call('evaluate.start', { realLogId: logId, runId, params: { targetCap: 2_000 } })).job);
    expect(small.state, small.error ?? '').toBe('done');
    const m = small.result as unknown as EvaluationData['metrics'];
    // targets: every point of both clouds (second pass); queries: the 2,000-point samples
    expect(m.pointCloud).toMatchObject({ exact: true, realTargets: full.pointCloud!.realPoints, simTargets: full.pointCloud!.simPoints, realQueries: 2_000, simQueries: 2_000 });
    // the same figure up to query sampling (2,000 queries: a few per cent)
    expect(Math.abs(m.pointCloudError! / full.pointCloudError! - 1)).toBeLessThan(0.1);
    // without the second pass, 2,000 targets out of ~10⁵ points overstate it several-fold
    const est = await settled(services, (await services.call('evaluate.start', { realLogId: logId, runId, params: { targetCap: 2_000, exactPointCloud: false } })).job);
    const e = est.result as unknown as EvaluationData['metrics'];
    expect(e.pointCloud!.exact).toBe(false);
    expect(e.pointCloudError!).toBeGreaterThan(2 * full.pointCloudError!);
    for (const id of [small.result!.evaluation, est.result!.evaluation]) await services.call('evaluations.delete', { id: Number(id) });
  });

  it('a cancelled evaluation stores nothing', async () => {
    const before = (await services.call('evaluations.list', {})).length;
    const { job } = await services.call('evaluate.start', { realLogId: logId, runId });
    await services.call('jobs.cancel', { id: job.id });
    const final = await services.whenJobSettled(job.id);
    expect(final.state).toBe('cancelled');
    expect((await services.call('evaluations.list', {})).length).toBe(before);
  });

  it('rejects unknown ids and bad options before starting anything', async () => {
    await expect(services.call('evaluate.start', { realLogId: logId, runId: 999 })).rejects.toMatchObject({ code: 'not_found' });
    await expect(services.call('evaluate.start', { realLogId: logId, runId, params: { directionToleranceDeg: 0 } })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(services.call('evaluations.get', { id: 999 })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('delete removes one; deleting the run removes the rest', async () => {
    const again = await settled(services, (await services.call('evaluate.start', { realLogId: logId, runId, params: { queryCap: 1000 } })).job);
    expect(again.state).toBe('done');
    expect(await services.call('evaluations.delete', { id: Number(again.result!.evaluation) })).toEqual({ deleted: true });
    await expect(services.call('evaluations.delete', { id: Number(again.result!.evaluation) })).rejects.toMatchObject({ code: 'not_found' });
    expect((await services.call('evaluations.list', {})).length).toBe(1);
    await services.call('runs.delete', { id: runId });
    expect(await services.call('evaluations.list', {})).toEqual([]);
    expect((await services.call('project.current', {}))!.counts.evaluations).toBe(0);
  });
});
