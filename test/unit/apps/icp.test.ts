import { describe, expect, it } from 'vitest';
import { composeTransforms, identityTransform, icp, prepareTarget, ransacIcp, rotationAngle, solve6, voxelFilter } from '../../../src-worker/apps/icp';
import { poseError } from '../../../src-worker/apps/scan-matching';
import { roomCloud } from './synthetic-scenes';

/** Rotation about z by yaw with a translation. */
function yawMove(yaw: number, tx: number, ty: number, tz: number): Float64Array<ArrayBuffer> {
  const c = Math.cos(yaw), s = Math.sin(yaw);
  return Float64Array.of(c, -s, 0, s, c, 0, 0, 0, 1, tx, ty, tz);
}

/** Applies the inverse of M to every point: the source that M carries back onto the target. */
function movedBack(xyz: Float64Array, M: Float64Array): Float64Array {
  const out = new Float64Array(xyz.length);
  for (let i = 0; i < xyz.length; i += 3) {
    const x = xyz[i]! - M[9]!, y = xyz[i + 1]! - M[10]!, z = xyz[i + 2]! - M[11]!;
    out[i] = M[0]! * x + M[3]! * y + M[6]! * z;
    out[i + 1] = M[1]! * x + M[4]! * y + M[7]! * z;
    out[i + 2] = M[2]! * x + M[5]! * y + M[8]! * z;
  }
  return out;
}

const PARAMS = { maxCorrespondenceDistance: 1.5, iterations: 50, minObjectiveChange: 1e-12 };

describe('voxel filter', () => {
  it('replaces the points of each voxel by their centroid', () => {
    const xyz = Float64Array.of(0.1, 0.1, 0.1, 0.3, 0.3, 0.3, 1.2, 0.2, 0.2);
    expect([...voxelFilter(xyz, 3, 1)]).toEqual([0.2, 0.2, 0.2, 1.2, 0.2, 0.2].map((v, i) => (i < 3 ? expect.closeTo(v, 12) : v)));
    expect(voxelFilter(xyz, 3, 0).length).toBe(9);
  });
});

describe('solve6', () => {
  it('solves a diagonal system and refuses a singular one', () => {
    const A = new Float64Array(36), b = Float64Array.of(2, 4, 6, 8, 10, 12), x = new Float64Array(6);
    for (let i = 0; i < 6; i++) A[7 * i] = 2;
    expect(solve6(A, b, x)).toBe(true);
    expect([...x]).toEqual([1, 2, 3, 4, 5, 6]);
    expect(solve6(new Float64Array(36), b, x)).toBe(false);
  });
});

describe('point-to-plane ICP', () => {
  const { xyz } = roomCloud(6000, 7);
  const target = prepareTarget(xyz, 1);

  it('matches a scan to itself at the identity', () => {
    const r = icp(xyz, target, PARAMS);
    const e = poseError(r.transform, identityTransform());
    expect(e.position).toBeLessThan(1e-6);
    expect(e.angle).toBeLessThan(1e-6);
  });

  it('returns a known pose of a copy moved by it', () => {
    const M = yawMove(0.05, 0.4, -0.3, 0.05);
    const r = icp(movedBack(xyz, M), target, PARAMS);
    const e = poseError(r.transform, M);
    expect(e.position).toBeLessThan(0.01);
    expect(e.angle).toBeLessThan(1e-3);
  });

  it('does the same inside the RANSAC loop, seeded', () => {
    const M = yawMove(-0.04, -0.3, 0.2, 0);
    const p = { ...PARAMS, ransacTrials: 3, inlierThreshold: 0.2, sampleFraction: 0.5, seed: 3 };
    const a = ransacIcp(movedBack(xyz, M), target, p);
    const b = ransacIcp(movedBack(xyz, M), target, p);
    expect([...a.transform]).toEqual([...b.transform]);
    expect(poseError(a.transform, M).position).toBeLessThan(0.01);
    expect(a.inliers).toBeGreaterThan(5900);
  });

  it('composes and measures rotations', () => {
    const T = composeTransforms(yawMove(0.1, 1, 0, 0), yawMove(0.2, 0, 1, 0));
    expect(rotationAngle(T)).toBeCloseTo(0.3, 12);
  });
});
