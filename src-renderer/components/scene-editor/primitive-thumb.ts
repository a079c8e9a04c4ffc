/**
 * A primitive's thumbnail for the editor's library (pure; unit-tested): its side view — x
 * across, z up — fitted to a square of `size` pixels with a margin, as shapes to fill: each
 * Gaussian (ellipsoid or voxel) the 2σ ellipse of its covariance projected on the x-z plane, its
 * opacity its hit probability (a voxel's 1 − permeability); each mesh triangle its projection.
 * The primitive's own frame is kept (its foot on z = 0), so a tall tree reads taller than a shrub
 * of the same box only when the boxes differ — every thumbnail fills its square.
 */
import type { PrimitiveData } from '../../../src-main/api/contract';

export interface ThumbEllipse {
  cx: number;
  cy: number;
  rx: number;
  ry: number;
  /** Radians, canvas convention (clockwise from +x, y down). */
  angle: number;
  alpha: number;
}

export interface Thumb {
  ellipses: ThumbEllipse[];
  /** Triangles, 6 numbers each (canvas pixels). */
  triangles: Float32Array;
}

type Source = Pick<PrimitiveData, 'ellipsoids' | 'voxels' | 'triangles'>;

/** Gaussians are drawn to this many standard deviations (1σ leaves a shrub's few ellipsoids as specks). */
const SIGMAS = 2;
/** Caps the shapes drawn: a thumbnail of 40 px does not need 100,000 triangles. */
const MAX_SHAPES = 4000;

export function primitiveThumb(p: Source, size: number, margin = 3): Thumb {
  // Bounds over what will be drawn: Gaussians to SIGMAS σ, triangles' vertices.
  let x0 = Infinity, x1 = -Infinity, z0 = Infinity, z1 = -Infinity;
  const gauss: { means: Float64Array; covariances: Float64Array; alpha: (i: number) => number }[] = [];
  if (p.ellipsoids) gauss.push({ means: p.ellipsoids.means, covariances: p.ellipsoids.covariances, alpha: (i) => p.ellipsoids!.pHit[i]! });
  if (p.voxels) gauss.push({ means: p.voxels.means, covariances: p.voxels.covariances, alpha: (i) => 1 - p.voxels!.permeability[i]! });
  for (const g of gauss) {
    for (let i = 0; i < g.means.length / 3; i++) {
      const sx = SIGMAS * Math.sqrt(Math.max(0, g.covariances[6 * i]!)), sz = SIGMAS * Math.sqrt(Math.max(0, g.covariances[6 * i + 5]!));
      x0 = Math.min(x0, g.means[3 * i]! - sx); x1 = Math.max(x1, g.means[3 * i]! + sx);
      z0 = Math.min(z0, g.means[3 * i + 2]! - sz); z1 = Math.max(z1, g.means[3 * i + 2]! + sz);
    }
  }
  const t = p.triangles;
  if (t) {
    for (let o = 0; o + 2 < t.length; o += 3) {
      x0 = Math.min(x0, t[o]!); x1 = Math.max(x1, t[o]!);
      z0 = Math.min(z0, t[o + 2]!); z1 = Math.max(z1, t[o + 2]!);
    }
  }
  if (!(x1 > x0) && !(z1 > z0)) return { ellipses: [], triangles: new Float32Array(0) };
  const span = Math.max(x1 - x0, z1 - z0, 1e-6);
  const k = (size - 2 * margin) / span;
  // Centred across, standing on the bottom margin.
  const px = (x: number) => size / 2 + (x - (x0 + x1) / 2) * k;
  const pz = (z: number) => size - margin - (z - z0) * k;

  const ellipses: ThumbEllipse[] = [];
  for (const g of gauss) {
    const n = g.means.length / 3, step = Math.max(1, Math.ceil(n / MAX_SHAPES));
    for (let i = 0; i < n; i += step) {
      const c = g.covariances, a = c[6 * i]!, b = c[6 * i + 2]!, d = c[6 * i + 5]!;
      // Eigen decomposition of the x-z covariance [[a, b], [b, d]].
      const tr = (a + d) / 2, det = Math.sqrt(Math.max(0, ((a - d) / 2) ** 2 + b * b));
      const l1 = tr + det, l2 = Math.max(0, tr - det);
      const theta = Math.abs(b) < 1e-15 ? (a >= d ? 0 : Math.PI / 2) : Math.atan2(l1 - a, b);
      // z up on the page is −y, so the angle turns the other way.
      ellipses.push({ cx: px(g.means[3 * i]!), cy: pz(g.means[3 * i + 2]!), rx: Math.max(0.5, SIGMAS * Math.sqrt(l1) * k), ry: Math.max(0.5, SIGMAS * Math.sqrt(l2) * k), angle: -theta, alpha: Math.max(0.08, Math.min(1, g.alpha(i))) });
    }
  }
  let triangles = new Float32Array(0);
  if (t) {
    const n = t.length / 9, step = Math.max(1, Math.ceil(n / MAX_SHAPES));
    triangles = new Float32Array(6 * Math.ceil(n / step));
    let o = 0;
    for (let i = 0; i < n; i += step) {
      for (let v = 0; v < 3; v++) {
        triangles[o++] = px(t[9 * i + 3 * v]!);
        triangles[o++] = pz(t[9 * i + 3 * v + 2]!);
      }
    }
    triangles = triangles.subarray(0, o);
  }
  return { ellipses, triangles };
}
