import { describe, expect, it } from 'vitest';
import { SceneBuilder } from '../../../src-worker/scene/scene-builder';
import { ElementKind } from '../../../src-worker/scene/scene-query';
import { PREVIEW_MAX_GAUSSIANS, PREVIEW_MAX_TRIANGLES, scenePreview, type ScenePreview } from '../../../src-worker/scene/scene-preview';
import { requestSchemas, type ScenePreviewData } from '../../../src-main/api/contract';

/** Pose [tx, ty, tz, qx, qy, qz, qw] of a yaw about z. */
const yawPose = (t: [number, number, number], yaw: number) => [...t, 0, 0, Math.sin(yaw / 2), Math.cos(yaw / 2)];
/** x_w = R_z(yaw) x + t. */
const applyYaw = (p: number[], t: number[], yaw: number) => [
  Math.cos(yaw) * p[0]! - Math.sin(yaw) * p[1]! + t[0]!,
  Math.sin(yaw) * p[0]! + Math.cos(yaw) * p[1]! + t[1]!,
  p[2]! + t[2]!,
];

// One mesh triangle (local), placed twice; two ellipsoids placed once with a quarter turn; a ground of many triangles.
const TRI = [0, 0, 0, 1, 0, 0, 0, 2, 0];
const MEANS = [1, 0, 0.5, -1, 0, 1.5];
// Σ of the first: long along local x (σ 0.5) and thin across; of the second: a tilted one.
const COVS = [0.25, 0, 0, 0.01, 0, 0.04, 0.09, 0.02, 0.01, 0.04, 0.005, 0.01];

function groundStrip(n: number): Float32Array {
  const out = new Float32Array(9 * n);
  for (let i = 0; i < n; i++) out.set([i, -5, -1, i + 1, -5, -1, i, -4, -1], 9 * i);
  return out;
}

function build() {
  const b = new SceneBuilder();
  const ground = b.addGround(groundStrip(100), 0.9, 0.01);
  const mesh = b.addMesh(new Float32Array(TRI));
  const ell = b.addEllipsoids(MEANS, COVS, [0.25, 0.75]);
  b.addInstance(ground, undefined, 1, 1);
  b.addInstance(mesh, yawPose([10, 0, 0], 0), 21, 7);
  b.addInstance(mesh, yawPose([20, 5, 1], Math.PI / 2), 22, 8);
  b.addInstance(ell, yawPose([30, 0, 0], Math.PI / 2), 23, 5);
  return b.build({ mahalanobisThreshold: 3 });
}

const close = (a: ArrayLike<number>, b: ArrayLike<number>, tol: number) => {
  expect(a.length).toBe(b.length);
  for (let i = 0; i < a.length; i++) expect(Math.abs(a[i]! - b[i]!)).toBeLessThan(tol);
};

