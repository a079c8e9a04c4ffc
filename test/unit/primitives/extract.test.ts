import { describe, expect, it } from 'vitest';
import { extractPrimitives, type ModelElements } from '../../../src-worker/primitives/extract';
import { rotateCovariance, toFrame, yawMatrix } from '../../../src-worker/primitives/frame';
import { GroundIndex, heightFunctionGrid, heightGridTriangles } from '../../../src-worker/primitives/ground-index';
import { patchCells, patchCellIndex } from '../../../src-worker/primitives/patch';
import { checkPrimitive, primitiveCounts } from '../../../src-common/primitive';
import { cloudFromPoints } from '../../../src-worker/primitives/segment-cloud';
import { makeSegment, type Segment } from '../../../src-worker/primitives/segments';
import type { AnnotationBox } from '../../../src-worker/site/reference-annotations';
import { ReferenceClass as C } from '../../../src-common/classes';
import { RandomStream } from '../../../src-worker/random/stream';

const YAW = (30 * Math.PI) / 180;
const c = Math.cos(YAW), s = Math.sin(YAW);
/** Box-frame (base centre at (10, 5, 0.5), yaw 30°) → world. */
const world = (u: number, v: number, w: number): [number, number, number] => [10 + c * u - s * v, 5 + s * u + c * v, 0.5 + w];

/** Σ in the world of a Gaussian with principal variances (a, b, d) along the box's length, width and z. */
function boxCovariance(a: number, b: number, d: number): Float64Array {
  const out = new Float64Array(6);
  rotateCovariance(yawMatrix(YAW), Float64Array.of(a, 0, 0, b, 0, d), 0, out, 0);
  return out;
}

function model(): ModelElements {
  const m1 = world(1, 0.2, 1.5), m2 = world(8, 0, 1), v1 = world(-1, 0, 1), v2 = world(0.5, 0.3, 0.1);
  return {
    ellipsoidMeans: Float64Array.from([...m1, ...m2]),
    ellipsoidCovariances: Float64Array.from([...boxCovariance(1, 0.04, 0.09), ...boxCovariance(0.1, 0.1, 0.1)]),
    ellipsoidPHit: Float32Array.of(0.7, 0.5),
    voxelMeans: Float64Array.from([...v1, ...v2]),
    voxelCovariances: Float64Array.from([...boxCovariance(0.01, 0.01, 0.01), ...boxCovariance(0.01, 0.01, 0.001)]),
    voxelPermeability: Float32Array.of(0.2, 0.1),
  };
}

/** Points filling the box [−2, 2] × [−1, 1] × [0, 3] of the frame, and a hand-made segment with that exact box. */
function segment(patch = false, size: [number, number, number] = [4, 2, 3]): { seg: Segment; pts: number[] } {
  const r = new RandomStream(2, 5);
  const pts: number[] = [];
  for (let i = 0; i < 3000; i++) pts.push(...world(size[0] * (r.next() - 0.5), size[1] * (r.next() - 0.5), size[2] * r.next()));
  const cloud = cloudFromPoints(pts, [c, s]);
  const base = makeSegment(cloud, Uint32Array.from({ length: 3000 }, (_, i) => i), { id: 42, class: patch ? C.mediumShrub : C.smallTree, patch, source: 'annotation' });
  const box: AnnotationBox = { center: world(0, 0, size[2] / 2), size, yaw: YAW };
  return { seg: { ...base, box }, pts };
}

describe('rotating covariances', () => {
  it('Σ\' = R Σ Rᵀ: a Gaussian along 30° turned by −30° lies along +x (1e-12)', () => {
    const w = boxCovariance(1, 0.04, 0.09);
    const out = new Float64Array(6);
    rotateCovariance(yawMatrix(-YAW), w, 0, out, 0);
    const want = [1, 0, 0, 0.04, 0, 0.09];
    out.forEach((v, k) => expect(v).toBeCloseTo(want[k]!, 12));
    // A general rotation against explicit matrix products.
    const m = [0.36, 0.48, -0.8, -0.8, 0.6, 0, 0.48, 0.64, 0.6];
    const S = [[2, 0.3, -0.1], [0.3, 1, 0.2], [-0.1, 0.2, 0.5]];
    rotateCovariance(m, Float64Array.of(2, 0.3, -0.1, 1, 0.2, 0.5), 0, out, 0);
    const ms = (i: number, j: number) => [0, 1, 2].reduce((a, k) => a + [0, 1, 2].reduce((b, l) => b + m[3 * i + k]! * S[k]![l]! * m[3 * j + l]!, 0), 0);
    [[0, 0], [0, 1], [0, 2], [1, 1], [1, 2], [2, 2]].forEach(([i, j], k) => expect(out[k]).toBeCloseTo(ms(i!, j!), 12));
  });
});

