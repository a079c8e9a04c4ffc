/**
 * The drive-log formats Thicket imports, and how a file's format is recognised: by its magic
 * bytes where it has one, else by its extension. The list must equal LOG_FORMATS in
 * src-main/api/contract.ts (a unit test checks it).
 */
import { detectFormat } from './detect';

export const LOG_FORMAT_IDS = ['kitti-bin', 'pcd', 'ply', 'las', 'velodyne-pcap', 'ouster-pcap', 'ros2-db3', 'mcap'] as const;
export type LogFormatId = (typeof LOG_FORMAT_IDS)[number];

/** Formats holding one registered scan (decoded whole), the rest are streamed packet by packet. */
export const SCAN_FORMATS: readonly LogFormatId[] = ['kitti-bin', 'pcd', 'ply', 'las'];

/** Formats that keep only hits: their misses can be rebuilt from a sensor profile. */
export const HIT_ONLY_FORMATS: readonly LogFormatId[] = ['kitti-bin', 'pcd', 'ply', 'las', 'mcap', 'ros2-db3'];

const startsWith = (head: Uint8Array, sig: readonly number[]): boolean => sig.every((b, i) => head[i] === b);
const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));

/**
 * The format of a log file from its name and first bytes. A pcap is Velodyne's unless the
 * caller knows it is an Ouster capture (it comes with its metadata JSON): both are plain UDP.
 */
export function detectLogFormat(name: string, head: Uint8Array, opts: { ousterMetadata?: boolean } = {}): LogFormatId | null {
  const lower = name.toLowerCase();
  const pcap = startsWith(head, [0xd4, 0xc3, 0xb2, 0xa1]) || startsWith(head, [0xa1, 0xb2, 0xc3, 0xd4])
    || startsWith(head, [0x4d, 0x3c, 0xb2, 0xa1]) || startsWith(head, [0xa1, 0xb2, 0x3c, 0x4d])
    || startsWith(head, [0x0a, 0x0d, 0x0d, 0x0a]);
  if (pcap) return opts.ousterMetadata ? 'ouster-pcap' : 'velodyne-pcap';
  if (startsWith(head, [0x89, ...ascii('MCAP')])) return 'mcap';
  if (startsWith(head, ascii('SQLite format 3\0'))) return 'ros2-db3';
  if (startsWith(head, ascii('LASF'))) return 'las';
  if (startsWith(head, ascii('ply')) && (head[3] === 0x0a || head[3] === 0x0d)) return 'ply';
  if (/\.(pcap|pcapng)$/.test(lower)) return opts.ousterMetadata ? 'ouster-pcap' : 'velodyne-pcap';
  if (lower.endsWith('.mcap')) return 'mcap';
  if (lower.endsWith('.db3')) return 'ros2-db3';
  if (/\.(las|laz)$/.test(lower)) return 'las';
  if (lower.endsWith('.ply')) return 'ply';
  return detectFormat(name, head);
}
