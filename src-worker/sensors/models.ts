/**
 * The sensor models Thicket knows by name, and which of them a calibration fits: the words of
 * `--model` (profile import, import --calibration) and of detection (docs/methods.md §5,
 * *Sensor models*).
 *
 * A Velodyne calibration carries only geometry, so the model is told from its laser count and,
 * where two models share a count (HDL-32E and VLP-32C), from its elevation table: the HDL-32E's
 * lasers span −30.67° … +10.67° (HDL-32E User's Manual), the VLP-32C's −25° … +15° (VLP-32C User
 * Manual). An Ouster metadata JSON names its product line (`prod_line`, "OS-1-128") and carries
 * its mode (`lidar_mode`, "1024x10"); a legacy file without a product line is told by its
 * vertical field of view: OS0 90°, OS1 33–45°, OS2 22.5° (Ouster OS0 / OS1 / OS2 data sheets).
 */
import type { CalibratedLaser, VelodyneModel } from './devices';
import { OUSTER_BEAM_COUNTS, OUSTER_LINE_IDS, SENSOR_MODEL_IDS } from '../../src-common/sensor-models';

export type OusterLine = (typeof OUSTER_LINE_IDS)[number];
export const OUSTER_LINES: readonly OusterLine[] = OUSTER_LINE_IDS;
export const OUSTER_BEAMS = OUSTER_BEAM_COUNTS;
export { SENSOR_MODEL_IDS };

/** Velodyne models with their laser count and nominal elevation span (degrees). */
export const VELODYNE_MODELS: Readonly<Record<Exclude<VelodyneModel, 'generic'>, { lasers: number; elevationDeg: [number, number] }>> = {
  vlp16: { lasers: 16, elevationDeg: [-15, 15] },
  vlp32c: { lasers: 32, elevationDeg: [-25, 15] },
  hdl32e: { lasers: 32, elevationDeg: [-30.67, 10.67] },
  hdl64e: { lasers: 64, elevationDeg: [-24.9, 2] },
  vls128: { lasers: 128, elevationDeg: [-25, 15] },
};

/** How far (degrees) a file's lowest and highest elevation may lie from a model's nominal span. */
const SPAN_TOLERANCE_DEG = 2;

export type StatedModel =
  | { vendor: 'velodyne'; model: Exclude<VelodyneModel, 'generic'> }
  | { vendor: 'ouster'; line: OusterLine; beams: number; columns: number | null };


/** 'vlp32c' → Velodyne VLP-32C; 'os1-64' or 'os1-64-2048' → Ouster OS1, 64 beams (2048 columns); else null. */
export function parseSensorModel(id: string): StatedModel | null {
  const s = id.trim().toLowerCase();
  if (s in VELODYNE_MODELS) return { vendor: 'velodyne', model: s as keyof typeof VELODYNE_MODELS };
  const m = /^(os[012])-(32|64|128)(?:-(512|1024|2048))?$/.exec(s);
  if (!m) return null;
  return { vendor: 'ouster', line: m[1] as OusterLine, beams: Number(m[2]), columns: m[3] ? Number(m[3]) : null };
}

export function sensorModelId(m: StatedModel): string {
  return m.vendor === 'velodyne' ? m.model : `${m.line}-${m.beams}${m.columns ? `-${m.columns}` : ''}`;
}

const fmtDeg = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(2)}°`;

/**
 * The Velodyne model a calibration of `lasers` is: `{ model }` when one fits, `{ model: 'generic' }`
 * when no known model has that many lasers, `{ ambiguous }` (the models that share the count,
 * with why none or both fit) when the elevation table cannot tell them apart.
 */
export function detectVelodyneModel(lasers: readonly CalibratedLaser[]): { model: VelodyneModel; reason: string } | { ambiguous: string } {
  const n = lasers.length;
  const same = (Object.keys(VELODYNE_MODELS) as (keyof typeof VELODYNE_MODELS)[]).filter((k) => VELODYNE_MODELS[k].lasers === n);
  if (same.length === 0) return { model: 'generic', reason: `${n} lasers match no known Velodyne model` };
  if (same.length === 1) return { model: same[0]!, reason: `${n} lasers` };
  const el = lasers.map((l) => (l.elevation * 180) / Math.PI);
  const lo = Math.min(...el), hi = Math.max(...el);
  const fits = same.filter((k) => {
    const [a, b] = VELODYNE_MODELS[k].elevationDeg;
    return Math.abs(lo - a) <= SPAN_TOLERANCE_DEG && Math.abs(hi - b) <= SPAN_TOLERANCE_DEG;
  });
  if (fits.length === 1) return { model: fits[0]!, reason: `${n} lasers from ${fmtDeg(lo)} to ${fmtDeg(hi)}` };
  const spans = same.map((k) => `${k} (${fmtDeg(VELODYNE_MODELS[k].elevationDeg[0])} … ${fmtDeg(VELODYNE_MODELS[k].elevationDeg[1])})`).join(', ');
  return {
    ambiguous:
      `${n} lasers from ${fmtDeg(lo)} to ${fmtDeg(hi)} fit ${fits.length ? 'more than one' : 'none'} of the ${n}-laser models ${spans}; ` +
      `state the model with --model ${same.join('|')}`,
  };
}

/** The Ouster line a product line names ("OS-1-128", "OS1"), or null. */
export function ousterLineOf(prodLine: string | undefined): OusterLine | null {
  const m = /^OS-?([012])\b/i.exec((prodLine ?? '').trim());
  return m ? (`os${m[1]}` as OusterLine) : null;
}

/** The Ouster line of a file without a product line, from its vertical field of view (degrees). */
export function ousterLineFromFov(fovDeg: number): OusterLine {
  return fovDeg >= 60 ? 'os0' : fovDeg >= 27 ? 'os1' : 'os2';
}
