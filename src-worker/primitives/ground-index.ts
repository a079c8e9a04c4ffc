/**
 * The ground surface as a height function z(x, y): ground triangles (a fitted model's
 * groundPositions, or a heightfield's mesh) binned into a uniform x-y grid. What tells a
 * non-ground point from a ground one (height above the surface), which voxel Gaussians belong to
 * the ground, and where a patch cell stands.
 *
 *   const g = new GroundIndex(model.groundPositions);
 *   g.heightAt(x, y)          // NaN where no triangle covers (x, y)
 *   g.triangleAt(x, y)        // index of the covering triangle (the highest), −1 if none
 *
 * Triangles are binned into every cell their x-y bounding box overlaps (CSR lists), so a query
 * tests only the few triangles of one cell. Where triangles overlap in x-y (a mesh that is not a
 * height field) the highest wins: points under a overhang are then "below ground", never above.
 */

const MAX_CELLS = 4_000_000;

export class GroundIndex {
  readonly count: number;
  private readonly pos: Float32Array;
  private readonly x0: number;
  private readonly y0: number;
  private readonly cell: number;
  private readonly nx: number;
  private readonly ny: number;
  /** CSR: triangles of cell k are ids[start[k] .. start[k + 1]). */
  private readonly start: Int32Array;
  private readonly ids: Int32Array;
  /** Index of the triangle found by the last heightAt. */
  lastTriangle = -1;

  /** @param positions 9 floats per triangle (world frame); @param cell grid cell (m), grown for huge areas. */
  constructor(positions: Float32Array, cell = 2) {
    if (positions.length % 9 !== 0) throw new Error(`ground index: ${positions.length} position values are not 9 per triangle`);
    if (!(cell > 0)) throw new Error(`ground index: cell size ${cell} must be > 0`);
    this.pos = positions;
    const n = (this.count = positions.length / 9);
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (let t = 0; t < n; t++) {
      for (let v = 0; v < 3; v++) {
        const x = positions[9 * t + 3 * v]!, y = positions[9 * t + 3 * v + 1]!;
        if (x < minX) minX = x; if (x > maxX) maxX = x;
        if (y < minY) minY = y; if (y > maxY) maxY = y;
      }
    }
    if (n === 0 || !Number.isFinite(minX + minY + maxX + maxY)) {
      minX = minY = 0; maxX = maxY = 0;
    }
    // Grow the cell until the grid stays under MAX_CELLS (a long log's ground, kilometres across).
    let c = cell;
    while (((maxX - minX) / c + 1) * ((maxY - minY) / c + 1) > MAX_CELLS) c *= 2;
    this.cell = c;
    this.x0 = minX;
    this.y0 = minY;
    this.nx = Math.floor((maxX - minX) / c) + 1;
    this.ny = Math.floor((maxY - minY) / c) + 1;
    const cells = this.nx * this.ny;
    const counts = new Int32Array(cells + 1);
    this.forCells(n, (_t, k) => { counts[k + 1]!++; });
    for (let k = 0; k < cells; k++) counts[k + 1]! += counts[k]!;
    this.start = counts;
    this.ids = new Int32Array(counts[cells]!);
    const fill = counts.slice(0, cells);
    this.forCells(n, (t, k) => { this.ids[fill[k]!++] = t; });
  }

