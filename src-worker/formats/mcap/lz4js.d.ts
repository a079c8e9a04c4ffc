// lz4js ships no types; this is the function the MCAP writer uses (reading has its own
// bounds-checked decoder, lz4-frame.ts).
declare module 'lz4js' {
  /** Compresses to an LZ4 frame. */
  export function compress(src: Uint8Array, maxSize?: number): Uint8Array;
}
