/**
 * Reads a LAZ chunk table in JavaScript, so the file can be checked before laz-perf sees it.
 *
 * Why: laz-perf (WASM, C++ exceptions disabled) leaks about 1 MiB of its heap whenever opening a
 * file fails, and sizes a vector from the table's chunk count before reading it. Decoding the
 * table here first — the entries are LASzip's adaptive arithmetic code, an integer compressor
 * with 32-bit correctors and two contexts — means laz-perf is only ever given a table that
 * decodes within the file, whose chunks tile the point data and whose counts add up.
 *
 * The decoder is written from the published LASzip coding scheme (Said's arithmetic coder with
 * periodic model updates: 15-bit symbol and 13-bit bit-model probabilities).
 */

const MIN_LENGTH = 0x01000000;
const DM_LENGTH_SHIFT = 15;
const DM_MAX_COUNT = 1 << 15;
const BM_LENGTH_SHIFT = 13;
const BM_MAX_COUNT = 1 << 13;

/** Thrown when the coder needs a byte past `end`; the caller turns it into a DecodeError. */
export class OutOfData extends Error {}

class SymbolModel {
  readonly symbols: number;
  readonly distribution: Uint32Array;
  private readonly counts: Uint32Array;
  private total = 0;
  private cycle: number;
  untilUpdate: number;

  constructor(symbols: number) {
    this.symbols = symbols;
    this.distribution = new Uint32Array(symbols);
    this.counts = new Uint32Array(symbols).fill(1);
    this.cycle = symbols;
    this.untilUpdate = 0;
    this.update();
    this.untilUpdate = this.cycle = (symbols + 6) >>> 1;
  }

  hit(sym: number): void {
    this.counts[sym]!++;
    if (--this.untilUpdate === 0) this.update();
  }

  private update(): void {
    if ((this.total += this.cycle) > DM_MAX_COUNT) {
      this.total = 0;
      for (let k = 0; k < this.symbols; k++) this.total += this.counts[k] = (this.counts[k]! + 1) >>> 1;
    }
    const scale = Math.floor(0x80000000 / this.total);
    let sum = 0;
    for (let k = 0; k < this.symbols; k++) {
      this.distribution[k] = (scale * sum) >>> (31 - DM_LENGTH_SHIFT);
      sum += this.counts[k]!;
    }
    this.cycle = Math.min((5 * this.cycle) >>> 2, (this.symbols + 6) << 3);
    this.untilUpdate = this.cycle;
  }
}

class BitModel {
  prob0 = 1 << (BM_LENGTH_SHIFT - 1);
  private count0 = 1;
  private count = 2;
  private cycle = 4;
  untilUpdate = 4;

  hit(bit: number): void {
    if (bit === 0) this.count0++;
    if (--this.untilUpdate === 0) this.update();
  }

  private update(): void {
    if ((this.count += this.cycle) > BM_MAX_COUNT) {
      this.count = (this.count + 1) >>> 1;
      this.count0 = (this.count0 + 1) >>> 1;
      if (this.count0 === this.count) this.count++;
    }
    this.prob0 = ((this.count0 * Math.floor(0x80000000 / this.count)) >>> (31 - BM_LENGTH_SHIFT));
    this.cycle = Math.min((5 * this.cycle) >>> 2, 64);
    this.untilUpdate = this.cycle;
  }
}

class ArithmeticDecoder {
  private value = 0;
  private length = 0xffffffff;
  pos: number;

  constructor(private readonly bytes: Uint8Array, start: number, private readonly end: number) {
    this.pos = start;
    for (let i = 0; i < 4; i++) this.value = ((this.value << 8) | this.byte()) >>> 0;
  }

  private byte(): number {
    if (this.pos >= this.end) throw new OutOfData();
    return this.bytes[this.pos++]!;
  }

  private renorm(): void {
    do {
      this.value = ((this.value << 8) | this.byte()) >>> 0;
      this.length = (this.length << 8) >>> 0;
    } while (this.length < MIN_LENGTH);
  }

