/**
 * LZ4 frame decompression with every length checked (MCAP's 'lz4' chunks).
 *
 * lz4js trusts the frame: a corrupt block size sends its copy loops through up to 2³¹ bytes
 * that are not there, minutes of work on a few damaged bytes. Here a block must lie inside the
 * input, literals and matches inside the output, and the output must come out at the size the
 * chunk states; anything else throws (the MCAP reader turns it into a DecodeError).
 */
const MAGIC = 0x184d2204;
const SKIPPABLE_MASK = 0xfffffff0;
const SKIPPABLE = 0x184d2a50;
const BLOCK_MAX = [0, 0, 0, 0, 64 << 10, 256 << 10, 1 << 20, 4 << 20];

function u32(src: Uint8Array, at: number): number {
  if (at + 4 > src.length) throw new Error(`lz4 frame ends at byte ${src.length}, inside a 4-byte field at ${at}`);
  return (src[at]! | (src[at + 1]! << 8) | (src[at + 2]! << 16) | (src[at + 3]! << 24)) >>> 0;
}

/** Decompresses one or more concatenated LZ4 frames into exactly `size` bytes. */
export function lz4FrameDecompress(src: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(size);
  let s = 0, d = 0;
  while (s < src.length) {
    const magic = u32(src, s);
    if ((magic & SKIPPABLE_MASK) >>> 0 === SKIPPABLE) {
      s += 8 + u32(src, s + 4);
      continue;
    }
    if (magic !== MAGIC) throw new Error(`lz4: no frame magic at byte ${s}`);
    s += 4;
    if (s + 2 > src.length) throw new Error('lz4 frame header is cut short');
    const flg = src[s]!, bd = src[s + 1]!;
    if (flg >> 6 !== 1) throw new Error(`lz4 frame version ${flg >> 6} (expected 1)`);
    const blockChecksum = (flg & 0x10) !== 0, contentSize = (flg & 0x08) !== 0, contentChecksum = (flg & 0x04) !== 0, dictId = (flg & 0x01) !== 0;
    const blockMax = BLOCK_MAX[(bd >> 4) & 7]!;
    if (blockMax === 0) throw new Error(`lz4 frame block size code ${(bd >> 4) & 7}`);
    s += 2 + (contentSize ? 8 : 0) + (dictId ? 4 : 0) + 1; // + header checksum
    for (;;) {
      const word = u32(src, s);
      s += 4;
      if (word === 0) break; // end mark
      const stored = (word & 0x80000000) !== 0;
      const n = word & 0x7fffffff;
      if (n > blockMax || s + n > src.length) throw new Error(`lz4 block of ${n} bytes at byte ${s - 4} does not fit (block limit ${blockMax}, ${src.length - s} bytes left)`);
      if (stored) {
        if (d + n > size) throw new Error(`lz4 output exceeds the stated ${size} bytes`);
        out.set(src.subarray(s, s + n), d);
        d += n;
      } else {
        d = decodeBlock(src, s, s + n, out, d);
      }
      s += n + (blockChecksum ? 4 : 0);
    }
    if (contentChecksum) s += 4;
  }
  if (d !== size) throw new Error(`lz4 chunk decompressed to ${d} bytes, its record says ${size}`);
  return out;
}

/**
 * The LZ4 length extension at src[s..): a 4-bit length of 15 continues in the bytes that
 * follow, each added to it, up to and including the first byte below 255. Returns their sum,
 * or −1 when they run past `end`.
 */
function lengthExtension(src: Uint8Array, s: number, end: number): number {
  let sum = 0, b: number;
  do {
    if (s >= end) return -1;
    b = src[s++]!;
    sum += b;
  } while (b === 255);
  return sum;
}

/** How many bytes an extension of this sum took: every byte but the last is 255, the last < 255. */
function extensionBytes(sum: number): number {
  return Math.floor(sum / 255) + 1;
}

/** One LZ4 block src[s, end) appended to out at d; returns the new end of the output. */
function decodeBlock(src: Uint8Array, s: number, end: number, out: Uint8Array, d: number): number {
  const cap = out.length;
  const overrun = (at = s): never => { throw new Error(`lz4 block at byte ${at} runs past its data or the stated output size`); };
  while (s < end) {
    const token = src[s++]!;
    let lit = token >> 4;
    if (lit === 15) {
      const ext = lengthExtension(src, s, end);
      if (ext < 0) overrun(end);
      lit += ext;
      s += extensionBytes(ext);
    }
    if (s + lit > end || d + lit > cap) overrun();
    out.set(src.subarray(s, s + lit), d);
    s += lit;
    d += lit;
    if (s >= end) break; // the last sequence has literals only
    if (s + 2 > end) overrun();
    const offset = src[s]! | (src[s + 1]! << 8);
    s += 2;
    if (offset === 0 || offset > d) throw new Error(`lz4 match offset ${offset} at output byte ${d} points before the start`);
    let len = token & 15;
    if (len === 15) {
      const ext = lengthExtension(src, s, end);
      if (ext < 0) overrun(end);
      len += ext;
      s += extensionBytes(ext);
    }
    len += 4;
    if (d + len > cap) overrun();
    if (offset >= len) out.copyWithin(d, d - offset, d - offset + len);
    else for (let i = 0; i < len; i++) out[d + i] = out[d - offset + i]!;
    d += len;
  }
  return d;
}
