import { describe, expect, it } from 'vitest';
import { buildComposedScene, composeScene, planComposition } from '../../../src-worker/primitives/compose';
import { groundFromHeightGrid, groundFromModel, groundVoxels } from '../../../src-worker/primitives/compose-ground';
import { heightFunctionGrid } from '../../../src-worker/primitives/ground-index';
import type { Primitive } from '../../../src-common/primitive';
import { PrimitiveIndex, extentsDistance } from '../../../src-worker/primitives/select';
import type { EntryLike } from '../../../src-worker/primitives/segments';
import { createSceneQuery, newSceneElementHit } from '../../../src-worker/scene/scene-bvh';
import { newSurfaceHit, ElementKind } from '../../../src-worker/scene/scene-query';
import { yawQuaternion } from '../../../src-worker/geometry/pose';
import { ReferenceClass as C, SiteClass } from '../../../src-common/classes';
import type { SceneData } from '../../../src-common/scene-data';

/** A hybrid primitive: one ellipsoid at the middle of its box; voxels and a tetrahedron mesh too. */
function prim(id: number, cls: number, extents: [number, number, number]): Primitive {
  const h = extents[2];
  const tri = (a: number[], b: number[], c: number[]) => [...a, ...b, ...c];
  const top = [0, 0, h], p0 = [0.5, 0, 0.1], p1 = [-0.5, 0.5, 0.1], p2 = [-0.5, -0.5, 0.1];
  return {
    id, class: cls, extents, source: 'object',
    ellipsoids: { means: Float64Array.of(0, 0, h / 2), covariances: Float64Array.of(0.2, 0, 0, 0.2, 0, (h / 4) ** 2), pHit: Float32Array.of(1) },
    voxels: { means: Float64Array.of(0, 0, h / 2), covariances: Float64Array.of(0.05, 0, 0, 0.05, 0, 0.05), permeability: Float32Array.of(0) },
    triangles: Float32Array.from([...tri(p0, p1, top), ...tri(p1, p2, top), ...tri(p2, p0, top), ...tri(p0, p2, p1)]),
  };
}

function entry(id: number, cls: number, x: number, y: number, size: [number, number, number], yaw = 0, patch = false): EntryLike {
  return { id, class: cls, ...(patch ? { patch: true } : {}), box: { center: [x, y, size[2] / 2], size, yaw } };
}

/** First element a vertical ray down through (x, y) meets: kind, object and class. */
function firstDown(data: SceneData, x: number, y: number): { kind: number; objectId: number; classId: number } | null {
  const q = createSceneQuery(data);
  let got: { kind: number; objectId: number; classId: number } | null = null;
  q.traverse(x, y, 50, 0, 0, -1, 0, 100, (h) => {
    got = { kind: h.kind, objectId: h.objectId, classId: h.classId };
    return true;
  });
  void newSceneElementHit;
  return got;
}

const library = [prim(1, C.smallTree, [3, 3, 6]), prim(2, C.smallTree, [4, 4, 8]), prim(3, C.mediumShrub, [4, 4, 4]), prim(4, C.mediumShrub, [4, 4, 4])];
const flat = groundFromHeightGrid(heightFunctionGrid(() => 0, { x0: -30, y0: -30, x1: 30, y1: 30 }, 2), { variance: 0.01 });

describe('selecting primitives', () => {
  it('nearest extents (Euclidean norm), ties to the lower id, family fallback', () => {
    const idx = new PrimitiveIndex(library, 'hybrid');
    expect(extentsDistance([3, 3, 6], [4, 4, 8])).toBeCloseTo(Math.sqrt(6), 12);
    expect(idx.select(C.smallTree, [3.1, 2.9, 6.2])!.primitive.id).toBe(1);
    expect(idx.select(C.smallTree, [3.9, 4, 7.5])!.primitive.id).toBe(2);
    expect(idx.select(C.mediumShrub, [4, 4, 4])!.primitive.id).toBe(3); // 3 and 4 tie
    const fb = idx.select(C.largeTree, [5, 5, 13])!;
    expect(fb).toMatchObject({ fallback: true, swapped: false });
    expect(fb.primitive.id).toBe(2);
    expect(idx.select(C.rock, [1, 1, 1])).toBeNull();
    // A quarter turn fits a long primitive to a wide entry.
    const long = new PrimitiveIndex([prim(9, C.smallTree, [6, 2, 5])], 'hybrid');
    expect(long.select(C.smallTree, [2, 6, 5], true)).toMatchObject({ swapped: true, distance: 0 });
  });

  it('only primitives with the mode\'s elements are candidates', () => {
    const meshOnly: Primitive = { id: 7, class: C.smallTree, extents: [3, 3, 6], source: 'procedural', triangles: prim(0, 0, [1, 1, 1]).triangles! };
    expect(new PrimitiveIndex([meshOnly], 'hybrid').classes()).toEqual([]);
    expect(new PrimitiveIndex([meshOnly], 'mesh').classes()).toEqual([C.smallTree]);
  });
});

