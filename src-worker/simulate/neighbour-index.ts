/**
 * The neighbour simulator's spatial index (thesis 004 §4.3.2 "Neighbor simulator"): the world
 * hit points of a training log in a sparse uniform grid, queried by rays.
 *
 * Query: among the hits whose perpendicular distance to the ray is below `radius`, the one with
 * the smallest along-ray distance t (the projection on the ray) in [tmin, tmax]; ties go to the
 * lower point index, so the answer is a function of the index alone (brute force agrees exactly).
 *
 * Layout — one plain object of typed arrays, so toShared() puts it in shared memory once and
 * every worker reads the same bytes (as scenes do):
 *   points     x, y, z per hit as float32 relative to `origin` (a world point near the data:
 *              float32 keeps ≈ 0.1 mm over kilometres, where world coordinates would not)
 *   intensity, object, cls   per hit, in the same (cell-sorted) order
 *   cellStart  first point of each occupied cell (+ a final end), points sorted by cell
 *   slotKey / slotCell       open-addressing hash of the occupied cells: linear cell key
 *              (−1 = empty slot) → cell ordinal; linear probing
 *   blockBits  one bit per block of 2^blockShift cells a side: set when some cell of the block has
 *              an occupied cell within one cell of it (empty-space skipping, below)
 *
 * Why the query is exact: a hit p with perpendicular distance < radius ≤ cell has its foot
 * q = o + t_p·d within one cell of it in every axis. A 3-D DDA walks the cells the ray crosses in
 * order of entry t; visiting each crossed cell's 3×3×3 neighbourhood therefore examines p no later
 * than the step that enters q's cell, whose entry t is ≤ t_p. So once the best t found is below the
 * next cell's entry t, no unexamined hit can beat it, and the walk stops. The DDA moves one axis
 * per step and each axis monotonically, so each step adds exactly the 9-cell face of the new
 * neighbourhood in the stepping direction: every cell is looked up once. A step whose cell lies
 * in an unmarked block skips its lookups: no cell next to it holds a hit. That keeps the cost of
 * a ray crossing empty air (the sky, the gap above the ground) to a few nanoseconds a cell.
 */

export interface NeighbourIndexData {
  /** World point the stored coordinates are relative to. */
  origin: Float64Array;
  /** Cell edge (m); > every query radius. */
  cell: number;
  /** Grid corner in relative coordinates and cells per axis (hits lie in cells 2 … n−3). */
  grid: Float64Array;
  dims: Int32Array;
  /** Bounding box of the hits in relative coordinates: min xyz, max xyz. */
  bounds: Float64Array;
  points: Float32Array;
  intensity: Float32Array;
  object: Uint32Array;
  cls: Uint8Array;
  /** Seconds from the log's first packet to the hit's packet (the leave-out window's clock). */
  time: Float32Array;
  cellStart: Uint32Array;
  slotKey: Float64Array;
  slotCell: Int32Array;
  /** Cells per block edge = 2^blockShift; blocks per axis; the blocks' bits (x fastest). */
  blockShift: number;
  blockDims: Int32Array;
  blockBits: Uint32Array;
}

/** The hash of a cell's integer coordinates (the table size is a power of two). */
export function cellHash(ix: number, iy: number, iz: number): number {
  return (Math.imul(ix, 0x8da6b343) ^ Math.imul(iy, 0xd8163841) ^ Math.imul(iz, 0xcb1ab31f)) >>> 0;
}

export function hitCount(data: NeighbourIndexData): number {
  return data.intensity.length;
}

/** The largest radius a query on this index may use (strictly below the cell edge; see above). */
export function maxQueryRadius(data: NeighbourIndexData): number {
  return data.cell / 1.0001;
}

/** Ray queries on an index; holds the last result. One per worker (it keeps scratch state). */
export class NeighbourQuery {
  /** Last query: the hit's index (−1: none) and its along-ray distance. */
  index = -1;
  t = Infinity;
  /** Hash lookups and points tested by the last query (for benchmarks). */
  cellsVisited = 0;
  pointsTested = 0;

