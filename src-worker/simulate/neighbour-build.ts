/**
 * Building the neighbour index (neighbour-index.ts) from a training log, chunk by chunk, so a
 * long log is never held whole: add() keeps only the world hit points (and their intensity and
 * ground truth); finish() sorts them into the grid.
 *
 *   const b = new NeighbourIndexBuilder({ cell: neighbourCellFor(radius) });
 *   for (const chunk of store.logs.chunks(id)) b.add(chunk);
 *   const index = b.finish();            // NeighbourIndexData; toShared() it for the workers
 *
 * Deterministic: the hits are sorted by cell with a stable counting sort in log order, and the
 * hash table's layout depends only on the cells inserted in that order.
 */
import { type PacketChunk, POSE_STRIDE } from '../../src-common/packets';
import { cellHash, type NeighbourIndexData } from './neighbour-index';

export type NeighbourLogChunk = Pick<PacketChunk, 'packetCount' | 'packetTime' | 'packetPose' | 'rayStart' | 'rayDir' | 'rayRange' | 'rayIntensity' | 'rayObject' | 'rayClass'>;

export interface NeighbourBuildOptions {
  /** Grid cell edge (m); queries need a radius below it. Default neighbourCellFor(0.1). */
  cell?: number;
}

/**
 * The cell for queries of `radius`: just above it. A query examines the hits in a tube of
 * half-width ≈ 1.5 cells around the ray, so the smallest cell the radius allows tests the fewest
 * hits; the block bits keep the extra cells cheap. Measured on the demo's 10 s HDL-32E training
 * log (5.2 M hits, d⊥ < 0.1 m, its own poses): 99.5 k rays/s with 0.101 m cells, 74 k with
 * 0.15 m, 40 k with 0.25 m. At least 2 cm, so a tiny radius does not make a huge grid.
 */
export function neighbourCellFor(radius: number): number {
  return Math.max(0.02, radius * 1.01);
}

export class NeighbourIndexBuilder {
  readonly cell: number;
  private n = 0;
  private xyz = new Float32Array(3 * 65536);
  private inten = new Float32Array(65536);
  private obj = new Uint32Array(65536);
  private cls = new Uint8Array(65536);
  private time = new Float32Array(65536);
  private origin: Float64Array | null = null;
  private t0 = NaN;

  constructor(opts: NeighbourBuildOptions = {}) {
    this.cell = opts.cell ?? neighbourCellFor(0.1);
    if (!(this.cell > 0) || !Number.isFinite(this.cell)) throw new Error(`neighbour index: cell size must be a positive number of metres (got ${this.cell})`);
  }

  get hits(): number {
    return this.n;
  }

  /** Adds the hits of a chunk (rays with a finite range > 0; misses carry nothing to replay). */
  add(c: NeighbourLogChunk): void {
    for (let p = 0; p < c.packetCount; p++) {
      const o = p * POSE_STRIDE;
      const tx = c.packetPose[o]!, ty = c.packetPose[o + 1]!, tz = c.packetPose[o + 2]!;
      const qx = c.packetPose[o + 3]!, qy = c.packetPose[o + 4]!, qz = c.packetPose[o + 5]!, qw = c.packetPose[o + 6]!;
      if (![tx, ty, tz, qx, qy, qz, qw].every(Number.isFinite)) continue; // a packet without a pose places nothing
      if (!this.origin) this.origin = Float64Array.of(tx, ty, tz);
      if (this.t0 !== this.t0) this.t0 = c.packetTime[p]!;
      const time = c.packetTime[p]! - this.t0;
      const ox = this.origin[0]!, oy = this.origin[1]!, oz = this.origin[2]!;
      for (let r = c.rayStart[p]!; r < c.rayStart[p + 1]!; r++) {
        const range = c.rayRange[r]!;
        if (!(range > 0) || range === Infinity) continue;
        const x = range * c.rayDir[3 * r]!, y = range * c.rayDir[3 * r + 1]!, z = range * c.rayDir[3 * r + 2]!;
        // q · v · q* (unit quaternion), written out: t = 2 q×v, v' = v + w t + q×t.
        const ux = 2 * (qy * z - qz * y), uy = 2 * (qz * x - qx * z), uz = 2 * (qx * y - qy * x);
        const wx = x + qw * ux + (qy * uz - qz * uy) + tx - ox;
        const wy = y + qw * uy + (qz * ux - qx * uz) + ty - oy;
        const wz = z + qw * uz + (qx * uy - qy * ux) + tz - oz;
        this.push(wx, wy, wz, c.rayIntensity[r]!, c.rayObject[r]!, c.rayClass[r]!, time);
      }
    }
  }

