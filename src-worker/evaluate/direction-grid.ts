/**
 * A hash grid over the unit sphere for pairing rays by direction (docs/methods.md §6): cells two
 * tolerance-chords wide, so the 2×2×2 block of cells nearest a direction holds every direction
 * within the tolerance of it. The grid is an open-addressing table in typed arrays, reused from
 * packet to packet; each occupied slot heads a list the caller keeps (its `next` links), so the
 * one grid serves the packet pairer (ray-pairing.ts) and the cross-packet window (window-pairing.ts).
 */
export class DirectionGrid {
  /** The cells of the last cellOf(): per axis the direction's cell and its nearer neighbour, [x, x', y, y', z, z']. */
  readonly probe = new Int32Array(6);
  /** Per slot, the first entry of the caller's list (−1: none); reallocated by reset(). */
  head = new Int32Array(2048);
  private slotX = new Int32Array(2048);
  private slotY = new Int32Array(2048);
  private slotZ = new Int32Array(2048);
  private readonly cell: number;
  private readonly cellsPerAxis: number;

  constructor(toleranceRad: number) {
    // Two chords of the tolerance angle: |a − b| = 2 sin(θ/2) for unit vectors θ apart.
    this.cell = 4 * Math.sin(toleranceRad / 2);
    this.cellsPerAxis = Math.ceil(2 / this.cell) + 2;
  }

  /** Sets `probe` for a direction; false for one that is not a finite unit-ish vector (it never pairs). */
  cellOf(x: number, y: number, z: number): boolean {
    return this.axisCell(x, 0) && this.axisCell(y, 2) && this.axisCell(z, 4);
  }

  /** The slot of the direction's own cell (after cellOf), claimed when absent. */
  ownSlot(): number {
    const p = this.probe;
    return this.slot(p[0]!, p[2]!, p[4]!, true);
  }

  /** The slot of the c-th cell (0…7) of the block around the direction (after cellOf); −1 when empty. */
  blockSlot(c: number): number {
    const p = this.probe;
    return this.slot(p[c & 1]!, p[2 + ((c >> 1) & 1)]!, p[4 + ((c >> 2) & 1)]!, false);
  }

  /** Empties the table, sized to at most half full for `entries` cells. */
  reset(entries: number): void {
    let size = this.slotX.length;
    while (size < 2 * entries) size *= 2;
    if (size !== this.slotX.length) {
      this.slotX = new Int32Array(size);
      this.slotY = new Int32Array(size);
      this.slotZ = new Int32Array(size);
      this.head = new Int32Array(size);
    }
    this.slotX.fill(-1);
  }

  private axisCell(v: number, o: number): boolean {
    const f = (v + 1) / this.cell + 1; // +1: the lower neighbour of cell 0 stays ≥ 0
    if (!(f >= 1 && f < this.cellsPerAxis)) return false;
    const c = Math.floor(f);
    this.probe[o] = c;
    this.probe[o + 1] = f - c < 0.5 ? c - 1 : c + 1;
    return true;
  }

  /** The table slot of a cell: found, or (insert) claimed with an empty list; −1 when absent. Linear probing. */
  private slot(cx: number, cy: number, cz: number, insert: boolean): number {
    const mask = this.slotX.length - 1;
    let h = (Math.imul(cx, 73856093) ^ Math.imul(cy, 19349663) ^ Math.imul(cz, 83492791)) & mask;
    for (;;) {
      const sx = this.slotX[h]!;
      if (sx === -1) {
        if (!insert) return -1;
        this.slotX[h] = cx;
        this.slotY[h] = cy;
        this.slotZ[h] = cz;
        this.head[h] = -1;
        return h;
      }
      if (sx === cx && this.slotY[h] === cy && this.slotZ[h] === cz) return h;
      h = (h + 1) & mask;
    }
  }
}
