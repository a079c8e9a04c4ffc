/**
 * A folder of KITTI scans as one log, in the layout of KITTI odometry and of `thicket export
 * --format kitti` (docs/drive-logs.md, "Folders of scans"): `velodyne/NNNNNN.bin` (or the
 * `.bin` files in the folder itself), in name order, one packet each; `times.txt`, one time a
 * scan in seconds, when present (else the scans are 0.1 s apart, a 10 Hz lidar); `poses.txt`,
 * one KITTI row a scan, as the log's poses unless the import names a poses file.
 *
 * Each scan goes through the format's own reader (so a profile still rebuilds its misses or reads
 * it as an organised range image); only the packet's time is the folder's.
 */
import { closeSync, fstatSync, openSync, readSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { DecodeError } from '../formats/decode-error';
import type { PacketStream } from '../formats/log-format';
import type { ByteSource } from '../formats/log-source';
import { openFileSource } from './file-source';

export interface ScanFolder {
  /** The folder's name (errors, notes). */
  name: string;
  /** The scans' paths, in name order. */
  scans: string[];
  /** Where the scans are, relative to the folder: 'velodyne/' or ''. */
  under: string;
  /** Seconds per scan from times.txt, or null without one. */
  times: Float64Array | null;
  /** poses.txt's text, or null without one. */
  poses: { name: string; text: string } | null;
}

/** Side files of a folder are small: KITTI's longest sequence has 4,541 rows (≈ 1 MB of poses). */
const MAX_SIDE_BYTES = 64 * 1024 * 1024;
/** A scan's period when the folder has no times.txt (KITTI's HDL-64E turns at 10 Hz). */
const DEFAULT_PERIOD_S = 0.1;

export function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The folder's scans and side files; a DecodeError naming the folder when it holds no scans. */
export function readScanFolder(path: string): ScanFolder {
  const name = basename(path.replace(/[\\/]+$/, '')) || path;
  const binsIn = (dir: string): string[] => {
    if (!isFolder(dir)) return [];
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() && e.name.toLowerCase().endsWith('.bin') && !e.name.toLowerCase().endsWith('.pcd.bin'))
      .map((e) => e.name)
      .sort();
  };
  let under = 'velodyne/';
  let files = binsIn(join(path, 'velodyne'));
  if (files.length === 0) {
    under = '';
    files = binsIn(path);
  }
  if (files.length === 0) {
    throw new DecodeError(path, 'is a folder without KITTI scans: a folder imports as velodyne/NNNNNN.bin (or NNNNNN.bin) with poses.txt and times.txt, as `thicket export --format kitti` writes it; otherwise give a file');
  }
  const timesText = readSide(join(path, 'times.txt'));
  return {
    name,
    scans: files.map((f) => join(path, under, f)),
    under,
    times: timesText === null ? null : parseTimes(timesText, `${name}/times.txt`, files.length),
    poses: (() => {
      const text = readSide(join(path, 'poses.txt'));
      return text === null ? null : { name: `${name}/poses.txt`, text };
    })(),
  };
}

/** A side file's text, null when absent; one that is not a regular file or too large is an error. */
function readSide(path: string): string | null {
  let st;
  try {
    st = statSync(path);
  } catch {
    return null;
  }
  const shown = `${basename(join(path, '..'))}/${basename(path)}`;
  if (!st.isFile()) throw new DecodeError(shown, 'not a regular file');
  if (st.size > MAX_SIDE_BYTES) throw new DecodeError(shown, `${st.size} bytes: more than a folder's side file may hold (${MAX_SIDE_BYTES})`);
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(Math.min(fstatSync(fd).size, MAX_SIDE_BYTES));
    let done = 0;
    while (done < buf.length) {
      const n = readSync(fd, buf, done, buf.length - done, done);
      if (n === 0) break;
      done += n;
    }
    return buf.toString('utf8', 0, done);
  } finally {
    closeSync(fd);
  }
}

/** times.txt: one number a line (seconds), as many as there are scans. */
export function parseTimes(text: string, name: string, scans: number): Float64Array {
  const times: number[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const s = lines[i]!.trim();
    if (s === '' || s.startsWith('#')) continue;
    const t = Number(s);
    if (!Number.isFinite(t)) throw new DecodeError(name, 'not a time in seconds', { line: i + 1 });
    times.push(t);
  }
  if (times.length !== scans) throw new DecodeError(name, `${times.length} time(s) for ${scans} scan(s): one line per scan`, { line: lines.length });
  return Float64Array.from(times);
}

/**
 * The folder's scans as one packet stream: each file read by `openScan` (the format's reader),
 * its packets put at the scan's time. Notes add up over the scans.
 */
export function* scanFolderPackets(folder: ScanFolder, openScan: (src: ByteSource, name: string) => PacketStream, progress?: (f: number, m: string) => void): PacketStream {
  let points = 0, dropped = 0, recordsMisses = false;
  const warnings: string[] = [];
  let format = 'kitti-bin';
  for (let k = 0; k < folder.scans.length; k++) {
    progress?.(k / folder.scans.length, `scan ${k + 1} of ${folder.scans.length}`);
    const path = folder.scans[k]!;
    const scanName = `${folder.name}/${folder.under}${basename(path)}`;
    const src = openFileSource(path, scanName);
    try {
      const t = folder.times ? folder.times[k]! : k * DEFAULT_PERIOD_S;
      const gen = openScan(src, scanName);
      let r = gen.next();
      for (; !r.done; r = gen.next()) yield { ...r.value, time: t + (Number.isFinite(r.value.time) ? r.value.time : 0) };
      const info = r.value;
      format = info.format;
      recordsMisses ||= info.recordsMisses;
      points += Number(info.notes.points ?? 0);
      dropped += info.dropped ?? 0;
      warnings.push(...(info.warnings ?? []));
    } finally {
      src.close();
    }
  }
  return {
    format,
    recordsMisses,
    notes: {
      folder: folder.name,
      scanFiles: folder.scans.length,
      points,
      times: folder.times ? 'times.txt' : `none: scans ${DEFAULT_PERIOD_S} s apart`,
      ...(folder.poses ? { folderPoses: 'poses.txt' } : {}),
    },
    dropped,
    ...(warnings.length ? { warnings } : {}),
  };
}
