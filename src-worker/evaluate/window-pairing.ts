/**
 * Pairing a real packet's rays with the simulated rays of a time window, across simulated packet
 * boundaries (docs/methods.md §6, *Pairing*): each real ray pairs with the untaken simulated ray
 * of the same return number whose direction is within the tolerance and whose firing time is
 * nearest its own, within the time tolerance; among equally near times, the nearer direction,
 * then the earlier ray. A real packet whose rays carry no firing times (a registered scan: every
 * ray at the packet's time) only says its rays fired during the scan, so every simulated ray of
 * its window is equally near in time and the nearest direction decides.
 *
 * The simulated rays of the window go into a hash grid over the unit sphere (cells two
 * tolerance-chords wide, so the 2×2×2 block of cells nearest a direction holds every candidate;
 * the same scheme as ray-pairing.ts), an open-addressing table in typed arrays reused between
 * packets. Greedy in real-ray order (a tie between two real rays for one simulated ray goes to
 * the first), then one augmenting step per ray left out: a ray whose candidates are all taken gets
 * one of them when its taker can move to another free candidate. Directions are compared in each packet's own sensor frame (the same beam of the
 * sensor, whatever the poses).
 */
import type { EvalChunk } from './packet-cursor';
import { DirectionGrid } from './direction-grid';
import type { WindowPacket } from './sim-window';

export class WindowPairer {
  /** The pairs of the last pair(): real ray (absolute in its chunk), window slot, simulated ray (absolute in its chunk). */
  real = new Uint32Array(1024);
  slot = new Uint32Array(1024);
  sim = new Uint32Array(1024);
  count = 0;

  private readonly cosTol: number;
  private readonly grid: DirectionGrid;
  // Per entry (a simulated ray of the window): its window slot, ray, firing time and the next entry in its cell.
  private eSlot = new Uint32Array(1024);
  private eRay = new Uint32Array(1024);
  private eTime = new Float64Array(1024);
  private eNext = new Int32Array(1024);
  /** Per entry: the pair of this call that took it (−1: none). */
  private eOwner = new Int32Array(1024);
  /** Per pair of this call: its entry. */
  private entry = new Uint32Array(1024);

  constructor(toleranceRad: number) {
    this.cosTol = Math.cos(toleranceRad);
    this.grid = new DirectionGrid(toleranceRad);
  }

  /**
   * Pairs the untaken rays of real packet rp (firing at `time` + their own offsets; `timed`
   * false: a scan without firing times) with the untaken simulated rays of `window` fired within
   * [a, b]. Marks what it takes in `realTaken` (per ray of the packet) and in the window.
   */
  pair(real: EvalChunk, rp: number, time: number, timed: boolean, tolS: number, a: number, b: number, realTaken: Uint8Array, window: readonly WindowPacket[]): number {
    const n = this.fill(window, a, b);
    this.count = 0;
    if (n === 0) return 0;
    const r0 = real.rayStart[rp]!, r1 = real.rayStart[rp + 1]!;
    this.ensurePairs(r1 - r0);
    const rd = real.pairDir ?? real.rayDir, rt = real.rayTime, owner = this.eOwner;
    const q: Query = { x: 0, y: 0, z: 0, ret: 0, t: 0, timed, tolS };
    const at = (i: number) => {
      q.x = rd[3 * i]!; q.y = rd[3 * i + 1]!; q.z = rd[3 * i + 2]!;
      q.ret = real.rayReturn[i]!;
      q.t = time + (timed && rt ? rt[i]! : 0);
    };
    let count = 0;
    const take = (k: number, i: number, pairIndex: number) => {
      const w = window[this.eSlot[k]!]!, j = this.eRay[k]!;
      if (!w.used[j - w.r0]) w.pairs++;
      w.used[j - w.r0] = 1;
      owner[k] = pairIndex;
      this.real[pairIndex] = i;
      this.slot[pairIndex] = this.eSlot[k]!;
      this.sim[pairIndex] = j;
      this.entry[pairIndex] = k;
    };
    // Greedy in real-ray order: each ray takes its best free candidate.
    for (let i = r0; i < r1; i++) {
      if (realTaken[i - r0]) continue;
      at(i);
      const k = this.best(q, window, -1);
      if (k < 0) continue;
      realTaken[i - r0] = 1;
      take(k, i, count++);
    }
    // One augmenting step for each ray left out: a candidate taken by an earlier ray of this
    // packet is handed over when that ray has another free candidate (where two real beams fall
    // between the same simulated ones, greedy order alone would leave one unpaired).
    for (let i = r0; i < r1; i++) {
      if (realTaken[i - r0]) continue;
      at(i);
      const cands = this.candidates(q, window);
      for (const k of cands) {
        const p = owner[k]!;
        if (p < 0) continue; // taken before this call: not ours to move
        const other = this.real[p]!;
        at(other);
        const alt = this.best(q, window, k);
        if (alt < 0) continue;
        take(alt, other, p);
        realTaken[i - r0] = 1;
        take(k, i, count++);
        break;
      }
    }
    return (this.count = count);
  }

