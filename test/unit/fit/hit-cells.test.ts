import { describe, expect, it } from 'vitest';
import { Replayer, newReplayCounts } from '../../../src-worker/fit/replay';
import { buildModelScene } from '../../../src-worker/fit/model-scene';
import { hitCellRows } from '../../../src-worker/fit/fit';
import { falloffProbabilities } from '../../../src-worker/fit/ellipsoid-kappa';
import { createSceneQuery } from '../../../src-worker/scene/scene-bvh';
import { ElementKind } from '../../../src-worker/scene/scene-query';
import type { FitLogChunk } from '../../../src-worker/fit/log-input';

// A disc-like ellipsoid 10 m down +x (σ = 0.1, 0.5, 0.5 m) in front of a wall at x = 20. Rays
// through its +y half return from it; rays through its −y half pass and return from the wall —
// a shrub's dense side and its open side, at the same Mahalanobis distances.
const K = 3.5;
const tris = new Float32Array([20, -9, -9, 20, 9, -9, 20, 9, 9, 20, -9, -9, 20, 9, 9, 20, -9, 9]);
const arrays = {
  groundPositions: tris, groundPHit: new Float32Array([1, 1]), groundBlock: new Int32Array(2),
  ellipsoidMeans: new Float64Array([10, 0, 0]), ellipsoidCovariances: new Float64Array([0.01, 0, 0, 0.25, 0, 0.25]),
  ellipsoidPHit: new Float32Array([1]), ellipsoidBlock: new Int32Array(1),
  voxelMeans: new Float64Array(0), voxelCovariances: new Float64Array(0), voxelPermeability: new Float32Array(0), voxelBlock: new Int32Array(0),
};

function log(): FitLogChunk {
  const dirs: number[] = [], ranges: number[] = [];
  for (let i = -16; i <= 16; i++) {
    for (let j = -16; j <= 16; j++) {
      const y = (i + 0.5) * 0.1, z = (j + 0.5) * 0.1;
      const len = Math.hypot(10, y, z);
      dirs.push(10 / len, y / len, z / len);
      ranges.push(y > 0 ? len : 2 * len); // the ellipsoid's plane, or the wall
    }
  }
  const n = ranges.length;
  return {
    packetStart: 0, packetCount: 1, rayCount: n, packetPose: Float64Array.of(0, 0, 0, 0, 0, 0, 1),
    rayStart: Uint32Array.of(0, n), rayDir: Float32Array.from(dirs), rayRange: Float32Array.from(ranges),
  };
}

describe('hit cells learn where on an ellipsoid rays return', () => {
  const scene = buildModelScene(arrays, { groundVariance: 0, mahalanobisThreshold: K, voxelTau: 2 }, { ground: true, ellipsoids: true, voxels: false });
  const counts = newReplayCounts(2, 1, 0);
  new Replayer(scene, counts, { maxRange: 100, maxResidual: 0.75, mahalanobisThreshold: K, voxelTau: 2, margin: 2, groundNoReturnMisses: true, cellGrid: 8 }).replayChunk(log());
  const c = hitCellRows(counts.cellHits, counts.cellPasses, [0], 8 * 8 * 8);
  const rows = { ellipsoidCellStart: c.start, ellipsoidCellKey: c.key, ellipsoidCellHits: c.hits, ellipsoidCellPasses: c.passes };
  const p = falloffProbabilities(counts.ellipsoidHitBins, counts.ellipsoidPassBins, 0, 1, K);

  /** P(hit) the simulator reads for the ellipsoid on a ray toward (10, y, z), with and without cells. */
  function pHit(y: number, z: number, withCells: boolean): number {
    const model = { ...arrays, ellipsoidPHit: p, ...(withCells ? rows : {}) };
    const s = buildModelScene(model, { groundVariance: 0, mahalanobisThreshold: K, voxelTau: 2, ellipsoidHitFalloff: true, hitCells: { ellipsoidGrid: 8, groundGrid: 0, prior: 0.25 } }, { ground: true, ellipsoids: true, voxels: false });
    const len = Math.hypot(10, y, z);
    let out = NaN;
    createSceneQuery(s.data).traverse(0, 0, 0, 10 / len, y / len, z / len, 0, 100, (h) => {
      if (h.kind === ElementKind.Ellipsoid) out = h.pHit;
      return false;
    });
    return out;
  }

  it('counts every hit and pass in a cell, and the falloff alone cannot tell the halves apart', () => {
    const sum = (m: Map<number, number>) => [...m.values()].reduce((x, y) => x + y, 0);
    expect(sum(counts.cellHits)).toBe(counts.ellipsoidHits[0]);
    expect(sum(counts.cellPasses)).toBe(counts.ellipsoidMisses[0]);
    expect(counts.ellipsoidHits[0]).toBeGreaterThan(400);
    expect(counts.ellipsoidMisses[0]).toBeGreaterThan(400);
    // Mirror rays (y and −y) are at the same m: the falloff gives them one probability.
    expect(pHit(0.55, 0.25, false)).toBeCloseTo(pHit(-0.55, 0.25, false), 9);
    // …which is right for neither half (the cells' own tolerances below: > 0.95 and < 0.05).
    for (const [y, z] of [[0.55, 0.25], [0.85, 0.65]] as const) {
      expect(pHit(y, z, false)).toBeGreaterThan(0.05);
      expect(pHit(y, z, false)).toBeLessThan(0.95);
    }
  });

  it('with cells the dense half returns and the open half lets rays through', () => {
    for (const z of [-0.85, 0.05, 0.65]) {
      for (const y of [0.35, 0.85, 1.25]) {
        expect(pHit(y, z, true), `y ${y} z ${z}`).toBeGreaterThan(0.95);
        expect(pHit(-y, z, true), `y ${-y} z ${z}`).toBeLessThan(0.05);
      }
    }
  });
});
