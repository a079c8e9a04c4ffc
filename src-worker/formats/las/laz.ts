/**
 * LAZ (LASzip-compressed LAS) through laz-perf, a WASM build of LASzip's decoder.
 *
 * The WASM module loads asynchronously, so LAZ needs `await initLaz()` before decodeLas sees a
 * .laz file; decoding itself is synchronous. laz-perf is built without C++ exception support: a
 * failure inside it arrives as a bare number/string, unwinds no C++ state, leaves the WASM stack
 * pointer where it was and, when it happens while opening, leaks ~1 MiB of heap. So:
 *  - validateLaz checks everything laz-perf's open reads (LASzip VLR, compressor, chunk table
 *    offset, the chunk table itself decoded in JS) and refuses what would make it fail or size
 *    a vector from a corrupt count;
 *  - a failure while decoding points (corrupt compressed data) restores the stack pointer and
 *    becomes a DecodeError naming the chunk; the module stays in use (measured: 300 such
 *    failures in a row, then valid files still decode identically, heap flat at 6 MiB);
 *  - an unexpected failure (open despite validation, a WASM trap, delete failing) drops the
 *    module: a fresh one loads in the background and LAZ decoding throws a plain Error
 *    ("await initLaz()") until it is there; calling `await initLaz()` before each LAZ file is
 *    cheap (it resolves at once when the module is ready);
 *  - a module whose heap has grown past RETIRE_HEAP (after a big file) is replaced in the
 *    background and keeps serving until the new one is ready, so memory goes back.
 * The WASM heap is limited to 2 GiB and holds a copy of the file: LAZ files up to ~1.5 GiB.
 */
import { createLazPerf } from 'laz-perf';
import { DecodeError } from '../decode-error';
import { LAS_FORMAT_SIZE, type LasHeader } from './las-header';
import { decodeChunkTable, OutOfData, type ChunkTable } from './laz-chunk-table';

/** The parts of the Emscripten module used here (laz-perf's own typings need @types/emscripten). */
interface LazModule {
  HEAPU8: Uint8Array;
  _malloc(size: number): number;
  _free(ptr: number): void;
  stackSave(): number;
  stackRestore(sp: number): void;
  LASZip: new () => {
    open(ptr: number, length: number): void;
    getPoint(ptr: number): void;
    getCount(): number;
    delete(): void;
  };
}

const RETIRE_HEAP = 512 * 2 ** 20;
/**
 * A corrupt header can claim billions of points over a small file. LASzip spends 1–4 bytes per
 * point on real scans and a few bits on the most regular synthetic grids; 64 points per
 * compressed byte (1/8 bit each) is beyond both and bounds the arrays and work a corrupt or
 * crafted count can ask for (a 1 MiB file: at most 67 M points).
 */
const MAX_POINTS_PER_BYTE = 64;
/**
 * laz-perf builds adaptive models for every extra byte of a record, ~2.7 KiB each, and WASM
 * memory never shrinks: a corrupt record length of 60 000 took the heap to 170 MiB. Real files
 * carry a few dozen extra bytes; 1024 (≈ 3 MiB of models) is the most accepted.
 */
const MAX_EXTRA_BYTES = 1024;
/** Point formats laz-perf decodes (pointwise 0–3, layered 6–8). */
const LAZ_FORMATS = new Set([0, 1, 2, 3, 6, 7, 8]);

/** The module decodes go to; null before initLaz and after a failure until a new one loads. */
let engine: LazModule | null = null;
let loading: Promise<void> | null = null;
/** Set when the healthy engine should be swapped for a fresh one (heap grown). */
let replace = false;

/** Loads the LAZ decoder (once per thread, and again after a failure); resolves at once when ready. */
export function initLaz(): Promise<void> {
  if (engine && !replace) return Promise.resolve();
  loading ??= (createLazPerf() as unknown as Promise<LazModule>).then(
    (m) => { engine = m; replace = false; loading = null; },
    (e: unknown) => { loading = null; throw e; },
  );
  return loading;
}

/** Whether decodeLas can decode LAZ now. */
export function lazReady(): boolean {
  return engine !== null;
}

