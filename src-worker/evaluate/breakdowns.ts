/**
 * The evaluation's breakdowns (docs/methods.md §6, *Breakdowns*): the ray-pair counts per class of
 * a labelled real log and per range bin, with a point-cloud error per class and the median range
 * error per bin. Fed one scored pair at a time; memory is bounded: a class keeps (from the
 * log's first labelled ray on) at most
 * CLASS_POINT_CAP points a side (a seeded uniform sample), a range bin a 1 mm histogram of its
 * range errors up to 20 m.
 */
import { CLASS_UNKNOWN } from '../../src-common/packets';
import { referenceClassName } from '../../src-common/classes';
import type { ClassMetrics, RangeBinMetrics } from '../../src-common/metrics';
import { PointReservoir, pointCloudError } from './point-cloud-error';

/** Points kept per class and side for its point-cloud error. */
export const CLASS_POINT_CAP = 50_000;
/** Range bins at most (the last one takes every longer range). */
export const MAX_RANGE_BINS = 1000;
const ERROR_STEP_M = 0.001;
const ERROR_BINS = 20_000;

const ratio = (a: number, b: number) => (b > 0 ? a / b : null);

/** Counters per class or bin, 4 each: real hits, true hits, false hits, false misses. */
const REAL = 0, TH = 1, FH = 2, FM = 3;

export class Breakdowns {
  private readonly classCounts = new Uint32Array(4 * 256);
  /** Per class (rayClass is a byte): its clouds, made on first use once labelled. */
  private readonly classClouds: ({ real: PointReservoir; sim: PointReservoir } | null)[] = new Array<null>(256).fill(null);
  private readonly binCounts = new Float64Array(4 * MAX_RANGE_BINS);
  /** Per range bin: a histogram of its true hits' range errors (1 mm steps), made on first use. */
  private readonly errors: (Uint32Array | null)[] = new Array<null>(MAX_RANGE_BINS).fill(null);
  private readonly over = new Uint32Array(MAX_RANGE_BINS);
  /** Whether any scored real hit carries a class label. */
  private labelled = false;

  constructor(private readonly binM: number, private readonly seed: number) {
    if (!(binM > 0 && Number.isFinite(binM))) throw new Error(`evaluation: range bin width ${binM} m is not a positive number`);
  }

  /**
   * One scored pair. `realRange`/`simRange` NaN for a miss; `realClass` the real ray's label,
   * `simClass` the simulated ray's; world points of the hits (ignored for misses).
   */
  add(realRange: number, simRange: number, realClass: number, simClass: number, rw: ArrayLike<number>, ri: number, sw: ArrayLike<number>, si: number): void {
    const hitR = realRange === realRange, hitS = simRange === simRange; // not NaN (ranges are finite or NaN)
    if (!hitR && !hitS) return;
    const cls = hitR ? realClass : simClass;
    if (hitR && realClass !== CLASS_UNKNOWN) this.labelled = true;
    const r = hitR ? realRange : simRange;
    const bin = Math.min(MAX_RANGE_BINS - 1, Math.max(0, Math.floor(r / this.binM)));
    const kind = hitR && hitS ? TH : hitS ? FH : FM;
    const cc = this.classCounts, bc = this.binCounts;
    if (hitR) {
      cc[4 * cls + REAL]!++;
      bc[4 * bin + REAL]!++;
    }
    cc[4 * cls + kind]!++;
    bc[4 * bin + kind]!++;
    // Per-class clouds only once the log has shown a label: an unlabelled log (most captures)
    // then pays for counts alone, and a labelled one gathers them from its first labelled ray on.
    if (this.labelled) {
      const c = (this.classClouds[cls] ??= { real: new PointReservoir(CLASS_POINT_CAP, this.seed, 100 + 2 * cls), sim: new PointReservoir(CLASS_POINT_CAP, this.seed, 101 + 2 * cls) });
      if (hitR) c.real.add(rw[ri]!, rw[ri + 1]!, rw[ri + 2]!);
      if (hitS) c.sim.add(sw[si]!, sw[si + 1]!, sw[si + 2]!);
    }
    if (kind === TH) {
      const e = Math.abs(simRange - realRange) / ERROR_STEP_M;
      if (e < ERROR_BINS) (this.errors[bin] ??= new Uint32Array(ERROR_BINS))[Math.floor(e)]!++;
      else this.over[bin]!++;
    }
  }

  perClass(check: () => void = () => {}): ClassMetrics[] | null {
    if (!this.labelled) return null;
    const out: ClassMetrics[] = [];
    const cc = this.classCounts;
    for (let cls = 0; cls < 256; cls++) {
      const real = cc[4 * cls + REAL]!, th = cc[4 * cls + TH]!, fh = cc[4 * cls + FH]!, fm = cc[4 * cls + FM]!;
      if (real + th + fh + fm === 0) continue;
      check();
      const c = this.classClouds[cls];
      const pc = c ? pointCloudError(c.real, c.sim, { seed: this.seed, check }) : null;
      out.push({
        class: cls,
        name: referenceClassName(cls),
        realHits: real,
        trueHits: th,
        falseHits: fh,
        falseMisses: fm,
        recall: ratio(th, th + fm),
        precision: ratio(th, th + fh),
        pointCloudError: pc ? pc.error : null,
      });
    }
    return out;
  }

  byRange(): RangeBinMetrics[] {
    const out: RangeBinMetrics[] = [];
    const bc = this.binCounts;
    for (let i = 0; i < MAX_RANGE_BINS; i++) {
      const real = bc[4 * i + REAL]!, th = bc[4 * i + TH]!, fh = bc[4 * i + FH]!, fm = bc[4 * i + FM]!;
      if (real + fh === 0) continue;
      out.push({
        fromM: i * this.binM,
        toM: (i + 1) * this.binM, // the last bin also holds every longer range
        realHits: real,
        trueHits: th,
        falseHits: fh,
        falseMisses: fm,
        recall: ratio(th, th + fm),
        precision: ratio(th, th + fh),
        rangeErrorMedianM: median(th, this.errors[i]!),
      });
    }
    return out;
  }
}

/** The lower median of a bin's range errors, to the histogram's 1 mm (the step's centre); beyond 20 m, 20 m. */
function median(count: number, errors: Uint32Array | null): number | null {
  if (count === 0) return null;
  const k = Math.floor((count - 1) / 2);
  let seen = 0;
  if (errors) {
    for (let i = 0; i < ERROR_BINS; i++) {
      seen += errors[i]!;
      if (seen > k) return (i + 0.5) * ERROR_STEP_M;
    }
  }
  return ERROR_BINS * ERROR_STEP_M;
}
