import { describe, expect, it } from 'vitest';
import { fitModel, fitElements, replayPackets, finishFit, elementSizes, FitError } from '../../../src-worker/fit/fit';
import { addReplayCounts } from '../../../src-worker/fit/replay';
import { resolveFitParams } from '../../../src-common/fit-params';
import { MODEL_ARRAY_NAMES, checkModelArrays } from '../../../src-common/fitted-model';
import { buildModelScene, kindsForMode } from '../../../src-worker/fit/model-scene';
import type { FitLogChunk } from '../../../src-worker/fit/log-input';
import { SceneBuilder } from '../../../src-worker/scene/scene-builder';
import { createSceneQuery } from '../../../src-worker/scene/scene-bvh';
import { newSurfaceHit } from '../../../src-worker/scene/scene-query';
import { RandomStream } from '../../../src-worker/random/stream';
import { TaskCancelledError } from '../../../src-worker/tasks/protocol';
import { terrainHeight, NO_HOOKS } from './synthetic';

/**
 * A drive over synthetic terrain: a 40 m heightfield mesh with eight "bushes" (clouds of small
 * random triangles in spheres, so rays pass some and return from others), a sensor 2 m up moving
 * along x, 60 packets of 720 rays (360 azimuths × 2 elevations alternating over 8 rings).
 */
function syntheticLog(seed: number): FitLogChunk[] {
  const r = new RandomStream(seed, 21);
  const b = new SceneBuilder();
  const tris: number[] = [];
  for (let i = 0; i < 40; i++) {
    for (let j = 0; j < 40; j++) {
      const v = (x: number, y: number) => [x, y, terrainHeight(x, y)];
      const [a, c, d, e] = [v(i, j - 20), v(i + 1, j - 20), v(i + 1, j - 19), v(i, j - 19)];
      tris.push(...a!, ...c!, ...d!, ...a!, ...d!, ...e!);
    }
  }
  b.addInstance(b.addMesh(Float32Array.from(tris)));
  for (let k = 0; k < 8; k++) {
    const cx = 5 + 4 * k, cy = (k % 2 ? 1 : -1) * (3 + 3 * r.next());
    const bush: number[] = [];
    for (let t = 0; t < 400; t++) {
      let u: number, v: number, w: number;
      do {
        u = 2 * r.next() - 1; v = 2 * r.next() - 1; w = 2 * r.next() - 1;
      } while (u * u + v * v + w * w > 1);
      const px = cx + 0.9 * u, py = cy + 0.9 * v, pz = terrainHeight(cx, cy) + 1 + 0.9 * w;
      for (let q = 0; q < 3; q++) bush.push(px + 0.06 * r.normal(), py + 0.06 * r.normal(), pz + 0.06 * r.normal());
    }
    b.addInstance(b.addMesh(Float32Array.from(bush)));
  }
  const q = createSceneQuery(b.build());
  const hit = newSurfaceHit();
  const packets = 60, perPacket = 720;
  const chunk: FitLogChunk = {
    packetStart: 0, packetCount: packets, rayCount: packets * perPacket,
    packetPose: new Float64Array(7 * packets), rayStart: new Uint32Array(packets + 1),
    rayDir: new Float32Array(3 * packets * perPacket), rayRange: new Float32Array(packets * perPacket),
  };
  for (let p = 0; p < packets; p++) {
    const ox = 2 + 0.5 * p, oy = 0, oz = terrainHeight(ox, 0) + 2;
    chunk.packetPose.set([ox, oy, oz, 0, 0, 0, 1], 7 * p);
    chunk.rayStart[p] = p * perPacket;
    for (let j = 0; j < perPacket; j++) {
      const az = ((j >> 1) * Math.PI) / 180, el = ((-22 + 3 * (((j & 1) + 2 * p) % 8)) * Math.PI) / 180;
      const d = [Math.cos(el) * Math.cos(az), Math.cos(el) * Math.sin(az), Math.sin(el)];
      const i = p * perPacket + j;
      chunk.rayDir.set(d, 3 * i);
      const ok = q.closestSurface(ox, oy, oz, d[0]!, d[1]!, d[2]!, 0, 60, hit);
      chunk.rayRange[i] = ok ? hit.t + 0.01 * r.normal() : NaN;
    }
  }
  chunk.rayStart[packets] = packets * perPacket;
  return [chunk];
}