/** Bytes of WASM memory the LAZ decoder holds now (0 before initLaz): for tests and diagnostics. */
export function lazHeapBytes(): number {
  return engine ? engine.HEAPU8.length : 0;
}

/** Drops the module at once (after a failure inside it) and loads a fresh one in the background. */
function dropEngine(): void {
  engine = null;
  initLaz().catch(() => { /* the next initLaz() call reports it */ });
}

/** Loads a fresh module in the background; the current one serves until it is ready. */
function replaceEngine(): void {
  replace = true;
  initLaz().catch(() => { /* the next initLaz() call reports it */ });
}

/** Where the compressed data is: chunk byte ranges and point counts, all checked. */
export interface LazLayout {
  firstChunk: number;
  table: ChunkTable;
}

/** Checks a LAZ file's LASzip VLR and chunk table against the header and the file size. */
export function validateLaz(bytes: Uint8Array, h: LasHeader, name: string): LazLayout {
  const fail = (reason: string, offset: number): DecodeError => new DecodeError(name, reason, { offset });
  const z = h.laszip!;
  if (!LAZ_FORMATS.has(h.format)) throw fail(`LAZ point format ${h.format} is not supported (0–3, 6–8)`, 104);
  const wantCompressor = h.format <= 5 ? 2 : 3;
  if (z.compressor !== wantCompressor || z.coder !== 0) {
    throw fail(`LASzip compressor ${z.compressor}, coder ${z.coder} at byte ${z.at} do not match point format ${h.format} (chunked compressor ${wantCompressor}, arithmetic coder 0)`, z.at);
  }
  if (z.chunkSize === 0) throw fail(`LASzip chunk size 0 at byte ${z.at + 12}`, z.at + 12);
  const extra = h.recordLength - LAS_FORMAT_SIZE[h.format]!;
  if (extra > MAX_EXTRA_BYTES) throw fail(`LAZ record length ${h.recordLength} at byte 105 has ${extra} extra bytes per point (at most ${MAX_EXTRA_BYTES} are supported)`, 105);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = h.pointOffset;
  if (at + 8 > bytes.length) throw fail(`truncated at byte ${bytes.length}: the chunk table offset at byte ${at} is missing`, at);
  const tableOffset = Number(dv.getBigInt64(at, true));
  if (tableOffset === -1) throw fail(`chunk table offset -1 at byte ${at}: streamed LAZ without a chunk table offset is not supported`, at);
  const firstChunk = at + 8;
  if (tableOffset < firstChunk || tableOffset + 8 > bytes.length) {
    throw fail(`chunk table offset ${tableOffset} at byte ${at} is outside the file (points start at ${firstChunk}, file has ${bytes.length} bytes)`, at);
  }
  const version = dv.getUint32(tableOffset, true);
  const chunks = dv.getUint32(tableOffset + 4, true);
  if (version !== 0) throw fail(`chunk table version ${version} at byte ${tableOffset} (expected 0)`, tableOffset);
  const dataBytes = tableOffset - firstChunk;
  if (h.count > MAX_POINTS_PER_BYTE * dataBytes) {
    throw fail(`${h.count} points cannot be in ${dataBytes} compressed bytes (more than ${MAX_POINTS_PER_BYTE} per byte)`, h.versionMinor === 4 ? 247 : 107);
  }
  let fixed: number[] | null = null;
  if (z.chunkSize !== 0xffffffff) {
    const need = Math.ceil(h.count / z.chunkSize);
    if (chunks !== need) throw fail(`chunk table at byte ${tableOffset} has ${chunks} chunks; ${h.count} points in chunks of ${z.chunkSize} need ${need}`, tableOffset + 4);
    fixed = Array.from({ length: chunks }, (_, i) => Math.min(z.chunkSize, h.count - i * z.chunkSize));
  } else if (chunks > dataBytes || (chunks === 0 && h.count > 0)) {
    throw fail(`chunk table at byte ${tableOffset}: ${chunks} chunks for ${h.count} points in ${dataBytes} bytes`, tableOffset + 4);
  }
  let table: ChunkTable;
  try {
    table = decodeChunkTable(bytes, tableOffset + 8, bytes.length, chunks, fixed);
  } catch (e) {
    if (e instanceof OutOfData) throw fail(`truncated: the chunk table at byte ${tableOffset} runs past the end of the file`, bytes.length);
    throw e;
  }
  let total = 0, end = firstChunk;
  for (let i = 0; i < chunks; i++) {
    const c = table.counts[i]!, s = table.sizes[i]!;
    if (c === 0 || s === 0) throw fail(`chunk ${i} of the chunk table at byte ${tableOffset} has ${c} points in ${s} bytes`, tableOffset);
    total += c;
    end += s;
  }
  if (total !== h.count) throw fail(`chunk table at byte ${tableOffset} holds ${total} points, the header says ${h.count}`, tableOffset);
  if (end > tableOffset) throw fail(`chunks at byte ${firstChunk} add up to ${end - firstChunk} bytes, past the chunk table at byte ${tableOffset}`, tableOffset);
  return { firstChunk, table };
}

