/**
 * LAS intensity is a uint16 "normalized to a 16 bit, unsigned value by multiplying the value by
 * 65,536 / (intensity dynamic range of the sensor)" (LAS 1.4 R15, point data record format 0).
 * Thicket's logs keep each format's own units — 8-bit sensor counts (Velodyne, 0–255),
 * reflectance (KITTI, 0–1), a LAS file's uint16 — so the export multiplies by a factor chosen
 * from the data (or the source LAS file's) and says which in a VLR (user "Thicket", record 2,
 * a float64; its description reads "intensity = source x F"); Thicket's reader divides it out.
 */
import { DecodeError } from '../decode-error';
import type { LasHeader } from './las-header';
import { THICKET_VLR_USER } from './las-classes';

export const THICKET_INTENSITY_RECORD = 2;

/**
 * The factor for a cloud whose intensities peak at `max`: whole numbers up to 255 are 8-bit
 * counts (× 256), fractions up to 1 reflectance (× 65535, so 1 is the top), anything else is
 * taken as 16-bit already (× 1, clamped at 65535).
 */
export function intensityScaleFor(max: number, wholeNumbers: boolean): number {
  if (!(max > 0)) return 1;
  if (!wholeNumbers && max <= 1) return 65535;
  return max <= 255 ? 256 : 1;
}

/** The factor a Thicket LAS file's intensities were multiplied by (1 for other files). */
export function fileIntensityScale(h: LasHeader, bytes: Uint8Array, name: string): number {
  const v = h.vlrs.find((r) => r.userId === THICKET_VLR_USER && r.recordId === THICKET_INTENSITY_RECORD);
  if (!v) return 1;
  const f = v.length >= 8 ? new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getFloat64(v.dataOffset, true) : NaN;
  if (!(Number.isFinite(f) && f > 0)) {
    throw new DecodeError(name, `the intensity scale VLR at byte ${v.dataOffset} (${v.length} bytes) does not hold a positive float64`, { offset: v.dataOffset });
  }
  return f;
}
