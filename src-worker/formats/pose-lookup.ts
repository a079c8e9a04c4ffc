/**
 * Packet poses from a poses file (KITTI rows, CSV, TUM), for the log writer. `index` is the
 * packet's place in the capture and `time` seconds since the capture's first packet, so a range
 * of scans (`--scans`) reads the same rows as the whole capture.
 *
 * - Rows without times (KITTI odometry, ouster-sdk) are one per packet when their count is the
 *   capture's packets, else one per scan when it is the capture's scans (capture-scans.ts): row
 *   k is placed at scan k's mid-time and each packet's pose is interpolated at its own time
 *   (linear position, slerp rotation). Before the first scan's mid-time and after the last's,
 *   the end pose is held, not extrapolated: at most half a scan (50 ms at 10 Hz), and SLAM poses
 *   are too noisy for their last step to be stretched (docs/drive-logs.md, "Scans").
 *   Any other count is an error naming the file, the rows, the packets and the scans.
 * - Timed rows: interpolated at each packet's time. Times that look like Unix time (after 1973)
 *   are matched to the packets' absolute times, others to seconds since the capture's start.
 */
import { DecodeError } from './decode-error';
import type { PoseLookup } from './log-writer';
import type { CaptureScans } from './capture-scans';
import { PoseTrack } from '../geometry/pose-track';

const UNIX_LIKE = 1e8;

export interface PosesInput {
  name: string;
  times: Float64Array | null;
  poses: Float64Array;
}

/** How the rows are matched to packets: for the log's metadata. */
export type PosesPlacement = 'per-packet' | 'per-scan' | 'timed';

/** Rows without times need the capture's scans (`scans`); timed rows do not. */
export function poseLookupFromFile(file: PosesInput, scans: CaptureScans | null = null): PoseLookup & { placement: PosesPlacement } {
  const rows = file.poses.length / 7;
  if (!file.times) {
    if (scans && rows !== scans.packets) {
      const count = scans.starts.length;
      if (rows !== count) {
        throw new DecodeError(file.name, `${rows} pose row(s) without times fit neither the capture's ${scans.packets} packet(s) nor its ${count} scan(s) (one row per packet or one per scan, in order)`);
      }
      // Rows on the capture's own clock at each scan's mid-time.
      const track = PoseTrack.fromTimed(scans.midTimes, file.poses);
      return {
        placement: 'per-scan',
        poseFor(_index, _time, abs, out) {
          track.poseAt(abs, out);
        },
      };
    }
    return {
      placement: 'per-packet',
      poseFor(index, _t, _abs, out) {
        if (index >= rows) throw new DecodeError(file.name, `${rows} pose rows for more packets: packet ${index} has no row (one row per packet or one per scan, in order)`, { line: rows + 1 });
        for (let i = 0; i < 7; i++) out[i] = file.poses[7 * index + i]!;
      },
    };
  }
  const track = PoseTrack.fromTimed(file.times, file.poses);
  const absolute = track.startTime > UNIX_LIKE;
  return {
    placement: 'timed',
    poseFor(_index, time, abs, out) {
      track.poseAt(absolute ? abs : time, out);
    },
  };
}
