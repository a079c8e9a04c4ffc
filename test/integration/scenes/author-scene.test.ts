/**
 * Scenes authored by hand through the API (scenes.terrain, scenes.author; docs/design.md,
 * *Scene editor*): a project with the seeded mesh library; placements on a flat and on a noise
 * terrain built as a job and stored with where they came from; bad placements refused naming
 * the placement and the reason, leaving the project unchanged.
 */
import { describe, expect, it } from 'vitest';
import { expectApiError, useAppServices } from '../../helpers/app-services';
import type { AuthorResult, PrimitiveInfo, Request, SceneInfo } from '../../../src-main/api/contract';
import { gridHeightAt } from '../../../src-common/scene-authoring';
import { scaleRange } from '../../../src-common/class-sizes';
import { SiteClass } from '../../../src-common/classes';
import { estimate, stateFromMeta } from '../../../src-renderer/components/scene-editor/editor-state';

describe('authored scenes (scenes.author)', () => {
  const fx = useAppServices({ workers: 1, prefix: 'thicket-author-', project: 'author.thicket' });
  let library: PrimitiveInfo[] = [];
  const extent = { x0: -20, y0: -15, x1: 20, y1: 15 };

  const author = async (req: Request<'scenes.author'>): Promise<{ result: AuthorResult; scene: SceneInfo }> => {
    const { job } = await fx.services.call('scenes.author', req);
    const done = await fx.services.whenJobSettled(job.id);
    expect(done.state, done.error ?? '').toBe('done');
    const result = done.result as unknown as AuthorResult;
    const scene = (await fx.services.call('scenes.list', {})).find((s) => s.id === result.scene)!;
    return { result, scene };
  };

  it('builds placements on a flat terrain: the primitive scaled, standing on the ground, with its class', async () => {
    await fx.services.call('primitives.generateMesh', { seed: 3, variants: 1 });
    library = await fx.services.call('primitives.list', {});
    const tree = library.find((p) => p.class === SiteClass.mediumTree)!;
    const shrub = library.find((p) => p.class === SiteClass.smallShrub)!;
    expect(tree && shrub).toBeTruthy();
    const [, hi] = scaleRange(tree.class, tree.extents[2]);
    const s = Math.min(1.1, hi);
    const { result, scene } = await author({
      mode: 'mesh',
      terrain: { kind: 'flat', z: 2, extent },
      placements: [{ primitiveId: tree.id, x: 5, y: -3, yaw: 0.5, scale: s }],
      name: 'One tree',
    });
    expect(result).toMatchObject({ mode: 'mesh', placements: 1, primitivesUsed: 1, editedFrom: null });
    expect(scene.name).toBe('One tree');
    expect(scene.meta).toMatchObject({ kind: 'authored', objects: 1, editedFrom: null, terrain: { kind: 'flat', z: 2 } });
    expect(scene.meta.ground).toBe('flat at 2 m over [-20, 20] × [-15, 15]');
    // The ground spans the extent at z = 2; the tree's top is its height × scale above it (± 2 %: a mesh's leaves may pass its box a little).
    const b = scene.meta.bounds as { min: number[]; max: number[] };
    expect(b.min[0]).toBeCloseTo(extent.x0, 3);
    expect(b.min[1]).toBeCloseTo(extent.y0, 3);
    expect(b.min[2]).toBeCloseTo(2, 3);
    expect(b.max[2]! - 2).toBeGreaterThan(tree.extents[2] * s * 0.98);
    expect(b.max[2]! - 2).toBeLessThan(tree.extents[2] * s * 1.02);
    // The preview carries the placement's class and object id (2: the ground is 1).
    const preview = await fx.services.call('scenes.preview', { id: scene.id });
    const classes = new Set(preview.triangles.classIds);
    expect(classes).toEqual(new Set([SiteClass.ground, SiteClass.mediumTree]));
    expect(new Set(preview.triangles.objectIds)).toEqual(new Set([1, 2]));
  }, 120_000);

  it('snaps to a noise terrain where the editor shows it, reuses one copy per primitive and scale, and records its source', async () => {
    const terrain = { kind: 'procedural' as const, seed: 7, amplitude: 2, extent };
    const grid = await fx.services.call('scenes.terrain', { terrain });
    expect(grid.cell).toBe(0.5);
    expect(grid.nx).toBe(81);
    expect(grid.ny).toBe(61);
    let lo = Infinity, hi = -Infinity;
    for (const z of grid.z) { lo = Math.min(lo, z); hi = Math.max(hi, z); }
    expect(hi - lo).toBeGreaterThan(0.3); // a noise surface, not a plane
    const shrub = library.find((p) => p.class === SiteClass.smallShrub)!;
    const first = (await fx.services.call('scenes.list', {}))[0]!;
    const placements = [
      { primitiveId: shrub.id, x: 1.23, y: 4.56, yaw: 0, scale: 1 },
      { primitiveId: shrub.id, x: -7.5, y: 2.25, yaw: 1, scale: 1 },
      { primitiveId: shrub.id, x: 9, y: -9, yaw: 2, scale: 1 },
    ];
    const { result, scene } = await author({ mode: 'mesh', terrain, placements, editedFrom: first.id });
    expect(result).toMatchObject({ placements: 3, primitivesUsed: 1, editedFrom: first.id });
    expect(scene.name).toBe(`${first.name} (edited)`);
    expect(scene.meta).toMatchObject({ kind: 'authored', editedFrom: first.id, objects: 3, placements });
    // The editor's memory estimate of the reopened scene is within 10 % of what was built.
    const est = estimate(stateFromMeta(scene.meta)!, new Map(library.map((p) => [p.id, p])), grid, null);
    expect(est.placements).toBe(3);
    expect(Math.abs(est.memoryBytes / result.memoryBytes - 1)).toBeLessThan(0.1);
    // Each shrub's lowest triangle stands at the editor's ground height under its foot (± 1 mm).
    const preview = await fx.services.call('scenes.preview', { id: scene.id });
    const t = preview.triangles;
    for (let k = 0; k < placements.length; k++) {
      let minZ = Infinity;
      for (let i = 0; i < t.objectIds.length; i++) {
        if (t.objectIds[i] !== k + 2) continue;
        for (let v = 0; v < 3; v++) minZ = Math.min(minZ, t.positions[9 * i + 3 * v + 2]! + preview.centre[2]);
      }
      const ground = gridHeightAt(grid, placements[k]!.x, placements[k]!.y);
      expect(Math.abs(minZ - ground)).toBeLessThan(0.05 * shrub.extents[2] + 1e-3);
    }
  }, 120_000);

  it('refuses bad placements naming the placement and the reason, and changes nothing', async () => {
    const { services } = fx;
    const before = { scenes: (await services.call('scenes.list', {})).length, jobs: (await services.call('jobs.list', {})).length };
    const tree = library.find((p) => p.class === SiteClass.mediumTree)!;
    const [, hi] = scaleRange(tree.class, tree.extents[2]);
    const ok = { primitiveId: tree.id, x: 0, y: 0, yaw: 0, scale: 1 };
    const flat = { kind: 'flat' as const, z: 0, extent };
    await expectApiError(services.call('scenes.author', { mode: 'mesh', terrain: flat, placements: [ok, { ...ok, scale: hi * 1.2 }] }), 'bad_input', /placement 2: scale .* outside its class's range/);
    await expectApiError(services.call('scenes.author', { mode: 'mesh', terrain: flat, placements: [ok, ok, { ...ok, x: 25 }] }), 'bad_input', 'placement 3: (25.00, 0.00) is outside the terrain');
    await expectApiError(services.call('scenes.author', { mode: 'mesh', terrain: flat, placements: [{ ...ok, primitiveId: 99_999 }] }), 'bad_input', 'placement 1: no primitive 99999');
    await expectApiError(services.call('scenes.author', { mode: 'hybrid', terrain: flat, placements: [ok] }), 'bad_input', 'has no ellipsoids for the hybrid mode');
    await expectApiError(services.call('scenes.author', { mode: 'mesh', terrain: flat, placements: [ok], editedFrom: 4242 }), 'not_found', 'editedFrom: no scene 4242');
    await expectApiError(services.call('scenes.author', { mode: 'mesh', terrain: { kind: 'model', modelId: 77 }, placements: [ok] }), 'not_found', 'no fitted model 77');
    await expectApiError(services.call('scenes.author', { mode: 'mesh', terrain: { kind: 'flat', z: 0, extent: { x0: 1, y0: 0, x1: 0, y1: 1 } }, placements: [] }), 'invalid_request', 'x1 > x0');
    expect((await services.call('scenes.list', {})).length).toBe(before.scenes);
    expect((await services.call('jobs.list', {})).length).toBe(before.jobs);
  });
});
