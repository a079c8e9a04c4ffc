/**
 * A LAS file read as a log, and what of it the log keeps beside its packets (a SourceRecord) so
 * that a LAS export restores it (docs/drive-logs.md, "LAS export"): the scale and offsets of the
 * integer coordinates, the origin the points were shifted by (las.ts), the GPS clock (the time
 * of the log's time 0 and the global encoding's GPS time type), the coordinate-system records
 * (LASF_Projection: GeoTIFF keys, WKT), the intensity factor of a Thicket file, and the class
 * code of every point the log keeps.
 */
import type { SourceRecord } from '../../../src-common/source-record';
import { decodeLas, type LasCloud } from './las';
import { siteClassesOf } from './las-classes';
import type { LasRecord, LasEncodeOptions } from './las-encode';
import { fileIntensityScale } from './las-intensity';

const CRS_USER = 'LASF_Projection';

export interface LasSourceMeta {
  version: string;
  pointFormat: number;
  scale: number[];
  offset: number[];
  /** World position of the log's (0, 0, 0). */
  origin: number[];
  /** Global encoding bit 0: 1 = adjusted standard GPS time, 0 = GPS week seconds. */
  gpsTimeType: number;
  /** GPS time of the log's time 0 (s). */
  timeBase: number;
  /** What the file's intensities were multiplied by (a Thicket file's VLR; else 1). */
  intensityScale: number;
  /** The coordinate-system records, data in base64. */
  records: { userId: string; recordId: number; description: string; data: string }[];
}

/** The file as a cloud in Thicket's terms (site classes, intensities divided back) and what to keep. */
export function decodeLasSource(bytes: Uint8Array, name: string): { cloud: LasCloud; source: SourceRecord } {
  const cloud = decodeLas(bytes, name);
  const h = cloud.header;
  const codes = cloud.cls!;
  const intensityScale = fileIntensityScale(h, bytes, name);
  if (intensityScale !== 1) for (let i = 0; i < cloud.count; i++) cloud.intensity[i] = cloud.intensity[i]! / intensityScale;
  const cls = siteClassesOf(codes, cloud.userData, h, bytes);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const meta: LasSourceMeta = {
    version: cloud.version,
    pointFormat: cloud.pointFormat,
    scale: [...h.scale],
    offset: h.offset.map((v) => v + 0), // -0 → 0 for JSON
    origin: [...cloud.origin],
    gpsTimeType: dv.getUint16(6, true) & 1,
    timeBase: cloud.timeBase,
    intensityScale,
    records: h.vlrs
      .filter((v) => v.userId === CRS_USER && v.length <= 0xffff)
      .map((v) => ({
        userId: v.userId,
        recordId: v.recordId,
        // A VLR's (54-byte header) and an EVLR's (60-byte header) description both end at the data.
        description: cString(bytes.subarray(v.dataOffset - 32, v.dataOffset)),
        data: toBase64(bytes.subarray(v.dataOffset, v.dataOffset + v.length)),
      })),
  };
  return { cloud: { ...cloud, cls }, source: { format: 'las', meta: { ...meta }, classes: keptCodes(cloud, codes) } };
}

/**
 * The export options that restore a LAS log's source: its scale, offsets, clock and records,
 * the origin to add back, and its class codes when there is one per hit.
 */
export function lasSourceOptions(source: SourceRecord, hits: number): LasEncodeOptions & { origin: number[] } {
  const m = source.meta as unknown as LasSourceMeta;
  const records: LasRecord[] = (m.records ?? []).map((r) => ({ ...r, data: fromBase64(r.data) }));
  return {
    scale: m.scale,
    offset: m.offset,
    origin: m.origin,
    timeBase: m.timeBase,
    gpsTimeType: m.gpsTimeType,
    intensityScale: m.intensityScale,
    records,
    // One code per hit, in the log's hit order; a log whose hits changed since keeps the mapped codes.
    codes: source.classes && source.classes.length === hits ? source.classes : null,
  };
}

/** The codes of the points cloudToPacket keeps (finite, not at the origin: decoded-cloud.ts). */
function keptCodes(cloud: LasCloud, codes: Uint8Array): Uint8Array {
  const out = new Uint8Array(cloud.count);
  let k = 0;
  for (let i = 0; i < cloud.count; i++) {
    const x = cloud.xyz[3 * i]!, y = cloud.xyz[3 * i + 1]!, z = cloud.xyz[3 * i + 2]!;
    if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z))) continue;
    if (!(x * x + y * y + z * z > 0)) continue;
    out[k++] = codes[i]!;
  }
  return out.slice(0, k);
}

function cString(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length && b[i] !== 0; i++) s += String.fromCharCode(b[i]!);
  return s;
}

function toBase64(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i++) s += String.fromCharCode(b[i]!);
  return btoa(s);
}

function fromBase64(s: string): Uint8Array {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
