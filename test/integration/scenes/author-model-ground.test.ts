/**
 * An authored scene on a fitted model's ground (scenes.terrain / scenes.author with terrain
 * 'model'): the small demo's training model and its extracted hybrid primitives. The editor's grid
 * covers where the model saw ground; placements stand on the model's own triangles (± 5 cm of the
 * grid's interpolation); a placement where the model has no ground fails the job with its number,
 * and no scene is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { cliTempHome, openCliServices, runCliOk } from '../../helpers/cli';
import type { AppServices } from '../../../src-main/services/app-services';
import type { AuthorResult } from '../../../src-main/api/contract';
import { gridHeightAt } from '../../../src-common/scene-authoring';
import { authorRequest, stateFromMeta } from '../../../src-renderer/components/scene-editor/editor-state';

const tmp = cliTempHome();

describe('authored scene on a fitted model’s ground', () => {
  const project = join(tmp.dir, 'ground.thicket');
  let services: AppServices;
  let model = 0;
  let composed = 0;

  beforeAll(async () => {
    const demo = runCliOk(['demo', '--project', project, '--small', '--json'], tmp.env).json as { experiment: { models: { training: number }; scenes: { testHybrid: number } } };
    model = demo.experiment.models.training;
    composed = demo.experiment.scenes.testHybrid;
    services = await openCliServices(tmp.env.THICKET_HOME, project);
  }, 300_000);
  afterAll(async () => services?.close());

  it('snaps hybrid primitives to the model’s ground and refuses a placement off it', async () => {
    const terrain = { kind: 'model' as const, modelId: model };
    const grid = await services.call('scenes.terrain', { terrain });
    const covered: [number, number][] = [];
    for (let j = 0; j < grid.ny; j += 7) for (let i = 0; i < grid.nx; i += 7) {
      const x = grid.x0 + (i + 0.5) * grid.cell, y = grid.y0 + (j + 0.5) * grid.cell;
      if (Number.isFinite(gridHeightAt(grid, x, y))) covered.push([x, y]);
    }
    expect(covered.length).toBeGreaterThan(10);
    const hybrid = (await services.call('primitives.list', {})).filter((p) => p.counts.ellipsoids > 0);
    const prim = hybrid[0]!;
    const spots = [covered[0]!, covered[Math.floor(covered.length / 2)]!, covered.at(-1)!];
    const { job } = await services.call('scenes.author', { mode: 'hybrid', terrain, placements: spots.map(([x, y]) => ({ primitiveId: prim.id, x, y, yaw: 0, scale: 1 })) });
    const done = await services.whenJobSettled(job.id);
    expect(done.state, done.error ?? '').toBe('done');
    const r = done.result as unknown as AuthorResult;
    const scene = (await services.call('scenes.list', {})).find((s) => s.id === r.scene)!;
    expect(scene.meta).toMatchObject({ kind: 'authored', objects: 3, terrain });
    expect(scene.meta.ellipsoids as number).toBeGreaterThan(3 * prim.counts.ellipsoids - 1);
    // Each placement's lowest ellipsoid mean is the primitive's own lowest one over the ground the
    // editor's grid shows there (± 10 cm: the grid samples the model's triangles every 0.5 m).
    const data = await services.call('primitives.get', { id: prim.id });
    let own = Infinity;
    for (let i = 2; i < data.ellipsoids!.means.length; i += 3) own = Math.min(own, data.ellipsoids!.means[i]!);
    const preview = await services.call('scenes.preview', { id: r.scene });
    const g = preview.gaussians;
    for (let k = 0; k < 3; k++) {
      let lo = Infinity;
      for (let i = 0; i < g.objectIds.length; i++) if (g.objectIds[i] === k + 2) lo = Math.min(lo, g.means[3 * i + 2]! + preview.centre[2]);
      const ground = gridHeightAt(grid, spots[k]![0], spots[k]![1]);
      expect(Math.abs(lo - (ground + own))).toBeLessThan(0.1);
    }
    // Off the model's ground: the job fails naming the placement; nothing is stored.
    const scenes = (await services.call('scenes.list', {})).length;
    const off = await services.call('scenes.author', { mode: 'hybrid', terrain, placements: [{ primitiveId: prim.id, x: spots[0]![0], y: spots[0]![1], yaw: 0, scale: 1 }, { primitiveId: prim.id, x: grid.x0 - 50, y: grid.y0 - 50, yaw: 0, scale: 1 }] });
    const failed = await services.whenJobSettled(off.job.id);
    expect(failed.state).toBe('failed');
    expect(failed.error).toContain('placement 2: ');
    expect(failed.error).toContain('is outside the terrain (the ground of fitted model');
    expect((await services.call('scenes.list', {})).length).toBe(scenes);
  });

  it('reopens a composed scene in the editor and saves the same scene: its elements, bounds and classes', async () => {
    const original = (await services.call('scenes.list', {})).find((s) => s.id === composed)!;
    expect(original.meta.kind).toBe('composed');
    const state = stateFromMeta(original.meta)!;
    expect(state.terrain).toEqual({ kind: 'model', modelId: original.meta.groundModel });
    expect(state.placements.length).toBe((original.meta.placements as unknown[]).length);
    const { job } = await services.call('scenes.author', authorRequest(state, 'Composed, re-authored', composed));
    const done = await services.whenJobSettled(job.id);
    expect(done.state, done.error ?? '').toBe('done');
    const r = done.result as unknown as AuthorResult;
    expect(r.editedFrom).toBe(composed);
    const [a, b] = await Promise.all([services.call('scenes.preview', { id: composed }), services.call('scenes.preview', { id: r.scene })]);
    expect(b.triangles.total).toBe(a.triangles.total);
    expect(b.gaussians.total).toBe(a.gaussians.total);
    for (let i = 0; i < 3; i++) {
      expect(b.bounds.min[i]).toBeCloseTo(a.bounds.min[i]!, 3);
      expect(b.bounds.max[i]).toBeCloseTo(a.bounds.max[i]!, 3);
    }
    const classes = (p: typeof a) => [...new Set(p.gaussians.classIds)].sort();
    expect(classes(b)).toEqual(classes(a));
  });
});
