/**
 * The voxel permeability model's geometry (seed 000 §III-1, docs/methods.md §2): a regular grid of side
 * s; per occupied voxel the maximum-likelihood Gaussian (sample mean, covariance divided by n)
 * of its points. The permeability ρ comes later, from replaying the rays (replay.ts).
 *
 * Built from the subsampled cloud's cells (each cell goes to the voxel holding its centroid) and
 * their scatter matrices, so the Gaussian is that of every raw hit of those cells.
 */
import { addCellMoments, momentsToGaussian, type CellCloud } from './cells';

export interface VoxelGaussians {
  count: number;
  /** 3 per voxel. */
  means: Float64Array;
  /** 6 per voxel (xx, xy, xz, yy, yz, zz). */
  covariances: Float64Array;
  /** Raw hits per voxel. */
  points: Uint32Array;
  /** Voxels dropped for holding fewer than voxelMinPoints hits. */
  sparse: number;
}

export function voxelGaussians(cloud: CellCloud, cells: ArrayLike<number>, voxelSize: number, minPoints: number): VoxelGaussians {
  const m = cells.length;
  const empty = { count: 0, means: new Float64Array(0), covariances: new Float64Array(0), points: new Uint32Array(0), sparse: 0 };
  if (m === 0) return empty;
  // Integer voxel index of each cell, and a dense key over the block's index ranges.
  const vi = new Float64Array(3 * m);
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let j = 0; j < m; j++) {
    const c = cells[j]!;
    for (let a = 0; a < 3; a++) {
      const v = Math.floor(cloud.centroid[3 * c + a]! / voxelSize);
      vi[3 * j + a] = v;
      if (v < lo[a]!) lo[a] = v;
      if (v > hi[a]!) hi[a] = v;
    }
  }
  const ny = hi[1]! - lo[1]! + 1, nz = hi[2]! - lo[2]! + 1;
  const index = new Map<number, number>();
  const members: number[][] = [];
  for (let j = 0; j < m; j++) {
    const key = ((vi[3 * j]! - lo[0]!) * ny + (vi[3 * j + 1]! - lo[1]!)) * nz + (vi[3 * j + 2]! - lo[2]!);
    let v = index.get(key);
    if (v === undefined) {
      v = members.length;
      index.set(key, v);
      members.push([]);
    }
    members[v]!.push(cells[j]!);
  }
  const nv = members.length;
  const means = new Float64Array(3 * nv), covariances = new Float64Array(6 * nv), points = new Uint32Array(nv);
  const acc = new Float64Array(10);
  let count = 0, sparse = 0;
  for (let v = 0; v < nv; v++) {
    const list = members[v]!;
    const r = list[0]!;
    const rx = cloud.centroid[3 * r]!, ry = cloud.centroid[3 * r + 1]!, rz = cloud.centroid[3 * r + 2]!;
    acc.fill(0);
    for (const c of list) addCellMoments(cloud, c, rx, ry, rz, acc);
    if (acc[0]! < minPoints) {
      sparse++;
      continue;
    }
    momentsToGaussian(acc, rx, ry, rz, false, means, 3 * count, covariances, 6 * count);
    points[count] = acc[0]!;
    count++;
  }
  return { count, means: means.slice(0, 3 * count), covariances: covariances.slice(0, 6 * count), points: points.slice(0, count), sparse };
}
