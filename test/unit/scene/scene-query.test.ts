import { describe, expect, it } from 'vitest';
import { createSceneQuery, type SceneElementHit } from '../../../src-worker/scene/scene-bvh';
import { createBruteForceQuery } from '../../../src-worker/scene/brute-force-query';
import { SceneBuilder } from '../../../src-worker/scene/scene-builder';
import { sceneMemoryBytes, sceneStats, flattenSceneTriangles } from '../../../src-worker/scene/scene-data';
import { ElementKind, newSurfaceHit, type ElementHit } from '../../../src-worker/scene/scene-query';
import { randomRays, randomScene } from './random-scene';

interface Seen { t: number; kind: number; instance: number; element: number; m: number; varT: number; pHit: number; objectId: number; mean: number[]; chol: number[] }

function collect(q: { traverse: (...a: never[]) => void }, ray: Float64Array, i: number, tmin: number, tmax: number, limit = Infinity): Seen[] {
  const seen: Seen[] = [];
  (q.traverse as (ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, a: number, b: number, v: (h: ElementHit) => boolean) => void)(
    ray[6 * i]!, ray[6 * i + 1]!, ray[6 * i + 2]!, ray[6 * i + 3]!, ray[6 * i + 4]!, ray[6 * i + 5]!, tmin, tmax,
    (h) => {
      const s = h as SceneElementHit;
      seen.push({ t: s.t, kind: s.kind, instance: s.instance, element: s.element, m: s.mahalanobis, varT: s.varT, pHit: s.pHit, objectId: s.objectId, mean: [...s.mean], chol: [...s.chol] });
      return seen.length >= limit;
    },
  );
  return seen;
}

