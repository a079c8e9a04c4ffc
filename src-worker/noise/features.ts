/**
 * Repeated scans of a static scene as the states and observations of a learned sensor model
 * (Tallavajhula, "Lidar Simulation for Robotic Application Development: Modeling and
 * Evaluation", 2018, §3.4.2; docs/methods.md §8).
 *
 * A state is a *cell*: one beam (a laser ring; a planar scanner has one) at one bearing (the
 * azimuth rounded to the sensor's own step). Its observations are what that beam reported at that
 * bearing in each scan: a range, or a null (no return). Its features ψ = (r, δ) are
 *  - the nominal range r: the median of its ranges over all scans (the thesis measures it against
 *    a reference map; a static scene's median stands in for one), and
 *  - the angle of incidence δ: between the beam and the normal of a plane fitted to the nominal
 *    points of its neighbours (±2 bearings on its beam and on the beams just above and below).
 */
import type { PacketChunk } from '../../src-common/packets';
import { RING_UNKNOWN } from '../../src-common/packets';
import { ScanCounter } from '../formats/capture-scans';
import { symmetricEigenvalues3, symmetricEigenvector3 } from '../fit/eigen3';

/** A cell that no scan fired at: its observation slot holds this (a null is NaN). */
export const NOT_FIRED = -1;

export interface StaticCells {
  /** Scans (revolutions or sweeps) of the log. */
  scans: number;
  /** Ring id of each beam, by beam index (ascending ring ids). */
  beams: number[];
  /** Bearing step (rad) the cells are binned at. */
  azimuthStep: number;
  /** Per cell: beam index, bearing bin, nominal range (m), incidence (rad). */
  beam: Uint16Array;
  bin: Int32Array;
  range: Float64Array;
  incidence: Float64Array;
  /** cells × scans, row-major: the range reported in each scan, NaN for a null, NOT_FIRED when not fired. */
  obs: Float32Array;
}

class Grow {
  data: Float64Array = new Float64Array(1 << 16);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  get(i: number): number {
    return this.data[i]!;
  }
}

/** Gathers first returns of stored chunks, then bins them into cells per scan. */
export class CellCollector {
  private readonly scanCounter = new ScanCounter();
  private readonly packet = new Grow();
  private readonly ring = new Grow();
  private readonly azimuth = new Grow();
  private readonly rangeV = new Grow();
  private readonly dir = new Grow();
  private packets = 0;

  add(c: PacketChunk): void {
    for (let p = 0; p < c.packetCount; p++) {
      const a = c.rayStart[p]!, b = c.rayStart[p + 1]!;
      const first = b > a ? c.rayDir.subarray(3 * a, 3 * a + 3) : null;
      this.scanCounter.add(c.packetTime[p]!, b > a ? c.rayTime[b - 1]! : 0, first);
      for (let r = a; r < b; r++) {
        if (c.rayReturn[r]! !== 0) continue;
        const x = c.rayDir[3 * r]!, y = c.rayDir[3 * r + 1]!, z = c.rayDir[3 * r + 2]!;
        if (!Number.isFinite(x + y + z)) continue;
        const ring = c.rayRing[r]!;
        this.packet.push(this.packets + p);
        this.ring.push(ring === RING_UNKNOWN ? 0 : ring);
        this.azimuth.push(Math.atan2(y, x));
        this.rangeV.push(c.rayRange[r]!);
        this.dir.push(x); this.dir.push(y); this.dir.push(z);
      }
    }
    this.packets += c.packetCount;
  }

