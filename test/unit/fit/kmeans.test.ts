import { describe, expect, it } from 'vitest';
import { hierarchicalKMeans } from '../../../src-worker/fit/kmeans';
import { CellAccumulator, addCellMoments, momentsToGaussian } from '../../../src-worker/fit/cells';
import { voxelGaussians } from '../../../src-worker/fit/voxels';
import { RandomStream } from '../../../src-worker/random/stream';

/** Known anisotropic Gaussians: μ and a factor A (Σ = A Aᵀ), well apart. */
const BLOBS = [
  { mu: [0, 0, 1], a: [0.5, 0, 0, 0.2, 0.1, 0, 0, 0, 0.05] },
  { mu: [6, 1, 2], a: [0.1, 0, 0, 0, 0.4, 0, 0.1, 0, 0.3] },
  { mu: [-3, 7, 0.5], a: [0.3, 0.2, 0, 0, 0.3, 0, 0, 0, 0.15] },
  { mu: [4, -6, 3], a: [0.2, 0, 0.1, 0, 0.2, 0, 0, 0, 0.6] },
];
const PER_BLOB = 4000;

function sigmaOf(a: number[]): number[] {
  const s = (p: number, q: number) => a[3 * p]! * a[3 * q]! + a[3 * p + 1]! * a[3 * q + 1]! + a[3 * p + 2]! * a[3 * q + 2]!;
  return [s(0, 0), s(0, 1), s(0, 2), s(1, 1), s(1, 2), s(2, 2)];
}

function samples(seed: number): { xyz: Float64Array; blob: Int32Array } {
  const r = new RandomStream(seed, 4);
  const n = BLOBS.length * PER_BLOB;
  const xyz = new Float64Array(3 * n), blob = new Int32Array(n);
  BLOBS.forEach((b, k) => {
    for (let i = 0; i < PER_BLOB; i++) {
      const z = [r.normal(), r.normal(), r.normal()];
      const j = k * PER_BLOB + i;
      for (let a = 0; a < 3; a++) xyz[3 * j + a] = b.mu[a]! + b.a[3 * a]! * z[0]! + b.a[3 * a + 1]! * z[1]! + b.a[3 * a + 2]! * z[2]!;
      blob[j] = k;
    }
  });
  return { xyz, blob };
}

/** Unbiased mean and covariance of the points with assign === c. */
function clusterGaussian(xyz: Float64Array, assign: Int32Array, c: number): { mu: number[]; cov: number[]; n: number } {
  const idx: number[] = [];
  for (let i = 0; i < assign.length; i++) if (assign[i] === c) idx.push(i);
  const mu = [0, 1, 2].map((a) => idx.reduce((s, i) => s + xyz[3 * i + a]!, 0) / idx.length);
  const cov = [[0, 0], [0, 1], [0, 2], [1, 1], [1, 2], [2, 2]].map(([p, q]) => idx.reduce((s, i) => s + (xyz[3 * i + p!]! - mu[p!]!) * (xyz[3 * i + q!]! - mu[q!]!), 0) / (idx.length - 1));
  return { mu, cov, n: idx.length };
}

