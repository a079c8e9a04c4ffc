import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSceneQuery, type SceneElementHit } from '../../../src-worker/scene/scene-bvh';
import { SceneBuilder } from '../../../src-worker/scene/scene-builder';
import { ElemI, HitI, RayKernel, rayKernelAvailable } from '../../../src-worker/scene/kernel/ray-kernel';
import { collapseTree, WIDE_NODE_WORDS } from '../../../src-worker/scene/kernel/wide-bvh';
import { layoutKernelScene } from '../../../src-worker/scene/kernel/kernel-scene';
import { newSurfaceHit } from '../../../src-worker/scene/scene-query';
import { RandomStream } from '../../../src-worker/random/stream';
import type { SceneData } from '../../../src-common/scene-data';
import { randomPose, randomRays, randomScene, randomTriangles } from './random-scene';

/**
 * Casts every ray with the kernel and with the JS traversal: the same rays hit, at the same t,
 * and every field agrees, except where two triangles are met at exactly the same t (a shared
 * edge or a corner), where each traversal may report a different one of them: those ties must
 * stay rare (≤ `maxTieShare` of the hits). Returns the hits.
 */
function compare(data: SceneData, rays: Float64Array, tminOf: (i: number) => number, tmaxOf: (i: number) => number, maxTieShare = 0): number {
  const wasm = createSceneQuery(data, 'auto'), js = createSceneQuery(data, 'js');
  expect(wasm.rayKernel()).not.toBeNull();
  expect(js.rayKernel()).toBeNull();
  const a = newSurfaceHit(), b = newSurfaceHit();
  let hits = 0, ties = 0;
  for (let i = 0; i < rays.length / 6; i++) {
    const o = 6 * i, tmin = tminOf(i), tmax = tmaxOf(i);
    const ha = wasm.closestSurface(rays[o]!, rays[o + 1]!, rays[o + 2]!, rays[o + 3]!, rays[o + 4]!, rays[o + 5]!, tmin, tmax, a);
    const hb = js.closestSurface(rays[o]!, rays[o + 1]!, rays[o + 2]!, rays[o + 3]!, rays[o + 4]!, rays[o + 5]!, tmin, tmax, b);
    expect(ha, `ray ${i}`).toBe(hb);
    if (!ha) continue;
    hits++;
    expect(a.t, `ray ${i}`).toBe(b.t);
    if (wasm.lastInstance !== js.lastInstance || wasm.lastTriangle !== js.lastTriangle) {
      ties++;
      continue;
    }
    expect(a, `ray ${i}`).toEqual(b);
    expect([wasm.lastU, wasm.lastV], `ray ${i}`).toEqual([js.lastU, js.lastV]);
  }
  expect(ties, 'triangles tied at the same t').toBeLessThanOrEqual(maxTieShare * hits);
  return hits;
}

function ray(rays: Float64Array, i: number): [number, number, number, number, number, number] {
  const o = 6 * i;
  return [rays[o]!, rays[o + 1]!, rays[o + 2]!, rays[o + 3]!, rays[o + 4]!, rays[o + 5]!];
}

/** Every field of every element each query's traverse hands its visitor (stopping after `limit`). */
function walk(q: ReturnType<typeof createSceneQuery>, rays: Float64Array, i: number, tmin: number, tmax: number, limit: number): unknown[] {
  const seen: unknown[] = [];
  const o = 6 * i;
  q.traverse(rays[o]!, rays[o + 1]!, rays[o + 2]!, rays[o + 3]!, rays[o + 4]!, rays[o + 5]!, tmin, tmax, (h) => {
    const e = h as SceneElementHit;
    seen.push([e.kind, e.t, e.instance, e.primitive, e.element, e.sourceIndex, e.mahalanobis, e.pHit, e.objectId, e.classId, e.muT, e.varT, [...e.mean], [...e.chol]]);
    return seen.length >= limit;
  });
  return seen;
}

