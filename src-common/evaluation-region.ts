/**
 * The region an evaluation scores (docs/methods.md §6, *Region*): an azimuth window and a range
 * window in the sensor frame, oriented boxes in the world frame, and the vehicle's own body to
 * leave out — one definition, and one parser of its text form, for the CLI, the API and the
 * Evaluation page.
 *
 * Text form (the CLI's `--region`, the page's field): comma-separated `key=value` terms,
 *   azimuth=FROM:TO        degrees, sensor frame (0 = x forward, +90 = y left); FROM > TO wraps through 180°
 *   exclude-azimuth=FROM:TO  a window left out (where the sensor's own mount blinds it); may repeat
 *   range=MIN:MAX          metres from the sensor
 *   box=cx,cy,cz,l,w,h,yawDeg   an oriented box in the world frame (centre, length along its x,
 *                          width, height, yaw about z); may repeat: a point inside any box counts
 * e.g. `azimuth=-60:60,range=1:40` or `box=12,-3,0.5,8,6,3,30`. Every term given must hold.
 */

export interface OrientedBox {
  /** Centre (m, world frame). */
  center: [number, number, number];
  /** Length (along the box's x), width, height (m). */
  size: [number, number, number];
  /** Yaw of the box's x axis about z (degrees). */
  yawDeg: number;
}

/** The vehicle's body in the sensor frame: returns inside it are the vehicle itself. */
export interface VehicleBody {
  /** Length (x), width (y), height (z), metres. */
  size: [number, number, number];
  /** Centre of the box in the sensor frame (m). */
  center: [number, number, number];
}

export interface EvaluationRegion {
  /** [from, to] degrees in the sensor frame; from > to wraps through ±180°. */
  azimuthDeg?: [number, number];
  /** Windows left out, as azimuthDeg (a ray in any of them is outside the region). */
  excludeAzimuthDeg?: [number, number][];
  /** [min, max] metres from the sensor. */
  rangeM?: [number, number];
  /** World-frame boxes; a point inside any of them counts. */
  boxes?: OrientedBox[];
  /** Leave out returns inside the vehicle's body. */
  excludeBody?: VehicleBody;
}

/**
 * The body `--exclude-body` leaves out when no `--body` is given: a car-sized box (4.5 × 2 × 2 m,
 * about a KITTI Passat or a utility vehicle) centred under a roof-mounted sensor, its top 0.1 m
 * above the sensor's origin.
 */
export const DEFAULT_BODY_SIZE: [number, number, number] = [4.5, 2, 2];

export function defaultBody(size: [number, number, number] = DEFAULT_BODY_SIZE, center?: [number, number, number]): VehicleBody {
  return { size, center: center ?? [0, 0, 0.1 - size[2] / 2] };
}

/** A region's text form that cannot be read: `where` names the term, `reason` what is wrong. */
export class RegionSyntaxError extends Error {
  constructor(readonly where: string, readonly reason: string) {
    super(`region: ${where}: ${reason}`);
    this.name = 'RegionSyntaxError';
  }
}

function numbers(text: string, where: string, count: number | [number, number], sep: string): number[] {
  const parts = text.split(sep);
  const [lo, hi] = typeof count === 'number' ? [count, count] : count;
  if (parts.length < lo || parts.length > hi) throw new RegionSyntaxError(where, `expected ${lo === hi ? lo : `${lo} to ${hi}`} numbers separated by "${sep}", got "${text}"`);
  return parts.map((p, i) => {
    const v = Number(p.trim());
    if (p.trim() === '' || !Number.isFinite(v)) throw new RegionSyntaxError(where, `value ${i + 1} ("${p}") is not a number`);
    return v;
  });
}

/** Reads the text form above (terms may also come from several `--region` flags, joined by commas). */
export function parseRegion(text: string): EvaluationRegion {
  const region: EvaluationRegion = {};
  // Split on commas that start a new `key=` term: a box's numbers are themselves comma-separated.
  const terms = text.trim() === '' ? [] : text.split(/,(?=\s*[a-zA-Z-]+\s*=)/);
  if (terms.length === 0) throw new RegionSyntaxError('"' + text + '"', 'empty region (expected azimuth=FROM:TO, range=MIN:MAX or box=cx,cy,cz,l,w,h,yawDeg)');
  for (const term of terms) {
    const eq = term.indexOf('=');
    const key = term.slice(0, eq).trim().toLowerCase(), value = term.slice(eq + 1).trim();
    const where = `term "${term.trim()}"`;
    if (eq < 0) throw new RegionSyntaxError(where, 'expected key=value');
    if (key === 'azimuth') {
      if (region.azimuthDeg) throw new RegionSyntaxError(where, 'azimuth given twice');
      region.azimuthDeg = numbers(value, where, 2, ':') as [number, number];
    } else if (key === 'exclude-azimuth') {
      (region.excludeAzimuthDeg ??= []).push(numbers(value, where, 2, ':') as [number, number]);
    } else if (key === 'range') {
      if (region.rangeM) throw new RegionSyntaxError(where, 'range given twice');
      region.rangeM = numbers(value, where, 2, ':') as [number, number];
    } else if (key === 'box') {
      const [cx, cy, cz, l, w, h, yaw] = numbers(value, where, 7, ',') as [number, number, number, number, number, number, number];
      (region.boxes ??= []).push({ center: [cx, cy, cz], size: [l, w, h], yawDeg: yaw });
    } else {
      throw new RegionSyntaxError(where, `unknown key "${key}" (expected azimuth, exclude-azimuth, range or box)`);
    }
  }
  const problem = regionProblem(region);
  if (problem) throw new RegionSyntaxError(problem.where, problem.reason);
  return region;
}

