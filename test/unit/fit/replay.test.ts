import { describe, expect, it } from 'vitest';
import { Replayer, newReplayCounts, hitProbability, permeability, type ReplayCounts, type ReplayOptions } from '../../../src-worker/fit/replay';
import { buildModelScene, type ModelScene } from '../../../src-worker/fit/model-scene';
import type { FitLogChunk } from '../../../src-worker/fit/log-input';
import { RandomStream } from '../../../src-worker/random/stream';
import { randomGaussians, randomTriangles } from '../scene/random-scene';

const OPTS = { maxRange: 100, maxResidual: 0.75, mahalanobisThreshold: 3.5, voxelTau: 2, margin: 2, groundNoReturnMisses: true, cellGrid: 0 };

interface Elements {
  tris: Float32Array;
  eMeans: Float64Array;
  eCovs: Float64Array;
  vMeans: Float64Array;
  vCovs: Float64Array;
  /** Blocks per element (several primitives per kind), default all 0. */
  blocks?: { g: Int32Array; e: Int32Array; v: Int32Array };
}

function scene(el: Elements): ModelScene {
  const nt = el.tris.length / 9, ne = el.eMeans.length / 3, nv = el.vMeans.length / 3;
  return buildModelScene(
    {
      groundPositions: el.tris, groundPHit: new Float32Array(nt), groundBlock: el.blocks?.g ?? new Int32Array(nt),
      ellipsoidMeans: el.eMeans, ellipsoidCovariances: el.eCovs, ellipsoidPHit: new Float32Array(ne), ellipsoidBlock: el.blocks?.e ?? new Int32Array(ne),
      voxelMeans: el.vMeans, voxelCovariances: el.vCovs, voxelPermeability: new Float32Array(nv), voxelBlock: el.blocks?.v ?? new Int32Array(nv),
    },
    { groundVariance: 0, mahalanobisThreshold: OPTS.mahalanobisThreshold, voxelTau: OPTS.voxelTau },
    { ground: true, ellipsoids: true, voxels: true },
  );
}

/** A log chunk of packets from `origins` (one per packet, identity rotation) with the given rays. */
function chunk(packets: { origin: number[]; dirs: number[][]; ranges: number[] }[]): FitLogChunk {
  const rays = packets.reduce((s, p) => s + p.dirs.length, 0);
  const c: FitLogChunk = {
    packetStart: 0, packetCount: packets.length, rayCount: rays,
    packetPose: new Float64Array(7 * packets.length), rayStart: new Uint32Array(packets.length + 1),
    rayDir: new Float32Array(3 * rays), rayRange: new Float32Array(rays),
  };
  let i = 0;
  packets.forEach((p, k) => {
    c.packetPose.set([...p.origin, 0, 0, 0, 1], 7 * k);
    c.rayStart[k] = i;
    p.dirs.forEach((d, j) => {
      const len = Math.hypot(d[0]!, d[1]!, d[2]!);
      c.rayDir.set([d[0]! / len, d[1]! / len, d[2]! / len], 3 * i);
      c.rayRange[i] = p.ranges[j]!;
      i++;
    });
  });
  c.rayStart[packets.length] = i;
  return c;
}

function replay(s: ModelScene, c: FitLogChunk, sizes: number[], mode: 'collect' | 'reference' | 'traverse', opts: ReplayOptions = OPTS): ReplayCounts {
  const counts = newReplayCounts(sizes[0]!, sizes[1]!, sizes[2]!);
  new Replayer(s, counts, opts, mode).replayChunk(c);
  return counts;
}

function expectSame(a: ReplayCounts, b: ReplayCounts, what: string): void {
  for (const k of ['groundHits', 'groundMisses', 'ellipsoidHits', 'ellipsoidMisses', 'voxelEnds', 'voxelPasses'] as const) {
    expect(Array.from(a[k]), `${what}: ${k}`).toEqual(Array.from(b[k]));
  }
  expect([a.residualSum, a.residualCount, a.rays, a.hitRays, a.missRays, a.unexplained], what).toEqual([b.residualSum, b.residualCount, b.rays, b.hitRays, b.missRays, b.unexplained]);
}

