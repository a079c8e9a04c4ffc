/**
 * A capture's scans (revolutions of a spinning lidar, sweeps of a sector scanner, or whole
 * registered scans), numbered from 1 in capture order: the one rule that per-scan poses,
 * `--scans A:B` and splitting a log all count by.
 *
 * Scans are cut where the azimuth of each packet's first ray wraps (`sweepStarts` in
 * timeline.ts, the playback timeline's rule), so a stored log and the file it came from give
 * the same scans without the format's own frame counter: an Ouster frame id, a Velodyne
 * azimuth and a scan file's single packet all come down to it (docs/drive-logs.md, "Scans").
 */
import { sweepStarts } from './timeline';

/** Per packet what the scan rule reads, gathered while decoding or from stored chunks. */
export class ScanCounter {
  private readonly times: number[] = [];
  private readonly ends: number[] = [];
  private readonly azimuths: number[] = [];

  /** One packet: its time (s, any clock), its last ray's firing offset (s) and its first ray's direction. */
  add(time: number, lastRayOffset: number, firstDir: ArrayLike<number> | null): void {
    this.times.push(time);
    this.ends.push(time + (Number.isFinite(lastRayOffset) ? lastRayOffset : 0));
    this.azimuths.push(firstDir ? Math.atan2(firstDir[1]!, firstDir[0]!) : NaN);
  }

  get packets(): number {
    return this.times.length;
  }

  finish(): CaptureScans {
    const { starts } = sweepStarts(Float64Array.from(this.azimuths));
    return captureScans(starts, Float64Array.from(this.times), Float64Array.from(this.ends));
  }
}

export interface CaptureScans {
  packets: number;
  /** First packet of each scan (0-based packet index), ascending; scan k (from 1) is starts[k − 1]. */
  starts: Uint32Array;
  /**
   * Mid-time of each scan on the packets' clock: halfway between its first packet's time and
   * the next scan's first packet's time (the last scan: its last ray's firing time).
   */
  midTimes: Float64Array;
}

export function captureScans(starts: Uint32Array, times: Float64Array, ends: Float64Array): CaptureScans {
  const n = times.length;
  const midTimes = new Float64Array(starts.length);
  for (let k = 0; k < starts.length; k++) {
    const t0 = times[starts[k]!]!;
    let t1: number;
    if (k + 1 < starts.length) t1 = times[starts[k + 1]!]!;
    else {
      t1 = t0;
      for (let p = starts[k]!; p < n; p++) t1 = Math.max(t1, ends[p]!);
    }
    midTimes[k] = 0.5 * (t0 + t1);
  }
  return { packets: n, starts, midTimes };
}

/** Packet range [from, to) of scans a…b (numbered from 1, inclusive). */
export function scanPacketRange(scans: CaptureScans, a: number, b: number): { from: number; to: number } {
  const count = scans.starts.length;
  if (!(Number.isInteger(a) && Number.isInteger(b) && a >= 1 && b >= a && b <= count)) {
    throw new RangeError(`scans ${a}:${b} are outside the capture's ${count} scan(s) (numbered from 1)`);
  }
  return { from: scans.starts[a - 1]!, to: b < count ? scans.starts[b]! : scans.packets };
}