describe.skipIf(!rayKernelAvailable())('WebAssembly ray kernel', () => {
  for (const seed of [1, 2]) {
    it(`random scene ${seed}: traverse hands the visitor the same elements in the same order as the JS walk`, () => {
      const data = randomScene(seed);
      const wasm = createSceneQuery(data, 'auto'), js = createSceneQuery(data, 'js');
      const rays = randomRays(seed + 20, 3000, 18);
      let elements = 0, gaussians = 0;
      for (let i = 0; i < 3000; i++) {
        const tmin = i % 5 === 0 ? 0.5 : 0, tmax = i % 7 === 0 ? 4 : 1000, limit = i % 3 === 0 ? 2 : Infinity;
        const a = walk(wasm, rays, i, tmin, tmax, limit), b = walk(js, rays, i, tmin, tmax, limit);
        expect(a, `ray ${i}`).toEqual(b);
        elements += a.length;
        gaussians += a.filter((e) => (e as number[])[0]! >= 2).length;
      }
      // The comparison must cover many elements of both families.
      expect(elements).toBeGreaterThan(3000);
      expect(gaussians).toBeGreaterThan(1000);
    });
  }

  for (const seed of [1, 2, 3]) {
    it(`random scene ${seed} (meshes, ground, rotated instances, Gaussians beside): same hits as the JS traversal, bit for bit`, () => {
      const data = randomScene(seed, { shared: seed === 2 });
      const rays = randomRays(seed + 10, 4000, 18);
      // tmax = ∞ (beyond the kernel's reach) goes to the JS traversal: the answers still agree.
      const hits = compare(data, rays, (i) => (i % 5 === 0 ? 0.5 : 0), (i) => (i % 7 === 0 ? 4 : i % 11 === 0 ? Infinity : 1000));
      expect(hits).toBeGreaterThan(800); // the comparison must cover many hits, not only misses
    });
  }

  it('a dense terrain with many instances of one small mesh and rays from inside it agrees too', () => {
    const r = new RandomStream(7, 1);
    const b = new SceneBuilder();
    const ground = b.addGround(randomTriangles(r, 5000, 60, 3), 0.9, 0.01, 0.3);
    const bush = b.addMesh(randomTriangles(r, 40, 1.5, 0.6));
    b.addInstance(ground, [0, 0, 0, 0, 0, 0, 1], 1, 1);
    for (let k = 0; k < 300; k++) b.addInstance(bush, randomPose(r, 50, k % 2 === 0), 10 + k, 2);
    const data = b.build();
    const rays = randomRays(8, 6000, 50);
    expect(compare(data, rays, () => 0, () => 120)).toBeGreaterThan(2000);
  });

  it('agrees on axis-aligned geometry hit by axis-parallel and grazing rays from origins on box planes', () => {
    // Flat floor tiles and wall tiles: boxes of zero thickness, faces shared by neighbours,
    // rays along the axes and along the faces, origins exactly on the planes — where float
    // box tests are most likely to disagree with double ones.
    const tris: number[] = [];
    for (let i = -10; i < 10; i++) {
      for (let j = -10; j < 10; j++) {
        tris.push(i, j, 0, i + 1, j, 0, i, j + 1, 0, i + 1, j, 0, i + 1, j + 1, 0, i, j + 1, 0);
        if ((i + j) % 3 === 0) tris.push(i, j, 0, i, j + 1, 0, i, j, 2, i, j + 1, 0, i, j + 1, 2, i, j, 2);
      }
    }
    const b = new SceneBuilder();
    b.addInstance(b.addMesh(new Float32Array(tris)), [0, 0, 0, 0, 0, 0, 1], 1, 1);
    b.addInstance(b.addMesh(new Float32Array(tris)), [0.25, 100, 0.5, 0, 0, 0, 1], 2, 1);
    const data = b.build();
    const r = new RandomStream(11, 1);
    const rays: number[] = [];
    const axes = [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]];
    for (let k = 0; k < 6000; k++) {
      const snap = (x: number) => (k % 2 === 0 ? Math.round(x) : Math.round(x * 4) / 4);
      const o = [snap((r.next() - 0.5) * 24), snap((r.next() - 0.5) * 24) + (k % 5 === 0 ? 100 : 0), k % 3 === 0 ? 0 : snap(r.next() * 3)];
      let d = axes[k % 6]!;
      if (k % 4 === 1) d = [Math.SQRT1_2, Math.SQRT1_2, 0];
      if (k % 4 === 2) { const a = r.next() * 2 * Math.PI; d = [Math.cos(a), Math.sin(a), k % 8 === 2 ? 0 : -1e-9]; }
      const n = Math.hypot(d[0]!, d[1]!, d[2]!);
      rays.push(...o, d[0]! / n, d[1]! / n, d[2]! / n);
    }
    expect(compare(data, new Float64Array(rays), (i) => (i % 7 === 0 ? 1 : 0), () => 60, 0.1)).toBeGreaterThan(1000); // 146 ties in 2,118 hits here: rays aimed along shared edges
  });

  it('threads share one layout: each instance adds only its own block, and interleaved walks do not disturb each other', () => {
    const data = randomScene(6, { shared: true });
    const kernel = layoutKernelScene(data)!;
    expect(kernel.memory.buffer).toBeInstanceOf(SharedArrayBuffer);
    data.kernel = kernel;
    const before = kernel.memory.buffer.byteLength;
    const k1 = RayKernel.create(data)!, k2 = RayKernel.create(data)!; // as two worker threads would
    expect(k1.scene).toBe(kernel);
    expect(k2.scene).toBe(kernel);
    expect(kernel.memory.buffer.byteLength - before).toBe(k1.threadBytes + k2.threadBytes);
    expect(k1.threadBytes).toBeLessThan(2 * 1024 * 1024);
    const rays = randomRays(7, 200, 16);
    const walkAlone = (k: RayKernel, i: number) => {
      const seen: number[] = [];
      for (let more = k.travBegin(...ray(rays, i), 0, 1000); more; more = k.travNext()) seen.push(k.elemF[0]!, k.elemI[0]!);
      return seen;
    };
    let compared = 0;
    for (let i = 0; i + 1 < 200; i += 2) {
      const a = walkAlone(k1, i), b = walkAlone(k1, i + 1);
      // Step both walks in turn, one on each instance.
      const sa: number[] = [], sb: number[] = [];
      let ma = k1.travBegin(...ray(rays, i), 0, 1000), mb = k2.travBegin(...ray(rays, i + 1), 0, 1000);
      while (ma || mb) {
        if (ma) { sa.push(k1.elemF[0]!, k1.elemI[0]!); ma = k1.travNext(); }
        if (mb) { sb.push(k2.elemF[0]!, k2.elemI[0]!); mb = k2.travNext(); }
      }
      expect(sa, `ray ${i}`).toEqual(a);
      expect(sb, `ray ${i + 1}`).toEqual(b);
      compared += a.length + b.length;
    }
    expect(compared).toBeGreaterThan(200);
  });

  it('finds no surface but walks the Gaussians of a scene without surfaces; no kernel for an empty scene', () => {
    const b = new SceneBuilder();
    b.addInstance(b.addEllipsoids(new Float64Array([0, 0, 0]), new Float64Array([1, 0, 0, 1, 0, 1]), 0.5));
    const k = RayKernel.create(b.build())!;
    expect(k.closest(-5, 0, 0, 1, 0, 0, 0, 100)).toBe(false);
    expect(k.travBegin(-5, 0, 0, 1, 0, 0, 0, 100)).toBe(true);
    expect(k.elemF[0]).toBeCloseTo(5, 12);
    expect([k.elemI[ElemI.element], k.elemI[ElemI.instance], k.elemI[ElemI.type]]).toEqual([0, 0, 3]);
    expect(k.travNext()).toBe(false);
    expect(RayKernel.create(new SceneBuilder().build())).toBeNull();
  });

  it('rejects an empty interval and leaves no stale hit behind', () => {
    const data = randomScene(4);
    const k = RayKernel.create(data)!;
    const toCentre = [10, 0, 0, -1, 0, 0] as const;
    expect(k.closest(...toCentre, 0, 1000)).toBe(true);
    const hitSomething = k.hitI[HitI.instance];
    expect(hitSomething).toBeGreaterThanOrEqual(0);
    expect(k.closest(...toCentre, 5, 5)).toBe(false);
    expect(k.hitI[HitI.instance]).toBe(-1);
    expect(k.closest(...toCentre, 0, 1000)).toBe(true);
    expect(k.hitI[HitI.instance]).toBe(hitSomething);
    // A NaN ray meets nothing and ends (no endless walk).
    expect(k.closest(NaN, 0, 0, -1, 0, 0, 0, 1000)).toBe(false);
    expect(k.closest(10, 0, 0, NaN, 0, 0, 0, 1000)).toBe(false);
    expect(k.travBegin(10, 0, 0, NaN, NaN, NaN, 0, 1000)).toBe(false);
    expect(k.scene.bytes).toBeGreaterThan(data.triVerts.byteLength);
  });
});