describe('hit probabilities by replaying the training rays', () => {
  // An ellipsoid 10 m down +x, a wall of two ground triangles at x = 20, a voxel 10 m down +y.
  const wall = new Float32Array([20, -5, -5, 20, 5, -5, 20, 5, 5, 20, -5, -5, 20, 5, 5, 20, -5, 5]);
  const s = scene({
    tris: wall,
    eMeans: new Float64Array([10, 0, 0]), eCovs: new Float64Array([0.09, 0, 0, 0.09, 0, 0.09]),
    vMeans: new Float64Array([0, 10, 0]), vCovs: new Float64Array([0.01, 0, 0, 0.01, 0, 0.01]),
  });
  // 10 packets × 100 rays at the ellipsoid (within 1 cm of its axis): 30 % return inside it,
  // 60 % pass through and return from the wall ±5 cm, 10 % return nothing.
  // 10 packets × 100 rays at the voxel: 20 % end in it, 80 % pass (returning from nothing modelled).
  const r = new RandomStream(1, 0);
  const packets: { origin: number[]; dirs: number[][]; ranges: number[] }[] = [];
  for (let p = 0; p < 10; p++) {
    const dirs: number[][] = [], ranges: number[] = [];
    for (let j = 0; j < 100; j++) {
      dirs.push([1, 0.001 * r.normal(), 0.001 * r.normal()]);
      ranges.push(j < 30 ? 10 : j < 90 ? 20 + (j % 2 ? 0.05 : -0.05) : NaN);
    }
    packets.push({ origin: [0, 0, 0], dirs, ranges });
  }
  for (let p = 0; p < 10; p++) {
    const dirs: number[][] = [], ranges: number[] = [];
    for (let j = 0; j < 100; j++) {
      dirs.push([0.001 * r.normal(), 1, 0.001 * r.normal()]);
      ranges.push(j < 20 ? 10 : 40);
    }
    packets.push({ origin: [0, 0, 0], dirs, ranges });
  }
  const c = chunk(packets);

  it('counts the known pass-through fractions: p_hit = (h + a) / (h + m + a + b), ρ = m / (m + n), σ²_ground', () => {
    const counts = replay(s, c, [2, 1, 1], 'collect');
    expect(counts.ellipsoidHits[0]).toBe(300);
    expect(counts.ellipsoidMisses[0]).toBe(700); // 600 passed to the wall + 100 without a return
    const ground = counts.groundHits[0]! + counts.groundHits[1]!;
    expect(ground).toBe(600);
    expect(counts.groundMisses[0]! + counts.groundMisses[1]!).toBe(100);
    expect(counts.residualCount).toBe(600);
    expect(counts.residualSum / counts.residualCount).toBeCloseTo(0.0025, 6); // (±5 cm)²
    expect(counts.voxelEnds[0]).toBe(200);
    expect(counts.voxelPasses[0]).toBe(800);
    expect(counts.unexplained).toBe(1000); // the +y rays' returns lie in no ground or ellipsoid element
    expect(hitProbability(counts.ellipsoidHits, counts.ellipsoidMisses, 0, 1)[0]).toBeCloseTo(300 / 1001, 6);
    expect(permeability(counts.voxelEnds, counts.voxelPasses)[0]).toBeCloseTo(0.8, 6);
    const pg = hitProbability(counts.groundHits, counts.groundMisses, 1, 2);
    expect(counts.groundHits[0]! > 0 ? pg[0] : pg[1]).toBeGreaterThan(0.8);
  });

  it('with groundNoReturnMisses off, rays without a return count nothing on the ground and the same everywhere else', () => {
    const on = replay(s, c, [2, 1, 1], 'collect');
    for (const mode of ['collect', 'reference', 'traverse'] as const) {
      const off = replay(s, c, [2, 1, 1], mode, { ...OPTS, groundNoReturnMisses: false });
      // The 100 rays without a return crossed the wall: on, they were its 100 misses; off, none.
      // Either way they are counted apart, as the training sensor's no-return rays.
      expect(off.groundMisses[0]! + off.groundMisses[1]!, mode).toBe(0);
      expect(off.groundNoReturns[0]! + off.groundNoReturns[1]!, mode).toBe(100);
      expect(on.groundNoReturns[0]! + on.groundNoReturns[1]!, mode).toBe(100);
      expect(Array.from(off.groundHits), mode).toEqual(Array.from(on.groundHits));
      // Ellipsoids still count them: a ray can pass vegetation into the open, not the ground.
      expect(off.ellipsoidMisses[0], mode).toBe(700);
      // …and keep the no-return passes apart too (100 rays, all within the ellipsoid's inner bins).
      expect(off.ellipsoidNoReturnBins.reduce((x, y) => x + y, 0), mode).toBe(100);
      expect(off.residualCount, mode).toBe(600);
    }
  });

  it('gives the same counts from the kernel\'s unordered walk, the reference walk, or the scene\'s ordered traverse()', () => {
    const a = replay(s, c, [2, 1, 1], 'collect');
    expectSame(a, replay(s, c, [2, 1, 1], 'reference'), 'reference');
    expectSame(a, replay(s, c, [2, 1, 1], 'traverse'), 'traverse');
  });

  it('elements no ray reaches get p_hit = 0 (ellipsoids), ρ = 1 (voxels), and the prior for triangles', () => {
    const z = new Uint32Array(1);
    expect(hitProbability(z, z, 0, 1)[0]).toBe(0);
    expect(hitProbability(z, z, 1, 2)[0]).toBeCloseTo(1 / 3, 6);
    expect(permeability(z, z)[0]).toBe(1);
  });
});

