import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { cliTempHome, openCliServices, runCli, runCliOk, spawnCli } from '../../helpers/cli';
import type { AppServices } from '../../../src-main/services/app-services';
import type { DemoResult } from '../../../src-main/api/contract';
import { buildReferenceSite } from '../../../src-worker/site/reference-site';
import { boxDistance } from '../../../src-worker/site/reference-annotations';
import { builtinProfile } from '../../../src-common/builtin-profiles';
import { packetDurationOf } from '../../../src-common/profile-timing';
import { transformPoint } from '../../../src-worker/geometry/pose';
import { SceneBuilder } from '../../../src-worker/scene/scene-builder';
import { createSceneQuery } from '../../../src-worker/scene/scene-bvh';
import { newSurfaceHit } from '../../../src-worker/scene/scene-query';

const tmp = cliTempHome();
const { env } = tmp;

const hdl32e = builtinProfile('hdl32e')!;
const PACKET_S = packetDurationOf(hdl32e); // 12 × 46.08 µs
const RAYS_PER_PACKET = 384; // 12 sequences × 32 lasers
/** Lateral reach of the physics mode's outer sub-rays from the beam axis, per metre of range (half the 3.3 × 0.7 mrad spot's diagonal). */
const BEAM_HALF_SPREAD = 0.5 * Math.hypot(3.3e-3, 0.7e-3);

