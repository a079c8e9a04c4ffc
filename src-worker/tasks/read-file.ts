import { open } from 'node:fs/promises';
import type { TaskContext } from './task-context';

const BLOCK = 8 * 1024 * 1024;

/**
 * Reads a whole file in blocks so a large read reports progress and can be cancelled.
 * (Streaming decoders for multi-gigabyte captures come with the pcap importers.)
 */
export async function readFileWithProgress(
  path: string,
  ctx: TaskContext,
  span: [number, number],
  label: string,
): Promise<Uint8Array<ArrayBuffer>> {
  let fh;
  try {
    fh = await open(path, 'r');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a folder' : String((e as Error).message);
    throw new Error(`${path}: cannot read: ${why}`, { cause: e });
  }
  try {
    const size = (await fh.stat()).size;
    const out = new Uint8Array(size);
    let off = 0;
    while (off < size) {
      ctx.checkCancelled();
      const { bytesRead } = await fh.read(out, off, Math.min(BLOCK, size - off), off);
      if (bytesRead === 0) throw new Error(`${path}: the file shrank while it was read (at byte ${off})`);
      off += bytesRead;
      ctx.progress(span[0] + ((span[1] - span[0]) * off) / size, label);
    }
    return out;
  } finally {
    await fh.close();
  }
}
