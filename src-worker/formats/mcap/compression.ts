/**
 * MCAP chunk compression: zstd (fzstd) and lz4 (LZ4 frame format, lz4-frame.ts) for reading, lz4
 * (lz4js) for writing (fzstd cannot compress).
 *
 * A chunk states its uncompressed size; a corrupt one could ask for gigabytes, so the size is
 * checked against MAX_CHUNK_BYTES and against what the compressed bytes could plausibly hold
 * before anything is allocated, and the output must come out at exactly that size.
 */
import { decompress as zstdDecompress } from 'fzstd';
import { compress as lz4Compress } from 'lz4js';
import { lz4FrameDecompress } from './lz4-frame';

/** No real chunk is larger (writers default to 1–8 MiB). */
export const MAX_CHUNK_BYTES = 1024 * 1024 * 1024;
/** zstd and lz4 reach ~1000:1 only on constant data; 4096:1 + 1 MiB leaves room for any real chunk. */
const MAX_RATIO = 4096;

function checkedSize(compressed: Uint8Array, size: bigint, codec: string): number {
  if (size > BigInt(MAX_CHUNK_BYTES)) throw new Error(`${codec} chunk claims ${size} uncompressed bytes (the limit is ${MAX_CHUNK_BYTES})`);
  const n = Number(size);
  if (n > compressed.byteLength * MAX_RATIO + (1 << 20)) {
    throw new Error(`${codec} chunk claims ${n} uncompressed bytes from ${compressed.byteLength} compressed ones`);
  }
  return n;
}

export const DECOMPRESS_HANDLERS: Record<string, (buffer: Uint8Array, decompressedSize: bigint) => Uint8Array> = {
  zstd: (buffer, size) => {
    const n = checkedSize(buffer, size, 'zstd');
    // Into a buffer of the stated size: fzstd then allocates nothing from the frame header's numbers.
    return zstdDecompress(buffer, new Uint8Array(n));
  },
  lz4: (buffer, size) => {
    return lz4FrameDecompress(buffer, checkedSize(buffer, size, 'lz4'));
  },
};

export function compressLz4(data: Uint8Array): { compression: string; compressedData: Uint8Array } {
  return { compression: 'lz4', compressedData: lz4Compress(data) };
}