  private push(x: number, y: number, z: number, intensity: number, object: number, cls: number, time: number): void {
    if (this.n === this.inten.length) {
      this.xyz = grow(this.xyz);
      this.inten = grow(this.inten);
      this.obj = grow(this.obj);
      this.cls = grow(this.cls);
      this.time = grow(this.time);
    }
    this.time[this.n] = time;
    const i = this.n++;
    this.xyz[3 * i] = x; this.xyz[3 * i + 1] = y; this.xyz[3 * i + 2] = z;
    this.inten[i] = intensity;
    this.obj[i] = object;
    this.cls[i] = cls;
  }

  /** The index; the builder must not be used afterwards. */
  finish(): NeighbourIndexData {
    const n = this.n, c = this.cell, P = this.xyz;
    const bounds = Float64Array.of(Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity);
    for (let i = 0; i < n; i++) {
      for (let a = 0; a < 3; a++) {
        const v = P[3 * i + a]!;
        if (v < bounds[a]!) bounds[a] = v;
        if (v > bounds[3 + a]!) bounds[3 + a] = v;
      }
    }
    if (n === 0) bounds.fill(0);
    // Two empty cells of margin on each side: DDA cells stay in 1 … n−2 and their neighbours in range.
    const grid = Float64Array.of(bounds[0]! - 2 * c, bounds[1]! - 2 * c, bounds[2]! - 2 * c);
    const dims = Int32Array.from([0, 1, 2], (a) => Math.floor((bounds[3 + a]! - grid[a]!) / c) + 3);
    if (dims[0]! * dims[1]! * dims[2]! > Number.MAX_SAFE_INTEGER) throw new Error('neighbour index: the log spans too many cells for this cell size');
    const nx = dims[0]!, nxy = dims[0]! * dims[1]!;

    // Pass 1: cell ordinal per hit (cells numbered in order of first appearance), growing the table.
    let cap = 1 << 12;
    let slotKey = new Float64Array(cap).fill(-1);
    let slotCell = new Int32Array(cap);
    let counts = new Uint32Array(1024);
    let coords = new Int32Array(3 * 1024);
    let cells = 0;
    const cellOf = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      const ix = Math.floor((P[3 * i]! - grid[0]!) / c), iy = Math.floor((P[3 * i + 1]! - grid[1]!) / c), iz = Math.floor((P[3 * i + 2]! - grid[2]!) / c);
      const key = ix + nx * iy + nxy * iz;
      let s = cellHash(ix, iy, iz) & (cap - 1);
      while (slotKey[s] !== key && slotKey[s] !== -1) s = (s + 1) & (cap - 1);
      if (slotKey[s] === -1) {
        slotKey[s] = key;
        slotCell[s] = cells;
        if (cells === counts.length) {
          counts = grow(counts);
          coords = grow(coords);
        }
        coords[3 * cells] = ix; coords[3 * cells + 1] = iy; coords[3 * cells + 2] = iz;
        cells++;
        if (2 * cells > cap) {
          // Rehash at load 1/2 (linear probing stays short).
          cap *= 2;
          const keys = new Float64Array(cap).fill(-1), ids = new Int32Array(cap);
          for (let k = 0; k < cells; k++) {
            const cx = coords[3 * k]!, cy = coords[3 * k + 1]!, cz = coords[3 * k + 2]!;
            let t = cellHash(cx, cy, cz) & (cap - 1);
            while (keys[t] !== -1) t = (t + 1) & (cap - 1);
            keys[t] = cx + nx * cy + nxy * cz;
            ids[t] = k;
          }
          slotKey = keys;
          slotCell = ids;
          s = -1;
        }
      }
      const id = s >= 0 ? slotCell[s]! : cells - 1;
      cellOf[i] = id;
      counts[id]!++;
    }
    // Pass 2: stable counting sort of the hits by cell.
    const cellStart = new Uint32Array(cells + 1);
    for (let k = 0; k < cells; k++) cellStart[k + 1] = cellStart[k]! + counts[k]!;
    const fill = cellStart.slice(0, Math.max(1, cells));
    const points = new Float32Array(3 * n), intensity = new Float32Array(n), object = new Uint32Array(n), cls = new Uint8Array(n), time = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      const j = fill[cellOf[i]!]!++;
      points[3 * j] = P[3 * i]!; points[3 * j + 1] = P[3 * i + 1]!; points[3 * j + 2] = P[3 * i + 2]!;
      intensity[j] = this.inten[i]!;
      object[j] = this.obj[i]!;
      cls[j] = this.cls[i]!;
      time[j] = this.time[i]!;
    }
    const blocks = blockBits(coords, cells, dims);
    return {
      origin: this.origin ?? new Float64Array(3),
      cell: c,
      grid,
      dims,
      bounds,
      points,
      intensity,
      object,
      cls,
      time,
      cellStart,
      slotKey,
      slotCell,
      ...blocks,
    };
  }
}

