/**
 * The evaluation's breakdowns (docs/methods.md §6, *Breakdowns*): the ray-pair counts per class of
 * a labelled real log and per range bin, with a point-cloud error per class and the median range
 * error per bin. Fed one scored pair at a time; memory is bounded: a class keeps at most
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

interface Counts {
  realHits: number;
  th: number;
  fh: number;
  fm: number;
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : null);

class ClassAcc implements Counts {
  realHits = 0; th = 0; fh = 0; fm = 0;
  readonly real: PointReservoir;
  readonly sim: PointReservoir;
  constructor(cls: number, seed: number) {
    this.real = new PointReservoir(CLASS_POINT_CAP, seed, 100 + 2 * cls);
    this.sim = new PointReservoir(CLASS_POINT_CAP, seed, 101 + 2 * cls);
  }
}

class RangeAcc implements Counts {
  realHits = 0; th = 0; fh = 0; fm = 0;
  errors: Uint32Array | null = null;
  over = 0;
}

export class Breakdowns {
  private readonly classes = new Map<number, ClassAcc>();
  private readonly bins: RangeAcc[] = [];
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
    const hitR = Number.isFinite(realRange), hitS = Number.isFinite(simRange);
    if (!hitR && !hitS) return;
    const cls = hitR ? realClass : simClass;
    if (hitR && realClass !== CLASS_UNKNOWN) this.labelled = true;
    let c = this.classes.get(cls);
    if (!c) this.classes.set(cls, (c = new ClassAcc(cls, this.seed)));
    const bin = this.bin(hitR ? realRange : simRange);
    count(c, hitR, hitS);
    count(bin, hitR, hitS);
    if (hitR) c.real.add(rw[ri]!, rw[ri + 1]!, rw[ri + 2]!);
    if (hitS) c.sim.add(sw[si]!, sw[si + 1]!, sw[si + 2]!);
    if (hitR && hitS) {
      const e = Math.abs(simRange - realRange) / ERROR_STEP_M;
      if (e < ERROR_BINS) (bin.errors ??= new Uint32Array(ERROR_BINS))[Math.floor(e)]!++;
      else bin.over++;
    }
  }

  perClass(check: () => void = () => {}): ClassMetrics[] | null {
    if (!this.labelled) return null;
    return [...this.classes.entries()]
      .sort(([a], [b]) => a - b)
      .map(([cls, c]) => {
        check();
        const pc = pointCloudError(c.real, c.sim, { seed: this.seed, check });
        return {
          class: cls,
          name: referenceClassName(cls),
          realHits: c.realHits,
          trueHits: c.th,
          falseHits: c.fh,
          falseMisses: c.fm,
          recall: ratio(c.th, c.th + c.fm),
          precision: ratio(c.th, c.th + c.fh),
          pointCloudError: pc ? pc.error : null,
        };
      });
  }

  byRange(): RangeBinMetrics[] {
    const out: RangeBinMetrics[] = [];
    this.bins.forEach((b, i) => {
      if (!b || b.realHits + b.fh === 0) return;
      out.push({
        fromM: i * this.binM,
        toM: (i + 1) * this.binM, // the last bin also holds every longer range
        realHits: b.realHits,
        trueHits: b.th,
        falseHits: b.fh,
        falseMisses: b.fm,
        recall: ratio(b.th, b.th + b.fm),
        precision: ratio(b.th, b.th + b.fh),
        rangeErrorMedianM: median(b),
      });
    });
    return out;
  }

  private bin(range: number): RangeAcc {
    const i = Math.min(MAX_RANGE_BINS - 1, Math.max(0, Math.floor(range / this.binM)));
    return (this.bins[i] ??= new RangeAcc());
  }
}

function count(c: Counts, hitR: boolean, hitS: boolean): void {
  if (hitR) c.realHits++;
  if (hitR && hitS) c.th++;
  else if (hitS) c.fh++;
  else c.fm++;
}

/** The lower median of the bin's range errors, to the histogram's 1 mm (the bin's centre). */
function median(b: RangeAcc): number | null {
  if (b.th === 0) return null;
  const k = Math.floor((b.th - 1) / 2);
  let seen = 0;
  if (b.errors) {
    for (let i = 0; i < ERROR_BINS; i++) {
      seen += b.errors[i]!;
      if (seen > k) return (i + 0.5) * ERROR_STEP_M;
    }
  }
  return ERROR_BINS * ERROR_STEP_M; // the median lies beyond 20 m: reported as 20 m
}