  finish(): StaticCells {
    const scans = this.scanCounter.finish();
    const S = scans.starts.length;
    const n = this.packet.length;
    // Scan of each ray's packet.
    const scanOfPacket = new Uint32Array(this.packets);
    for (let k = 0; k < S; k++) {
      const to = k + 1 < S ? scans.starts[k + 1]! : this.packets;
      for (let p = scans.starts[k]!; p < to; p++) scanOfPacket[p] = k;
    }
    const ringIds = [...new Set(Array.from({ length: n }, (_, i) => this.ring.get(i)))].sort((a, b) => a - b);
    const beamOf = new Map(ringIds.map((r, i) => [r, i]));
    const step = azimuthStep(this.ring, this.azimuth, n);
    const bins = Math.max(1, Math.round((2 * Math.PI) / step));
    const binOf = (az: number) => ((Math.round((az + Math.PI) / step) % bins) + bins) % bins;
    // Cells: beam × bin, observed in at least one scan.
    const cellOf = new Int32Array(ringIds.length * bins).fill(-1);
    let cells = 0;
    for (let i = 0; i < n; i++) {
      const key = beamOf.get(this.ring.get(i))! * bins + binOf(this.azimuth.get(i));
      if (cellOf[key]! < 0) cellOf[key] = cells++;
    }
    const obs = new Float32Array(cells * S).fill(NOT_FIRED);
    const dirSum = new Float64Array(cells * 3);
    for (let i = 0; i < n; i++) {
      const key = beamOf.get(this.ring.get(i))! * bins + binOf(this.azimuth.get(i));
      const cell = cellOf[key]!;
      const slot = cell * S + scanOfPacket[this.packet.get(i)]!;
      if (obs[slot] === NOT_FIRED) obs[slot] = this.rangeV.get(i); // the first ray of the scan in this cell
      for (let k = 0; k < 3; k++) dirSum[3 * cell + k] = dirSum[3 * cell + k]! + this.dir.get(3 * i + k);
    }
    return keepStatic(ringIds, step, bins, cellOf, obs, dirSum, S);
  }
}

/** Median angle between successive first returns of one ring (the sensor's bearing step). */
function azimuthStep(ring: Grow, azimuth: Grow, n: number): number {
  const last = new Map<number, number>();
  const steps: number[] = [];
  for (let i = 0; i < n && steps.length < 200_000; i++) {
    const r = ring.get(i), az = azimuth.get(i);
    const prev = last.get(r);
    if (prev !== undefined) {
      let d = Math.abs(az - prev);
      if (d > Math.PI) d = 2 * Math.PI - d;
      if (d > 1e-5 && d < 0.2) steps.push(d);
    }
    last.set(r, az);
  }
  if (steps.length === 0) return (2 * Math.PI) / 3600;
  steps.sort((a, b) => a - b);
  return steps[steps.length >> 1]!;
}

