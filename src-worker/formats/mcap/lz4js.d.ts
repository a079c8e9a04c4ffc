// lz4js ships no types; these are the functions used: the MCAP writer's compress, and decompress,
// which tests read Thicket's MCAP files back with (reading has its own bounds-checked decoder,
// lz4-frame.ts).
declare module 'lz4js' {
  /** Compresses to an LZ4 frame. */
  export function compress(src: Uint8Array, maxSize?: number): Uint8Array;
  /** Decompresses an LZ4 frame. */
  export function decompress(src: Uint8Array, maxSize?: number): Uint8Array;
}
