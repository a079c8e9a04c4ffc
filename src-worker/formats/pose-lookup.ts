/**
 * Packet poses from a poses file (KITTI rows, CSV, TUM), for the log writer:
 * - rows without times (KITTI): row i is packet i's pose (a KITTI scan per packet); a log with
 *   more packets than rows is an error naming the file;
 * - timed rows: interpolated at each packet's time (linear position, slerp rotation). Times
 *   that look like Unix time (after 1973) are matched to the packets' absolute times, others to
 *   seconds since the log's first packet.
 */
import { DecodeError } from './decode-error';
import type { PoseLookup } from './log-writer';
import { PoseTrack } from '../geometry/pose-track';

const UNIX_LIKE = 1e8;

export function poseLookupFromFile(file: { name: string; times: Float64Array | null; poses: Float64Array }): PoseLookup {
  const rows = file.poses.length / 7;
  if (!file.times) {
    return {
      poseFor(index, _t, _abs, out) {
        if (index >= rows) throw new DecodeError(file.name, `${rows} pose rows for more packets: packet ${index} has no row (one row per scan, in order)`, { line: rows + 1 });
        for (let i = 0; i < 7; i++) out[i] = file.poses[7 * index + i]!;
      },
    };
  }
  const track = PoseTrack.fromTimed(file.times, file.poses);
  const absolute = track.startTime > UNIX_LIKE;
  return {
    poseFor(_index, time, abs, out) {
      track.poseAt(absolute ? abs : time, out);
    },
  };
}