  private ox = 0;
  private oy = 0;
  private oz = 0;
  private dx = 0;
  private dy = 0;
  private dz = 1;
  private tmin = 0;
  private tmax = 0;
  private r2 = 0;
  /**
   * Hits logged in [leaveOutFrom, leaveOutTo] (s) are not candidates (empty by default). Set it
   * per ray to replay a log along its own poses without copying the ray's own return: the
   * neighbour simulator then answers from what the log saw at other times.
   */
  leaveOutFrom = Infinity;
  leaveOutTo = -Infinity;
  private readonly mask: number;
  private readonly nx: number;
  private readonly nxy: number;
  // Per-query scratch (the query allocates nothing).
  private readonly so = new Float64Array(3);
  private readonly sd = new Float64Array(3);
  private readonly sCell = new Int32Array(3);
  private readonly sStep = new Int32Array(3);
  private readonly sNext = new Float64Array(3);
  private readonly sDelta = new Float64Array(3);
  private readonly shift: number;
  private readonly bx: number;
  private readonly bxy: number;

  constructor(readonly data: NeighbourIndexData) {
    this.mask = data.slotKey.length - 1;
    this.nx = data.dims[0]!;
    this.nxy = data.dims[0]! * data.dims[1]!;
    this.shift = data.blockShift;
    this.bx = data.blockDims[0]!;
    this.bxy = data.blockDims[0]! * data.blockDims[1]!;
  }

  /** Whether cell (ix, iy, iz) may have a hit within one cell (its block is marked). */
  private near(ix: number, iy: number, iz: number): boolean {
    const s = this.shift;
    const b = (ix >> s) + this.bx * (iy >> s) + this.bxy * (iz >> s);
    return (this.data.blockBits[b >>> 5]! & (1 << (b & 31))) !== 0;
  }

  /**
   * The hit with the smallest along-ray distance t ∈ [tmin, tmax] among those closer than
   * `radius` to the ray (world origin o, unit direction d). Returns its index or −1; `t` holds
   * its along-ray distance.
   */
  nearestAlongRay(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number, radius: number): number {
    const D = this.data;
    this.index = -1;
    this.t = Infinity;
    this.cellsVisited = 0;
    this.pointsTested = 0;
    if (!(radius > 0) || !(tmax >= tmin) || D.intensity.length === 0) return -1;
    if (radius > maxQueryRadius(D)) throw new Error(`neighbour index: radius ${radius} m must be below the index's cell (${D.cell} m)`);
    const c = D.cell;
    // Relative coordinates.
    ox -= D.origin[0]!; oy -= D.origin[1]!; oz -= D.origin[2]!;
    this.ox = ox; this.oy = oy; this.oz = oz;
    this.dx = dx; this.dy = dy; this.dz = dz;
    this.tmin = tmin; this.tmax = tmax; this.r2 = radius * radius;
    // Clip to the hits' box grown by a cell: the feet of qualifying hits lie inside it.
    const b = D.bounds;
    let t0 = tmin, t1 = tmax;
    const o = this.so, d = this.sd;
    o[0] = ox; o[1] = oy; o[2] = oz;
    d[0] = dx; d[1] = dy; d[2] = dz;
    for (let a = 0; a < 3; a++) {
      const lo = b[a]! - c, hi = b[3 + a]! + c, oa = o[a]!, da = d[a]!;
      if (da === 0) {
        if (oa < lo || oa > hi) return -1;
      } else {
        let ta = (lo - oa) / da, tb = (hi - oa) / da;
        if (ta > tb) { const s = ta; ta = tb; tb = s; }
        if (ta > t0) t0 = ta;
        if (tb < t1) t1 = tb;
      }
    }
    if (t0 > t1) return -1;
    // DDA in cell units from the grid corner.
    const g = D.grid, dims = D.dims;
    const cell = this.sCell, step = this.sStep, tNext = this.sNext, tDelta = this.sDelta;
    for (let a = 0; a < 3; a++) {
      step[a] = 0;
      tNext[a] = Infinity;
      tDelta[a] = Infinity;
      const u = (o[a]! + t0 * d[a]! - g[a]!) / c;
      let i = Math.floor(u);
      if (i < 1) i = 1;
      if (i > dims[a]! - 2) i = dims[a]! - 2;
      cell[a] = i;
      const da = d[a]!;
      if (da > 0) {
        step[a] = 1;
        tDelta[a] = c / da;
        tNext[a] = (g[a]! + (i + 1) * c - o[a]!) / da;
      } else if (da < 0) {
        step[a] = -1;
        tDelta[a] = -c / da;
        tNext[a] = (g[a]! + i * c - o[a]!) / da;
      }
    }
    let ix = cell[0]!, iy = cell[1]!, iz = cell[2]!;
    if (this.near(ix, iy, iz)) for (let k = -1; k <= 1; k++) for (let j = -1; j <= 1; j++) for (let i = -1; i <= 1; i++) this.visit(ix + i, iy + j, iz + k);
    let nx = tNext[0]!, ny = tNext[1]!, nz = tNext[2]!;
    const sx = step[0]!, sy = step[1]!, sz = step[2]!;
    const ddx = tDelta[0]!, ddy = tDelta[1]!, ddz = tDelta[2]!;
    const mx = dims[0]! - 2, my = dims[1]! - 2, mz = dims[2]! - 2;
    for (;;) {
      const tEnter = nx < ny ? (nx < nz ? nx : nz) : ny < nz ? ny : nz;
      if (tEnter > t1 || this.t < tEnter) break;
      if (tEnter === nx) {
        ix += sx;
        nx += ddx;
        if (ix < 1 || ix > mx) break;
        if (!this.near(ix, iy, iz)) continue;
        const fx = ix + sx;
        for (let k = -1; k <= 1; k++) for (let j = -1; j <= 1; j++) this.visit(fx, iy + j, iz + k);
      } else if (tEnter === ny) {
        iy += sy;
        ny += ddy;
        if (iy < 1 || iy > my) break;
        if (!this.near(ix, iy, iz)) continue;
        const fy = iy + sy;
        for (let k = -1; k <= 1; k++) for (let i = -1; i <= 1; i++) this.visit(ix + i, fy, iz + k);
      } else {
        iz += sz;
        nz += ddz;
        if (iz < 1 || iz > mz) break;
        if (!this.near(ix, iy, iz)) continue;
        const fz = iz + sz;
        for (let j = -1; j <= 1; j++) for (let i = -1; i <= 1; i++) this.visit(ix + i, iy + j, fz);
      }
    }
    return this.index;
  }

