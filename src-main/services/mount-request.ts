/**
 * The sensor's mount of an import or a simulation request (`mount`, or an extrinsic file by
 * path or text, optionally inverted) as a vehicle ← sensor pose, checked before any job or row
 * exists: a bad file is `bad_input` naming the file, line and reason, and nothing changes. The
 * file is at most 64 KiB of text, so parsing it here costs the host nothing worth a task.
 */
import { ApiError } from '../api/contract';
import { ExtrinsicError, MAX_EXTRINSIC_BYTES, mountPose, parseExtrinsic } from '../../src-common/extrinsic';
import type { Pose7 } from '../../src-common/sensor-profile';
import { readSideFile, type SideFileKind } from './side-file';

/** A 4×4 matrix or a few lines of YAML. */
const EXTRINSIC_FILE: SideFileKind = { what: 'extrinsic file', maxBytes: MAX_EXTRINSIC_BYTES };

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
  const file = req.extrinsic ?? (req.extrinsicPath ? readSideFile(req.extrinsicPath, EXTRINSIC_FILE) : null);
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
