/**
 * Moving bulk arrays into shared memory: every typed array of a value is copied once into a
 * SharedArrayBuffer, so the tasks of a job (every simulation batch, every replay batch) read the
 * same bytes and posting the value between threads copies nothing. A WebAssembly.Memory (the ray
 * kernel's shared layout) travels as it is.
 */
type Typed = Float32Array | Float64Array | Int32Array | Uint32Array | Uint16Array | Uint8Array | Int8Array | Int16Array;

export function toShared<T>(value: T): T {
  if (value instanceof WebAssembly.Memory) return value;
  if (ArrayBuffer.isView(value)) {
    const src = value as unknown as Typed;
    if (src.buffer instanceof SharedArrayBuffer) return value;
    const Ctor = src.constructor as new (b: SharedArrayBuffer) => Typed;
    const out = new Ctor(new SharedArrayBuffer(src.byteLength));
    out.set(src);
    return out as unknown as T;
  }
  if (Array.isArray(value)) return value.map((v) => toShared(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = toShared(v);
    return out as T;
  }
  return value;
}

/** Every (unshared) ArrayBuffer reachable from a value: the transfer list that moves it to another thread. */
export function transferList(value: unknown, out: ArrayBuffer[] = []): ArrayBuffer[] {
  if (ArrayBuffer.isView(value)) {
    if (value.buffer instanceof ArrayBuffer && !out.includes(value.buffer)) out.push(value.buffer);
  } else if (Array.isArray(value)) value.forEach((v) => transferList(v, out));
  else if (value && typeof value === 'object' && !(value instanceof WebAssembly.Memory)) Object.values(value).forEach((v) => transferList(v, out));
  return out;
}
