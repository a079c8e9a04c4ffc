/** Random scenes and rays for comparing the BVH query with the brute-force oracle. */
import { RandomStream } from '../../../src-worker/random/stream';
import { SceneBuilder } from '../../../src-worker/scene/scene-builder';
import type { SceneData } from '../../../src-common/scene-data';

export function randomTriangles(r: RandomStream, n: number, extent: number, size: number): Float32Array {
  const pos = new Float32Array(9 * n);
  for (let i = 0; i < n; i++) {
    const cx = (r.next() - 0.5) * extent, cy = (r.next() - 0.5) * extent, cz = (r.next() - 0.5) * extent;
    for (let v = 0; v < 3; v++) {
      pos[9 * i + 3 * v] = cx + (r.next() - 0.5) * size;
      pos[9 * i + 3 * v + 1] = cy + (r.next() - 0.5) * size;
      pos[9 * i + 3 * v + 2] = cz + (r.next() - 0.5) * size;
    }
  }
  return pos;
}

export function randomGaussians(r: RandomStream, n: number, extent: number, size: number): { means: Float64Array; covs: Float64Array } {
  const means = new Float64Array(3 * n), covs = new Float64Array(6 * n);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) means[3 * i + k] = (r.next() - 0.5) * extent;
    // Σ = A Aᵀ + small ridge for a random A
    const a = Array.from({ length: 9 }, () => (r.next() - 0.5) * size);
    const s = (p: number, q: number) => a[3 * p]! * a[3 * q]! + a[3 * p + 1]! * a[3 * q + 1]! + a[3 * p + 2]! * a[3 * q + 2]!;
    const ridge = 1e-3 * size * size;
    covs.set([s(0, 0) + ridge, s(0, 1), s(0, 2), s(1, 1) + ridge, s(1, 2), s(2, 2) + ridge], 6 * i);
  }
  return { means, covs };
}

export function randomPose(r: RandomStream, extent: number, rotate: boolean): number[] {
  let q = [0, 0, 0, 1];
  if (rotate) {
    const v = [r.normal(), r.normal(), r.normal(), r.normal()];
    const n = Math.hypot(...v);
    q = v.map((x) => x / n);
  }
  return [(r.next() - 0.5) * extent, (r.next() - 0.5) * extent, (r.next() - 0.5) * extent, ...q];
}

/** A scene with all four primitive kinds, several instances each, some rotated. */
export function randomScene(seed: number, opts: { shared?: boolean } = {}): SceneData {
  const r = new RandomStream(seed, 1);
  const b = new SceneBuilder();
  const mesh = b.addMesh(randomTriangles(r, 300, 6, 1.2), Float32Array.from({ length: 300 }, () => r.next()));
  const ground = b.addGround(randomTriangles(r, 200, 8, 2), Float32Array.from({ length: 200 }, () => r.next()), 0.01, 0.25);
  const g1 = randomGaussians(r, 150, 6, 0.4);
  const ell = b.addEllipsoids(g1.means, g1.covs, Float32Array.from({ length: 150 }, () => r.next()));
  const g2 = randomGaussians(r, 100, 6, 0.3);
  const vox = b.addVoxels(g2.means, g2.covs, Float32Array.from({ length: 100 }, () => r.next()));
  b.addMesh(new Float32Array(0)); // an empty primitive must not break anything
  let obj = 1;
  for (const p of [mesh, ground, ell, vox]) {
    for (let k = 0; k < 4; k++) b.addInstance(p, randomPose(r, 12, k > 0), obj++, p + 10);
  }
  b.addInstance(mesh, [0, 0, 0, 0, 0, 0, 1], obj, 99);
  return b.build({ shared: opts.shared ?? false });
}

/** Random rays: origins in a cube, unit directions; some axis-aligned (zero components). */
export function randomRays(seed: number, n: number, extent: number): Float64Array {
  const r = new RandomStream(seed, 2);
  const rays = new Float64Array(6 * n);
  for (let i = 0; i < n; i++) {
    const o = [(r.next() - 0.5) * extent, (r.next() - 0.5) * extent, (r.next() - 0.5) * extent];
    let d = [r.normal(), r.normal(), r.normal()];
    if (i % 17 === 0) d = [0, 0, 0].map((_, k) => (k === i % 3 ? (r.next() < 0.5 ? -1 : 1) : 0));
    else if (i % 13 === 0) d[i % 3] = 0;
    // aim a third of the rays at the origin so most of them meet something
    if (i % 3 === 0) d = o.map((x) => -x + r.normal() * 0.5);
    const len = Math.hypot(d[0]!, d[1]!, d[2]!);
    rays.set([...o, d[0]! / len, d[1]! / len, d[2]! / len], 6 * i);
  }
  return rays;
}
