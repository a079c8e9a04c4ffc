/**
 * The compiled ray kernel (ray-kernel-wasm.ts, built from the C files beside it) and what every
 * instance of it exports. One WebAssembly.Module per thread, compiled on first use.
 */
import { RAY_KERNEL_WASM } from './ray-kernel-wasm';

export interface KernelExports {
  rk_init(scene: number, scratch: number): void;
  rk_scratch_bytes(): number;
  rk_hit(): number;
  rk_elem(): number;
  rk_stack_size(): number;
  rk_closest(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number): number;
  rk_trav_begin(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number): number;
  rk_trav_next(): number;
  rk_beam_dirs(): number;
  rk_beam_out(): number;
  rk_closest_beam(ox: number, oy: number, oz: number, count: number, tmin: number, tmax: number): number;
  rk_collect(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number, ray: number): void;
  __heap_base: WebAssembly.Global;
  __tls_size: WebAssembly.Global;
  __stack_pointer: WebAssembly.Global;
  __wasm_init_tls(at: number): void;
}

export const PAGE = 65536;
/** wasm32 addresses 4 GiB. */
export const MAX_PAGES = 65536;

/** What rk_collect hands the host for each element: ray tag, primitive, element, t, m², σ_t². */
export type KernelSink = (ray: number, prim: number, elem: number, t: number, m2: number, varT: number) => void;

/** The module's imports over `memory`, with rk_collect's sink calling whatever `sink.fn` is now. */
export function kernelImports(memory: WebAssembly.Memory, sink: { fn: KernelSink }): WebAssembly.Imports {
  return { env: { memory, rk_sink: (ray: number, prim: number, elem: number, t: number, m2: number, varT: number) => sink.fn(ray, prim, elem, t, m2, varT) } };
}

const NO_SINK = { fn: () => undefined };

/** What the module's static layout fixes: where free memory starts and its stacks' depth. */
export interface KernelStatics {
  heapBase: number;
  stackEntries: number;
}

let compiled: WebAssembly.Module | null | undefined;
let statics: KernelStatics | undefined;

/** The compiled module, or null where this runtime lacks WebAssembly SIMD or threads. */
export function kernelModule(): WebAssembly.Module | null {
  if (compiled !== undefined) return compiled;
  compiled = null;
  if (typeof WebAssembly === 'object' && typeof SharedArrayBuffer === 'function') {
    const bin = atob(RAY_KERNEL_WASM);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    if (WebAssembly.validate(bytes)) compiled = new WebAssembly.Module(bytes);
  }
  return compiled;
}

/** Whether this runtime can run the kernel at all. */
export function rayKernelAvailable(): boolean {
  return kernelModule() !== null;
}

/** The module's static layout, read once from a throwaway instance. */
export function kernelStatics(mod: WebAssembly.Module): KernelStatics {
  if (!statics) {
    const memory = new WebAssembly.Memory({ initial: 32, maximum: 32, shared: true });
    const exp = new WebAssembly.Instance(mod, kernelImports(memory, NO_SINK)).exports as unknown as KernelExports;
    statics = { heapBase: exp.__heap_base.value as number, stackEntries: exp.rk_stack_size() };
  }
  return statics;
}