/** Blocks at most this many (a bit each: 8 MiB): a huge log's blocks grow instead. */
const MAX_BLOCKS = 1 << 26;

/**
 * Marks every block holding a cell within one cell of an occupied one (neighbour-index.ts's
 * empty-space skipping). Blocks are 4 cells a side, or larger where the grid would need more
 * than MAX_BLOCKS of them.
 */
function blockBits(coords: Int32Array, cells: number, dims: Int32Array): { blockShift: number; blockDims: Int32Array; blockBits: Uint32Array } {
  let shift = 2;
  const count = (s: number) => [0, 1, 2].reduce((a, k) => a * ((dims[k]! >> s) + 1), 1);
  while (count(shift) > MAX_BLOCKS) shift++;
  const blockDims = Int32Array.from([0, 1, 2], (k) => (dims[k]! >> shift) + 1);
  const bits = new Uint32Array(Math.ceil(count(shift) / 32));
  const bx = blockDims[0]!, bxy = blockDims[0]! * blockDims[1]!;
  for (let k = 0; k < cells; k++) {
    const ix = coords[3 * k]!, iy = coords[3 * k + 1]!, iz = coords[3 * k + 2]!;
    for (let z = (iz - 1) >> shift; z <= (iz + 1) >> shift; z++) {
      for (let y = (iy - 1) >> shift; y <= (iy + 1) >> shift; y++) {
        for (let x = (ix - 1) >> shift; x <= (ix + 1) >> shift; x++) {
          const b = x + bx * y + bxy * z;
          bits[b >>> 5] = bits[b >>> 5]! | (1 << (b & 31));
        }
      }
    }
  }
  return { blockShift: shift, blockDims, blockBits: bits };
}

/** A typed array twice as long with the same start. */
function grow<T extends Float32Array | Uint32Array | Int32Array | Uint8Array>(a: T): T {
  const b = new (a.constructor as new (n: number) => T)(a.length * 2);
  b.set(a);
  return b;
}

/** An index over the hits of the given chunks. */
export function buildNeighbourIndex(chunks: Iterable<NeighbourLogChunk>, opts: NeighbourBuildOptions = {}): NeighbourIndexData {
  const b = new NeighbourIndexBuilder(opts);
  for (const c of chunks) b.add(c);
  return b.finish();
}