describe('thicket demo --small', () => {
  const project = join(tmp.dir, 'demo.thicket');
  let result: DemoResult;
  let stderr = '';
  let services: AppServices;

  beforeAll(async () => {
    // The project file does not exist yet: the command creates it.
    const r = runCliOk(['demo', '--project', project, '--small', '--seed', '5', '--no-experiment', '--json'], env);
    stderr = r.stderr;
    result = r.json as DemoResult;
    services = await openCliServices(env.THICKET_HOME, project);
  }, 120_000);
  afterAll(async () => services?.close());

  it('prints {site: {seed, objects, triangles}, logs: [{log, name, packets, rays, hits, misses}]} with the site builder\'s numbers', () => {
    const site = buildReferenceSite({ seed: 5, small: true });
    expect(result.site).toMatchObject({ seed: 5, objects: site.annotations.length, triangles: site.stats.instancedTriangles });
    expect(result.logs.map((l) => l.name)).toEqual(['Reference training drive (seed 5, small)', 'Reference test drive (seed 5, small)']);
    for (const [k, l] of result.logs.entries()) {
      expect(Object.keys(l)).toEqual(expect.arrayContaining(['log', 'name', 'packets', 'rays', 'hits', 'misses']));
      // packets = duration × packet rate (0.25 s at 1808.4 packets/s), 384 rays each
      expect(l.packets).toBe(Math.floor(site.drives[k]!.seconds / PACKET_S + 1e-9));
      expect(Math.abs(l.packets - l.durationS / PACKET_S)).toBeLessThan(1e-6);
      // 384 rays a packet, but a revolution (1808.5 firings) is not a whole number of packets:
      // the last packet of each revolution is short (at most 12 firings of 32 lasers per revolution).
      expect(l.rays).toBeLessThanOrEqual(l.packets * RAYS_PER_PACKET);
      expect(l.rays).toBeGreaterThanOrEqual(l.packets * RAYS_PER_PACKET - Math.ceil(l.durationS * 10 + 1) * 12 * 32);
      // strongest return: exactly one record per pulse, a hit or a miss
      expect(l.hits + l.misses).toBe(l.rays);
      expect(l.misses).toBeGreaterThan(0.05 * l.rays); // the sky above the upper lasers
      expect(l.hits).toBeGreaterThan(0.5 * l.rays);
    }
    expect(stderr).toMatch(/demo #\d+: 100%/);
    expect(stderr).toMatch(/demo-drives #\d+: 100%/);
  });

  it('stores two drive logs, the site as a scene, and their annotations', async () => {
    const logs = await services.call('logs.list', {});
    expect(logs.map((l) => l.id)).toEqual(result.logs.map((l) => l.log));
    for (const l of logs) expect(l).toMatchObject({ format: 'simulated', profileId: 'hdl32e' });
    const scenes = await services.call('scenes.list', {});
    expect(scenes).toHaveLength(1);
    expect(scenes[0]!.meta).toMatchObject({ kind: 'reference-site', seed: 5, small: true, annotation: result.site.annotation });
    const all = await services.call('annotations.list', {});
    expect(all).toHaveLength(3);
    const siteAnn = await services.call('annotations.get', { id: result.site.annotation });
    expect(siteAnn.logId).toBeNull();
    expect(siteAnn.entries).toHaveLength(result.site.objects);
    for (const l of result.logs) {
      const mine = await services.call('annotations.list', { logId: l.log });
      expect(mine.map((a) => a.id)).toEqual([l.annotation]);
    }
    await expect(services.call('annotations.get', { id: 999 })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('drive logs carry per-ray ground truth: ids of annotated objects, hit points on their boxes or the terrain', async () => {
    const site = buildReferenceSite({ seed: 5, small: true });
    const groundOnly = new SceneBuilder();
    groundOnly.addInstance(groundOnly.addMesh(site.terrain.positions));
    const ground = createSceneQuery(groundOnly.build());
    const hit = newSurfaceHit();
    const tb = site.annotations[0]!.box;
    const [tx0, tx1] = [tb.center[0] - tb.size[0] / 2 + 1e-4, tb.center[0] + tb.size[0] / 2 - 1e-4];
    const [ty0, ty1] = [tb.center[1] - tb.size[1] / 2 + 1e-4, tb.center[1] + tb.size[1] / 2 - 1e-4];
    const store = services.requireSession().store;
    const p = new Float64Array(3);
    for (const l of result.logs) {
      const ann = await services.call('annotations.get', { id: l.annotation });
      const byId = new Map(ann.entries.map((e) => [e.id, e]));
      let hits = 0, misses = 0, within5cm = 0, worstExcess = 0;
      for (const c of store.logs.chunks(l.log)) {
        for (let k = 0; k < c.packetCount; k++) {
          for (let i = c.rayStart[k]!; i < c.rayStart[k + 1]!; i++) {
            const r = c.rayRange[i]!;
            if (Number.isNaN(r)) {
              misses++;
              expect(c.rayObject[i]).toBe(0);
              continue;
            }
            hits++;
            const e = byId.get(c.rayObject[i]!);
            if (!e) throw new Error(`ray ${i}: object ${c.rayObject[i]} is not in the drive's annotation`);
            expect(c.rayClass[i]).toBe(e.class);
            transformPoint(c.packetPose, 7 * k, c.rayDir[3 * i]! * r, c.rayDir[3 * i + 1]! * r, c.rayDir[3 * i + 2]! * r, p, 0);
            let d: number;
            if (e.id === 1) {
              // The terrain mesh's height under the point (clamped to the terrain: a hit at its very
              // edge may be reported along a beam axis that passes just beyond it).
              const x = Math.min(Math.max(p[0]!, tx0), tx1), y = Math.min(Math.max(p[1]!, ty0), ty1);
              if (!ground.closestSurface(x, y, 100, 0, 0, -1, 0, 1000, hit)) throw new Error(`no terrain under (${x}, ${y})`);
              d = Math.abs(p[2]! - (100 - hit.t));
            } else {
              d = boxDistance(e.box, p[0]!, p[1]!, p[2]!);
            }
            // 5 cm, plus how far an outer sub-ray of the beam lies from the axis the return is reported on.
            const tol = 0.05 + BEAM_HALF_SPREAD * r;
            if (d <= tol) within5cm++;
            worstExcess = Math.max(worstExcess, d - tol);
          }
        }
      }
      expect(hits).toBe(l.hits);
      expect(misses).toBe(l.misses);
      // Range noise (σ = 2 cm, Gaussian) puts a few hits past 5 cm: 2.5σ is exceeded by ~1 %.
      expect(within5cm / hits).toBeGreaterThan(0.99);
      expect(worstExcess).toBeLessThan(5 * hdl32e.range.noiseSigma);
    }
  });

  it('the stored scene can be simulated again', async () => {
    const sceneId = result.site.scene;
    const { job } = await services.call('simulate.start', { sceneId, profileId: 'hdl32e', mode: 'physics', trajectory: { kind: 'trail', seconds: 0.01 } });
    const done = await services.whenJobSettled(job.id);
    expect(done.state).toBe('done');
    expect(Number(done.result?.hits)).toBeGreaterThan(100);
  });
});

describe('thicket demo: interrupted', () => {
  it('Ctrl-C cancels the demo and leaves no drive logs, scene or annotations', async () => {
    const project = join(tmp.dir, 'cancel.thicket');
    expect(runCli(['project', 'create', '--project', project], env).status).toBe(0);
    const child = spawnCli(['demo', '--project', project, '--small'], env);
    let err = '';
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    // Wait until the drives are being written, then interrupt.
    const reader = new Database(project, { readonly: true, fileMustExist: true });
    const t0 = Date.now();
    let seen = false;
    while (!seen && Date.now() - t0 < 60_000) {
      seen = (reader.prepare(`SELECT count(*) AS n FROM drive_logs WHERE status = 'importing'`).get() as { n: number }).n > 0;
      if (!seen) await new Promise((r) => setTimeout(r, 5));
    }
    reader.close();
    expect(seen).toBe(true);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(err).toContain('demo cancelled: nothing was stored');
    const db = new Database(project, { readonly: true });
    const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    expect({ logs: count('drive_logs'), chunks: count('log_chunks'), scenes: count('scenes'), annotations: count('annotations') }).toEqual({ logs: 0, chunks: 0, scenes: 0, annotations: 0 });
    expect(db.prepare(`SELECT state FROM jobs ORDER BY id`).pluck().all()).toEqual(['done', 'cancelled']);
    db.close();
  }, 120_000);
});
