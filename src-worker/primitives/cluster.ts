/**
 * Euclidean clustering (the automatic segmentation of non-ground points, docs/methods.md §3): two
 * points are in one cluster when a chain of points links them with every step ≤ `tolerance`.
 *
 * Grid-hashed, with union-find over cells: cells have side tolerance/√3, so any two points of
 * one cell are within the tolerance (the cell's diagonal) and a cell is joined whole; two cells
 * that could hold a linked pair (box distance < tolerance, up to two cells apart) are joined
 * when some pair of their points is — tested only while the two are still apart, and stopping
 * at the first pair. Costs about one pass over each cell's neighbourhood, not a search per point.
 *
 * Deterministic: clusters are listed by their smallest point index, each cluster's indices
 * ascending.
 */

export interface ClusterOptions {
  /** Largest link distance (m); default 0.5. */
  tolerance?: number;
  /** Clusters with fewer points are dropped; default 10. */
  minPoints?: number;
}

export interface Clustering {
  /** Point indices per cluster (ascending), clusters ordered by their first index. */
  clusters: Uint32Array[];
  /** Points in clusters below minPoints (dropped). */
  smallPoints: number;
}

/**
 * Clusters the points `subset` (indices into `positions`, 3 numbers per point) — all points when
 * subset is omitted.
 */
