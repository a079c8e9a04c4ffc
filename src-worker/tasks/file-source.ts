import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { ByteSource } from '../formats/log-source';

/**
 * A ByteSource over a file, read on demand with positioned reads: decoders stream captures of
 * any size through it in windows they choose. Each read returns a fresh array.
 */
export function openFileSource(path: string, name: string): ByteSource & { close(): void } {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw cannotRead(path, e);
  }
  const size = fstatSync(fd).size;
  return {
    name,
    size,
    read(offset: number, length: number): Uint8Array {
      const start = Math.max(0, Math.min(size, offset));
      const n = Math.max(0, Math.min(length, size - start));
      const out = new Uint8Array(n);
      let done = 0;
      while (done < n) {
        const got = readSync(fd, out, done, n - done, start + done);
        if (got === 0) throw new Error(`${path}: the file shrank while it was read (at byte ${start + done})`);
        done += got;
      }
      return out;
    },
    close: () => closeSync(fd),
  };
}

/** The error for a file that cannot be opened: its path and the reason in words. */
function cannotRead(path: string, e: unknown): Error {
  const code = (e as NodeJS.ErrnoException).code;
  const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a folder' : String((e as Error).message);
  return new Error(`${path}: cannot read: ${why}`, { cause: e });
}