describe('replay walks agree on random scenes', () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: collect = reference = traverse, every count`, () => {
      const r = new RandomStream(seed, 9);
      const tris = randomTriangles(r, 400, 30, 3);
      const e = randomGaussians(r, 300, 30, 1);
      const v = randomGaussians(r, 300, 30, 0.4);
      const blocks = { g: Int32Array.from({ length: 400 }, (_, i) => i >> 7), e: Int32Array.from({ length: 300 }, (_, i) => i >> 6), v: Int32Array.from({ length: 300 }, (_, i) => i >> 5) };
      const s = scene({ tris, eMeans: e.means, eCovs: e.covs, vMeans: v.means, vCovs: v.covs, blocks });
      const packets: { origin: number[]; dirs: number[][]; ranges: number[] }[] = [];
      for (let p = 0; p < 40; p++) {
        const origin = [(r.next() - 0.5) * 20, (r.next() - 0.5) * 20, (r.next() - 0.5) * 20];
        const dirs: number[][] = [], ranges: number[] = [];
        // Fans of rays around a few directions (coherent, like one laser's firings), some
        // exactly axis-aligned or straddling an axis plane, some random.
        for (let f = 0; f < 6; f++) {
          const base = f === 0 ? [1, 0, 0] : f === 1 ? [0.3, 0.001, -1] : [r.normal(), r.normal(), r.normal()];
          for (let j = 0; j < 24; j++) {
            const spread = f === 5 ? 1 : 0.02;
            dirs.push([base[0]! + spread * r.normal(), base[1]! + spread * r.normal() * (f === 0 ? 0 : 1), base[2]! + spread * r.normal() * (f === 0 ? 0 : 1)]);
            ranges.push(r.next() < 0.2 ? NaN : 40 * r.next());
          }
        }
        packets.push({ origin, dirs, ranges });
      }
      const c = chunk(packets);
      const a = replay(s, c, [400, 300, 300], 'collect');
      expect(a.rays).toBe(40 * 144);
      const visits = a.groundHits.reduce((x, y) => x + y, 0) + a.groundMisses.reduce((x, y) => x + y, 0) + a.ellipsoidMisses.reduce((x, y) => x + y, 0) + a.voxelPasses.reduce((x, y) => x + y, 0);
      expect(visits).toBeGreaterThan(500); // the scene is dense enough to test something
      expectSame(a, replay(s, c, [400, 300, 300], 'reference'), 'reference');
      expectSame(a, replay(s, c, [400, 300, 300], 'traverse'), 'traverse');
      // Hit cells and a minimum range: the same counts every way too, and the cells add up to the
      // ellipsoids' own counts.
      const opts = { ...OPTS, cellGrid: 6, groundCellGrid: 4, minRange: 1.5 };
      const ca = replay(s, c, [400, 300, 300], 'collect', opts);
      for (const mode of ['reference', 'traverse'] as const) {
        const cb = replay(s, c, [400, 300, 300], mode, opts);
        expectSame(ca, cb, `${mode} with cells`);
        expect([...cb.cellHits].sort(), mode).toEqual([...ca.cellHits].sort());
        expect([...cb.cellPasses].sort(), mode).toEqual([...ca.cellPasses].sort());
        expect([...cb.groundCellHits].sort(), mode).toEqual([...ca.groundCellHits].sort());
        expect([...cb.groundCellPasses].sort(), mode).toEqual([...ca.groundCellPasses].sort());
      }
      const sum = (m: Map<number, number>) => [...m.values()].reduce((x, y) => x + y, 0);
      expect(sum(ca.cellHits)).toBe(ca.ellipsoidHits.reduce((x, y) => x + y, 0));
      expect(sum(ca.cellPasses)).toBe(ca.ellipsoidMisses.reduce((x, y) => x + y, 0));
      expect(ca.cellPasses.size).toBeGreaterThan(50);
      expect(sum(ca.groundCellHits)).toBe(ca.groundHits.reduce((x, y) => x + y, 0));
      expect(sum(ca.groundCellPasses)).toBe(ca.groundMisses.reduce((x, y) => x + y, 0));
      expect(ca.groundCellPasses.size).toBeGreaterThan(50);
      // Nothing nearer than the minimum range was counted: the same walk from 0 counts more.
      const near = replay(s, c, [400, 300, 300], 'collect', { ...opts, minRange: 0 });
      const total = (x: ReplayCounts) => sum(x.cellHits) + sum(x.cellPasses) + sum(x.groundCellHits) + sum(x.groundCellPasses);
      expect(total(near)).toBeGreaterThan(total(ca));
    });
  }
});
