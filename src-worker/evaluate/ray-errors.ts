/**
 * The per-ray range error of an evaluation (docs/methods.md §6, *Per-ray range error*): for each
 * scored pair with at least one hit, both world points and `e = r̂ − r`, the simulated ray's range
 * minus the real ray's (NaN unless both hit; a false hit or false miss keeps its one point).
 * The pairs come from the evaluator's `pair` hook in pairing order; the sample keeps exactly
 * `min(budget, total)` of them spread evenly over the log (pair i is kept when (i·n) mod total < n,
 * as the display clouds decimate), so memory is bounded by the display budget however long
 * the log. `total` is the evaluation's TH + FH + FM; pairs past it are not kept.
 */
export interface RayErrorSample {
  /** Pairs offered (with at least one hit). */
  seen: number;
  real: Float32Array<ArrayBuffer>;
  sim: Float32Array<ArrayBuffer>;
  error: Float32Array<ArrayBuffer>;
}

export class RayErrorSampler {
  private readonly n: number;
  private readonly real: Float32Array<ArrayBuffer>;
  private readonly sim: Float32Array<ArrayBuffer>;
  private readonly error: Float32Array<ArrayBuffer>;
  private seen = 0;
  private kept = 0;

  constructor(
    budget: number,
    private readonly total: number,
  ) {
    this.n = Math.max(0, Math.min(Math.floor(budget), Math.floor(total)));
    this.real = new Float32Array(3 * this.n);
    this.sim = new Float32Array(3 * this.n);
    this.error = new Float32Array(this.n);
  }

  /** The evaluator's `pair` hook. */
  readonly add = (rw: Float64Array, a: number, sw: Float64Array, b: number, rr: number, sr: number): void => {
    const i = this.seen++;
    if (this.kept >= this.n || (i * this.n) % this.total >= this.n) return;
    const k = this.kept++;
    const hitR = Number.isFinite(rr), hitS = Number.isFinite(sr);
    for (let d = 0; d < 3; d++) {
      this.real[3 * k + d] = hitR ? rw[a + d]! : NaN;
      this.sim[3 * k + d] = hitS ? sw[b + d]! : NaN;
    }
    this.error[k] = hitR && hitS ? sr - rr : NaN;
  };

  finish(): RayErrorSample {
    const k = this.kept;
    return { seen: this.seen, real: this.real.slice(0, 3 * k), sim: this.sim.slice(0, 3 * k), error: this.error.slice(0, k) };
  }
}