/** Keeps the cells fired in at least half the scans with at least 3 hits; computes their features. */
function keepStatic(ringIds: number[], step: number, bins: number, cellOf: Int32Array, obsAll: Float32Array, dirSum: Float64Array, S: number): StaticCells {
  const beamsN = ringIds.length;
  const keep: { beam: number; bin: number; cell: number; r: number; d: [number, number, number] }[] = [];
  const hits: number[] = [];
  for (let b = 0; b < beamsN; b++) {
    for (let k = 0; k < bins; k++) {
      const cell = cellOf[b * bins + k]!;
      if (cell < 0) continue;
      let fired = 0;
      hits.length = 0;
      for (let s = 0; s < S; s++) {
        const v = obsAll[cell * S + s]!;
        if (v === NOT_FIRED) continue;
        fired++;
        if (!Number.isNaN(v)) hits.push(v);
      }
      if (fired * 2 < S || hits.length < 3) continue;
      hits.sort((x, y) => x - y);
      const r = hits.length % 2 ? hits[hits.length >> 1]! : 0.5 * (hits[hits.length / 2 - 1]! + hits[hits.length / 2]!);
      const dx = dirSum[3 * cell]!, dy = dirSum[3 * cell + 1]!, dz = dirSum[3 * cell + 2]!;
      const m = Math.hypot(dx, dy, dz) || 1;
      keep.push({ beam: b, bin: k, cell, r, d: [dx / m, dy / m, dz / m] });
    }
  }
  // Beams ordered by elevation, for the neighbours above and below.
  const elev = new Float64Array(beamsN), count = new Float64Array(beamsN);
  for (const c of keep) {
    elev[c.beam] = elev[c.beam]! + Math.asin(Math.max(-1, Math.min(1, c.d[2])));
    count[c.beam] = count[c.beam]! + 1;
  }
  const order = Array.from({ length: beamsN }, (_, b) => b).sort((a, b) => elev[a]! / (count[a] || 1) - elev[b]! / (count[b] || 1));
  const rank = new Int32Array(beamsN);
  order.forEach((b, i) => (rank[b] = i));
  const kept = new Int32Array(beamsN * bins).fill(-1);
  keep.forEach((c, i) => (kept[c.beam * bins + c.bin] = i));

  const N = keep.length;
  const out: StaticCells = {
    scans: S,
    beams: ringIds,
    azimuthStep: step,
    beam: new Uint16Array(N),
    bin: new Int32Array(N),
    range: new Float64Array(N),
    incidence: new Float64Array(N),
    obs: new Float32Array(N * S),
  };
  const pts: number[] = [];
  for (let i = 0; i < N; i++) {
    const c = keep[i]!;
    out.beam[i] = c.beam;
    out.bin[i] = c.bin;
    out.range[i] = c.r;
    out.obs.set(obsAll.subarray(c.cell * S, c.cell * S + S), i * S);
    pts.length = 0;
    const px = c.r * c.d[0], py = c.r * c.d[1], pz = c.r * c.d[2];
    for (const dr of [-1, 0, 1]) {
      const rr = rank[c.beam]! + dr;
      if (rr < 0 || rr >= beamsN) continue;
      const nb = order[rr]!;
      for (let dk = -2; dk <= 2; dk++) {
        const j = kept[nb * bins + (((c.bin + dk) % bins) + bins) % bins]!;
        if (j < 0) continue;
        const o = keep[j]!;
        const qx = o.r * o.d[0], qy = o.r * o.d[1], qz = o.r * o.d[2];
        const gap = Math.hypot(qx - px, qy - py, qz - pz);
        if (gap <= (dr === 0 ? 0.05 + 0.1 * c.r : 0.25 * c.r)) pts.push(qx, qy, qz);
      }
    }
    out.incidence[i] = incidenceOf(pts, c.d);
  }
  return out;
}

const EIG = new Float64Array(3), VEC = new Float64Array(3), COV = new Float64Array(6);

/**
 * Angle between the beam `d` and the surface at the points (x, y, z triples): the normal of
 * their best plane where they span one, else — a line of points, a planar scanner — the normal
 * to the line nearest the beam (cos δ = √(1 − (d·t)²)); 0 with fewer than 2 points.
 */
export function incidenceOf(pts: readonly number[], d: readonly [number, number, number]): number {
  const m = pts.length / 3;
  if (m < 2) return 0;
  let cx = 0, cy = 0, cz = 0;
  for (let k = 0; k < m; k++) {
    cx += pts[3 * k]!; cy += pts[3 * k + 1]!; cz += pts[3 * k + 2]!;
  }
  cx /= m; cy /= m; cz /= m;
  let xx = 0, xy = 0, xz = 0, yy = 0, yz = 0, zz = 0;
  for (let k = 0; k < m; k++) {
    const x = pts[3 * k]! - cx, y = pts[3 * k + 1]! - cy, z = pts[3 * k + 2]! - cz;
    xx += x * x; xy += x * y; xz += x * z; yy += y * y; yz += y * z; zz += z * z;
  }
  COV[0] = xx; COV[1] = xy; COV[2] = xz; COV[3] = yy; COV[4] = yz; COV[5] = zz;
  symmetricEigenvalues3(COV, 0, EIG);
  const planar = m >= 3 && EIG[1]! > 0.05 * EIG[2]!;
  if (planar && symmetricEigenvector3(COV, 0, EIG[0]!, VEC)) {
    const c = Math.abs(VEC[0]! * d[0] + VEC[1]! * d[1] + VEC[2]! * d[2]);
    return Math.acos(Math.min(1, c));
  }
  if (!symmetricEigenvector3(COV, 0, EIG[2]!, VEC)) return 0;
  const dt = Math.abs(VEC[0]! * d[0] + VEC[1]! * d[1] + VEC[2]! * d[2]);
  return Math.asin(Math.min(1, dt));
}
