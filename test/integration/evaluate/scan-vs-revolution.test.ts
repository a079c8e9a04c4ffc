/**
 * A real single-scan log against a revolution simulated with a profile's packetisation along its
 * pose (docs/methods.md §6, *Pairing*): ../shared/data/overlapnet_kitti/000000.bin imported as
 * one packet; the generated off-road scene simulated with the HDL-64E profile (one revolution cut
 * into its packets) from the scan's pose. Pairing by (firing time, direction) across packet
 * boundaries must pair nearly every real ray that some simulated ray points at; the coverage is
 * computed here independently, by brute force over direction bins.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp';
import { createAppServices, type AppServices } from '../../../src-main/services/app-services';
import type { JobInfo } from '../../../src-main/api/contract';
import type { EvaluationMetrics } from '../../../src-common/metrics';
import { HAS_SHARED_DATA, dataFile } from '../../helpers/shared-data';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
const TOL_DEG = 0.2;

/** Unit directions of every ray of a stored log or run. */
function directions(chunks: Iterable<{ rayDir: Float32Array; rayCount: number }>): Float32Array[] {
  return [...chunks].map((c) => c.rayDir.subarray(0, 3 * c.rayCount));
}

/**
 * The simulated rays within TOL_DEG of each real ray (indices into the run's rays, flattened),
 * found through a hash of 0.2° azimuth × elevation bins searched ±1 bin (KITTI's beams stay
 * within −25…+3° of the horizon, where a 0.2° cone spans at most that).
 */
function candidates(real: Float32Array[], sim: Float32Array[]): number[][] {
  const bin = TOL_DEG;
  const key = (x: number, y: number, z: number): [number, number] => [
    Math.floor((Math.atan2(y, x) * 180) / Math.PI / bin),
    Math.floor((Math.asin(Math.max(-1, Math.min(1, z))) * 180) / Math.PI / bin),
  ];
  const simDirs: number[] = [];
  const cells = new Map<string, number[]>();
  for (const d of sim) {
    for (let i = 0; i < d.length; i += 3) {
      const id = simDirs.length / 3;
      simDirs.push(d[i]!, d[i + 1]!, d[i + 2]!);
      const [a, e] = key(d[i]!, d[i + 1]!, d[i + 2]!);
      const k = `${a},${e}`;
      (cells.get(k) ?? cells.set(k, []).get(k)!).push(id);
    }
  }
  const cos = Math.cos((TOL_DEG * Math.PI) / 180);
  const wrap = 360 / bin;
  const out: number[][] = [];
  for (const d of real) {
    for (let i = 0; i < d.length; i += 3) {
      const x = d[i]!, y = d[i + 1]!, z = d[i + 2]!;
      const [a, e] = key(x, y, z);
      const mine: number[] = [];
      for (let da = -1; da <= 1; da++) {
        for (let de = -1; de <= 1; de++) {
          let aa = a + da;
          if (aa < -wrap / 2) aa += wrap;
          if (aa >= wrap / 2) aa -= wrap;
          for (const s of cells.get(`${aa},${e + de}`) ?? []) if (x * simDirs[3 * s]! + y * simDirs[3 * s + 1]! + z * simDirs[3 * s + 2]! >= cos) mine.push(s);
        }
      }
      out.push(mine);
    }
  }
  return out;
}

/**
 * The most real rays any one-to-one pairing could pair (a maximum bipartite matching: Kuhn's
 * augmenting paths, iterative, after a greedy start) — the rays the revolution covers, one
 * simulated ray each.
 */
function maximumMatching(cands: number[][]): number {
  const simOwner = new Map<number, number>();
  const realMate = new Int32Array(cands.length).fill(-1);
  let size = 0;
  cands.forEach((c, r) => {
    const free = c.find((s) => !simOwner.has(s));
    if (free !== undefined) {
      simOwner.set(free, r);
      realMate[r] = free;
      size++;
    }
  });
  let stamp = 0;
  const seen = new Map<number, number>();
  for (let root = 0; root < cands.length; root++) {
    if (realMate[root]! >= 0 || cands[root]!.length === 0) continue;
    stamp++;
    // DFS over alternating paths: stack of (real ray, next candidate index); parents to flip the path.
    const stack: [number, number][] = [[root, 0]];
    const via: number[] = []; // the simulated ray each stacked real ray (after the root) was reached through
    let found = -1;
    while (stack.length > 0 && found < 0) {
      const top = stack[stack.length - 1]!;
      const [r, ci] = top;
      if (ci >= cands[r]!.length) {
        stack.pop();
        via.pop();
        continue;
      }
      top[1]++;
      const s = cands[r]![ci]!;
      if (seen.get(s) === stamp) continue;
      seen.set(s, stamp);
      const o = simOwner.get(s);
      if (o === undefined) found = s;
      else {
        stack.push([o, 0]);
        via.push(s);
      }
    }
    if (found < 0) continue;
    // Flip: the deepest real ray takes `found`, each one above takes the ray it was reached through.
    let give = found;
    for (let d = stack.length - 1; d >= 0; d--) {
      const r = stack[d]![0];
      simOwner.set(give, r);
      const prev = realMate[r]!;
      realMate[r] = give;
      give = d > 0 ? via[d - 1]! : -1;
      void prev;
    }
    size++;
  }
  return size;
}

