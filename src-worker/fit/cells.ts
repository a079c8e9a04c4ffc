/**
 * The subsampled cloud: world hits binned into cubic cells of side `cellSize`, each kept as its
 * raw point count, centroid and scatter matrix Σ (y − c)(y − c)ᵀ. Segmentation and clustering
 * work on the centroids (a long log's tens of millions of hits become a few million points),
 * while a cluster's or a voxel's covariance is summed from its cells' scatter matrices, so it is
 * exactly the covariance of every raw hit in it.
 *
 * Accumulation is an open-addressing hash table over the integer cell index in flat typed
 * arrays (a Map of objects would cost ~10× the memory); sums are kept relative to each cell's
 * centre, so float32 accumulators lose nothing that matters at centimetre scales.
 */

/** Per cell: count, centroid (3), scatter (6: xx, xy, xz, yy, yz, zz) — the compact, read-only form. */
export interface CellCloud {
  cellSize: number;
  /** Number of cells. */
  count: number;
  /** Raw hits in the whole cloud. */
  points: number;
  /** Integer cell index (ix, iy, iz) per cell. */
  key: Int32Array;
  /** Raw hits per cell. */
  n: Uint32Array;
  /** Centroid per cell (3 each). */
  centroid: Float64Array;
  /** Scatter about the centroid per cell (6 each: xx, xy, xz, yy, yz, zz). */
  scatter: Float64Array;
}

const EMPTY = 0;

export class CellAccumulator {
  private cap = 1 << 16;
  private size = 0;
  private keys = new Int32Array(3 * this.cap);
  private counts = new Uint32Array(this.cap);
  /** Per slot: Σd (3) and Σddᵀ (6), d = y − cell centre. */
  private sums = new Float32Array(9 * this.cap);
  private total = 0;
  private readonly inv: number;

  constructor(readonly cellSize: number) {
    if (!(cellSize > 0)) throw new Error(`cell size ${cellSize} must be positive`);
    this.inv = 1 / cellSize;
  }

  get cells(): number {
    return this.size;
  }

  add(x: number, y: number, z: number): void {
    const ix = Math.floor(x * this.inv), iy = Math.floor(y * this.inv), iz = Math.floor(z * this.inv);
    if (!(Math.abs(ix) < 2e9 && Math.abs(iy) < 2e9 && Math.abs(iz) < 2e9)) return; // non-finite or absurd: not a point
    let slot = this.find(ix, iy, iz);
    if (this.counts[slot] === EMPTY) {
      if (2 * (this.size + 1) > this.cap) {
        this.grow();
        slot = this.find(ix, iy, iz);
      }
      this.keys[3 * slot] = ix;
      this.keys[3 * slot + 1] = iy;
      this.keys[3 * slot + 2] = iz;
      this.size++;
    }
    this.counts[slot]!++;
    this.total++;
    const h = 0.5 * this.cellSize;
    const dx = x - (ix * this.cellSize + h), dy = y - (iy * this.cellSize + h), dz = z - (iz * this.cellSize + h);
    const s = this.sums, o = 9 * slot;
    s[o] = s[o]! + dx; s[o + 1] = s[o + 1]! + dy; s[o + 2] = s[o + 2]! + dz;
    s[o + 3] = s[o + 3]! + dx * dx; s[o + 4] = s[o + 4]! + dx * dy; s[o + 5] = s[o + 5]! + dx * dz;
    s[o + 6] = s[o + 6]! + dy * dy; s[o + 7] = s[o + 7]! + dy * dz; s[o + 8] = s[o + 8]! + dz * dz;
  }

  /** The compact cloud, cells sorted by (ix, iy, iz) so the order never depends on the table's history. */
  finish(): CellCloud {
    const n = this.size, cs = this.cellSize, h = 0.5 * cs;
    const slots = new Int32Array(n);
    let k = 0;
    for (let s = 0; s < this.cap; s++) if (this.counts[s] !== EMPTY) slots[k++] = s;
    const keys = this.keys;
    slots.sort((a, b) => keys[3 * a]! - keys[3 * b]! || keys[3 * a + 1]! - keys[3 * b + 1]! || keys[3 * a + 2]! - keys[3 * b + 2]!);
    const out: CellCloud = {
      cellSize: cs,
      count: n,
      points: this.total,
      key: new Int32Array(3 * n),
      n: new Uint32Array(n),
      centroid: new Float64Array(3 * n),
      scatter: new Float64Array(6 * n),
    };
    for (let i = 0; i < n; i++) {
      const s = slots[i]!, o = 9 * s;
      const c = this.counts[s]!;
      const sx = this.sums[o]!, sy = this.sums[o + 1]!, sz = this.sums[o + 2]!;
      out.key[3 * i] = keys[3 * s]!;
      out.key[3 * i + 1] = keys[3 * s + 1]!;
      out.key[3 * i + 2] = keys[3 * s + 2]!;
      out.n[i] = c;
      out.centroid[3 * i] = keys[3 * s]! * cs + h + sx / c;
      out.centroid[3 * i + 1] = keys[3 * s + 1]! * cs + h + sy / c;
      out.centroid[3 * i + 2] = keys[3 * s + 2]! * cs + h + sz / c;
      // Scatter about the centroid: Σddᵀ − (Σd)(Σd)ᵀ / n; clamp rounding below zero on the diagonal.
      const w = 6 * i;
      out.scatter[w] = Math.max(0, this.sums[o + 3]! - (sx * sx) / c);
      out.scatter[w + 1] = this.sums[o + 4]! - (sx * sy) / c;
      out.scatter[w + 2] = this.sums[o + 5]! - (sx * sz) / c;
      out.scatter[w + 3] = Math.max(0, this.sums[o + 6]! - (sy * sy) / c);
      out.scatter[w + 4] = this.sums[o + 7]! - (sy * sz) / c;
      out.scatter[w + 5] = Math.max(0, this.sums[o + 8]! - (sz * sz) / c);
    }
    return out;
  }