  /** The best free candidate of a query (−1: none), never `exclude`. Sets the probe cells. */
  private best(q: Query, window: readonly WindowPacket[], exclude: number): number {
    const grid = this.grid;
    if (!grid.cellOf(q.x, q.y, q.z)) return -1;
    const head = grid.head, eSlot = this.eSlot, eRay = this.eRay, eTime = this.eTime, eNext = this.eNext;
    let best = -1, bestCost = Infinity, bestDot = this.cosTol;
    for (let c = 0; c < 8; c++) {
      const s = grid.blockSlot(c);
      if (s < 0) continue;
      for (let k = head[s]!; k >= 0; k = eNext[k]!) {
        const w = window[eSlot[k]!]!, j = eRay[k]!;
        if (k === exclude || w.used[j - w.r0] || w.chunk.rayReturn[j] !== q.ret) continue;
        const cost = q.timed ? Math.abs(eTime[k]! - q.t) : 0;
        if (cost > q.tolS) continue;
        const sd = w.chunk.pairDir ?? w.chunk.rayDir;
        const dot = q.x * sd[3 * j]! + q.y * sd[3 * j + 1]! + q.z * sd[3 * j + 2]!;
        if (dot < this.cosTol) continue;
        if (cost < bestCost || (cost === bestCost && (dot > bestDot || (dot === bestDot && (best < 0 || k < best))))) {
          best = k;
          bestCost = cost;
          bestDot = dot;
        }
      }
    }
    return best;
  }

  /** Every candidate of a query, taken or not, best first. */
  private candidates(q: Query, window: readonly WindowPacket[]): number[] {
    const grid = this.grid;
    if (!grid.cellOf(q.x, q.y, q.z)) return [];
    const head = grid.head, eSlot = this.eSlot, eRay = this.eRay, eTime = this.eTime, eNext = this.eNext;
    const out: { k: number; cost: number; dot: number }[] = [];
    for (let c = 0; c < 8; c++) {
      const s = grid.blockSlot(c);
      if (s < 0) continue;
      for (let k = head[s]!; k >= 0; k = eNext[k]!) {
        const w = window[eSlot[k]!]!, j = eRay[k]!;
        if (w.chunk.rayReturn[j] !== q.ret) continue;
        const cost = q.timed ? Math.abs(eTime[k]! - q.t) : 0;
        if (cost > q.tolS) continue;
        const sd = w.chunk.pairDir ?? w.chunk.rayDir;
        const dot = q.x * sd[3 * j]! + q.y * sd[3 * j + 1]! + q.z * sd[3 * j + 2]!;
        if (dot >= this.cosTol) out.push({ k, cost, dot });
      }
    }
    return out.sort((u, v) => u.cost - v.cost || v.dot - u.dot || u.k - v.k).map((o) => o.k);
  }

  /** The grid over the window's untaken rays fired within [a, b]; returns how many went in. */
  private fill(window: readonly WindowPacket[], a: number, b: number): number {
    let total = 0;
    for (const w of window) if (w.t1 >= a && w.t0 <= b) total += w.r1 - w.r0 - w.pairs;
    if (total === 0) return 0;
    this.ensureEntries(total);
    const grid = this.grid;
    grid.reset(total);
    const head = grid.head;
    let n = 0;
    for (let s = 0; s < window.length; s++) {
      const w = window[s]!;
      if (w.t1 < a || w.t0 > b || w.pairs === w.r1 - w.r0) continue;
      const d = w.chunk.pairDir ?? w.chunk.rayDir, rt = w.chunk.rayTime;
      for (let j = w.r0; j < w.r1; j++) {
        if (w.used[j - w.r0]) continue;
        const t = w.time + (rt ? rt[j]! : 0);
        if (t < a || t > b) continue;
        if (!grid.cellOf(d[3 * j]!, d[3 * j + 1]!, d[3 * j + 2]!)) continue; // not a unit vector: never pairs
        const cell = grid.ownSlot();
        this.eSlot[n] = s;
        this.eRay[n] = j;
        this.eTime[n] = t;
        this.eNext[n] = head[cell]!;
        this.eOwner[n] = -1;
        head[cell] = n;
        n++;
      }
    }
    return n;
  }

  private ensureEntries(n: number): void {
    if (this.eSlot.length >= n) return;
    const size = Math.max(n, 2 * this.eSlot.length);
    this.eSlot = new Uint32Array(size);
    this.eRay = new Uint32Array(size);
    this.eTime = new Float64Array(size);
    this.eNext = new Int32Array(size);
    this.eOwner = new Int32Array(size);
  }

  private ensurePairs(n: number): void {
    if (this.real.length >= n) return;
    const size = Math.max(n, 2 * this.real.length);
    this.real = new Uint32Array(size);
    this.slot = new Uint32Array(size);
    this.sim = new Uint32Array(size);
    this.entry = new Uint32Array(size);
  }
}

interface Query { x: number; y: number; z: number; ret: number; t: number; timed: boolean; tolS: number }
