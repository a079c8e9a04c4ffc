/**
 * Organised KITTI-style scans: a .bin holding every cell of a lidar's range image, rows × columns,
 * with zeros where the beam returned nothing (RELLIS-3D writes its OS1-64 scans so: 64 × 2048,
 * column by column). Such a file records its misses: each empty cell is a ray of its row's beam
 * at its column's azimuth that came back empty (docs/drive-logs.md, *Organised scans*). Decoded
 * with the profile of the sensor, they become a packet of hits and misses — not points at the
 * origin, not dropped, and not rebuilt from a calibration of another column count.
 *
 * Layout: the file has rows × columns records, rows = the profile's lasers and columns = the
 * count over that (512, 1024, 2048 or 4096, or the profile's own firings per turn). Records run
 * column by column (index = column · rows + row) or row by row (row · columns + column); the order
 * whose rows keep one elevation is taken (per-row spread below 0.5°), and the rows are matched to
 * the profile's lasers in laser order or by elevation, whichever lies nearer. The columns'
 * encoder azimuths are fitted to the hits (a start angle and the turning direction: the frame
 * the file was written in is the file's business), so a miss sits where its column's hits sit.
 * The columns come from the file, not from the profile: an OS1-64 scan of 2048 columns decoded
 * with a 1024-column profile still gives 2048 columns of misses.
 */
import { RING_UNKNOWN } from '../../../src-common/packets';
import type { SensorProfile } from '../../../src-common/sensor-profile';
import type { DecodedCloud } from '../decoded-cloud';
import type { DecodedPacket } from '../log-source';

const TWO_PI = 2 * Math.PI;
const COLUMN_MODES = [512, 1024, 2048, 4096];
/** Largest per-row elevation spread (median over rows) of an organised layout. */
const ROW_SPREAD = (0.5 * Math.PI) / 180;

export interface OrganisedLayout {
  rows: number;
  columns: number;
  order: 'column-major' | 'row-major';
  /** Profile laser of each row. */
  laserOfRow: Int32Array;
  /** Largest |row's median hit elevation − its laser's elevation| (rad), over rows with hits. */
  worstRowElevation: number;
}

function lasersOf(profile: SensorProfile): { elevation: number; azimuthOffset: number }[] {
  // Every laser of every group, in ring order.
  return profile.groups.flatMap((g) => g.lasers);
}

const isEmpty = (x: number, y: number, z: number): boolean => !(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z)) || (x === 0 && y === 0 && z === 0);

function median(a: number[]): number {
  if (!a.length) return NaN;
  a.sort((p, q) => p - q);
  return a[a.length >> 1]!;
}

/** Per row: the elevations of its hits (every cell: a strided sample can alias onto one real row). */
function rowElevations(cloud: DecodedCloud, rows: number, columns: number, order: OrganisedLayout['order']): number[][] {
  const out: number[][] = Array.from({ length: rows }, () => []);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      const i = order === 'column-major' ? c * rows + r : r * columns + c;
      const x = cloud.xyz[3 * i]!, y = cloud.xyz[3 * i + 1]!, z = cloud.xyz[3 * i + 2]!;
      if (isEmpty(x, y, z)) continue;
      out[r]!.push(Math.atan2(z, Math.hypot(x, y)));
    }
  }
  return out;
}

/** The layout of `cloud` as an organised scan of `profile`'s lasers, or null when it is not one. */
export function organisedLayout(cloud: DecodedCloud, profile: SensorProfile): OrganisedLayout | null {
  if (profile.kind !== 'spinning') return null;
  const lasers = lasersOf(profile);
  const rows = lasers.length;
  if (rows < 2 || cloud.count % rows !== 0) return null;
  const columns = cloud.count / rows;
  const own = Math.round(1 / (profile.rotationHz * Math.min(...profile.groups.map((g) => g.firingPeriod))));
  if (!COLUMN_MODES.includes(columns) && columns !== own) return null;
  let best: { order: OrganisedLayout['order']; spread: number; el: number[][] } | null = null;
  for (const order of ['column-major', 'row-major'] as const) {
    const el = rowElevations(cloud, rows, columns, order);
    // The spread of the middle 90 % of a row's elevations (a stray point or two does not decide).
    const spreads = el.filter((e) => e.length >= 2).map((e) => {
      const s = [...e].sort((a, b) => a - b);
      return s[Math.floor(0.95 * (s.length - 1))]! - s[Math.floor(0.05 * (s.length - 1))]!;
    });
    if (spreads.length < rows / 2) continue;
    const spread = median(spreads);
    if (spread < ROW_SPREAD && (!best || spread < best.spread)) best = { order, spread, el };
  }
  if (!best) return null;
  // Rows → lasers: in laser order, or by elevation (top row = highest laser, or lowest).
  const rowEl = best.el.map((e) => median([...e]));
  const byEl = lasers.map((l, i) => ({ e: l.elevation, i })).sort((a, b) => b.e - a.e).map((x) => x.i);
  const candidates = [Int32Array.from({ length: rows }, (_, r) => r), Int32Array.from(byEl), Int32Array.from([...byEl].reverse())];
  let laserOfRow = candidates[0]!, worst = Infinity, cost = Infinity;
  for (const cand of candidates) {
    let sum = 0, w = 0;
    rowEl.forEach((e, r) => {
      if (!Number.isFinite(e)) return;
      const d = Math.abs(e - lasers[cand[r]!]!.elevation);
      sum += d;
      w = Math.max(w, d);
    });
    if (sum < cost) { cost = sum; worst = w; laserOfRow = cand; }
  }
  return { rows, columns, order: best.order, laserOfRow, worstRowElevation: worst };
}