/**
 * Decompresses every point record in order and hands each to `onRecord` as a view of WASM
 * memory with the record at `o` (the standard LAS record layout, extra bytes included). Call
 * validateLaz first.
 */
export function decodeLazRecords(
  bytes: Uint8Array,
  h: LasHeader,
  layout: LazLayout,
  name: string,
  onRecord: (dv: DataView, o: number, i: number) => void,
): void {
  const L = engine;
  if (!L) throw new Error('the LAZ decoder is not loaded: `await initLaz()` first (it reloads after a corrupt file)');
  const sp = L.stackSave();
  const src = L._malloc(bytes.length);
  const pt = src ? L._malloc(Math.max(h.recordLength, LAS_FORMAT_SIZE[h.format]!)) : 0;
  if (!src || !pt) {
    if (src) L._free(src);
    throw new DecodeError(name, `${bytes.length} bytes are too many for the LAZ decoder's 2 GiB memory`, { offset: 0 });
  }
  L.HEAPU8.set(bytes, src);
  const zip = new L.LASZip();
  let i = 0, opened = false;
  try {
    zip.open(src, bytes.length);
    opened = true;
    const n = zip.getCount();
    if (n !== h.count) throw new DecodeError(name, `laz-perf counts ${n} points, the header says ${h.count}`, { offset: 107 });
    let heap = L.HEAPU8.buffer;
    let dv = new DataView(heap);
    for (; i < n; i++) {
      zip.getPoint(pt);
      // The heap can grow (a new chunk's decoder allocates), which replaces its buffer.
      if (L.HEAPU8.buffer !== heap) { heap = L.HEAPU8.buffer; dv = new DataView(heap); }
      onRecord(dv, pt, i);
    }
  } catch (e) {
    L.stackRestore(sp);
    if (e instanceof DecodeError) throw e;
    if (!opened || e instanceof WebAssembly.RuntimeError) dropEngine();
    if (!opened) throw new DecodeError(name, `laz-perf could not open the file (${describe(e)})`, { offset: 0 });
    const { chunk, start } = chunkOf(layout, i);
    throw new DecodeError(name, `corrupt LAZ data: point ${i} of ${h.count} in chunk ${chunk} (from byte ${start}) does not decode (${describe(e)})`, { offset: start });
  } finally {
    if (engine === L) {
      try {
        zip.delete();
        L._free(pt);
        L._free(src);
      } catch {
        dropEngine();
      }
      if (engine === L && L.HEAPU8.length > RETIRE_HEAP) replaceEngine();
    }
  }
}

function chunkOf(layout: LazLayout, point: number): { chunk: number; start: number } {
  let start = layout.firstChunk, seen = 0;
  const { counts, sizes } = layout.table;
  for (let c = 0; c < counts.length; c++) {
    if (point < seen + counts[c]!) return { chunk: c, start };
    seen += counts[c]!;
    start += sizes[c]!;
  }
  return { chunk: counts.length, start };
}

/** laz-perf throws numbers or "<ptr> - Exception catching is disabled..." strings: keep it short. */
function describe(e: unknown): string {
  if (e instanceof Error) return e.message.slice(0, 80);
  return 'laz-perf error';
}