describe('composing a scene from an annotation', () => {
  const entries = [entry(11, C.smallTree, 5, 0, [3.1, 2.9, 6.2], 0.7), entry(12, C.smallTree, -6, 4, [3, 3, 6], -1.2)];

  it('two entries sharing one primitive: one stored primitive, two instances; rays carry the entry ids', () => {
    const s = composeScene(entries, library, null, { mode: 'hybrid' });
    expect(s.data.primitiveCount).toBe(1);
    expect(s.data.instanceCount).toBe(2);
    expect(s.primitiveIds).toEqual([1]);
    expect(s.counts).toMatchObject({ entries: 2, placements: 2, uniquePrimitives: 1, fallbacks: 0 });
    const pl = s.plan.placements[0]!;
    // Base centre of the entry's box, its yaw.
    expect(pl.pose.slice(0, 3)).toEqual([5, 0, 0]);
    const q = yawQuaternion(0.7);
    pl.pose.slice(3).forEach((v, k) => expect(v).toBeCloseTo(q[k]!, 12));
    expect(firstDown(s.data, 5, 0)).toEqual({ kind: ElementKind.Ellipsoid, objectId: 11, classId: C.smallTree });
    expect(firstDown(s.data, -6, 4)).toEqual({ kind: ElementKind.Ellipsoid, objectId: 12, classId: C.smallTree });
    expect(firstDown(s.data, 15, 15)).toBeNull();
  });

  it('hybrid: ground triangles under the ellipsoids; voxel: voxels only, the ground as voxels; mesh: triangles', () => {
    const hybrid = composeScene(entries, library, flat, { mode: 'hybrid' });
    expect(hybrid.data.primitiveCount).toBe(2);
    expect(hybrid.data.instanceCount).toBe(3);
    expect(firstDown(hybrid.data, 15, 15)).toEqual({ kind: ElementKind.Ground, objectId: 1, classId: SiteClass.ground });
    const voxel = composeScene(entries, library, flat, { mode: 'voxel' });
    expect(voxel.data.triangleCount).toBe(0);
    expect(firstDown(voxel.data, 15, 15)).toEqual({ kind: ElementKind.Voxel, objectId: 1, classId: SiteClass.ground });
    expect(firstDown(voxel.data, 5, 0)).toEqual({ kind: ElementKind.Voxel, objectId: 11, classId: C.smallTree });
    const mesh = composeScene(entries, library, flat, { mode: 'mesh' });
    expect(mesh.data.gaussianCount).toBe(0);
    const q = createSceneQuery(mesh.data);
    const hit = newSurfaceHit();
    expect(q.closestSurface(5, 0, 50, 0, 0, -1, 0, 100, hit)).toBe(true);
    expect([hit.objectId, hit.classId]).toEqual([11, C.smallTree]);
    expect(hit.t).toBeCloseTo(50 - 6, 4); // the tetrahedron's apex at the primitive's height
  });

  it('patches are refilled cell by cell, each cell on the ground under it', () => {
    const slope = groundFromHeightGrid(heightFunctionGrid((x) => 0.1 * x, { x0: -30, y0: -30, x1: 30, y1: 30 }, 2));
    const e = entry(20, C.mediumShrub, 0, 0, [6, 2, 4], 0, true);
    const s = composeScene([e], library, slope, { mode: 'hybrid', patchCellSize: 2 });
    expect(s.plan.placements.map((p) => [p.cell, p.primitiveId])).toEqual([[[0, 0], 3], [[1, 0], 3], [[2, 0], 3]]);
    s.plan.placements.forEach((p, k) => {
      expect(p.pose[0]).toBeCloseTo(-2 + 2 * k, 9);
      expect(p.pose[2]).toBeCloseTo(0.1 * (-2 + 2 * k), 6);
      expect(p.entryId).toBe(20);
    });
    expect(s.data.instanceCount).toBe(4);
  });

  it('reports family fallbacks, skips classes it does not compose, and names a class with no primitive', () => {
    const plan = planComposition(
      [entry(1, C.ground, 0, 0, [50, 50, 1]), entry(30, C.largeTree, 0, 0, [5, 5, 13]), entry(31, C.rock, 3, 3, [1, 1, 0.5]), entry(32, C.grass, 3, 3, [1, 1, 0.5])],
      library, { mode: 'hybrid' },
    );
    expect(plan.fallbacks).toEqual([{ entryId: 30, from: C.largeTree, to: C.smallTree }]);
    expect(plan.placements[0]).toMatchObject({ entryId: 30, entryClass: C.largeTree, primitiveClass: C.smallTree, fallback: true });
    expect(plan.skipped.map((k) => k.entryId)).toEqual([1, 31, 32]);
    const s = buildComposedScene(plan, library, null);
    expect(firstDown(s.data, 0, 0)).toMatchObject({ objectId: 30, classId: C.largeTree });
    expect(() => planComposition([entry(5, C.lowShrub, 0, 0, [1, 1, 1])], [library[0]!], { mode: 'hybrid' })).toThrow(/class 'low shrub' \(3\).*entry 5/);
    expect(() => planComposition([entry(6, C.rock, 0, 0, [1, 1, 1])], library, { mode: 'hybrid', classes: [C.rock] })).toThrow(/class 'rock'/);
  });

  it('ground from a fitted model: its triangles, and the voxels on its surface for the voxel mode', () => {
    const tri = Float32Array.of(-10, -10, 0, 10, -10, 0, 10, 10, 0, -10, -10, 0, 10, 10, 0, -10, 10, 0);
    const g = groundFromModel({
      groundPositions: tri, groundPHit: Float32Array.of(0.9, 0.8),
      voxelMeans: Float64Array.of(0, 0, 0.05, 1, 1, 2), voxelCovariances: new Float64Array(12).fill(0.01), voxelPermeability: Float32Array.of(0.1, 0.5),
    }, 0.02);
    expect(g.voxels!.permeability.length).toBe(1);
    expect(Array.from(g.voxels!.means)).toEqual([0, 0, 0.05]);
    const made = groundVoxels({ positions: tri, pHit: 0.9, variance: 0.02 }, 1);
    expect(made.permeability.length).toBe(400);
    expect(made.permeability[0]).toBeCloseTo(0.1, 6);
    expect(Array.from(made.covariances.subarray(0, 6)).map((v) => +v.toFixed(6))).toEqual([0.140625, 0, 0, 0.140625, 0, 0.02]); // (0.75 s / τ)² along the ground
  });
});
