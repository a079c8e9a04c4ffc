import { ApiError } from '../api/contract';
import { DecodeError } from '../../src-worker/formats/decode-error';
import { parsePosesFile } from '../../src-worker/formats/poses-file';

/** A poses file parsed before the import starts, so a bad row fails at once with its line. */
export function parsePosesText(text: string, name: string): { name: string; times: Float64Array | null; poses: Float64Array } {
  try {
    const p = parsePosesFile(text, name);
    return { name, times: p.times, poses: p.poses };
  } catch (e) {
    if (e instanceof DecodeError) throw new ApiError('bad_input', e.message);
    throw e;
  }
}