describe('fitting a model to a synthetic drive', () => {
  const chunks = syntheticLog(1);
  const input = { chunks, params: resolveFitParams({}), seed: 1, profileMaxRange: 60 };
  const fitted = fitModel(input, NO_HOOKS);

  it('fits ground triangles, ellipsoids and voxels, with a report that adds up', () => {
    const { arrays, report } = fitted;
    checkModelArrays(arrays);
    const c = report.counts;
    expect(c.packets).toBe(60);
    expect(c.rays).toBe(43_200);
    expect(c.hits + c.misses).toBe(c.rays);
    expect(c.hits).toBeGreaterThan(0.5 * c.rays);
    expect(c.replayedRays).toBe(c.rays);
    expect(c.triangles).toBe(arrays.groundPHit.length);
    expect(c.ellipsoids).toBe(arrays.ellipsoidPHit.length);
    expect(c.triangles).toBeGreaterThan(1000);
    expect(c.ellipsoids).toBeGreaterThan(8); // at least one per bush
    expect(c.voxels).toBeGreaterThan(100);
    // Most returns are explained by a ground triangle or an ellipsoid.
    expect(c.unexplainedReturns).toBeLessThan(0.05 * c.hits);
    // 1 cm range noise on a smooth mesh: σ²_ground a few cm² at most.
    expect(report.groundVariance).toBeGreaterThan(0);
    expect(report.groundVariance).toBeLessThan(0.005);
    for (const p of arrays.groundPHit) expect(p >= 0 && p <= 1).toBe(true);
    for (const p of arrays.ellipsoidPHit) expect(p > 0 && p <= 1).toBe(true);
    for (const p of arrays.voxelPermeability) expect(p >= 0 && p < 1).toBe(true);
    expect(fitted.trail.length / 7).toBe(report.trailPoses);
    expect(report.trailPoses).toBeGreaterThan(20);
  });

  it('learns its hit priors from the log when asked, and computes p_hit with them', () => {
    const thesis = fitModel({ ...input, params: resolveFitParams({ learnHitPriors: 0 }) }, NO_HOOKS);
    expect(thesis.report.hitPriors).toEqual({ learned: false, ground: { a: 1, b: 2 }, ellipsoid: { a: 0, b: 1 }, groundReturned: { a: 1, b: 2 } });
    const learned = fitModel({ ...input, params: resolveFitParams({ learnHitPriors: 1 }) }, NO_HOOKS);
    const { hitPriors, counts } = learned.report;
    expect(hitPriors.learned).toBe(true);
    // The same elements and counts; only the probabilities change.
    expect(Buffer.from(learned.arrays.groundHits.buffer).equals(Buffer.from(fitted.arrays.groundHits.buffer))).toBe(true);
    const { a, b } = hitPriors.ground;
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(0);
    const g = learned.arrays;
    for (let i = 0; i < g.groundPHit.length; i += 97) {
      expect(g.groundPHit[i]).toBeCloseTo((g.groundHits[i]! + a) / (g.groundHits[i]! + g.groundMisses[i]! + a + b), 6);
    }
    // A smooth mesh returns nearly every ray that meets it: the learned prior's mean is high.
    expect(a / (a + b)).toBeGreaterThan(0.8);
    // Every kept ellipsoid was returned from.
    for (const h of g.ellipsoidHits) expect(h).toBeGreaterThan(0);
    expect(counts.ellipsoids).toBe(g.ellipsoidPHit.length);
  });

  it('is deterministic per seed; the k-means seed only moves the ellipsoids', () => {
    const again = fitModel(input, NO_HOOKS);
    for (const name of MODEL_ARRAY_NAMES) expect(Buffer.from(again.arrays[name].buffer).equals(Buffer.from(fitted.arrays[name].buffer)), name).toBe(true);
    expect(again.report.groundVariance).toBe(fitted.report.groundVariance);
    const other = fitModel({ ...input, seed: 2 }, NO_HOOKS);
    expect(Buffer.from(other.arrays.groundPositions.buffer).equals(Buffer.from(fitted.arrays.groundPositions.buffer))).toBe(true);
    expect(Buffer.from(other.arrays.ellipsoidMeans.buffer).equals(Buffer.from(fitted.arrays.ellipsoidMeans.buffer))).toBe(false);
  });

  it('in stages (elements, replay batches, finish) gives the same model as in one go', () => {
    const f = fitElements(input, NO_HOOKS);
    const replay = { ...f, sizes: elementSizes(f.elements) };
    const a = replayPackets(replay, chunks, 0, 25, NO_HOOKS);
    const b = replayPackets(replay, chunks, 25, 35, NO_HOOKS);
    addReplayCounts(a, b);
    const staged = finishFit(f, a, input.params, 0);
    for (const name of MODEL_ARRAY_NAMES) expect(Buffer.from(staged.arrays[name].buffer).equals(Buffer.from(fitted.arrays[name].buffer)), name).toBe(true);
    // σ²_ground's sum is added per batch: equal up to rounding.
    expect(staged.report.groundVariance).toBeCloseTo(fitted.report.groundVariance, 12);
  });

  it('builds scenes for each simulation mode from the model', () => {
    const a = fitted.arrays, scalars = fitted.scalars;
    const hybrid = buildModelScene(a, scalars, kindsForMode('hybrid'));
    expect(hybrid.data.triangleCount).toBe(a.groundPHit.length);
    expect(hybrid.data.gaussianCount).toBe(a.ellipsoidPHit.length);
    const voxel = buildModelScene(a, scalars, kindsForMode('voxel'));
    expect(voxel.data.triangleCount).toBe(0);
    expect(voxel.data.gaussianCount).toBe(a.voxelPermeability.length);
    expect(buildModelScene(a, scalars, kindsForMode('physics')).data.gaussianCount).toBe(0);
  });

  it('refuses a log without hits, or without ground, saying why', () => {
    const none = chunks.map((c) => ({ ...c, rayRange: new Float32Array(c.rayCount).fill(NaN) }));
    expect(() => fitModel({ ...input, chunks: none }, NO_HOOKS)).toThrow(FitError);
    expect(() => fitModel({ ...input, chunks: none }, NO_HOOKS)).toThrow(/has no hits \(43200 rays, all misses\)/);
    expect(() => fitModel({ ...input, params: resolveFitParams({ phiThreshold: 0 }) }, NO_HOOKS)).toThrow(/too few ground points/);
    expect(() => resolveFitParams({ cellSize: -1 })).toThrow(/cellSize = -1: expected a number in/);
    expect(() => resolveFitParams({ clusters: 3 })).toThrow(/"clusters" is not known/);
  });

  it('stops when cancelled and reports progress in order', () => {
    const fractions: number[] = [];
    fitModel(input, { progress: (f) => fractions.push(f), checkCancelled: () => {} });
    expect(fractions.length).toBeGreaterThanOrEqual(8);
    for (let i = 1; i < fractions.length; i++) expect(fractions[i]!).toBeGreaterThanOrEqual(fractions[i - 1]!);
    expect(fractions[fractions.length - 1]).toBe(1);
    let calls = 0;
    const cancelAfter = (n: number) => ({ progress: () => {}, checkCancelled: () => {
      if (++calls > n) throw new TaskCancelledError();
    } });
    expect(() => fitModel(input, cancelAfter(3))).toThrow(TaskCancelledError);
    calls = 0;
    expect(() => fitModel(input, cancelAfter(40))).toThrow(TaskCancelledError); // in the replay
  });
});
