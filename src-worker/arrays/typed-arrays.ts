/**
 * Growing, trimming and joining typed arrays: the one home of the "double when full" storage
 * that the worker's builders use (chunks, series, meshes, search results, a run's history), so
 * that loops which push a value per ray or per point allocate only when a capacity doubles.
 */

/** The typed arrays these helpers take. */
export type TypedArray = Float64Array | Float32Array | Int32Array | Uint32Array | Uint16Array | Uint8Array;

/** A typed array constructor by length (Float64Array, Uint8Array, …). */
export type TypedArrayConstructor<T extends TypedArray> = new (length: number) => T;

/** A new array of a's type and `length` elements (≥ a.length) that starts with a's contents. */
export function grown<T extends TypedArray>(a: T, length: number): T {
  const b = new (a.constructor as TypedArrayConstructor<T>)(length);
  b.set(a as never);
  return b;
}

/**
 * The first n elements of a: a itself when that is all of it, else a copy in its own buffer.
 * For builders that are done after finishing (an exactly filled array is handed over as it is).
 */
export function trimmed<T extends TypedArray>(a: T, n: number): T {
  return (n === a.length ? a : a.slice(0, n)) as T;
}

/** The parts one after another, in a fresh array of `Ctor`'s type. */
export function concatenated<T extends TypedArray>(Ctor: TypedArrayConstructor<T>, parts: readonly ArrayLike<number>[]): T {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Ctor(n);
  let o = 0;
  for (const p of parts) {
    out.set(p as never, o);
    o += p.length;
  }
  return out;
}

/**
 * An append-only typed array that doubles when full (e.g. a run's history, grown scan by scan).
 * `new GrowableArray(Float64Array)`; push is small and monomorphic per instance's type.
 */
export class GrowableArray<T extends TypedArray> {
  private data: T;
  length = 0;

  constructor(Ctor: TypedArrayConstructor<T>, capacity = 256) {
    this.data = new Ctor(Math.max(1, capacity));
  }

  push(v: number): void {
    if (this.length === this.data.length) this.data = grown(this.data, this.data.length * 2);
    this.data[this.length++] = v;
  }

  pushAll(vs: ArrayLike<number>): void {
    if (this.length + vs.length > this.data.length) this.data = grown(this.data, Math.max(this.length + vs.length, this.data.length * 2));
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
}
