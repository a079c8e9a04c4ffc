/** Synthetic clouds and scenes for the fitting tests (deterministic per seed). */
import { RandomStream } from '../../../src-worker/random/stream';
import { CellAccumulator, type CellCloud } from '../../../src-worker/fit/cells';

/** The test terrain: a gentle slope with bumps (m). */
export function terrainHeight(x: number, y: number): number {
  return 0.05 * x + 0.4 * Math.sin(x / 5) + 0.3 * Math.cos(y / 4);
}

export interface LabelledCloud {
  xyz: Float64Array;
  /** 1 = ground, 0 = vegetation. */
  truth: Uint8Array;
  count: number;
}

/**
 * A `size` × `size` m patch of terrain sampled at `groundDensity` points/m² with σ = 1 cm noise,
 * and `bushes` blobs of vegetation: points scattered through ellipsoids 0.5–1.2 m in radius
 * standing on the ground (as a lidar sees a shrub: returns from throughout its volume).
 */
export function plainWithBushes(seed: number, opts: { size?: number; groundDensity?: number; bushes?: number; bushPoints?: number } = {}): LabelledCloud {
  const size = opts.size ?? 30, density = opts.groundDensity ?? 40, bushes = opts.bushes ?? 12, perBush = opts.bushPoints ?? 1500;
  const r = new RandomStream(seed, 11);
  const nGround = Math.round(size * size * density);
  const n = nGround + bushes * perBush;
  const xyz = new Float64Array(3 * n), truth = new Uint8Array(n);
  for (let i = 0; i < nGround; i++) {
    const x = r.next() * size, y = r.next() * size;
    xyz.set([x, y, terrainHeight(x, y) + 0.01 * r.normal()], 3 * i);
    truth[i] = 1;
  }
  let k = nGround;
  for (let b = 0; b < bushes; b++) {
    const cx = 2 + r.next() * (size - 4), cy = 2 + r.next() * (size - 4);
    const rad = 0.5 + 0.7 * r.next(), h = rad * (0.8 + 0.6 * r.next());
    const cz = terrainHeight(cx, cy) + h + 0.1;
    for (let j = 0; j < perBush; j++) {
      // Uniform in the unit ball, scaled.
      let u: number, v: number, w: number;
      do {
        u = 2 * r.next() - 1; v = 2 * r.next() - 1; w = 2 * r.next() - 1;
      } while (u * u + v * v + w * w > 1);
      xyz.set([cx + rad * u, cy + rad * v, cz + h * w], 3 * k);
      truth[k++] = 0;
    }
  }
  return { xyz, truth, count: n };
}

/** Bins points into cells; returns the cloud and each point's cell (cells are sorted by key). */
export function cellsOf(xyz: Float64Array, count: number, cellSize: number): { cloud: CellCloud; cellOf: Int32Array } {
  const acc = new CellAccumulator(cellSize);
  for (let i = 0; i < count; i++) acc.add(xyz[3 * i]!, xyz[3 * i + 1]!, xyz[3 * i + 2]!);
  const cloud = acc.finish();
  const index = new Map<string, number>();
  for (let c = 0; c < cloud.count; c++) index.set(`${cloud.key[3 * c]},${cloud.key[3 * c + 1]},${cloud.key[3 * c + 2]}`, c);
  const cellOf = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const key = `${Math.floor(xyz[3 * i]! / cellSize)},${Math.floor(xyz[3 * i + 1]! / cellSize)},${Math.floor(xyz[3 * i + 2]! / cellSize)}`;
    cellOf[i] = index.get(key)!;
  }
  return { cloud, cellOf };
}

export const NO_HOOKS = { progress: () => {}, checkCancelled: () => {} };
