/**
 * Single point-cloud files (KITTI .bin or PCD) decoded with their detected format: the two
 * formats' descriptors decide (registry.ts), so this agrees with what an import detects.
 */
import { DecodeError } from './decode-error';
import type { DecodedCloud } from './decoded-cloud';
import { decodeKittiBin } from './kitti/kitti-bin';
import { decodePcd } from './pcd/pcd';
import { detectAmong, DETECT_HEAD_BYTES } from './registry';
import { kittiBinFormat } from './kitti/kitti-bin-format';
import { pcdFormat } from './pcd/pcd-format';

export type CloudFormat = 'kitti-bin' | 'pcd';

/**
 * The format of a point-cloud file from its name and first bytes. PCD is recognised by its
 * text header whatever the extension; `.bin` means KITTI except `.pcd.bin`, which is nuScenes'
 * 5-float layout and would decode as wrong points under the 4-float KITTI reader.
 */
export function detectFormat(name: string, head: Uint8Array): CloudFormat | null {
  return detectAmong([pcdFormat, kittiBinFormat], name, head) as CloudFormat | null;
}

/** Decodes with the given format or the detected one; DecodeError naming the file when unknown. */
export function decodeCloud(bytes: Uint8Array, name: string, format?: CloudFormat): DecodedCloud {
  const f = format ?? detectFormat(name, bytes.subarray(0, DETECT_HEAD_BYTES));
  if (f === 'kitti-bin') return decodeKittiBin(bytes, name);
  if (f === 'pcd') return decodePcd(bytes, name);
  throw new DecodeError(name, 'unknown point-cloud format: expected a KITTI .bin or a PCD file', { offset: 0 });
}
