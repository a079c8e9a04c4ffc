/**
 * Pairing the rays of a real packet with those of the simulated packet fired from the same pose
 * (docs/methods.md §6: "pair each real ray with the simulated ray of the same direction").
 *
 * Fast path: a run simulated along a log's own rays (simulate/log-rays.ts) or with the same
 * scan pattern has one simulated ray per real ray in the same order, so when the two packets
 * have as many rays and ray i of each points the same way (within the tolerance, same return
 * number), ray i pairs with ray i. Otherwise each real ray pairs with the nearest unused
 * simulated ray of the same return number within the tolerance, found through the hash grid
 * over the unit sphere of direction-grid.ts, reused from packet to packet. The second path is greedy in real-ray order: a tie between two real
 * rays for one simulated ray goes to the first; real lidars space their beams far wider than the
 * tolerance, so that only matters for degenerate input. Rays left over on either side are
 * counted, never silently dropped.
 *
 * Directions are compared in each packet's own sensor frame: "same direction" means the same
 * beam of the sensor, whatever the two packets' poses.
 */
import type { PacketChunk } from '../../src-common/packets';
import { DirectionGrid } from './direction-grid';

/** Smallest tolerance accepted (rad). */
export const MIN_DIRECTION_TOLERANCE_RAD = 1e-4;

type RayArrays = Pick<PacketChunk, 'rayStart' | 'rayDir' | 'rayReturn'> & { pairDir?: Float32Array };

export class RayPairer {
  /** Absolute ray indices (into each chunk's ray arrays) of the pairs found by the last pair(). */
  real = new Uint32Array(1024);
  sim = new Uint32Array(1024);
  /** Pairs found by the last pair(). */
  count = 0;
  /** Rays of the last packets that found no partner. */
  realUnpaired = 0;
  simUnpaired = 0;
  /** Whether the last pair() took the index-by-index path. */
  byIndex = false;

  private readonly cosTol: number;
  // Per simulated ray of the packet: the next ray in its cell (−1 ends), and whether it is taken.
  private next = new Int32Array(1024);
  private used = new Uint8Array(1024);
  private readonly grid: DirectionGrid;

  /** @param toleranceRad largest angle between two paired rays' directions */
  constructor(toleranceRad: number) {
    if (!(toleranceRad >= MIN_DIRECTION_TOLERANCE_RAD) || !(toleranceRad <= Math.PI / 2)) {
      throw new Error(`ray pairing: direction tolerance ${toleranceRad} rad is outside [${MIN_DIRECTION_TOLERANCE_RAD}, π/2]`);
    }
    this.cosTol = Math.cos(toleranceRad);
    this.grid = new DirectionGrid(toleranceRad);
  }

  /** Pairs packet rp of `real` with packet sp of `sim`; returns the number of pairs. */
  pair(real: RayArrays, rp: number, sim: RayArrays, sp: number): number {
    const r0 = real.rayStart[rp]!, r1 = real.rayStart[rp + 1]!;
    const s0 = sim.rayStart[sp]!, s1 = sim.rayStart[sp + 1]!;
    const nr = r1 - r0, ns = s1 - s0;
    this.ensure(Math.max(nr, ns));
    if (nr === ns && this.indexMatches(real, r0, sim, s0, nr)) {
      for (let i = 0; i < nr; i++) {
        this.real[i] = r0 + i;
        this.sim[i] = s0 + i;
      }
      this.count = nr;
      this.realUnpaired = 0;
      this.simUnpaired = 0;
      this.byIndex = true;
      return nr;
    }
    this.byIndex = false;
    return this.pairNearest(real, r0, r1, sim, s0, s1);
  }

  private indexMatches(real: RayArrays, r0: number, sim: RayArrays, s0: number, n: number): boolean {
    const rd = real.pairDir ?? real.rayDir, sd = sim.pairDir ?? sim.rayDir, rr = real.rayReturn, sr = sim.rayReturn, cosTol = this.cosTol;
    for (let i = 0; i < n; i++) {
      const a = 3 * (r0 + i), b = 3 * (s0 + i);
      const dot = rd[a]! * sd[b]! + rd[a + 1]! * sd[b + 1]! + rd[a + 2]! * sd[b + 2]!;
      // `!(dot >= cosTol)` also rejects NaN directions.
      if (!(dot >= cosTol) || rr[r0 + i] !== sr[s0 + i]) return false;
    }
    return true;
  }

  private pairNearest(real: RayArrays, r0: number, r1: number, sim: RayArrays, s0: number, s1: number): number {
    const ns = s1 - s0;
    const grid = this.grid;
    grid.reset(ns);
    const head = grid.head, next = this.next, used = this.used, sd = sim.pairDir ?? sim.rayDir, rd = real.pairDir ?? real.rayDir;
    for (let j = s0; j < s1; j++) {
      const k = j - s0;
      used[k] = 0;
      next[k] = -1;
      if (!grid.cellOf(sd[3 * j]!, sd[3 * j + 1]!, sd[3 * j + 2]!)) continue; // not a unit vector: never pairs
      const slot = grid.ownSlot();
      next[k] = head[slot]!;
      head[slot] = k;
    }
    const cosTol = this.cosTol, sr = sim.rayReturn;
    let n = 0;
    for (let i = r0; i < r1; i++) {
      const x = rd[3 * i]!, y = rd[3 * i + 1]!, z = rd[3 * i + 2]!;
      if (!grid.cellOf(x, y, z)) continue;
      const ret = real.rayReturn[i];
      let best = -1, bestDot = cosTol;
      for (let c = 0; c < 8; c++) {
        const slot = grid.blockSlot(c);
        if (slot < 0) continue;
        for (let k = head[slot]!; k >= 0; k = next[k]!) {
          if (used[k] || sr[s0 + k] !== ret) continue;
          const b = 3 * (s0 + k);
          const dot = x * sd[b]! + y * sd[b + 1]! + z * sd[b + 2]!;
          // Ties go to the lower index, so the result does not depend on the table's layout.
          if (dot > bestDot || (dot === bestDot && (best < 0 || k < best))) {
            bestDot = dot;
            best = k;
          }
        }
      }
      if (best >= 0) {
        used[best] = 1;
        this.real[n] = i;
        this.sim[n] = s0 + best;
        n++;
      }
    }
    this.count = n;
    this.realUnpaired = r1 - r0 - n;
    this.simUnpaired = ns - n;
    return n;
  }

  private ensure(n: number): void {
    if (this.real.length >= n) return;
    const size = Math.max(n, 2 * this.real.length);
    this.real = new Uint32Array(size);
    this.sim = new Uint32Array(size);
    this.next = new Int32Array(size);
    this.used = new Uint8Array(size);
  }
}
