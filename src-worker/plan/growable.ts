/** Append-only typed arrays that double when full (a run's history grows scan by scan). */

abstract class Growable<T extends Float64Array | Float32Array | Uint32Array | Uint8Array> {
  protected data: T;
  length = 0;

  constructor(protected readonly make: (n: number) => T) {
    this.data = make(256);
  }

  push(v: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = v;
  }

  pushAll(vs: ArrayLike<number>): void {
    if (this.length + vs.length > this.data.length) this.grow(this.length + vs.length);
    for (let i = 0; i < vs.length; i++) this.data[this.length++] = vs[i]!;
  }

  last(): number {
    return this.data[this.length - 1]!;
  }

  /** The filled part (a view; valid until the next push). */
  view(): T {
    return this.data.subarray(0, this.length) as T;
  }

  /** A trimmed copy in its own buffer (transferable). */
  finish(): T {
    return this.data.slice(0, this.length) as T;
  }

  private grow(min: number): void {
    const next = this.make(Math.max(min, this.data.length * 2));
    next.set(this.data);
    this.data = next;
  }
}

export class F64Builder extends Growable<Float64Array> {
  constructor() {
    super((n) => new Float64Array(n));
  }
}
export class F32Builder extends Growable<Float32Array> {
  constructor() {
    super((n) => new Float32Array(n));
  }
}
export class U32Builder extends Growable<Uint32Array> {
  constructor() {
    super((n) => new Uint32Array(n));
  }
}
export class U8Builder extends Growable<Uint8Array> {
  constructor() {
    super((n) => new Uint8Array(n));
  }
}
