import { DecodeError } from './decode-error';
import type { DecodedCloud } from './decoded-cloud';
import { decodeKittiBin } from './kitti/kitti-bin';
import { decodePcd } from './pcd/pcd';

export type CloudFormat = 'kitti-bin' | 'pcd';

/** How many leading bytes detectFormat looks at. */
export const DETECT_HEAD_BYTES = 1024;

/**
 * The format of a point-cloud file from its name and first bytes. PCD is recognised by its
 * text header whatever the extension; `.bin` means KITTI except `.pcd.bin`, which is nuScenes'
 * 5-float layout and would decode as wrong points under the 4-float KITTI reader.
 */
export function detectFormat(name: string, head: Uint8Array): CloudFormat | null {
  if (looksLikePcd(head)) return 'pcd';
  const lower = name.toLowerCase();
  if (lower.endsWith('.pcd')) return 'pcd'; // let the PCD decoder say what is wrong with it
  if (lower.endsWith('.bin') && !lower.endsWith('.pcd.bin')) return 'kitti-bin';
  return null;
}

/** Decodes with the given format or the detected one; DecodeError naming the file when unknown. */
export function decodeCloud(bytes: Uint8Array, name: string, format?: CloudFormat): DecodedCloud {
  const f = format ?? detectFormat(name, bytes.subarray(0, DETECT_HEAD_BYTES));
  if (f === 'kitti-bin') return decodeKittiBin(bytes, name);
  if (f === 'pcd') return decodePcd(bytes, name);
  throw new DecodeError(name, 'unknown point-cloud format: expected a KITTI .bin or a PCD file', { offset: 0 });
}

/**
 * A PCD header: '#' comment lines, then a VERSION or FIELDS line. The first bytes of a KITTI
 * float can be '#', so comments alone only count when they are PCL's "# .PCD" banner.
 */
function looksLikePcd(head: Uint8Array): boolean {
  let pos = 0;
  while (pos < head.length) {
    let nl = head.indexOf(10, pos);
    if (nl < 0) nl = head.length;
    let line = '';
    for (let i = pos; i < nl; i++) {
      const c = head[i]!;
      if (c !== 9 && c !== 13 && (c < 32 || c > 126)) return false; // not a text header
      line += String.fromCharCode(c);
    }
    line = line.trim();
    if (/^\.?PCD\b/i.test(line.replace(/^#\s*/, ''))) return true;
    if (/^(VERSION|FIELDS|COLUMNS)\s/i.test(line)) return true;
    if (line !== '' && !line.startsWith('#')) return false;
    pos = nl + 1;
  }
  return false;
}