  symbol(m: SymbolModel): number {
    let x = 0, sym = 0, y = this.length;
    this.length >>>= DM_LENGTH_SHIFT;
    let n = m.symbols;
    let k = n >>> 1;
    // Bisection for the symbol whose cumulative interval holds `value`.
    do {
      const z = this.length * m.distribution[k]!;
      if (z > this.value) { n = k; y = z; } else { sym = k; x = z; }
    } while ((k = (sym + n) >>> 1) !== sym);
    this.value -= x;
    this.length = y - x;
    if (this.length < MIN_LENGTH) this.renorm();
    m.hit(sym);
    return sym;
  }

  bit(m: BitModel): number {
    const x = m.prob0 * (this.length >>> BM_LENGTH_SHIFT);
    const bit = this.value >= x ? 1 : 0;
    if (bit === 0) this.length = x;
    else { this.value -= x; this.length -= x; }
    if (this.length < MIN_LENGTH) this.renorm();
    m.hit(bit);
    return bit;
  }

  bits(n: number): number {
    if (n > 19) {
      const low = this.bits(16);
      return ((this.bits(n - 16) * 65536) + low) >>> 0;
    }
    this.length >>>= n;
    const sym = Math.floor(this.value / this.length);
    this.value -= this.length * sym;
    if (this.length < MIN_LENGTH) this.renorm();
    return sym;
  }
}

/** LASzip's integer decompressor for 32-bit values (corrector range 2^32, bits_high 8). */
class IntegerDecompressor {
  private readonly kModels: SymbolModel[];
  private readonly c0 = new BitModel();
  private readonly corr: SymbolModel[] = [];

  constructor(contexts: number) {
    this.kModels = Array.from({ length: contexts }, () => new SymbolModel(33));
    for (let i = 1; i <= 32; i++) this.corr.push(new SymbolModel(i <= 8 ? 1 << i : 256));
  }

  decompress(dec: ArithmeticDecoder, pred: number, context: number): number {
    const k = dec.symbol(this.kModels[context]!);
    let c: number;
    if (k === 0) c = dec.bit(this.c0);
    else if (k === 32) c = -0x80000000;
    else {
      if (k <= 8) c = dec.symbol(this.corr[k - 1]!);
      else {
        const k1 = k - 8;
        c = dec.symbol(this.corr[k - 1]!) * 2 ** k1 + dec.bits(k1);
      }
      // Map [0, 2^k) back onto [-(2^k - 1), -2^(k-1)] ∪ [2^(k-1) + 1, 2^k].
      c = c >= 2 ** (k - 1) ? c + 1 : c - (2 ** k - 1);
    }
    return (pred + c) | 0; // 32-bit wrap-around, as the C++ int arithmetic
  }
}

export interface ChunkTable {
  /** Points per chunk. */
  counts: number[];
  /** Compressed bytes per chunk. */
  sizes: number[];
}

/**
 * Decodes `chunkCount` entries starting at `start` (just after the table's 8-byte header).
 * `fixedCounts` gives the counts of fixed-size chunks (they are not stored); null means
 * variable-size chunks, whose counts are in the table. Throws OutOfData when the code runs
 * past `end`.
 */
export function decodeChunkTable(bytes: Uint8Array, start: number, end: number, chunkCount: number, fixedCounts: number[] | null): ChunkTable {
  const dec = new ArithmeticDecoder(bytes, start, end);
  const ic = new IntegerDecompressor(2);
  const counts: number[] = [], sizes: number[] = [];
  let prevCount = 0, prevSize = 0;
  for (let i = 0; i < chunkCount; i++) {
    if (fixedCounts) counts.push(fixedCounts[i]!);
    else {
      prevCount = ic.decompress(dec, prevCount, 0);
      counts.push(prevCount >>> 0);
    }
    prevSize = ic.decompress(dec, prevSize, 1);
    sizes.push(prevSize >>> 0);
  }
  return { counts, sizes };
}
