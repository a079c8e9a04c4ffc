/**
 * The sensor's mount of an import or a simulation request (`mount`, or an extrinsic file by
 * path or text, optionally inverted) as a vehicle ← sensor pose, checked before any job or row
 * exists: a bad file is `bad_input` naming the file, line and reason, and nothing changes. The
 * file is at most 64 KiB of text, so parsing it here costs the host nothing worth a task.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { ApiError } from '../api/contract';
import { ExtrinsicError, MAX_EXTRINSIC_BYTES, mountPose, parseExtrinsic } from '../../src-common/extrinsic';
import type { Pose7 } from '../../src-common/sensor-profile';

export interface MountRequest {
  mount?: number[] | readonly number[];
  extrinsicPath?: string;
  extrinsic?: { name: string; text: string };
  extrinsicInverse?: boolean;
}

export interface ResolvedMount {
  /** Vehicle ← sensor. */
  pose: Pose7;
  /** What it came from, for the log's or run's record: "--mount 0,0,1,0,0,0" or "extrinsic vel2os1.yaml (inverted)". */
  source: string;
}

/** The request's mount, or null when it names none. */
export function resolveMount(req: MountRequest): ResolvedMount | null {
  const file = req.extrinsic ?? (req.extrinsicPath ? readExtrinsic(req.extrinsicPath) : null);
  if (req.mount && file) throw new ApiError('bad_input', 'give either mount (x, y, z, roll, pitch, yaw) or an extrinsic file, not both');
  if (req.extrinsicInverse && !file) throw new ApiError('bad_input', 'extrinsicInverse applies to an extrinsic file: give one');
  try {
    if (req.mount) return { pose: mountPose(req.mount, 'mount'), source: `mount ${req.mount.join(',')}` };
    if (!file) return null;
    return { pose: parseExtrinsic(file.text, file.name, req.extrinsicInverse ?? false), source: `extrinsic ${file.name}${req.extrinsicInverse ? ' (inverted)' : ''}` };
  } catch (e) {
    if (e instanceof ExtrinsicError) throw new ApiError('bad_input', e.message);
    throw e;
  }
}

function readExtrinsic(path: string): { name: string; text: string } {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new ApiError('not_found', `${path}: no such file`);
    throw new ApiError('bad_input', `${path}: cannot read (${code ?? (e as Error).message})`);
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw new ApiError('bad_input', `${path}: is a folder, not a file`);
    if (st.size > MAX_EXTRINSIC_BYTES) throw new ApiError('bad_input', `${path}: ${st.size} bytes: an extrinsic file is at most ${MAX_EXTRINSIC_BYTES} bytes (a matrix or a few lines of YAML)`);
    const buf = Buffer.alloc(st.size);
    readSync(fd, buf, 0, st.size, 0);
    return { name: basename(path), text: buf.toString('utf8') };
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw new ApiError('bad_input', `${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  } finally {
    closeSync(fd);
  }
}