/** Encoder azimuth of column c: start + sign · 2π c / columns, fitted to the hits (circular mean). */
function fitColumnAzimuth(cloud: DecodedCloud, layout: OrganisedLayout, lasers: { azimuthOffset: number }[]): { start: number; sign: 1 | -1; agreement: number } {
  const { rows, columns, order, laserOfRow } = layout;
  let best = { start: 0, sign: 1 as 1 | -1, agreement: -1 };
  for (const sign of [1, -1] as const) {
    let sx = 0, sy = 0, n = 0;
    for (let c = 0; c < columns; c++) {
      for (let r = 0; r < rows; r++) {
        const i = order === 'column-major' ? c * rows + r : r * columns + c;
        const x = cloud.xyz[3 * i]!, y = cloud.xyz[3 * i + 1]!, z = cloud.xyz[3 * i + 2]!;
        if (isEmpty(x, y, z)) continue;
        const a = Math.atan2(y, x) - lasers[laserOfRow[r]!]!.azimuthOffset - (sign * TWO_PI * c) / columns;
        sx += Math.cos(a);
        sy += Math.sin(a);
        n++;
      }
    }
    const agreement = n ? Math.hypot(sx, sy) / n : 0;
    if (agreement > best.agreement) best = { start: Math.atan2(sy, sx), sign, agreement };
  }
  return best;
}

export interface OrganisedPacket {
  packet: DecodedPacket;
  layout: OrganisedLayout;
  hits: number;
  misses: number;
  /** How well one start angle explains every hit's column (1 = all on their column's azimuth). */
  azimuthAgreement: number;
}

/** The scan as one packet: every cell a ray (ring = its row's laser), empty cells as misses along their beam. */
export function organisedPacket(cloud: DecodedCloud, profile: SensorProfile, layout: OrganisedLayout): OrganisedPacket {
  const lasers = lasersOf(profile);
  const { rows, columns, order, laserOfRow } = layout;
  const fit = fitColumnAzimuth(cloud, layout, lasers);
  const n = rows * columns;
  const dir = new Float32Array(3 * n);
  const range = new Float32Array(n);
  const intensity = new Float32Array(n);
  const ring = new Uint16Array(n);
  let hits = 0, k = 0;
  // Rays in firing order: column by column, each column's rows in order.
  for (let c = 0; c < columns; c++) {
    for (let r = 0; r < rows; r++, k++) {
      const i = order === 'column-major' ? c * rows + r : r * columns + c;
      const x = cloud.xyz[3 * i]!, y = cloud.xyz[3 * i + 1]!, z = cloud.xyz[3 * i + 2]!;
      const laser = laserOfRow[r]!;
      ring[k] = laser < RING_UNKNOWN ? laser : RING_UNKNOWN;
      if (!isEmpty(x, y, z)) {
        const m = Math.sqrt(x * x + y * y + z * z);
        dir[3 * k] = x / m;
        dir[3 * k + 1] = y / m;
        dir[3 * k + 2] = z / m;
        range[k] = m;
        intensity[k] = cloud.intensity[i]!;
        hits++;
        continue;
      }
      const l = lasers[laser]!;
      const az = fit.start + (fit.sign * TWO_PI * c) / columns + l.azimuthOffset;
      const ce = Math.cos(l.elevation);
      dir[3 * k] = ce * Math.cos(az);
      dir[3 * k + 1] = ce * Math.sin(az);
      dir[3 * k + 2] = Math.sin(l.elevation);
      range[k] = NaN;
    }
  }
  return {
    packet: { time: cloud.timeBase, count: n, dir, range, intensity, rayTime: null, ring, ret: null },
    layout,
    hits,
    misses: n - hits,
    azimuthAgreement: fit.agreement,
  };
}
