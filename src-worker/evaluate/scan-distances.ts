/**
 * Range-histogram distances for repeated scans of a static scene (docs/methods.md §6): when the sensor
 * stands still in the log and in the run, every ray's return is a sample of the range
 * distribution of its bearing, and the two logs are compared as distributions rather than ray
 * by ray.
 *
 *  - Bins: bearing = (elevation bin, azimuth bin) of the ray's direction in the sensor frame,
 *    range bins of `rangeBinM` up to `maxRangeM` (farther returns in the last), and one extra
 *    "no return" bin per bearing (seed 000 Table I), so a permeable object that lets rays
 *    through counts against a solid one.
 *  - Bhattacharyya distance −ln Σ √(p q) over the whole (bearing × range) histogram, each side
 *    normalised (000 Table I; histogram.ts).
 *  - Histogram match (004 §3.4.3): per bearing seen on both sides, the L1 norm of the difference
 *    of the cumulative range histograms (no-return bin last, i.e. beyond every range), in bins;
 *    averaged over those bearings. Bearings seen on one side only are counted, not scored.
 *
 * Histograms are sparse (a Map from bin key to count): only occupied bins cost memory. Keys are
 * (bearing · (R + 1) + range bin), so a bearing's bins are contiguous in key order.
 */
import { bhattacharyyaDistance } from './histogram';
import type { ScanHistogramParams } from '../../src-common/metrics';



/** A histogram stops growing (and the static distances are not reported) past this many occupied bins. */
export const MAX_SCAN_BINS = 4_000_000;

export class ScanHistogram {
  readonly counts = new Map<number, number>();
  /** Rays counted (hits and misses). */
  rays = 0;
  /** Set when the histogram outgrew MAX_SCAN_BINS (it is then incomplete). */
  overflow = false;
  readonly rangeBins: number;
  private readonly nAz: number;
  private readonly nEl: number;
  private readonly azBin: number;
  private readonly elBin: number;

  constructor(readonly params: ScanHistogramParams) {
    const { azimuthBinDeg, elevationBinDeg, rangeBinM, maxRangeM } = params;
    if (!(azimuthBinDeg > 0 && elevationBinDeg > 0 && rangeBinM > 0 && maxRangeM > rangeBinM)) {
      throw new Error(`scan histogram: bins must be positive and the range window wider than a bin (got ${JSON.stringify(params)})`);
    }
    this.azBin = (azimuthBinDeg * Math.PI) / 180;
    this.elBin = (elevationBinDeg * Math.PI) / 180;
    this.nAz = Math.ceil((2 * Math.PI) / this.azBin);
    this.nEl = Math.ceil(Math.PI / this.elBin);
    this.rangeBins = Math.ceil(maxRangeM / rangeBinM);
  }

  /** Counts one ray: unit direction in the sensor frame and its range (not finite = no return). */
  add(dx: number, dy: number, dz: number, range: number): void {
    if (this.overflow) return;
    if (!(Number.isFinite(dx) && Number.isFinite(dy) && Number.isFinite(dz))) return;
    const az = Math.atan2(dy, dx) + Math.PI;
    const el = Math.asin(Math.max(-1, Math.min(1, dz))) + Math.PI / 2;
    const a = Math.min(this.nAz - 1, Math.floor(az / this.azBin));
    const e = Math.min(this.nEl - 1, Math.floor(el / this.elBin));
    const R = this.rangeBins;
    const bin = Number.isFinite(range) ? Math.max(0, Math.min(R - 1, Math.floor(range / this.params.rangeBinM))) : R;
    const key = (e * this.nAz + a) * (R + 1) + bin;
    const c = this.counts.get(key);
    if (c === undefined && this.counts.size >= MAX_SCAN_BINS) {
      this.overflow = true;
      return;
    }
    this.counts.set(key, (c ?? 0) + 1);
    this.rays++;
  }
}

/** Bhattacharyya distance between two scan histograms over the union of their bins. */
export function scanBhattacharyya(a: ScanHistogram, b: ScanHistogram): number {
  const keys = new Set<number>([...a.counts.keys(), ...b.counts.keys()]);
  const p = new Float64Array(keys.size), q = new Float64Array(keys.size);
  let i = 0;
  for (const k of keys) {
    p[i] = a.counts.get(k) ?? 0;
    q[i] = b.counts.get(k) ?? 0;
    i++;
  }
  return bhattacharyyaDistance(p, q);
}