describe.skipIf(!HAS_SHARED_DATA)('a one-packet scan against a simulated revolution (overlapnet_kitti/000000.bin)', () => {
  let services: AppServices;
  let logId: number, runId: number;
  let m: EvaluationMetrics & { evaluation: number };
  const settled = (job: JobInfo) => services.whenJobSettled(job.id);

  beforeAll(async () => {
    services = await createAppServices({ shell: 'cli', homeDir: join(tmp.dir, 'home'), workers: 1 });
    await services.call('project.create', { path: join(tmp.dir, 'scan.thicket') });
    const imp = await settled((await services.call('logs.importFile', { path: dataFile('overlapnet_kitti/000000.bin') })).job);
    expect(imp.state, imp.error ?? '').toBe('done');
    logId = Number(imp.result!.log);
    const gen = await settled((await services.call('scenes.generate', { kind: 'offroad', seed: 1, params: {} })).job);
    expect(gen.state, gen.error ?? '').toBe('done');
    const sim = await settled((await services.call('simulate.start', { sceneId: Number(gen.result!.scene), profileId: 'hdl64e', mode: 'physics', seed: 1, trajectory: { kind: 'log', logId } })).job);
    expect(sim.state, sim.error ?? '').toBe('done');
    runId = Number(sim.result!.run);
    const ev = await settled((await services.call('evaluate.start', { realLogId: logId, runId })).job);
    expect(ev.state, ev.error ?? '').toBe('done');
    m = ev.result as unknown as typeof m;
  }, 240_000);
  afterAll(async () => services?.close());

  it('pairs ≥ 95 % of the real rays the revolution covers one to one, with one real packet against all of the run\'s', () => {
    const store = services.requireSession().store;
    const log = store.logs.get(logId)!, run = store.runs.get(runId)!;
    expect(log.packets).toBe(1);
    expect(run.packets).toBeGreaterThan(100); // the HDL-64E's revolution in its packets
    const real = directions(store.logs.chunks(logId)), sim = directions(store.runs.chunks(runId));
    const cands = candidates(real, sim);
    const within = cands.filter((c) => c.length > 0).length;
    const cover = maximumMatching(cands);
    // Where the KITTI unit's laser elevations differ from the profile's, two real beams fall
    // within 0.2° of one simulated beam: fewer can pair one to one than have a candidate at all.
    expect(within).toBeGreaterThan(0.5 * log.hits);
    expect(cover).toBeLessThanOrEqual(within);
    console.log(`[scan vs revolution] real rays ${m.rays!.real}, with a candidate ${within}, pairable one to one ${cover}, paired ${m.pairedRays} (${(m.pairedRays / cover).toFixed(4)})`);
    expect(m.packets).toBe(1);
    expect(m.unpairedPackets.real).toBe(0);
    expect(m.pairedRays / cover).toBeGreaterThanOrEqual(0.95);
    expect(m.pairedRays).toBeLessThanOrEqual(cover);
    expect(m.rays).toEqual({ real: log.hits + log.misses, sim: run.hits + run.misses });
    expect(m.pairedFraction!.real).toBeCloseTo(m.pairedRays / m.rays!.real, 12);
    // Every simulated packet but those whose rays no real ray points at pairs.
    expect(m.unpairedPackets.sim).toBeLessThan(0.05 * run.packets);
    // The warnings say exactly which side fell under half.
    const expected = [m.pairedFraction!.real < 0.5, m.pairedFraction!.sim < 0.5].filter(Boolean).length;
    expect(m.warnings!.length).toBe(expected);
  });

  it('a run simulated from the scan\'s own rays pairs ray for ray by default, every ray', async () => {
    const sceneId = services.requireSession().store.runs.get(runId)!.sceneId!;
    const sim = await settled((await services.call('simulate.start', { sceneId, raysFromLogId: logId, profileId: 'hdl64e', mode: 'physics', seed: 1 })).job);
    expect(sim.state, sim.error ?? '').toBe('done');
    const ev = await settled((await services.call('evaluate.start', { realLogId: logId, runId: Number(sim.result!.run) })).job);
    expect(ev.state, ev.error ?? '').toBe('done');
    const r = ev.result as unknown as EvaluationMetrics;
    expect(r.pairing).toBe('rays');
    expect(r.packetsPairedByIndex).toBe(1);
    expect(r.pairedRays).toBe(124_668);
    expect(r.unpairedRays).toEqual({ real: 0, sim: 0 });
    expect(r.pairedFraction).toEqual({ real: 1, sim: 1 });
    expect(r.warnings).toEqual([]);
    // Forced to pair by time instead, the same run pairs no worse: one scan, one packet of the same rays.
    const t = await settled((await services.call('evaluate.start', { realLogId: logId, runId: Number(sim.result!.run), params: { packetPairing: 'time' } })).job);
    expect((t.result as unknown as EvaluationMetrics).pairedRays).toBe(124_668);
  }, 120_000);

  it('a region through the API: checked by field before anything runs; one that leaves nothing fails the job and stores nothing', async () => {
    const before = services.requireSession().store.evaluations.list().length;
    const bad = await services.call('evaluate.start', { realLogId: logId, runId, params: { region: { rangeM: [40, 1] } } }).then(
      () => null,
      (e: unknown) => e as { code: string; message: string },
    );
    expect(bad?.code).toBe('invalid_request');
    expect(bad?.message).toMatch(/region.*range: 40:1 must be 0 ≤ MIN < MAX metres/);
    const empty = await settled((await services.call('evaluate.start', { realLogId: logId, runId, params: { region: { boxes: [{ center: [500, 500, 0], size: [1, 1, 1], yawDeg: 0 }] } } })).job);
    expect(empty.state).toBe('failed');
    expect(empty.error).toMatch(new RegExp(`^drive log ${logId} \\(000000\\.bin\\) against run ${runId} \\(.*\\): the region box=500,500,0,1,1,1,0 leaves nothing to score: 0 of the real log's 124668 rays are inside it`));
    const ok = await settled((await services.call('evaluate.start', { realLogId: logId, runId, params: { region: { azimuthDeg: [-45, 45] }, rangeBreakdownBinM: 25 } })).job);
    expect(ok.state, ok.error ?? '').toBe('done');
    const stored = services.requireSession().store.evaluations.get(Number(ok.result!.evaluation))!;
    expect(stored.params).toMatchObject({ region: { azimuthDeg: [-45, 45] }, rangeBreakdownBinM: 25 });
    expect(stored.metrics.region!.spec).toBe('azimuth=-45:45');
    expect(stored.metrics.byRange!.every((b) => b.fromM % 25 === 0 && b.toM - b.fromM === 25)).toBe(true);
    expect(services.requireSession().store.evaluations.list().length).toBe(before + 1);
  }, 120_000);

  it('warns, with the figures, when the run barely overlaps the log (a VLP-16 run against the HDL-64E scan)', async () => {
    const sceneId = services.requireSession().store.runs.get(runId)!.sceneId!;
    const sim = await settled((await services.call('simulate.start', { sceneId, profileId: 'vlp16', mode: 'physics', seed: 1, trajectory: { kind: 'log', logId } })).job);
    expect(sim.state, sim.error ?? '').toBe('done');
    const ev = await settled((await services.call('evaluate.start', { realLogId: logId, runId: Number(sim.result!.run) })).job);
    expect(ev.state, ev.error ?? '').toBe('done');
    const u = ev.result as unknown as EvaluationMetrics;
    expect(u.pairedFraction!.real).toBeLessThan(0.2);
    expect(u.warnings![0]).toMatch(new RegExp(`^only ${(100 * u.pairedFraction!.real).toFixed(1)} % of the real log's rays paired \\(${u.pairedRays} of 124668\\)`));
    // Stored with the evaluation.
    const stored = services.requireSession().store.evaluations.get(Number(ev.result!.evaluation))!;
    expect(stored.metrics.warnings).toEqual(u.warnings);
  }, 120_000);
});