describe('scenePreview', () => {
  it('places every element in the world with its instance transform, class and object id', () => {
    const data = build();
    const p = scenePreview(data);
    const c = p.centre;
    expect(p.instances).toBe(4);
    expect(p.triangles.total).toBe(102);
    expect(p.triangles.positions.length).toBe(102 * 9);
    expect(p.gaussians.total).toBe(2);
    expect(p.mahalanobisThreshold).toBe(3);
    // The centre is the bounds' centre.
    for (let a = 0; a < 3; a++) expect(c[a]).toBeCloseTo((p.bounds.min[a]! + p.bounds.max[a]!) / 2, 9);

    // The two placed mesh triangles, found by class: the first only translated, the second turned a quarter.
    const tris = (cls: number) => [...p.triangles.classIds.keys()].filter((i) => p.triangles.classIds[i] === cls);
    const world = (i: number) => [...p.triangles.positions.subarray(9 * i, 9 * i + 9)].map((v, k) => v + c[k % 3]!);
    const [a] = tris(7);
    const [bq] = tris(8);
    expect(tris(7)).toHaveLength(1);
    expect(tris(1)).toHaveLength(100);
    const expectA = [0, 1, 2].flatMap((v) => applyYaw(TRI.slice(3 * v, 3 * v + 3), [10, 0, 0], 0));
    const expectB = [0, 1, 2].flatMap((v) => applyYaw(TRI.slice(3 * v, 3 * v + 3), [20, 5, 1], Math.PI / 2));
    close(world(a!), expectA, 1e-5); // float32 of values ≲ 30 m: 1e-5 m
    close(world(bq!), expectB, 1e-5);
    expect(p.triangles.objectIds[a!]).toBe(21);
    expect(p.triangles.objectIds[bq!]).toBe(22);
    expect(p.triangles.kinds[a!]).toBe(ElementKind.Surface);
    expect(p.triangles.kinds[tris(1)[0]!]).toBe(ElementKind.Ground);

    // Ellipsoids: means turned and moved; Σ_world = R Σ Rᵀ (a quarter turn swaps xx and yy, negates xy).
    expect([...p.gaussians.classIds]).toEqual([5, 5]);
    expect([...p.gaussians.objectIds]).toEqual([23, 23]);
    expect([...p.gaussians.kinds]).toEqual([ElementKind.Ellipsoid, ElementKind.Ellipsoid]);
    for (let g = 0; g < 2; g++) {
      const m = [...p.gaussians.means.subarray(3 * g, 3 * g + 3)].map((v, k) => v + c[k]!);
      const src = [0, 1].find((s) => Math.hypot(...applyYaw(MEANS.slice(3 * s, 3 * s + 3), [30, 0, 0], Math.PI / 2).map((v, k) => v - m[k]!)) < 1e-4);
      expect(src).toBeDefined();
      const [xx, xy, xz, yy, yz, zz] = COVS.slice(6 * src!, 6 * src! + 6) as number[];
      close(p.gaussians.covariances.subarray(6 * g, 6 * g + 6), [yy!, -xy!, -yz!, xx!, xz!, zz!], 1e-6);
      expect(p.gaussians.pHit[g]).toBeCloseTo(src === 0 ? 0.25 : 0.75, 6);
    }
  });

  it('keeps at most the budget, evenly strided over every instance', () => {
    const data = build();
    const p = scenePreview(data, { maxTriangles: 10, maxGaussians: 1 });
    expect(p.triangles.total).toBe(102);
    expect(p.triangles.positions.length).toBe(10 * 9);
    expect(p.triangles.classIds.length).toBe(10);
    expect(p.gaussians.total).toBe(2);
    expect(p.gaussians.means.length).toBe(3);
    // Placed order: 100 ground triangles, then the two mesh ones. Kept indices ⌊j·102/10⌋ = 0, 10, …, 91:
    // all ground, ten different ones. Within a primitive the order is its BVH's leaf order, which
    // is spatially coherent, so they spread along the 100 m strip (not one end of it).
    expect([...p.triangles.classIds].every((k) => k === 1)).toBe(true);
    const xs = [...Array(10).keys()].map((i) => Math.round(Math.min(p.triangles.positions[9 * i]!, p.triangles.positions[9 * i + 3]!, p.triangles.positions[9 * i + 6]!) + p.centre[0]));
    expect(new Set(xs).size).toBe(10);
    expect(Math.max(...xs) - Math.min(...xs)).toBeGreaterThan(60);
    // A budget of 51 reaches the last instance: ⌊50·102/51⌋ = 100 is the first mesh triangle.
    const q = scenePreview(data, { maxTriangles: 51 });
    expect(q.triangles.positions.length).toBe(51 * 9);
    expect(q.triangles.classIds[50]).toBe(7);
    // No cap needed: everything, and a zero budget: nothing.
    expect(scenePreview(data, { maxTriangles: 1_000 }).triangles.classIds.length).toBe(102);
    const none = scenePreview(data, { maxTriangles: 0, maxGaussians: 0 });
    expect(none.triangles.positions.length).toBe(0);
    expect(none.gaussians.means.length).toBe(0);
  });

  it('voxels carry p_hit = 1 − ρ; an empty scene gives empty arrays', () => {
    const b = new SceneBuilder();
    const v = b.addVoxels([0, 0, 0, 1, 1, 1], [0.01, 0, 0, 0.01, 0, 0.01, 0.02, 0, 0, 0.02, 0, 0.02], [0.2, 0.6]);
    b.addInstance(v, undefined, 3, 2);
    const p = scenePreview(b.build());
    expect([...p.gaussians.kinds]).toEqual([ElementKind.Voxel, ElementKind.Voxel]);
    expect([...p.gaussians.pHit].sort().map((x) => Math.round(x * 1e6) / 1e6)).toEqual([0.4, 0.8]);
    expect(p.triangles.total).toBe(0);

    const empty = scenePreview(new SceneBuilder().build());
    expect(empty.instances).toBe(0);
    expect(empty.triangles.positions.length + empty.gaussians.means.length).toBe(0);
  });

  it('scenes.preview: the request defaults to the worker’s caps, and the result is the contract’s type', () => {
    const req = requestSchemas['scenes.preview'].parse({ id: 3 });
    expect(req).toEqual({ id: 3, budget: PREVIEW_MAX_TRIANGLES, gaussianBudget: PREVIEW_MAX_GAUSSIANS });
    expect(requestSchemas['scenes.preview'].safeParse({ id: 3, budget: -1 }).success).toBe(false);
    // Compile-time: the worker's type is assignable to the contract's.
    const asContract = (p: ScenePreview): ScenePreviewData => p;
    expect(asContract(scenePreview(build())).instances).toBe(4);
  });
});