export interface HistogramMatchResult {
  /** Mean over bearings seen on both sides of the per-bearing histogram match (bins). */
  mean: number;
  /** Bearings scored (seen on both sides). */
  bearings: number;
  /** Bearings seen on one side only (not scored). */
  oneSided: number;
}

/**
 * Per-bearing histogram match, averaged. Equal to histogram.ts's histogramMatch on each
 * bearing's dense (R + 1)-bin histograms, computed on the occupied bins only: between two
 * occupied bins both cumulative sums are constant, and past the last both are 1.
 */
export function scanHistogramMatch(a: ScanHistogram, b: ScanHistogram): HistogramMatchResult {
  if (a.rangeBins !== b.rangeBins) throw new Error('scan histogram match: the histograms have different bins');
  const width = a.rangeBins + 1;
  const ka = sortedKeys(a), kb = sortedKeys(b);
  let i = 0, j = 0, sum = 0, bearings = 0, oneSided = 0;
  while (i < ka.length || j < kb.length) {
    const bearing = Math.floor(Math.min(i < ka.length ? ka[i]! : Infinity, j < kb.length ? kb[j]! : Infinity) / width);
    const end = (bearing + 1) * width;
    let ie = i, je = j, ta = 0, tb = 0;
    while (ie < ka.length && ka[ie]! < end) ta += a.counts.get(ka[ie++]!)!;
    while (je < kb.length && kb[je]! < end) tb += b.counts.get(kb[je++]!)!;
    if (ta === 0 || tb === 0) {
      oneSided++;
    } else {
      let ca = 0, cb = 0, s = 0;
      let x = i, y = j;
      while (x < ie || y < je) {
        const bin = Math.min(x < ie ? ka[x]! : Infinity, y < je ? kb[y]! : Infinity);
        if (x < ie && ka[x] === bin) ca += a.counts.get(ka[x++]!)! / ta;
        if (y < je && kb[y] === bin) cb += b.counts.get(kb[y++]!)! / tb;
        const nextBin = Math.min(x < ie ? ka[x]! : end, y < je ? kb[y]! : end);
        s += Math.abs(ca - cb) * (nextBin - bin);
      }
      sum += s;
      bearings++;
    }
    i = ie;
    j = je;
  }
  return { mean: bearings > 0 ? sum / bearings : NaN, bearings, oneSided };
}

function sortedKeys(h: ScanHistogram): Float64Array {
  return Float64Array.from(h.counts.keys()).sort();
}

/** Whether every pose offered stays within a translation and a rotation of the first one. */
export class StaticCheck {
  isStatic = true;
  private ref: number[] | null = null;
  private readonly cosHalf: number;

  constructor(
    readonly translationM: number,
    rotationDeg: number,
  ) {
    this.cosHalf = Math.cos((rotationDeg * Math.PI) / 360);
  }

  /** Offers the pose at pose[o..o+7) (tx, ty, tz, qx, qy, qz, qw). */
  offer(pose: ArrayLike<number>, o: number): void {
    if (!this.isStatic) return;
    if (!this.ref) {
      this.ref = [pose[o]!, pose[o + 1]!, pose[o + 2]!, pose[o + 3]!, pose[o + 4]!, pose[o + 5]!, pose[o + 6]!];
      return;
    }
    const r = this.ref;
    const d = Math.hypot(pose[o]! - r[0]!, pose[o + 1]! - r[1]!, pose[o + 2]! - r[2]!);
    const qn = Math.hypot(pose[o + 3]!, pose[o + 4]!, pose[o + 5]!, pose[o + 6]!) * Math.hypot(r[3]!, r[4]!, r[5]!, r[6]!);
    // |q_ref · q| = cos(θ/2) for the rotation θ between the two.
    const dot = Math.abs(pose[o + 3]! * r[3]! + pose[o + 4]! * r[4]! + pose[o + 5]! * r[5]! + pose[o + 6]! * r[6]!) / qn;
    if (!(d <= this.translationM) || !(dot >= this.cosHalf)) this.isStatic = false;
  }
}
