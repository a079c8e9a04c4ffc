/**
 * Seeded random streams (shared by the worker and the renderer's scene editor). Determinism rule (docs/design.md, "Jobs and workers"): every packet draws from its own
 * stream derived from (seed, packet index), so output is bit-identical whatever the number of
 * workers or the order in which packets are simulated.
 *
 * xoshiro128** on 32-bit integers (Math.imul), seeded through splitmix32: hand-written rather
 * than pure-rand because it sits in the innermost ray loop, where an allocation or a call
 * through an immutable generator per draw costs more than the ray cast it serves.
 */

function splitmix32(state: number): [number, number] {
  state = (state + 0x9e3779b9) | 0;
  let z = state;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return [state, (z ^ (z >>> 16)) >>> 0];
}

export class RandomStream {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spareNormal = NaN;

  /** A stream for (seed, index): e.g. (run seed, packet index). Both must be integers ≥ 0 below 2^53. */
  constructor(seed: number, index = 0) {
    // Mix both 53-bit integers' high and low words into the splitmix state.
    const mixed = (seed >>> 0) ^ Math.imul(Math.floor(seed / 4294967296) | 0, 0x27d4eb2d);
    const [s0, out] = splitmix32(mixed ^ Math.imul(index >>> 0, 0x9e3779b1) ^ Math.imul(Math.floor(index / 4294967296) | 0, 0x165667b1));
    let s: number;
    [s, this.a] = splitmix32(s0 ^ out);
    [s, this.b] = splitmix32(s);
    [s, this.c] = splitmix32(s);
    [s, this.d] = splitmix32(s);
    if ((this.a | this.b | this.c | this.d) === 0) this.a = 1; // the all-zero state is a fixed point
    void s;
  }

  /** Uniform 32-bit unsigned integer. */
  nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result;
  }

  /** Uniform in [0, 1) with 32 bits of resolution. */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Uniform in (0, 1]: safe for logarithms. */
  nextOpen(): number {
    return (this.nextUint32() + 1) / 4294967296;
  }

  bernoulli(p: number): boolean {
    return this.next() < p;
  }

  /** Standard normal (Marsaglia polar method; the second value is kept for the next call). */
  normal(): number {
    if (!Number.isNaN(this.spareNormal)) {
      const v = this.spareNormal;
      this.spareNormal = NaN;
      return v;
    }
    let u: number, v: number, s: number;
    do {
      u = 2 * this.next() - 1;
      v = 2 * this.next() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const m = Math.sqrt((-2 * Math.log(s)) / s);
    this.spareNormal = v * m;
    return u * m;
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}
