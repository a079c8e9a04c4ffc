/**
 * Drawing a range (or a null) from a learned noise model (docs/methods.md §8): the beam's table
 * interpolated bilinearly at the features (nominal range r, incidence δ), clamped to the grid
 * it was learnt on. A ring the model does not know uses the beam of the nearest ring id.
 */
import type { LearnedNoiseTables, NoiseBeamTable } from '../../src-common/noise-model';
import type { RandomStream } from '../random/stream';
import { binCount } from './risk';

interface Corners {
  i0: number; i1: number; j0: number; j1: number; a: number; b: number;
}

function bracket(nodes: readonly number[], v: number): [number, number, number] {
  const n = nodes.length;
  if (n === 1 || !(v > nodes[0]!)) return [0, 0, 0];
  if (v >= nodes[n - 1]!) return [n - 1, n - 1, 0];
  let k = 0;
  while (k + 1 < n - 1 && nodes[k + 1]! <= v) k++;
  const span = nodes[k + 1]! - nodes[k]!;
  return [k, k + 1, span > 0 ? (v - nodes[k]!) / span : 0];
}

export class LearnedNoiseSampler {
  private readonly byRing = new Map<number, NoiseBeamTable>();
  private readonly rings: number[];
  private readonly B: number;
  private readonly c: Corners = { i0: 0, i1: 0, j0: 0, j1: 0, a: 0, b: 0 };

  constructor(readonly model: LearnedNoiseTables) {
    for (const t of model.beams) this.byRing.set(t.ring, t);
    this.rings = model.beams.map((t) => t.ring);
    this.B = binCount(model.bins);
    if (this.rings.length === 0) throw new Error('learned noise model: it has no beams');
  }

  private table(ring: number): NoiseBeamTable {
    const t = this.byRing.get(ring);
    if (t) return t;
    let best = this.rings[0]!;
    for (const r of this.rings) if (Math.abs(r - ring) < Math.abs(best - ring)) best = r;
    const found = this.byRing.get(best)!;
    this.byRing.set(ring, found);
    return found;
  }

  private locate(t: NoiseBeamTable, r: number, delta: number): Corners {
    const [i0, i1, a] = bracket(t.r, r);
    const [j0, j1, b] = bracket(t.delta, Number.isFinite(delta) ? delta : this.model.defaultIncidence);
    const c = this.c;
    c.i0 = i0; c.i1 = i1; c.j0 = j0; c.j1 = j1; c.a = a; c.b = b;
    return c;
  }

  private lerp(v: readonly number[], stride: number, c: Corners, k = 0, step = 1): number {
    const at = (i: number, j: number) => v[(i * stride + j) * step + k]!;
    return (1 - c.a) * ((1 - c.b) * at(c.i0, c.j0) + c.b * at(c.i0, c.j1)) + c.a * ((1 - c.b) * at(c.i1, c.j0) + c.b * at(c.i1, c.j1));
  }

  /** P_null, μ and σ at (r, δ) (P-Reg), for reports and tests. */
  parameters(ring: number, r: number, delta: number): { pNull: number; mu: number; sigma: number } {
    const t = this.table(ring);
    if (!t.pNull || !t.mu || !t.sigma) throw new Error('learned noise model: parameters() needs a P-Reg model');
    const c = this.locate(t, r, delta), s = t.delta.length;
    return { pNull: this.lerp(t.pNull, s, c), mu: this.lerp(t.mu, s, c), sigma: this.lerp(t.sigma, s, c) };
  }

  /** A reported range for a beam of `ring` whose nominal range is r at incidence δ (NaN: unknown); NaN for a null. */
  draw(ring: number, r: number, delta: number, rng: RandomStream): number {
    const t = this.table(ring);
    const c = this.locate(t, r, delta), s = t.delta.length;
    if (t.cdf) {
      const u = rng.next(), B = this.B, { width, span } = this.model.bins;
      let k = 0;
      while (k < B - 1 && this.lerp(t.cdf, s, c, k, B) <= u) k++;
      if (k === B - 1) return NaN;
      if (k === 0) return r - span;
      if (k === B - 2) return r + span;
      return r - span + (k - 1 + rng.next()) * width;
    }
    const pNull = this.lerp(t.pNull!, s, c);
    if (rng.next() < pNull) return NaN;
    return r + this.lerp(t.mu!, s, c) + this.lerp(t.sigma!, s, c) * rng.normal();
  }
}