  private forCells(n: number, f: (t: number, k: number) => void): void {
    const p = this.pos;
    for (let t = 0; t < n; t++) {
      const o = 9 * t;
      const lx = Math.min(p[o]!, p[o + 3]!, p[o + 6]!), hx = Math.max(p[o]!, p[o + 3]!, p[o + 6]!);
      const ly = Math.min(p[o + 1]!, p[o + 4]!, p[o + 7]!), hy = Math.max(p[o + 1]!, p[o + 4]!, p[o + 7]!);
      if (!Number.isFinite(lx + hx + ly + hy)) continue;
      const i0 = this.ix(lx), i1 = this.ix(hx), j0 = this.iy(ly), j1 = this.iy(hy);
      for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) f(t, j * this.nx + i);
    }
  }

  private ix(x: number): number {
    return Math.min(this.nx - 1, Math.max(0, Math.floor((x - this.x0) / this.cell)));
  }

  private iy(y: number): number {
    return Math.min(this.ny - 1, Math.max(0, Math.floor((y - this.y0) / this.cell)));
  }

  /** Height of the ground at (x, y); NaN where no triangle covers it. Sets lastTriangle. */
  heightAt(x: number, y: number): number {
    this.lastTriangle = -1;
    if (this.count === 0) return NaN;
    const fx = (x - this.x0) / this.cell, fy = (y - this.y0) / this.cell;
    if (!(fx >= 0 && fy >= 0 && fx < this.nx && fy < this.ny)) return NaN;
    const k = Math.floor(fy) * this.nx + Math.floor(fx);
    const p = this.pos;
    let best = NaN;
    for (let m = this.start[k]!; m < this.start[k + 1]!; m++) {
      const t = this.ids[m]!, o = 9 * t;
      const ax = p[o]!, ay = p[o + 1]!, bx = p[o + 3]!, by = p[o + 4]!, cx = p[o + 6]!, cy = p[o + 7]!;
      const det = (by - cy) * (ax - cx) + (cx - bx) * (ay - cy);
      if (det === 0) continue;
      const l0 = ((by - cy) * (x - cx) + (cx - bx) * (y - cy)) / det;
      const l1 = ((cy - ay) * (x - cx) + (ax - cx) * (y - cy)) / det;
      const l2 = 1 - l0 - l1;
      // A hair of tolerance: a point exactly on a shared edge belongs to one of its triangles.
      const eps = -1e-9;
      if (l0 < eps || l1 < eps || l2 < eps) continue;
      const z = l0 * p[o + 2]! + l1 * p[o + 5]! + l2 * p[o + 8]!;
      if (!(z <= best)) {
        best = z;
        this.lastTriangle = t;
      }
    }
    return best;
  }

  /** Index of the triangle under (x, y) (the highest), −1 if none. */
  triangleAt(x: number, y: number): number {
    this.heightAt(x, y);
    return this.lastTriangle;
  }

  /** Unit upward normal of triangle t, written to out[0..2]. */
  normal(t: number, out: Float64Array): void {
    const p = this.pos, o = 9 * t;
    const ux = p[o + 3]! - p[o]!, uy = p[o + 4]! - p[o + 1]!, uz = p[o + 5]! - p[o + 2]!;
    const vx = p[o + 6]! - p[o]!, vy = p[o + 7]! - p[o + 1]!, vz = p[o + 8]! - p[o + 2]!;
    let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    if (nz < 0) { nx = -nx; ny = -ny; nz = -nz; }
    const len = Math.hypot(nx, ny, nz) || 1;
    out[0] = nx / len; out[1] = ny / len; out[2] = nz / len;
  }
}

/** A regular grid of heights: z[j * nx + i] at (x0 + i·cell, y0 + j·cell). */
export interface HeightGrid {
  x0: number;
  y0: number;
  cell: number;
  nx: number;
  ny: number;
  z: ArrayLike<number>;
}

/** Two triangles per grid square (9 floats each), counter-clockwise seen from above. */
export function heightGridTriangles(g: HeightGrid): Float32Array {
  if (!(g.nx >= 2 && g.ny >= 2 && g.cell > 0)) throw new Error(`height grid: ${g.nx} × ${g.ny} nodes at ${g.cell} m (needs at least 2 × 2 and a cell > 0)`);
  if (g.z.length !== g.nx * g.ny) throw new Error(`height grid: ${g.z.length} heights for ${g.nx} × ${g.ny} nodes`);
  const out = new Float32Array(18 * (g.nx - 1) * (g.ny - 1));
  let w = 0;
  const v = (i: number, j: number) => {
    out[w++] = g.x0 + i * g.cell;
    out[w++] = g.y0 + j * g.cell;
    out[w++] = g.z[j * g.nx + i]!;
  };
  for (let j = 0; j + 1 < g.ny; j++) {
    for (let i = 0; i + 1 < g.nx; i++) {
      v(i, j); v(i + 1, j); v(i + 1, j + 1);
      v(i, j); v(i + 1, j + 1); v(i, j + 1);
    }
  }
  return out;
}

/** A height function sampled on a grid over [x0, x1] × [y0, y1] every `cell` metres (both ends included). */
export function heightFunctionGrid(height: (x: number, y: number) => number, bounds: { x0: number; y0: number; x1: number; y1: number }, cell: number): HeightGrid {
  if (!(cell > 0)) throw new Error(`heightfield: cell size ${cell} must be > 0`);
  if (!(bounds.x1 > bounds.x0 && bounds.y1 > bounds.y0)) throw new Error(`heightfield: empty bounds ${JSON.stringify(bounds)}`);
  const nx = Math.ceil((bounds.x1 - bounds.x0) / cell) + 1, ny = Math.ceil((bounds.y1 - bounds.y0) / cell) + 1;
  const z = new Float64Array(nx * ny);
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      const h = height(bounds.x0 + i * cell, bounds.y0 + j * cell);
      if (!Number.isFinite(h)) throw new Error(`heightfield: height at (${bounds.x0 + i * cell}, ${bounds.y0 + j * cell}) is not finite`);
      z[j * nx + i] = h;
    }
  }
  return { x0: bounds.x0, y0: bounds.y0, cell, nx, ny, z };
}
