/**
 * Moving stored scenes into shared memory: every typed array of a scene is copied once into a
 * SharedArrayBuffer, so all simulation batches on the pool read the same bytes without copies.
 * shareScene also lays the scene out once for the WebAssembly ray kernel (kernel-scene.ts), in a
 * shared memory every worker's kernel imports.
 */
import type { SceneData } from '../../src-worker/scene/scene-data';
import { layoutKernelScene } from '../../src-worker/scene/kernel/kernel-scene';

type Typed = Float32Array | Float64Array | Int32Array | Uint32Array | Uint16Array | Uint8Array | Int8Array | Int16Array;

/** A scene ready for workers: its arrays shared, and its kernel layout made once for all of them. */
export function shareScene(data: SceneData): SceneData {
  const shared = toShared(data);
  if (!shared.kernel) {
    const kernel = layoutKernelScene(shared);
    if (kernel) shared.kernel = kernel;
  }
  return shared;
}

export function toShared<T>(value: T): T {
  if (value instanceof WebAssembly.Memory) return value; // a shared kernel memory travels as it is
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

/** Every ArrayBuffer reachable from a value (for transfer lists). */
export function collectBuffers(value: unknown, out: ArrayBuffer[] = []): ArrayBuffer[] {
  if (ArrayBuffer.isView(value)) {
    if (value.buffer instanceof ArrayBuffer && !out.includes(value.buffer)) out.push(value.buffer);
  } else if (Array.isArray(value)) value.forEach((v) => collectBuffers(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => collectBuffers(v, out));
  return out;
}
