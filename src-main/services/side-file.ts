/**
 * Reading the small files that come beside an input (a calibration, a poses file, a study's
 * mounts, an extrinsic) from the host's disk, bounded (docs/drive-logs.md, "Side files").
 *
 * Only a regular file is read: a device (`/dev/zero`), a named pipe or a socket is refused before
 * it is opened, since reading one may never end or may never start. A file larger than its
 * kind's limit is refused from its size, and one that grows past the limit while it is read is
 * refused too, so no side file can fill the host's memory.
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { basename } from 'node:path';
import { ApiError } from '../api/contract';

export interface SideFileKind {
  /** What the file is, for messages: "calibration file", "poses file". */
  what: string;
  maxBytes: number;
}

/** Calibrations and profile files (a Velodyne db.xml is ~50 KB; the real ones are under 100 KB). */
export const CALIBRATION_FILE: SideFileKind = { what: 'calibration file', maxBytes: 16 * 1024 * 1024 };
/** Poses: one row a scan or a GPS/INS fix; an hour at 100 Hz in TUM rows is ~40 MB. */
export const POSES_FILE: SideFileKind = { what: 'poses file', maxBytes: 64 * 1024 * 1024 };
/** A study's mounts: a JSON list of a few mounts, or an object of lists. */
export const MOUNTS_FILE: SideFileKind = { what: 'mounts file', maxBytes: 1024 * 1024 };

export function describeBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(n % (1024 * 1024) === 0 ? 0 : 1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(n % 1024 === 0 ? 0 : 1)} KiB`;
  return `${n} bytes`;
}

/**
 * The size of `path` if it is a regular file within `kind`'s limit; otherwise an ApiError that
 * names the file and the reason. Opens nothing.
 */
export function checkSideFile(path: string, kind: SideFileKind): number {
  let st: Stats;
  try {
    st = statSync(path);
  } catch (e) {
    throw readError(path, e);
  }
  checkStats(path, st, kind);
  return st.size;
}

/** Refuses what is not a regular file (a folder, a device, a pipe, a socket). */
export function requireRegularFile(path: string, st: Stats, what: string): void {
  if (st.isDirectory()) throw new ApiError('bad_input', `${path}: is a folder, not a file`);
  if (!st.isFile()) throw new ApiError('bad_input', `${path}: not a regular file (a ${kindOf(st)}), so it cannot be the ${what}`);
}

/** The whole file as UTF-8 text, checked as checkSideFile does. */
export function readSideFile(path: string, kind: SideFileKind): { name: string; text: string } {
  checkSideFile(path, kind);
  let fd: number;
  try {
    // Non-blocking: a pipe put in the file's place since the check cannot hold the open.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    throw readError(path, e);
  }
  try {
    const st = fstatSync(fd);
    checkStats(path, st, kind);
    // Room for one byte more than the file had, growing up to one byte more than the limit:
    // a file that grew past it since the check is refused, not read on.
    let buf = Buffer.allocUnsafe(st.size + 1);
    let length = 0;
    for (;;) {
      if (length === buf.length) {
        if (length > kind.maxBytes) throw tooLarge(path, length, kind, 'more than');
        const bigger = Buffer.allocUnsafe(Math.min(kind.maxBytes + 1, 2 * buf.length));
        buf.copy(bigger, 0, 0, length);
        buf = bigger;
      }
      const n = readSync(fd, buf, length, buf.length - length, length);
      if (n === 0) break;
      length += n;
    }
    return { name: basename(path), text: buf.toString('utf8', 0, length) };
  } catch (e) {
    throw e instanceof ApiError ? e : readError(path, e);
  } finally {
    closeSync(fd);
  }
}

function checkStats(path: string, st: Stats, kind: SideFileKind): void {
  requireRegularFile(path, st, kind.what);
  if (st.size > kind.maxBytes) throw tooLarge(path, st.size, kind, '');
}

function tooLarge(path: string, size: number, kind: SideFileKind, qualifier: string): ApiError {
  return new ApiError('bad_input', `${path}: ${qualifier ? `${qualifier} ` : ''}${describeBytes(size)} is too large for a ${kind.what} (at most ${describeBytes(kind.maxBytes)})`);
}

function kindOf(st: Stats): string {
  if (st.isFIFO()) return 'named pipe';
  if (st.isSocket()) return 'socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'device';
  return 'special file';
}

function readError(path: string, e: unknown): ApiError {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new ApiError('not_found', `${path}: no such file`);
  if (code === 'EACCES') return new ApiError('bad_input', `${path}: permission denied`);
  if (code === 'EISDIR') return new ApiError('bad_input', `${path}: is a folder, not a file`);
  return new ApiError('bad_input', `${path}: cannot read (${code ?? (e as Error).message})`);
}

/**
 * Refuses a device, a named pipe or a socket given as an input file, before anything opens it
 * (opening a pipe waits for a writer that may never come). A missing file or a folder is left
 * to the reader, which says what it makes of them.
 */
export function refuseSpecialFile(path: string, what: string): void {
  let st: Stats;
  try {
    st = statSync(path);
  } catch {
    return;
  }
  if (!st.isDirectory()) requireRegularFile(path, st, what);
}
