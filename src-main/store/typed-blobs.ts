/**
 * Typed arrays <-> SQLite BLOBs.
 *
 * Writing wraps the array's own memory in a Buffer (no copy: a 50 MB array is not
 * duplicated on its way into SQLite). Reading copies the BLOB into a fresh, exactly-sized
 * ArrayBuffer: better-sqlite3 may hand back a Buffer that is a view into a larger or
 * unaligned allocation, and a fresh buffer is aligned for any element type and can be
 * transferred to a worker without dragging unrelated bytes along.
 *
 * Bytes are stored in host order. Every platform Thicket ships on is little-endian; the
 * check below makes a big-endian host fail loudly instead of reading garbage.
 */

export interface DtypeArrays {
  f32: Float32Array<ArrayBuffer>;
  f64: Float64Array<ArrayBuffer>;
  i8: Int8Array<ArrayBuffer>;
  u8: Uint8Array<ArrayBuffer>;
  i16: Int16Array<ArrayBuffer>;
  u16: Uint16Array<ArrayBuffer>;
  i32: Int32Array<ArrayBuffer>;
  u32: Uint32Array<ArrayBuffer>;
}
export type Dtype = keyof DtypeArrays;
export type StorableArray = DtypeArrays[Dtype];
/** Any typed array of a storable element type, whatever buffer backs it (for writing). */
export type AnyStorableArray =
  | Float32Array
  | Float64Array
  | Int8Array
  | Uint8Array
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array;

const CTORS: { [D in Dtype]: new (buffer: ArrayBuffer) => DtypeArrays[D] } = {
  f32: Float32Array,
  f64: Float64Array,
  i8: Int8Array,
  u8: Uint8Array,
  i16: Int16Array,
  u16: Uint16Array,
  i32: Int32Array,
  u32: Uint32Array,
};

export const DTYPES = Object.keys(CTORS) as Dtype[];

export const BYTES_PER_ELEMENT: Readonly<Record<Dtype, number>> = {
  f32: 4,
  f64: 8,
  i8: 1,
  u8: 1,
  i16: 2,
  u16: 2,
  i32: 4,
  u32: 4,
};

if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) {
  throw new Error('Thicket stores typed arrays little-endian and cannot run on a big-endian host');
}

export function isDtype(value: unknown): value is Dtype {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(CTORS, value);
}

/** The dtype of a storable array, else null (Uint8ClampedArray, BigInt arrays, DataView, non-arrays). */
export function dtypeOrNull(array: unknown): Dtype | null {
  if (array instanceof Float32Array) return 'f32';
  if (array instanceof Float64Array) return 'f64';
  if (array instanceof Int8Array) return 'i8';
  if (array instanceof Uint8Array) return 'u8'; // Buffer is a Uint8Array too
  if (array instanceof Int16Array) return 'i16';
  if (array instanceof Uint16Array) return 'u16';
  if (array instanceof Int32Array) return 'i32';
  if (array instanceof Uint32Array) return 'u32';
  return null;
}

export function dtypeOf(array: ArrayBufferView): Dtype {
  const dtype = dtypeOrNull(array);
  if (dtype === null) {
    throw new TypeError(`cannot store a ${array.constructor.name}: storable arrays are ${DTYPES.join(', ')}`);
  }
  return dtype;
}

/** A Buffer over the array's bytes, sharing its memory (no copy). */
export function toBlob(array: ArrayBufferView): Buffer {
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength);
}

/** A byte range of an array as a Buffer sharing its memory (for chunked writes). */
export function blobSlice(array: ArrayBufferView, byteStart: number, byteEnd: number): Buffer {
  return Buffer.from(array.buffer, array.byteOffset + byteStart, byteEnd - byteStart);
}

/** Copies a BLOB into a fresh ArrayBuffer viewed as `dtype`; `what` names it in errors. */
export function fromBlob<D extends Dtype>(blob: Uint8Array, dtype: D, what = 'blob'): DtypeArrays[D] {
  const size = BYTES_PER_ELEMENT[dtype];
  if (blob.byteLength % size !== 0) {
    throw new Error(`${what}: ${blob.byteLength} bytes is not a whole number of ${dtype} elements`);
  }
  const buffer = new ArrayBuffer(blob.byteLength);
  new Uint8Array(buffer).set(blob);
  return new CTORS[dtype](buffer);
}

/** A fresh, zeroed array of `length` elements of `dtype`. */
export function allocate<D extends Dtype>(dtype: D, length: number): DtypeArrays[D] {
  return new CTORS[dtype](new ArrayBuffer(length * BYTES_PER_ELEMENT[dtype]));
}