describe('wide BVH collapse', () => {
  it('keeps every element of the binary tree exactly once, inside its lane box', () => {
    const data = randomScene(5);
    const root = data.primInts[3]!; // the first primitive (a mesh)
    const words = 1000 * WIDE_NODE_WORDS;
    const buf = new ArrayBuffer(4 * words);
    const out = { f32: new Float32Array(buf), i32: new Int32Array(buf), base: 0, next: 0 };
    const wideRoot = collapseTree(data.nodeBounds, data.nodeLinks, root, out);
    const seen = new Map<number, number>();
    const walk = (w: number) => {
      for (let lane = 0; lane < 4; lane++) {
        const c = out.i32[w * WIDE_NODE_WORDS + 24 + lane]!;
        const min = [0, 1, 2].map((a) => out.f32[w * WIDE_NODE_WORDS + 4 * a + lane]!);
        if (min[0]! >= 3e38) continue; // an empty lane
        if (c >= 0) { walk(c); continue; }
        const code = -c - 1, first = code >> 4, count = code & 15;
        for (let e = first; e < first + count; e++) {
          seen.set(e, (seen.get(e) ?? 0) + 1);
          for (let v = 0; v < 3; v++) {
            for (let a = 0; a < 3; a++) {
              const x = data.triVerts[9 * e + 3 * v + a]!;
              expect(x).toBeGreaterThanOrEqual(out.f32[w * WIDE_NODE_WORDS + 4 * a + lane]!);
              expect(x).toBeLessThanOrEqual(out.f32[w * WIDE_NODE_WORDS + 4 * (a + 3) + lane]!);
            }
          }
        }
      }
    };
    walk(wideRoot);
    const first = data.primInts[1]!, count = data.primInts[2]!;
    expect([...seen.keys()].sort((x, y) => x - y)).toEqual(Array.from({ length: count }, (_, i) => first + i));
    expect([...seen.values()].every((v) => v === 1)).toBe(true);
    // Wide nodes are fewer than a third of the binary inner nodes plus one.
    expect(out.next).toBeLessThanOrEqual(Math.ceil((count - 1) / 3) + 1);
  });
});

function hasClang(): boolean {
  try {
    execFileSync('clang', ['--version'], { stdio: 'ignore' });
    execFileSync('wasm-ld', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(!hasClang())('committed kernel module', () => {
  it('is what ray-kernel.c compiles to (run npm run build:kernel after editing it)', async () => {
    // @ts-expect-error plain ESM script without types
    const { compileKernel, moduleText } = (await import('../../../scripts/build-ray-kernel.mjs')) as { compileKernel: () => Buffer; moduleText: (b: Buffer) => string };
    const committed = readFileSync(new URL('../../../src-worker/scene/kernel/ray-kernel-wasm.ts', import.meta.url), 'utf8');
    expect(committed).toBe(moduleText(compileKernel()));
  });
});
