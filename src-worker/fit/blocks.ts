/**
 * Block-wise modelling (thesis 004 §4.3.2, "Implementation specifics": the ground and non-ground
 * segments are divided into blocks, each modelled and stored independently): square x-y blocks
 * of side B over the subsampled cloud. A block owns the cells whose centroid lies in it; steps
 * that look at neighbourhoods (φ, the surface regression) also read a margin of the adjacent
 * blocks' cells, so results do not change where block borders fall.
 */
import type { CellCloud } from './cells';

export interface Block {
  /** Block index along x and y (floor(x / B), floor(y / B)). */
  bx: number;
  by: number;
  /** The cells it owns, ascending. */
  cells: Int32Array;
}

export interface BlockPlan {
  size: number;
  /** Sorted by (bx, by). */
  blocks: Block[];
  /** Block (position in `blocks`) of each cell. */
  blockOfCell: Int32Array;
  /** Block position by (bx, by) key. */
  byKey: Map<string, number>;
}

export function planBlocks(cloud: CellCloud, size: number): BlockPlan {
  const lists = new Map<string, { bx: number; by: number; cells: number[] }>();
  for (let c = 0; c < cloud.count; c++) {
    const bx = Math.floor(cloud.centroid[3 * c]! / size), by = Math.floor(cloud.centroid[3 * c + 1]! / size);
    const key = `${bx},${by}`;
    let l = lists.get(key);
    if (!l) {
      l = { bx, by, cells: [] };
      lists.set(key, l);
    }
    l.cells.push(c);
  }
  const sorted = [...lists.values()].sort((a, b) => a.bx - b.bx || a.by - b.by);
  const blockOfCell = new Int32Array(cloud.count);
  const byKey = new Map<string, number>();
  const blocks = sorted.map((l, i) => {
    byKey.set(`${l.bx},${l.by}`, i);
    for (const c of l.cells) blockOfCell[c] = i;
    return { bx: l.bx, by: l.by, cells: Int32Array.from(l.cells) };
  });
  return { size, blocks, blockOfCell, byKey };
}

/**
 * Cells of the blocks around block `b` whose centroid is within `margin` (x-y) of b's square,
 * that pass `keep` — the neighbours a block's own cells may need.
 */
export function marginCells(plan: BlockPlan, cloud: CellCloud, b: number, margin: number, keep: (cell: number) => boolean = () => true): Int32Array {
  const blk = plan.blocks[b]!;
  const S = plan.size;
  const x0 = blk.bx * S, y0 = blk.by * S, x1 = x0 + S, y1 = y0 + S;
  const reach = Math.ceil(margin / S);
  const m2 = margin * margin;
  const out: number[] = [];
  for (let dx = -reach; dx <= reach; dx++) {
    for (let dy = -reach; dy <= reach; dy++) {
      if (dx === 0 && dy === 0) continue;
      const nb = plan.byKey.get(`${blk.bx + dx},${blk.by + dy}`);
      if (nb === undefined) continue;
      for (const c of plan.blocks[nb]!.cells) {
        const x = cloud.centroid[3 * c]!, y = cloud.centroid[3 * c + 1]!;
        const ex = x < x0 ? x0 - x : x > x1 ? x - x1 : 0;
        const ey = y < y0 ? y0 - y : y > y1 ? y - y1 : 0;
        if (ex * ex + ey * ey <= m2 && keep(c)) out.push(c);
      }
    }
  }
  return Int32Array.from(out);
}

/** Centroids of the given cells (3 each), in that order. */
export function centroidsOf(cloud: CellCloud, ...lists: ArrayLike<number>[]): Float64Array {
  let n = 0;
  for (const l of lists) n += l.length;
  const out = new Float64Array(3 * n);
  let k = 0;
  for (const l of lists) {
    for (let i = 0; i < l.length; i++) {
      const c = l[i]!;
      out[3 * k] = cloud.centroid[3 * c]!;
      out[3 * k + 1] = cloud.centroid[3 * c + 1]!;
      out[3 * k + 2] = cloud.centroid[3 * c + 2]!;
      k++;
    }
  }
  return out;
}