/** Reads `--body L,W,H[,cx,cy,cz]` (metres, sensor frame). */
export function parseBody(text: string): VehicleBody {
  const v = numbers(text, `body "${text}"`, [3, 6], ',');
  if (v.length !== 3 && v.length !== 6) throw new RegionSyntaxError(`body "${text}"`, 'expected L,W,H or L,W,H,cx,cy,cz');
  const body = defaultBody([v[0]!, v[1]!, v[2]!], v.length === 6 ? [v[3]!, v[4]!, v[5]!] : undefined);
  const problem = regionProblem({ excludeBody: body });
  if (problem) throw new RegionSyntaxError(problem.where, problem.reason);
  return body;
}

/** The first thing wrong with a region (null when none): what the API, the CLI and the page check. */
export function regionProblem(r: EvaluationRegion): { where: string; reason: string } | null {
  const finite = (a: readonly number[]) => a.every((x) => Number.isFinite(x));
  if (r.azimuthDeg) {
    const [a, b] = r.azimuthDeg;
    if (!finite(r.azimuthDeg) || a < -360 || a > 360 || b < -360 || b > 360) return { where: 'azimuth', reason: `${a}:${b} is not within −360…360°` };
    if (a === b) return { where: 'azimuth', reason: `the window ${a}:${b} is empty` };
  }
  for (const [i, w] of (r.excludeAzimuthDeg ?? []).entries()) {
    const [a, b] = w;
    if (!finite(w) || a < -360 || a > 360 || b < -360 || b > 360) return { where: `exclude-azimuth ${i + 1}`, reason: `${a}:${b} is not within −360…360°` };
    if (a === b) return { where: `exclude-azimuth ${i + 1}`, reason: `the window ${a}:${b} is empty` };
    if (Math.abs(b - a) >= 360) return { where: `exclude-azimuth ${i + 1}`, reason: `${a}:${b} leaves out every direction` };
  }
  if (r.rangeM) {
    const [a, b] = r.rangeM;
    if (!finite(r.rangeM) || a < 0 || b <= a) return { where: 'range', reason: `${a}:${b} must be 0 ≤ MIN < MAX metres` };
  }
  for (const [i, box] of (r.boxes ?? []).entries()) {
    if (!finite(box.center) || !Number.isFinite(box.yawDeg)) return { where: `box ${i + 1}`, reason: 'centre and yaw must be numbers' };
    if (!box.size.every((s) => Number.isFinite(s) && s > 0)) return { where: `box ${i + 1}`, reason: `size ${box.size.join(' × ')} m must be positive` };
  }
  if (r.excludeBody) {
    const b = r.excludeBody;
    if (!b.size.every((s) => Number.isFinite(s) && s > 0)) return { where: 'body', reason: `size ${b.size.join(' × ')} m must be positive` };
    if (!finite(b.center)) return { where: 'body', reason: 'centre must be numbers' };
  }
  return null;
}

/** Whether a region restricts anything. */
export function regionIsEmpty(r: EvaluationRegion | null | undefined): boolean {
  return !r || (!r.azimuthDeg && !(r.excludeAzimuthDeg && r.excludeAzimuthDeg.length > 0) && !r.rangeM && !(r.boxes && r.boxes.length > 0) && !r.excludeBody);
}

/** The text form of a region (the body as `body=L,W,H,cx,cy,cz`), for messages and listings. */
export function formatRegion(r: EvaluationRegion): string {
  const terms: string[] = [];
  if (r.azimuthDeg) terms.push(`azimuth=${r.azimuthDeg[0]}:${r.azimuthDeg[1]}`);
  for (const w of r.excludeAzimuthDeg ?? []) terms.push(`exclude-azimuth=${w[0]}:${w[1]}`);
  if (r.rangeM) terms.push(`range=${r.rangeM[0]}:${r.rangeM[1]}`);
  for (const b of r.boxes ?? []) terms.push(`box=${[...b.center, ...b.size, b.yawDeg].join(',')}`);
  if (r.excludeBody) terms.push(`exclude-body=${[...r.excludeBody.size, ...r.excludeBody.center].join(',')}`);
  return terms.join(',') || 'everything';
}
