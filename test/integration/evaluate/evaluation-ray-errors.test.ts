/**
 * evaluations.rayErrors in process: a stored evaluation's pairs are paired again in a worker and
 * match its figures — the pairs with a hit are TH + FH + FM, the finite errors are the true hits,
 * the mean distance between their two points is the evaluation's ray error — and a smaller
 * budget gets exactly that many pairs; an unknown evaluation is a clear error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp';
import { createAppServices, type AppServices } from '../../../src-main/services/app-services';
import type { EvaluationInfo } from '../../../src-main/api/contract';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

describe('evaluation ray errors API', () => {
  let services: AppServices;
  let info: EvaluationInfo;

  beforeAll(async () => {
    services = await createAppServices({ shell: 'cli', homeDir: join(tmp.dir, 'home'), workers: 1 });
    await services.call('project.create', { path: join(tmp.dir, 'rays.thicket') });
    const demo = await services.whenJobSettled((await services.call('demo.create', { small: true, seed: 2 })).job.id);
    const drives = await services.whenJobSettled(Number(demo.result!.drivesJob));
    expect(drives.state, drives.error ?? '').toBe('done');
    const logId = (drives.result as { logs: { log: number }[] }).logs[1]!.log;
    const scene = (drives.result as { site: { scene: number } }).site.scene;
    const sim = await services.whenJobSettled((await services.call('simulate.start', { sceneId: scene, profileId: 'hdl32e', mode: 'physics', seed: 4, trajectory: { kind: 'log', logId } })).job.id);
    expect(sim.state, sim.error ?? '').toBe('done');
    const ev = await services.whenJobSettled((await services.call('evaluate.start', { realLogId: logId, runId: Number(sim.result!.run) })).job.id);
    expect(ev.state, ev.error ?? '').toBe('done');
    info = (await services.call('evaluations.list', {})).find((e) => e.id === Number(ev.result!.evaluation))!;
  }, 240_000);
  afterAll(async () => services?.close());

  it('every pair with a hit, as the evaluation counted them; their mean point distance is its ray error', async () => {
    const m = info.metrics;
    const r = await services.call('evaluations.rayErrors', { id: info.id, budget: 5_000_000 });
    const withHit = m.trueHits + m.falseHits + m.falseMisses;
    expect(r.totalPairs).toBe(withHit);
    expect(r.error.length).toBe(withHit);
    expect(r.real.length).toBe(3 * withHit);
    let th = 0, dist = 0, fh = 0, fm = 0;
    for (let k = 0; k < r.error.length; k++) {
      const realHit = Number.isFinite(r.real[3 * k]!), simHit = Number.isFinite(r.sim[3 * k]!);
      if (realHit && simHit) {
        th++;
        const d = Math.hypot(r.sim[3 * k]! - r.real[3 * k]!, r.sim[3 * k + 1]! - r.real[3 * k + 1]!, r.sim[3 * k + 2]! - r.real[3 * k + 2]!);
        dist += d;
        // From (nearly) one sensor position, |r̂ − r| ≤ ‖ŷ − y‖ (the triangle inequality), to 1 cm.
        if (!(Math.abs(r.error[k]!) <= d + 0.01)) expect.fail(`pair ${k}: range error ${r.error[k]} m but points ${d} m apart`);
      } else if (simHit) fh++;
      else fm++;
    }
    expect([th, fh, fm]).toEqual([m.trueHits, m.falseHits, m.falseMisses]);
    // Float32 world points: the mean distance agrees with the evaluation's to 1 mm.
    expect(Math.abs(dist / th - m.rayError!)).toBeLessThan(1e-3);
    // A physics run of the log's own scene: most range errors are small, both signs occur.
    const finite = [...r.error].filter(Number.isFinite);
    expect(finite.filter((e) => Math.abs(e) < 0.1).length / finite.length).toBeGreaterThan(0.9);
    expect(finite.some((e) => e > 0) && finite.some((e) => e < 0)).toBe(true);
  }, 120_000);

  it('decimates to the budget, evenly; an unknown evaluation is named', async () => {
    const r = await services.call('evaluations.rayErrors', { id: info.id, budget: 1_000 });
    expect(r.error.length).toBe(1_000);
    expect(r.totalPairs).toBe(info.metrics.trueHits + info.metrics.falseHits + info.metrics.falseMisses);
    await expect(services.call('evaluations.rayErrors', { id: info.id + 99, budget: 1_000 })).rejects.toMatchObject({ code: 'not_found', message: expect.stringContaining(`evaluation ${info.id + 99}`) });
  }, 120_000);
});