describe('hierarchical k-means', () => {
  const { xyz, blob } = samples(1);
  const n = blob.length;
  const opts = { target: 4, branching: 2, iterations: 10, minPoints: 5 };

  it('recovers the blobs: every cluster is one blob; means within 3 cm, covariances within 10 %', () => {
    const km = hierarchicalKMeans(xyz, n, opts, new RandomStream(7, 0));
    expect(km.count).toBe(4);
    for (let c = 0; c < 4; c++) {
      const members = new Set<number>();
      for (let i = 0; i < n; i++) if (km.assign[i] === c) members.add(blob[i]!);
      expect(members.size).toBe(1);
      const b = BLOBS[[...members][0]!]!;
      const g = clusterGaussian(xyz, km.assign, c);
      expect(g.n).toBe(PER_BLOB);
      for (let a = 0; a < 3; a++) expect(Math.abs(g.mu[a]! - b.mu[a]!)).toBeLessThan(0.03);
      const want = sigmaOf(b.a);
      const scale = Math.max(want[0]!, want[3]!, want[5]!);
      // Sampling error of a covariance from 4,000 points: ~2 % of the largest variance.
      for (let k = 0; k < 6; k++) expect(Math.abs(g.cov[k]! - want[k]!)).toBeLessThan(0.1 * scale);
    }
  });

  it('is deterministic per seed, and splits the widest clusters first up to the target', () => {
    const a = hierarchicalKMeans(xyz, n, { ...opts, target: 40 }, new RandomStream(3, 0));
    const b = hierarchicalKMeans(xyz, n, { ...opts, target: 40 }, new RandomStream(3, 0));
    expect(a.count).toBe(40);
    expect(Buffer.from(a.assign.buffer).equals(Buffer.from(b.assign.buffer))).toBe(true);
    // No cluster straddles two blobs, and none is below minPoints.
    const sizes = new Map<number, number>();
    for (let c = 0; c < a.count; c++) {
      const members = new Set<number>();
      for (let i = 0; i < n; i++) if (a.assign[i] === c) members.add(blob[i]!);
      expect(members.size).toBe(1);
    }
    for (let i = 0; i < n; i++) sizes.set(a.assign[i]!, (sizes.get(a.assign[i]!) ?? 0) + 1);
    expect(Math.min(...sizes.values())).toBeGreaterThanOrEqual(opts.minPoints);
  });

  it('refuses splits that would leave fewer than minPoints, and stops when nothing can split', () => {
    const few = new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 5, 5, 5, 5, 6, 5, 6, 5, 5]);
    const km = hierarchicalKMeans(few, 6, { target: 6, branching: 2, iterations: 5, minPoints: 3 }, new RandomStream(1, 0));
    expect(km.count).toBe(2);
    const same = new Float64Array(30).fill(1);
    expect(hierarchicalKMeans(same, 10, { target: 5, branching: 2, iterations: 5, minPoints: 1 }, new RandomStream(1, 0)).count).toBe(1);
  });
});

describe('cell moments', () => {
  it('give exactly the raw points\' mean and covariance (unbiased and ML), far from the origin too', () => {
    const r = new RandomStream(4, 0);
    const n = 5000, pts = new Float64Array(3 * n);
    const acc = new CellAccumulator(0.1);
    for (let i = 0; i < n; i++) {
      const p = [1000 + 0.7 * r.normal(), -2000 + 0.3 * r.normal(), 50 + 0.2 * r.normal() + 0.1 * r.next()];
      pts.set(p, 3 * i);
      acc.add(p[0]!, p[1]!, p[2]!);
    }
    const cloud = acc.finish();
    expect(cloud.points).toBe(n);
    const m = new Float64Array(10);
    for (let c = 0; c < cloud.count; c++) addCellMoments(cloud, c, 1000, -2000, 50, m);
    const mean = new Float64Array(3), cov = new Float64Array(6);
    const all = new Int32Array(n);
    const truth = clusterGaussian(pts, all, 0);
    momentsToGaussian(m, 1000, -2000, 50, true, mean, 0, cov, 0);
    for (let a = 0; a < 3; a++) expect(mean[a]).toBeCloseTo(truth.mu[a]!, 5);
    // float32 accumulators relative to each cell's centre: ~1e-6 relative.
    for (let k = 0; k < 6; k++) expect(Math.abs(cov[k]! - truth.cov[k]!)).toBeLessThan(1e-5 * truth.cov[0]!);
    momentsToGaussian(m, 1000, -2000, 50, false, mean, 0, cov, 0);
    expect(cov[0]! / truth.cov[0]!).toBeCloseTo((n - 1) / n, 5);
  });

  it('voxel Gaussians: one per occupied voxel with enough points, ML covariance', () => {
    const acc = new CellAccumulator(0.1);
    const r = new RandomStream(6, 0);
    for (let i = 0; i < 1000; i++) acc.add(0.05 + 0.2 * r.next(), 0.05 + 0.2 * r.next(), 0.05 + 0.2 * r.next()); // inside voxel (0,0,0) of 0.3 m
    acc.add(1.1, 1.1, 1.1); // a lone point: too sparse
    const cloud = acc.finish();
    const cells = Int32Array.from({ length: cloud.count }, (_, i) => i);
    const v = voxelGaussians(cloud, cells, 0.3, 5);
    expect(v.count).toBe(1);
    expect(v.sparse).toBe(1);
    expect(v.points[0]).toBe(1000);
    // Uniform on a 0.2 m edge: variance 0.2² / 12 per axis.
    for (const k of [0, 3, 5]) expect(v.covariances[k]!).toBeCloseTo(0.04 / 12, 3);
    for (let a = 0; a < 3; a++) expect(v.means[a]!).toBeCloseTo(0.15, 2);
  });
});