describe('BVH scene query against the brute-force oracle', () => {
  for (const seed of [1, 2, 3]) {
    it(`random scene ${seed}: closest surfaces and element sequences agree`, () => {
      const data = randomScene(seed, { shared: seed === 2 });
      const bvh = createSceneQuery(data);
      const brute = createBruteForceQuery(data);
      const rays = randomRays(seed, 1500, 16);
      const a = newSurfaceHit(), b = newSurfaceHit();
      let surfaceHits = 0, elementsSeen = 0;
      for (let i = 0; i < 1500; i++) {
        const o = 6 * i;
        const tmin = i % 5 === 0 ? 0.5 : 0, tmax = i % 7 === 0 ? 4 : 1000;
        const ha = bvh.closestSurface(rays[o]!, rays[o + 1]!, rays[o + 2]!, rays[o + 3]!, rays[o + 4]!, rays[o + 5]!, tmin, tmax, a);
        const hb = brute.closestSurface(rays[o]!, rays[o + 1]!, rays[o + 2]!, rays[o + 3]!, rays[o + 4]!, rays[o + 5]!, tmin, tmax, b);
        expect(ha, `ray ${i}`).toBe(hb);
        if (ha) {
          surfaceHits++;
          expect(Math.abs(a.t - b.t), `ray ${i}`).toBeLessThan(1e-5);
          if (bvh.lastTriangle === brute.lastTriangle && bvh.lastInstance === brute.lastInstance) {
            expect(a.objectId).toBe(b.objectId);
            expect(a.classId).toBe(b.classId);
            expect(a.reflectance).toBeCloseTo(b.reflectance, 6);
            expect(a.nx).toBeCloseTo(b.nx, 6);
            expect(a.ny).toBeCloseTo(b.ny, 6);
            expect(a.nz).toBeCloseTo(b.nz, 6);
          }
          expect(Math.hypot(a.nx, a.ny, a.nz)).toBeCloseTo(1, 9);
          expect(a.nx * rays[o + 3]! + a.ny * rays[o + 4]! + a.nz * rays[o + 5]!).toBeLessThanOrEqual(0);
        }
        const sa = collect(bvh, rays, i, tmin, tmax);
        const sb = collect(brute, rays, i, tmin, tmax);
        expect(sa.length, `ray ${i}`).toBe(sb.length);
        elementsSeen += sa.length;
        for (let k = 0; k < sa.length; k++) {
          expect(Math.abs(sa[k]!.t - sb[k]!.t), `ray ${i} element ${k}`).toBeLessThan(1e-5);
          if (k > 0) expect(sa[k]!.t).toBeGreaterThanOrEqual(sa[k - 1]!.t);
        }
        // Same elements (ties in t may come in either order).
        const key = (s: Seen) => `${s.instance}:${s.element}`;
        expect(sa.map(key).sort()).toEqual(sb.map(key).sort());
        const byKey = new Map(sb.map((s) => [key(s), s]));
        for (const s of sa) {
          const r = byKey.get(key(s))!;
          expect(s.kind).toBe(r.kind);
          expect(s.m).toBeCloseTo(r.m, 6);
          expect(s.varT).toBeCloseTo(r.varT, 6);
          expect(s.pHit).toBe(r.pHit);
          expect(s.objectId).toBe(r.objectId);
          for (let k = 0; k < 3; k++) expect(s.mean[k]).toBeCloseTo(r.mean[k]!, 9);
        }
        // Early stop: asking for two elements gives the first two.
        const two = collect(bvh, rays, i, tmin, tmax, 2);
        expect(two.length).toBe(Math.min(2, sb.length));
        for (let k = 0; k < two.length; k++) expect(Math.abs(two[k]!.t - sb[k]!.t)).toBeLessThan(1e-5);
      }
      expect(surfaceHits).toBeGreaterThan(100);
      expect(elementsSeen).toBeGreaterThan(1000);
    });
  }

  it('reports every kind with its sensor parameters', () => {
    const b = new SceneBuilder();
    const ground = b.addGround(new Float32Array([-10, -10, 0, 10, -10, 0, 0, 10, 0]), 0.8, 0.0004);
    const ell = b.addEllipsoids([5, 0, 1], [0.04, 0, 0, 0.04, 0, 0.04], 0.3);
    const vox = b.addVoxels([3, 0, 1], [0.01, 0, 0, 0.01, 0, 0.01], 0.25);
    const mesh = b.addMesh(new Float32Array([8, -1, -1, 8, 1, -1, 8, 0, 3]), 0.6);
    b.addInstance(ground, undefined, 1, 1);
    b.addInstance(ell, undefined, 2, 2);
    b.addInstance(vox, undefined, 3, 3);
    b.addInstance(mesh, undefined, 4, 4);
    const q = createSceneQuery(b.build());
    const seen: { kind: number; t: number; pHit: number; varT: number; m: number }[] = [];
    q.traverse(0, 0, 1, 1, 0, 0, 0, 100, (h) => {
      seen.push({ kind: h.kind, t: h.t, pHit: h.pHit, varT: h.varT, m: h.mahalanobis });
      return false;
    });
    expect(seen.map((s) => s.kind)).toEqual([ElementKind.Voxel, ElementKind.Ellipsoid, ElementKind.Surface]);
    expect(seen[0]!.t).toBeCloseTo(3, 12);
    expect(seen[0]!.pHit).toBeCloseTo(0.75, 6);
    expect(seen[0]!.varT).toBeCloseTo(0.01, 12);
    expect(seen[1]!.t).toBeCloseTo(5, 12);
    expect(seen[1]!.pHit).toBeCloseTo(0.3, 6);
    expect(seen[2]!.t).toBeCloseTo(8, 6);
    expect(seen[2]!.pHit).toBe(1);
    // A ray down hits the ground with its p_hit and σ²_ground.
    const down: ElementHit[] = [];
    q.traverse(0, 0, 1, 0, 0, -1, 0, 100, (h) => (down.push({ ...h }), true));
    expect(down[0]!.kind).toBe(ElementKind.Ground);
    expect(down[0]!.pHit).toBeCloseTo(0.8, 6);
    expect(down[0]!.varT).toBe(0.0004);
    const s = newSurfaceHit();
    expect(q.closestSurface(0, 0, 1, 0, 0, -1, 0, 100, s)).toBe(true);
    expect(s.t).toBeCloseTo(1, 9);
    expect(s.nz).toBeCloseTo(1, 9);
    expect(s.reflectance).toBeCloseTo(0.3, 6);
    expect(s.objectId).toBe(1);
    // closestSurface ignores ellipsoids and voxels.
    expect(q.closestSurface(0, 0, 1, 1, 0, 0, 0, 100, s)).toBe(true);
    expect(s.t).toBeCloseTo(8, 6);
    expect(s.reflectance).toBeCloseTo(0.6, 6);
    expect(s.nx).toBeCloseTo(-1, 9);
    // The Mahalanobis threshold bounds the ellipsoid: a ray 3σ off passes (3 < 3.5), 4σ off does not.
    const count = (z: number) => {
      let n = 0;
      q.traverse(0, 0, z, 1, 0, 0, 0, 6, (h) => ((n += h.kind === ElementKind.Ellipsoid ? 1 : 0), false));
      return n;
    };
    expect(count(1.6)).toBe(1);
    expect(count(1.8)).toBe(0);
  });

  it('transforms normals, Gaussians and ids with the instance pose', () => {
    const b = new SceneBuilder();
    const tri = b.addMesh(new Float32Array([0, -1, -1, 0, 1, -1, 0, 0, 1]), 0.5);
    const ell = b.addEllipsoids([0, 0, 0], [1, 0, 0, 0.04, 0, 0.01], 1);
    // yaw 90°: local x → world y
    const q90 = [0, 0, Math.SQRT1_2, Math.SQRT1_2];
    b.addInstance(tri, [0, 5, 0, ...q90], 7, 3);
    b.addInstance(ell, [10, 0, 0, ...q90], 8, 4);
    const q = createSceneQuery(b.build());
    const s = newSurfaceHit();
    expect(q.closestSurface(0, 0, 0, 0, 1, 0, 0, 100, s)).toBe(true);
    expect(s.t).toBeCloseTo(5, 6);
    expect(s.ny).toBeCloseTo(-1, 9);
    expect(s.objectId).toBe(7);
    expect(s.classId).toBe(3);
    let hit: SceneElementHit | undefined;
    q.traverse(10, -5, 0, 0, 1, 0, 0, 100, (h) => ((hit = { ...(h as SceneElementHit), mean: h.mean.slice(), chol: h.chol.slice() }), true));
    expect(hit!.t).toBeCloseTo(5, 9);
    expect(hit!.varT).toBeCloseTo(1, 9); // along world y = local x, variance 1
    expect(hit!.mean[0]).toBeCloseTo(10, 12);
    // world Σ = diag(0.04, 1, 0.01): Cholesky diag(0.2, 1, 0.1)
    expect(hit!.chol[0]).toBeCloseTo(0.2, 9);
    expect(hit!.chol[2]).toBeCloseTo(1, 9);
    expect(hit!.chol[5]).toBeCloseTo(0.1, 9);
    expect(hit!.chol[1]).toBeCloseTo(0, 9);
  });

  it('instancing shares primitives: 1000 copies cost one tree plus instance records', () => {
    const b1 = new SceneBuilder();
    const tri = new Float32Array(9 * 2000).map((_, i) => Math.sin(i * 12.9898) * 5);
    const p1 = b1.addMesh(tri);
    b1.addInstance(p1);
    const one = sceneMemoryBytes(b1.build());
    const b2 = new SceneBuilder();
    const p2 = b2.addMesh(tri);
    for (let i = 0; i < 1000; i++) b2.addInstance(p2, [i * 20, 0, 0, 0, 0, 0, 1], i);
    const data = b2.build({ shared: true });
    const many = sceneMemoryBytes(data);
    expect(many - one).toBeLessThan(1000 * 300); // instance record, refs and two instance-tree leaves
    const st = sceneStats(data);
    expect(st.uniqueTriangles).toBe(2000);
    expect(st.instancedTriangles).toBe(2_000_000);
    expect(st.instances).toBe(1000);
    expect(data.triVerts.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(flattenSceneTriangles(data).positions.length).toBe(2_000_000 * 9);
  });

  it('survives structured clone with shared buffers (what piscina does)', () => {
    const data = randomScene(5, { shared: true });
    const copy = structuredClone(data);
    expect(copy.nodeBounds.buffer).toBeInstanceOf(SharedArrayBuffer);
    copy.triValues[0] = 0.123;
    expect(data.triValues[0]).toBeCloseTo(0.123, 6); // same memory
    const q = createSceneQuery(copy);
    const rays = randomRays(5, 50, 10);
    const a = newSurfaceHit(), b = newSurfaceHit();
    const ref = createSceneQuery(data);
    for (let i = 0; i < 50; i++) {
      const o = 6 * i;
      const args = [rays[o]!, rays[o + 1]!, rays[o + 2]!, rays[o + 3]!, rays[o + 4]!, rays[o + 5]!, 0, 100] as const;
      expect(q.closestSurface(...args, a)).toBe(ref.closestSurface(...args, b));
      expect(a.t).toBe(b.t);
    }
  });

  it('handles an empty scene', () => {
    const q = createSceneQuery(new SceneBuilder().build());
    expect(q.closestSurface(0, 0, 0, 1, 0, 0, 0, 10, newSurfaceHit())).toBe(false);
    let n = 0;
    q.traverse(0, 0, 0, 1, 0, 0, 0, 10, () => (n++, false));
    expect(n).toBe(0);
  });
});
