import { describe, expect, it } from 'vitest';
import { createSceneQuery } from '../../../src-worker/scene/scene-bvh';
import { SceneBuilder } from '../../../src-worker/scene/scene-builder';
import { newSurfaceHit, type SurfaceHit } from '../../../src-worker/scene/scene-query';
import { RandomStream } from '../../../src-worker/random/stream';
import { rayKernelAvailable } from '../../../src-worker/scene/kernel/ray-kernel';
import { randomRays, randomScene, randomTriangles } from './random-scene';

/** A beam of `count` unit rays around d, spread by up to `spread` (rad-ish), some exactly axis-aligned. */
function beamAround(r: RandomStream, d: number[], count: number, spread: number, out: Float64Array): void {
  for (let k = 0; k < count; k++) {
    const e = k === 0 ? [0, 0, 0] : [r.normal() * spread, r.normal() * spread, r.normal() * spread];
    const v = [d[0]! + e[0]!, d[1]! + e[1]!, d[2]! + e[2]!];
    const len = Math.hypot(v[0]!, v[1]!, v[2]!);
    out[3 * k] = v[0]! / len; out[3 * k + 1] = v[1]! / len; out[3 * k + 2] = v[2]! / len;
  }
}

function sameHit(a: SurfaceHit, b: SurfaceHit, msg: string): void {
  expect(a.t, msg).toBe(b.t);
  // Which of two triangles at exactly equal t wins depends on visit order; anything else must match.
  expect([a.nx, a.ny, a.nz, a.reflectance, a.objectId, a.classId], msg).toEqual([b.nx, b.ny, b.nz, b.reflectance, b.objectId, b.classId]);
}

/** The kernel's beam walk against the reference walk casting each ray alone. */
function compare(data: ReturnType<typeof randomScene>, seed: number, n: number, extent: number, spreads: number[]): number {
  const q = createSceneQuery(data, 'auto'), reference = createSceneQuery(data, 'js');
  expect(q.rayKernel()).not.toBeNull();
  const rays = randomRays(seed, n, extent);
  const r = new RandomStream(seed, 7);
  const dirs = new Float64Array(3 * 9);
  const beamHits = Array.from({ length: 9 }, () => newSurfaceHit());
  const single = newSurfaceHit();
  let hits = 0;
  for (let i = 0; i < n; i++) {
    const o = 6 * i;
    const spread = spreads[i % spreads.length]!;
    beamAround(r, [rays[o + 3]!, rays[o + 4]!, rays[o + 5]!], 9, spread, dirs);
    const tmin = i % 5 === 0 ? 0.5 : 0, tmax = i % 7 === 0 ? 4 : 1000;
    const count = i % 11 === 0 ? 1 + (i % 9) : 9;
    const mask = q.closestSurfaceBeam(rays[o]!, rays[o + 1]!, rays[o + 2]!, dirs, count, tmin, tmax, beamHits);
    for (let k = 0; k < count; k++) {
      const h = reference.closestSurface(rays[o]!, rays[o + 1]!, rays[o + 2]!, dirs[3 * k]!, dirs[3 * k + 1]!, dirs[3 * k + 2]!, tmin, tmax, single);
      expect((mask >> k) & 1, `ray ${i} sub ${k}`).toBe(h ? 1 : 0);
      if (h) {
        sameHit(beamHits[k]!, single, `ray ${i} sub ${k}`);
        hits++;
      }
    }
    expect(mask >> count, `ray ${i}: no bits past count`).toBe(0);
  }
  return hits;
}

describe.skipIf(!rayKernelAvailable())('beam query (closestSurfaceBeam, the kernel\'s ray-beam.c) equals the reference\'s closestSurface ray by ray', () => {
  for (const seed of [1, 2, 3]) {
    it(`random scene ${seed} (instanced, rotated), narrow and wide beams`, () => {
      const hits = compare(randomScene(seed), seed, 1200, 16, [0, 1e-3, 3e-3, 0.05, 0.5, 2]);
      expect(hits).toBeGreaterThan(1000);
    });
  }

  it('a dense single mesh (the engine bench shape), lidar-like beams', () => {
    const r = new RandomStream(9, 1);
    const b = new SceneBuilder();
    b.addInstance(b.addMesh(randomTriangles(r, 4000, 10, 0.6), 0.5));
    const hits = compare(b.build(), 4, 1500, 12, [1.5e-3, 3e-3]);
    expect(hits).toBeGreaterThan(3000);
  });

  it('handles an empty scene and count 0', () => {
    const q = createSceneQuery(new SceneBuilder().build());
    const out = Array.from({ length: 9 }, () => newSurfaceHit());
    expect(q.closestSurfaceBeam(0, 0, 0, new Float64Array(27).fill(0.5773502691896258), 9, 0, 10, out)).toBe(0);
    const q2 = createSceneQuery(randomScene(1));
    expect(q2.closestSurfaceBeam(0, 0, 0, new Float64Array(27), 0, 0, 10, out)).toBe(0);
  });

  it('beyond the kernel\'s reach (tmax = ∞) the reference casts the beam ray by ray, with the same answers', () => {
    const data = randomScene(2);
    const q = createSceneQuery(data), reference = createSceneQuery(data, 'js');
    const rays = randomRays(5, 200, 16), r = new RandomStream(5, 7), dirs = new Float64Array(27);
    const out = Array.from({ length: 9 }, () => newSurfaceHit()), single = newSurfaceHit();
    let hits = 0;
    for (let i = 0; i < 200; i++) {
      const o = 6 * i;
      beamAround(r, [rays[o + 3]!, rays[o + 4]!, rays[o + 5]!], 9, 3e-3, dirs);
      const mask = q.closestSurfaceBeam(rays[o]!, rays[o + 1]!, rays[o + 2]!, dirs, 9, 0, Infinity, out);
      for (let k = 0; k < 9; k++) {
        const h = reference.closestSurface(rays[o]!, rays[o + 1]!, rays[o + 2]!, dirs[3 * k]!, dirs[3 * k + 1]!, dirs[3 * k + 2]!, 0, Infinity, single);
        expect((mask >> k) & 1, `ray ${i} sub ${k}`).toBe(h ? 1 : 0);
        if (h) {
          expect(out[k], `ray ${i} sub ${k}`).toEqual(single);
          hits++;
        }
      }
    }
    expect(hits).toBeGreaterThan(200);
  });
});