export function euclideanClusters(positions: ArrayLike<number>, subset?: ArrayLike<number>, opts: ClusterOptions = {}): Clustering {
  const tol = opts.tolerance ?? 0.5;
  const minPoints = opts.minPoints ?? 10;
  if (!(tol > 0)) throw new Error(`clustering: tolerance ${tol} must be > 0`);
  const n = subset ? subset.length : Math.floor(positions.length / 3);
  const idx = (k: number) => (subset ? subset[k]! : k);
  const side = tol / Math.sqrt(3);
  const tol2 = tol * tol;

  // Cells: sort the points by cell key, so each cell is a run [cellStart[c], cellStart[c + 1]).
  const ci = new Int32Array(3 * n);
  for (let k = 0; k < n; k++) {
    const p = idx(k);
    ci[3 * k] = Math.floor(positions[3 * p]! / side);
    ci[3 * k + 1] = Math.floor(positions[3 * p + 1]! / side);
    ci[3 * k + 2] = Math.floor(positions[3 * p + 2]! / side);
  }
  const order = new Uint32Array(n);
  for (let k = 0; k < n; k++) order[k] = k;
  order.sort((a, b) => ci[3 * a]! - ci[3 * b]! || ci[3 * a + 1]! - ci[3 * b + 1]! || ci[3 * a + 2]! - ci[3 * b + 2]! || a - b);
  // Numeric cell keys over the cells' bounding range (exact below 2^53).
  let lo0 = Infinity, lo1 = Infinity, lo2 = Infinity, hi0 = -Infinity, hi1 = -Infinity, hi2 = -Infinity;
  for (let k = 0; k < n; k++) {
    lo0 = Math.min(lo0, ci[3 * k]!); hi0 = Math.max(hi0, ci[3 * k]!);
    lo1 = Math.min(lo1, ci[3 * k + 1]!); hi1 = Math.max(hi1, ci[3 * k + 1]!);
    lo2 = Math.min(lo2, ci[3 * k + 2]!); hi2 = Math.max(hi2, ci[3 * k + 2]!);
  }
  // Two cells of margin on each side: neighbour keys never wrap into another row.
  const sy = hi1 - lo1 + 5, sz = hi2 - lo2 + 5;
  if (n > 0 && (hi0 - lo0 + 5) * sy * sz > 2 ** 52) throw new Error(`clustering: the points span too many ${side.toFixed(3)} m cells for the tolerance ${tol} m (split the cloud)`);
  const key = (x: number, y: number, z: number) => ((x - lo0 + 2) * sy + (y - lo1 + 2)) * sz + (z - lo2 + 2);
  const cellStart: number[] = [];
  const cellOf = new Int32Array(n);
  const byKey = new Map<number, number>();
  for (let m = 0; m < n; m++) {
    const k = order[m]!;
    const prev = m > 0 ? order[m - 1]! : -1;
    const same = prev >= 0 && ci[3 * k] === ci[3 * prev] && ci[3 * k + 1] === ci[3 * prev + 1] && ci[3 * k + 2] === ci[3 * prev + 2];
    if (!same) {
      byKey.set(key(ci[3 * k]!, ci[3 * k + 1]!, ci[3 * k + 2]!), cellStart.length);
      cellStart.push(m);
    }
    cellOf[k] = cellStart.length - 1;
  }
  const C = cellStart.length;
  cellStart.push(n);

  // Union-find over cells.
  const parent = new Int32Array(C);
  for (let c = 0; c < C; c++) parent[c] = c;
  const find = (c: number): number => {
    while (parent[c] !== c) {
      parent[c] = parent[parent[c]!]!;
      c = parent[c]!;
    }
    return c;
  };

  // Neighbour offsets whose cells can hold points within tol: box gap < tol (half the 5³ block, by symmetry).
  const offsets: [number, number, number][] = [];
  for (let dx = -2; dx <= 2; dx++) {
    for (let dy = -2; dy <= 2; dy++) {
      for (let dz = -2; dz <= 2; dz++) {
        const g = (d: number) => Math.max(0, Math.abs(d) - 1) * side;
        if (g(dx) ** 2 + g(dy) ** 2 + g(dz) ** 2 >= tol2) continue;
        if (dx > 0 || (dx === 0 && (dy > 0 || (dy === 0 && dz > 0)))) offsets.push([dx, dy, dz]);
      }
    }
  }

  const pointAt = (m: number) => idx(order[m]!);
  for (let c = 0; c < C; c++) {
    const k0 = order[cellStart[c]!]!;
    const cx = ci[3 * k0]!, cy = ci[3 * k0 + 1]!, cz = ci[3 * k0 + 2]!;
    for (const [dx, dy, dz] of offsets) {
      const d = byKey.get(key(cx + dx, cy + dy, cz + dz));
      if (d === undefined) continue;
      const ra = find(c), rb = find(d);
      if (ra === rb) continue;
      if (linked(positions, pointAt, cellStart[c]!, cellStart[c + 1]!, cellStart[d]!, cellStart[d + 1]!, tol2)) {
        parent[Math.max(ra, rb)] = Math.min(ra, rb);
      }
    }
  }

  // Group points by root, then order clusters by their smallest original index.
  const members = new Map<number, number[]>();
  for (let k = 0; k < n; k++) {
    const r = find(cellOf[k]!);
    let list = members.get(r);
    if (!list) members.set(r, (list = []));
    list.push(idx(k));
  }
  const clusters: Uint32Array[] = [];
  let smallPoints = 0;
  for (const list of members.values()) {
    if (list.length < minPoints) {
      smallPoints += list.length;
      continue;
    }
    clusters.push(Uint32Array.from(list).sort());
  }
  clusters.sort((a, b) => a[0]! - b[0]!);
  return { clusters, smallPoints };
}

/** Whether some point of run A is within √tol2 of some point of run B (stops at the first pair). */
function linked(pos: ArrayLike<number>, pointAt: (m: number) => number, a0: number, a1: number, b0: number, b1: number, tol2: number): boolean {
  for (let i = a0; i < a1; i++) {
    const p = pointAt(i);
    const x = pos[3 * p]!, y = pos[3 * p + 1]!, z = pos[3 * p + 2]!;
    for (let j = b0; j < b1; j++) {
      const q = pointAt(j);
      const dx = pos[3 * q]! - x, dy = pos[3 * q + 1]! - y, dz = pos[3 * q + 2]! - z;
      if (dx * dx + dy * dy + dz * dz <= tol2) return true;
    }
  }
  return false;
}
