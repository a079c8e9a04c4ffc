import { DecodeError } from '../decode-error';

/**
 * LZF (liblzf, as PCL's binary_compressed uses it). A stream is a sequence of chunks:
 *   ctrl < 32:  a literal run of ctrl + 1 bytes follows;
 *   ctrl >= 32: a back-reference: len = ctrl >> 5 (7 means "add the next byte"), then one more
 *               offset byte; copies len + 2 bytes from ((ctrl & 31) << 8 | byte) + 1 bytes back.
 */

/** Longest match a back-reference can encode (7 + 255 + 2) and farthest distance (13 bits). */
const MAX_REF_LEN = 264;
const MAX_OFF = 1 << 13;
/** Each input byte produces at most this many output bytes (a 3-byte chunk copies 264). */
export const LZF_MAX_RATIO = 88;

/**
 * Decompresses `src` into exactly `outLength` bytes. Every read and write is bounds-checked and
 * throws DecodeError (with `baseOffset` + the position in `src`), so corrupt data can neither
 * crash nor loop: each chunk consumes at least one input byte.
 */
export function lzfDecompress(src: Uint8Array, outLength: number, file = 'LZF data', baseOffset = 0): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(outLength);
  const end = src.length;
  const fail = (ip: number, why: string): never => {
    throw new DecodeError(file, `corrupt LZF data at byte ${baseOffset + ip}: ${why}`, { offset: baseOffset + ip });
  };
  let ip = 0, op = 0;
  while (ip < end) {
    const start = ip;
    const ctrl = src[ip++]!;
    if (ctrl < 32) {
      const len = ctrl + 1;
      if (ip + len > end) fail(start, `literal run of ${len} bytes passes the end of the compressed data`);
      if (op + len > outLength) fail(start, `output would exceed the declared ${outLength} bytes`);
      out.set(src.subarray(ip, ip + len), op);
      ip += len; op += len;
    } else {
      let len = ctrl >> 5;
      if (len === 7) {
        if (ip >= end) fail(start, 'back-reference length byte missing');
        len += src[ip++]!;
      }
      if (ip >= end) fail(start, 'back-reference offset byte missing');
      len += 2;
      let ref = op - ((ctrl & 31) << 8) - src[ip++]! - 1;
      if (ref < 0) fail(start, `back-reference to ${-ref} bytes before the start of the output`);
      if (op + len > outLength) fail(start, `output would exceed the declared ${outLength} bytes`);
      // Byte by byte: the source may overlap the bytes being written (run-length repeats).
      for (let k = 0; k < len; k++) out[op++] = out[ref++]!;
    }
  }
  if (op !== outLength) fail(end, `decompressed to ${op} bytes, expected ${outLength}`);
  return out;
}

/**
 * LZF compression: greedy matching through a hash table of 3-byte prefixes. Its output is
 * readable by liblzf (and PCL); not as tight as liblzf's, which is fine for export.
 */
export function lzfCompress(src: Uint8Array): Uint8Array<ArrayBuffer> {
  const n = src.length;
  // Worst case: all literals, one control byte per 32.
  const out = new Uint8Array(n + Math.ceil(n / 32) + 1);
  const table = new Int32Array(1 << 14).fill(-1);
  let op = 0, ip = 0, lit = 0; // lit: start of the pending literal run
  const flushLiterals = (to: number): void => {
    while (lit < to) {
      const len = Math.min(32, to - lit);
      out[op++] = len - 1;
      out.set(src.subarray(lit, lit + len), op);
      op += len; lit += len;
    }
  };
  while (ip + 2 < n) {
    const a = src[ip]!, b = src[ip + 1]!, c = src[ip + 2]!;
    const h = Math.imul((a << 16) | (b << 8) | c, 0x9e3779b1) >>> 18; // 14-bit multiplicative hash
    const ref = table[h]!;
    table[h] = ip;
    const off = ip - ref - 1;
    if (ref >= 0 && off < MAX_OFF && src[ref] === a && src[ref + 1] === b && src[ref + 2] === c) {
      const max = Math.min(MAX_REF_LEN, n - ip);
      let len = 3;
      while (len < max && src[ref + len] === src[ip + len]) len++;
      flushLiterals(ip);
      const l = len - 2;
      if (l < 7) out[op++] = (l << 5) | (off >> 8);
      else { out[op++] = (7 << 5) | (off >> 8); out[op++] = l - 7; }
      out[op++] = off & 255;
      ip += len; lit = ip;
    } else ip++;
  }
  flushLiterals(n);
  return out.slice(0, op);
}
