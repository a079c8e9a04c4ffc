import { DecodeError } from '../decode-error';
import { countNonFinite, type DecodedCloud } from '../decoded-cloud';
import { truncationWarning } from '../truncation';

const RECORD = 16; // float32 x, y, z, intensity

/** Typed-array views read the host's byte order; every platform Electron runs on is little-endian. */
const HOST_LE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * KITTI velodyne .bin: a bare array of little-endian float32 (x, y, z, intensity) records.
 * There is no header, so the size is the only check; non-finite coordinates are kept and
 * counted in `dropped`. A file cut mid-point keeps its whole points, with a warning.
 */
export function decodeKittiBin(bytes: Uint8Array, name: string): DecodedCloud {
  const size = bytes.byteLength;
  if (size === 0) throw new DecodeError(name, 'empty file: a KITTI .bin needs at least one 16-byte point', { offset: 0 });
  const rem = size % RECORD;
  if (rem !== 0 && size < RECORD) {
    throw new DecodeError(name, `truncated at byte 0: file size ${size} is less than one 16-byte point (4 float32)`, { offset: 0 });
  }
  const count = (size - rem) / RECORD;
  const warnings = rem !== 0 ? [truncationWarning(name, size - rem, rem, `the ${count} whole 16-byte point(s) before it`)] : [];
  const xyz = new Float32Array(3 * count);
  const intensity = new Float32Array(count);
  if (HOST_LE) {
    // A Float32Array view needs a 4-aligned offset; copy the bytes when the caller's slice is not.
    const src = bytes.byteOffset % 4 === 0
      ? new Float32Array(bytes.buffer, bytes.byteOffset, 4 * count)
      : new Float32Array(bytes.slice(0, RECORD * count).buffer);
    for (let i = 0, j = 0; i < count; i++, j += 4) {
      xyz[3 * i] = src[j]!;
      xyz[3 * i + 1] = src[j + 1]!;
      xyz[3 * i + 2] = src[j + 2]!;
      intensity[i] = src[j + 3]!;
    }
  } else {
    const dv = new DataView(bytes.buffer, bytes.byteOffset, size);
    for (let i = 0, o = 0; i < count; i++, o += RECORD) {
      xyz[3 * i] = dv.getFloat32(o, true);
      xyz[3 * i + 1] = dv.getFloat32(o + 4, true);
      xyz[3 * i + 2] = dv.getFloat32(o + 8, true);
      intensity[i] = dv.getFloat32(o + 12, true);
    }
  }
  return { count, xyz, intensity, ring: null, time: null, timeBase: 0, viewpoint: null, dropped: countNonFinite(xyz, count), ...(warnings.length ? { warnings } : {}) };
}