describe('extracting primitives', () => {
  it('takes the elements inside the rotated box to the identity pose, Σ rotated, ground voxels left out', () => {
    const { seg, pts } = segment();
    const cloud = cloudFromPoints(pts, [c, s]);
    const ground = new GroundIndex(heightGridTriangles(heightFunctionGrid(() => 0.5, { x0: 0, y0: -5, x1: 20, y1: 15 }, 1)));
    const { primitives, skipped } = extractPrimitives([seg], cloud, model(), { ground, maxPoints: 500 });
    expect(skipped).toEqual([]);
    expect(primitives.length).toBe(1);
    const p = primitives[0]!;
    checkPrimitive(p);
    expect(p).toMatchObject({ id: 1, class: C.smallTree, extents: [4, 2, 3], source: 'object' });
    expect(primitiveCounts(p)).toEqual({ ellipsoids: 1, voxels: 1, triangles: 0, points: 500 });
    // The ellipsoid: mean at its box coordinates, covariance elongated along +x.
    const e = p.ellipsoids!;
    [1, 0.2, 1.5].forEach((v, k) => expect(e.means[k]).toBeCloseTo(v, 9));
    [1, 0, 0, 0.04, 0, 0.09].forEach((v, k) => expect(e.covariances[k]).toBeCloseTo(v, 9));
    expect(e.pHit[0]).toBeCloseTo(0.7, 6);
    // Voxel 1 (1 m up) kept; voxel 2 (0.1 m above the ground) is the ground's.
    [-1, 0, 1].forEach((v, k) => expect(p.voxels!.means[k]).toBeCloseTo(v, 9));
    expect(p.voxels!.permeability[0]).toBeCloseTo(0.2, 6);
    // Without a ground both voxels are in.
    expect(primitiveCounts(extractPrimitives([seg], cloud, model()).primitives[0]!).voxels).toBe(2);
    // Raw points in the frame lie in the box.
    for (let k = 0; k < 500; k++) {
      expect(Math.abs(p.points![3 * k]!)).toBeLessThanOrEqual(2 + 1e-5);
      expect(Math.abs(p.points![3 * k + 1]!)).toBeLessThanOrEqual(1 + 1e-5);
      expect(p.points![3 * k + 2]!).toBeGreaterThanOrEqual(-1e-5);
      expect(p.points![3 * k + 2]!).toBeLessThanOrEqual(3 + 1e-5);
    }
    expect(p.origin!.segmentId).toBe(42);
    expect(p.origin!.pose[0]).toBeCloseTo(10, 9);
  });

  it('a segment posed from its points (PCA yaw nearest travel) puts the elongated ellipsoid along +x too', () => {
    const { pts } = segment();
    const cloud = cloudFromPoints(pts, [c, s]);
    const seg = makeSegment(cloud, Uint32Array.from({ length: 3000 }, (_, i) => i), { id: 1, class: C.smallTree, patch: false, source: 'annotation' });
    expect(Math.abs(seg.box.yaw - YAW)).toBeLessThan((1 * Math.PI) / 180);
    const p = extractPrimitives([seg], cloud, model()).primitives[0]!;
    const cov = p.ellipsoids!.covariances;
    expect(cov[0]).toBeGreaterThan(0.999);
    expect(Math.abs(cov[1]!)).toBeLessThan(0.02);
    expect(cov[3]).toBeLessThan(0.045);
    expect(cov[5]).toBeCloseTo(0.09, 12);
    // The mean where toFrame of the segment's own frame puts it.
    const want = [0, 0, 0];
    const f = { x: seg.box.center[0], y: seg.box.center[1], z: seg.box.center[2] - seg.box.size[2] / 2, yaw: seg.box.yaw };
    toFrame(f, ...world(1, 0.2, 1.5), want, 0);
    want.forEach((v, k) => expect(p.ellipsoids!.means[k]).toBeCloseTo(v, 9));
  });

  it('splits a shrub patch into uniform cells, one primitive per cell with elements', () => {
    const { seg, pts } = segment(true, [6, 2, 1.5]);
    const cloud = cloudFromPoints(pts, [c, s]);
    const cells = patchCells(seg.box, 2);
    expect(cells.map((q) => [q.i, q.j, ...q.box.size])).toEqual([[0, 0, 2, 2, 1.5], [1, 0, 2, 2, 1.5], [2, 0, 2, 2, 1.5]]);
    expect(patchCellIndex(seg.box, 2, ...world(2.5, 0.5, 0).slice(0, 2) as [number, number])).toBe(2);
    expect(patchCellIndex(seg.box, 2, ...world(3.5, 0, 0).slice(0, 2) as [number, number])).toBe(-1);
    // One ellipsoid per cell, at the cell's centre, 0.7 m up.
    const means: number[] = [], covs: number[] = [];
    for (const u of [-2, 0, 2]) {
      means.push(...world(u, 0, 0.7));
      covs.push(...boxCovariance(0.2, 0.1, 0.05));
    }
    const m: ModelElements = { ellipsoidMeans: Float64Array.from(means), ellipsoidCovariances: Float64Array.from(covs), ellipsoidPHit: Float32Array.of(0.3, 0.4, 0.5), voxelMeans: new Float64Array(0), voxelCovariances: new Float64Array(0), voxelPermeability: new Float32Array(0) };
    const { primitives } = extractPrimitives([seg], cloud, m, { patchCellSize: 2 });
    expect(primitives.map((p) => [p.source, p.origin!.cell, p.extents[0], p.extents[1]])).toEqual([
      ['patch-cell', [0, 0], 2, 2], ['patch-cell', [1, 0], 2, 2], ['patch-cell', [2, 0], 2, 2],
    ]);
    primitives.forEach((p, k) => {
      expect(p.class).toBe(C.mediumShrub);
      expect(primitiveCounts(p).ellipsoids).toBe(1);
      expect(p.ellipsoids!.pHit[0]).toBeCloseTo([0.3, 0.4, 0.5][k]!, 6);
      // Each cell's ellipsoid sits at its cell's centre (x, y ≈ 0).
      expect(Math.abs(p.ellipsoids!.means[0]!)).toBeLessThan(1e-9);
      expect(p.extents[2]).toBeCloseTo(1.5, 1);
    });
    // A shrub far wider than its class, without the flag, is split too (patchFactor).
    const wide = { ...seg, patch: false, box: { ...seg.box, size: [12, 2, 1.5] as [number, number, number] } };
    expect(extractPrimitives([wide], cloud, m, { patchCellSize: 2 }).primitives.every((p) => p.source === 'patch-cell')).toBe(true);
  });
});