  private visit(ix: number, iy: number, iz: number): void {
    const D = this.data;
    this.cellsVisited++;
    const key = ix + this.nx * iy + this.nxy * iz;
    const keys = D.slotKey, mask = this.mask;
    let s = cellHash(ix, iy, iz) & mask;
    let k: number;
    while ((k = keys[s]!) !== key) {
      if (k === -1) return;
      s = (s + 1) & mask;
    }
    const cellId = D.slotCell[s]!;
    const end = D.cellStart[cellId + 1]!;
    const P = D.points;
    const { ox, oy, oz, dx, dy, dz, tmin, tmax, r2, leaveOutFrom, leaveOutTo } = this;
    const T = D.time;
    this.pointsTested += end - D.cellStart[cellId]!;
    for (let p = D.cellStart[cellId]!; p < end; p++) {
      const rx = P[3 * p]! - ox, ry = P[3 * p + 1]! - oy, rz = P[3 * p + 2]! - oz;
      const t = rx * dx + ry * dy + rz * dz;
      if (t < tmin || t > tmax || t > this.t) continue;
      const tp = T[p]!;
      if (tp >= leaveOutFrom && tp <= leaveOutTo) continue;
      const perp2 = rx * rx + ry * ry + rz * rz - t * t;
      if (perp2 >= r2) continue;
      if (t < this.t || p < this.index) {
        this.t = t;
        this.index = p;
      }
    }
  }
}

/**
 * The same query by testing every hit (the reference the index is checked against): the same
 * arithmetic on the same stored coordinates, so the answers agree exactly.
 */
export function nearestAlongRayBrute(
  D: NeighbourIndexData, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number,
  tmin: number, tmax: number, radius: number, leaveOut: readonly [number, number] = [Infinity, -Infinity],
): { index: number; t: number } {
  ox -= D.origin[0]!; oy -= D.origin[1]!; oz -= D.origin[2]!;
  const P = D.points, n = D.intensity.length, r2 = radius * radius;
  let best = -1, bestT = Infinity;
  for (let p = 0; p < n; p++) {
    const rx = P[3 * p]! - ox, ry = P[3 * p + 1]! - oy, rz = P[3 * p + 2]! - oz;
    const t = rx * dx + ry * dy + rz * dz;
    if (t < tmin || t > tmax || t > bestT) continue;
    if (D.time[p]! >= leaveOut[0] && D.time[p]! <= leaveOut[1]) continue;
    if (rx * rx + ry * ry + rz * rz - t * t >= r2) continue;
    if (t < bestT || p < best) {
      bestT = t;
      best = p;
    }
  }
  return { index: best, t: bestT };
}

/** World coordinates of hit i. */
export function hitPoint(D: NeighbourIndexData, i: number, out: Float64Array | number[]): void {
  out[0] = D.points[3 * i]! + D.origin[0]!;
  out[1] = D.points[3 * i + 1]! + D.origin[1]!;
  out[2] = D.points[3 * i + 2]! + D.origin[2]!;
}
