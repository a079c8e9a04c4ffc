import { describe, expect, it } from 'vitest';
import { segmentCloud, FitError } from '../../../src-worker/fit/fit';
import { resolveFitParams } from '../../../src-common/fit-params';
import { sphericalVariation } from '../../../src-worker/fit/segmentation';
import { KdTree } from '../../../src-worker/fit/kd-tree';
import { RandomStream } from '../../../src-worker/random/stream';
import { cellsOf, plainWithBushes, NO_HOOKS } from './synthetic';

/** Precision and recall of the ground label over the raw points (each point takes its cell's label). */
function score(truth: Uint8Array, label: (i: number) => boolean): { gp: number; gr: number; vp: number; vr: number } {
  let tp = 0, fp = 0, fn = 0, tn = 0;
  for (let i = 0; i < truth.length; i++) {
    const g = label(i), t = truth[i] === 1;
    if (g && t) tp++;
    else if (g) fp++;
    else if (t) fn++;
    else tn++;
  }
  return { gp: tp / (tp + fp), gr: tp / (tp + fn), vp: tn / (tn + fn), vr: tn / (tn + fp) };
}

describe('spherical variation', () => {
  it('is ~0 on a plane, ~1/3 in an isotropic blob, φ_default below N_min neighbours', () => {
    const r = new RandomStream(5, 0);
    const plane = new Float64Array(3 * 2000), blob = new Float64Array(3 * 2000);
    for (let i = 0; i < 2000; i++) {
      plane.set([r.next() * 4, r.next() * 4, 0.001 * r.normal()], 3 * i);
      blob.set([r.normal(), r.normal(), r.normal()], 3 * i);
    }
    const params = resolveFitParams({ phiRadius: 0.5 });
    const phi = new Float32Array(2000);
    sphericalVariation(new KdTree(plane, 3), plane, 2000, params, phi, null);
    expect(Math.max(...phi.subarray(0, 2000))).toBeLessThan(0.01);
    sphericalVariation(new KdTree(blob, 3), blob, 100, params, phi, null); // the blob's centre is dense
    expect(phi[0]).toBeGreaterThan(0.15);
    const sparse = new Float64Array([0, 0, 0, 5, 5, 5]);
    const n = sphericalVariation(new KdTree(sparse, 3), sparse, 2, params, phi, null);
    expect(n).toBe(2);
    expect(phi[0]).toBeCloseTo(params.phiDefault, 6);
  });
});

describe('ground segmentation on a plain with bushes', () => {
  const scene = plainWithBushes(1);
  const { cloud, cellOf } = cellsOf(scene.xyz, scene.count, 0.1);

  it('labels ground and bushes: precision ≥ 0.99 for ground, recall ≥ 0.99 for bushes (defaults)', () => {
    const seg = segmentCloud(cloud, resolveFitParams({}), NO_HOOKS);
    const s = score(scene.truth, (i) => seg.ground[cellOf[i]!] === 1);
    // Measured (seeds 1–3): ground P 1.000 R 0.955–0.961, bushes P 0.918–0.927 R 1.000. The ground
    // lost is the ring within d_φ (0.75 m) of a bush's base, whose neighbourhoods hold bush points.
    expect(s.gp).toBeGreaterThanOrEqual(0.99);
    expect(s.gr).toBeGreaterThanOrEqual(0.94);
    expect(s.vp).toBeGreaterThanOrEqual(0.9);
    expect(s.vr).toBeGreaterThanOrEqual(0.99);
    // A smaller d_φ shrinks that ring (seed 1: ground R 0.975, bushes P 0.952).
    const small = segmentCloud(cloud, resolveFitParams({ phiRadius: 0.5 }), NO_HOOKS);
    const t = score(scene.truth, (i) => small.ground[cellOf[i]!] === 1);
    expect(t.gr).toBeGreaterThan(s.gr);
    expect(Math.min(t.gp, t.vr)).toBeGreaterThanOrEqual(0.99);
  });

  it('gives the same labels whatever the block size (blocks read a margin of their neighbours)', () => {
    const a = segmentCloud(cloud, resolveFitParams({ blockSize: 7 }), NO_HOOKS);
    const b = segmentCloud(cloud, resolveFitParams({ blockSize: 1000 }), NO_HOOKS);
    expect(a.plan.blocks.length).toBeGreaterThan(16);
    expect(b.plan.blocks.length).toBe(1);
    expect(Buffer.from(a.ground).equals(Buffer.from(b.ground))).toBe(true);
  });

  it('with bilateral smoothing (eq. 4.1–4.2) still separates them', () => {
    const seg = segmentCloud(cloud, resolveFitParams({ smoothRadius: 0.5 }), NO_HOOKS);
    const s = score(scene.truth, (i) => seg.ground[cellOf[i]!] === 1);
    // Measured (seed 1): ground P 1.000 R 0.960, bushes P 0.927 R 1.000.
    expect(Math.min(s.gp, s.vr)).toBeGreaterThanOrEqual(0.99);
    expect(Math.min(s.gr, s.vp)).toBeGreaterThanOrEqual(0.9);
  });

  it('says what to change when almost nothing is ground', () => {
    expect(() => segmentCloud(cloud, resolveFitParams({ phiThreshold: 0 }), NO_HOOKS)).toThrow(FitError);
    expect(() => segmentCloud(cloud, resolveFitParams({ phiThreshold: 0 }), NO_HOOKS)).toThrow(/too few ground points: 0 of \d+ .*raise phiThreshold/);
  });
});