  private find(ix: number, iy: number, iz: number): number {
    const mask = this.cap - 1;
    let slot = (Math.imul(ix, 73856093) ^ Math.imul(iy, 19349663) ^ Math.imul(iz, 83492791)) & mask;
    const keys = this.keys, counts = this.counts;
    for (;;) {
      if (counts[slot] === EMPTY) return slot;
      if (keys[3 * slot] === ix && keys[3 * slot + 1] === iy && keys[3 * slot + 2] === iz) return slot;
      slot = (slot + 1) & mask;
    }
  }

  private grow(): void {
    const oldCap = this.cap, oldKeys = this.keys, oldCounts = this.counts, oldSums = this.sums;
    this.cap *= 2;
    this.keys = new Int32Array(3 * this.cap);
    this.counts = new Uint32Array(this.cap);
    this.sums = new Float32Array(9 * this.cap);
    for (let s = 0; s < oldCap; s++) {
      if (oldCounts[s] === EMPTY) continue;
      const slot = this.find(oldKeys[3 * s]!, oldKeys[3 * s + 1]!, oldKeys[3 * s + 2]!);
      this.keys[3 * slot] = oldKeys[3 * s]!;
      this.keys[3 * slot + 1] = oldKeys[3 * s + 1]!;
      this.keys[3 * slot + 2] = oldKeys[3 * s + 2]!;
      this.counts[slot] = oldCounts[s]!;
      this.sums.set(oldSums.subarray(9 * s, 9 * s + 9), 9 * slot);
    }
  }
}

/**
 * Moments of a set of cells: raw count, mean and scatter, summed exactly (parallel-axis rule)
 * relative to a reference point so far-from-origin coordinates keep their precision.
 * acc: [n, Σx, Σy, Σz, Sxx, Sxy, Sxz, Syy, Syz, Szz] with x relative to (rx, ry, rz).
 */
export function addCellMoments(cloud: CellCloud, cell: number, rx: number, ry: number, rz: number, acc: Float64Array): void {
  const c = cloud.n[cell]!;
  const x = cloud.centroid[3 * cell]! - rx, y = cloud.centroid[3 * cell + 1]! - ry, z = cloud.centroid[3 * cell + 2]! - rz;
  const s = cloud.scatter, o = 6 * cell;
  acc[0] = acc[0]! + c;
  acc[1] = acc[1]! + c * x;
  acc[2] = acc[2]! + c * y;
  acc[3] = acc[3]! + c * z;
  acc[4] = acc[4]! + s[o]! + c * x * x;
  acc[5] = acc[5]! + s[o + 1]! + c * x * y;
  acc[6] = acc[6]! + s[o + 2]! + c * x * z;
  acc[7] = acc[7]! + s[o + 3]! + c * y * y;
  acc[8] = acc[8]! + s[o + 4]! + c * y * z;
  acc[9] = acc[9]! + s[o + 5]! + c * z * z;
}

/**
 * Mean (absolute) and covariance from accumulated moments: `unbiased` divides the scatter by
 * n − 1 (the ellipsoids of 001/004), else by n (the ML voxel Gaussians of 000).
 * Writes mean to meanOut[mo..mo+2] and (xx, xy, xz, yy, yz, zz) to covOut[co..co+5].
 */
export function momentsToGaussian(
  acc: Float64Array, rx: number, ry: number, rz: number, unbiased: boolean,
  meanOut: Float64Array, mo: number, covOut: Float64Array, co: number,
): void {
  const n = acc[0]!;
  const mx = acc[1]! / n, my = acc[2]! / n, mz = acc[3]! / n;
  meanOut[mo] = mx + rx;
  meanOut[mo + 1] = my + ry;
  meanOut[mo + 2] = mz + rz;
  const d = unbiased ? Math.max(1, n - 1) : n;
  covOut[co] = Math.max(0, acc[4]! - n * mx * mx) / d;
  covOut[co + 1] = (acc[5]! - n * mx * my) / d;
  covOut[co + 2] = (acc[6]! - n * mx * mz) / d;
  covOut[co + 3] = Math.max(0, acc[7]! - n * my * my) / d;
  covOut[co + 4] = (acc[8]! - n * my * mz) / d;
  covOut[co + 5] = Math.max(0, acc[9]! - n * mz * mz) / d;
}
