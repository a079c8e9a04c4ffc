/**
 * Whether a ray falls inside an evaluation's region (src-common/evaluation-region.ts;
 * docs/methods.md §6, *Region*). A hit is judged by its point: the azimuth of its direction and
 * its range in the sensor frame, its world point against the boxes, its sensor-frame point
 * against the vehicle's body. A miss has no point: it is judged by its direction alone, so a
 * region with a range window or a box leaves misses out (there is nothing to place), and one
 * with only an azimuth window or a body keeps the misses of the window.
 *
 * A ray *pair* is judged by its real ray; where the real ray missed, by the simulated ray's hit
 * (a false hit inside the region counts against the simulation; outside it, not).
 */
import { regionIsEmpty, type EvaluationRegion } from '../../src-common/evaluation-region';

interface Box {
  cx: number; cy: number; cz: number;
  hx: number; hy: number; hz: number;
  cos: number; sin: number;
}

const DEG = Math.PI / 180;

export class RegionFilter {
  /** False: every ray is inside (no region given). */
  readonly active: boolean;
  /** Whether a ray needs a point to be inside (a range window or a box). */
  readonly needsPoint: boolean;
  private readonly az: [number, number] | null;
  private readonly notAz: [number, number][];
  private readonly range: [number, number] | null;
  private readonly boxes: Box[];
  private readonly body: Box | null;

  constructor(region?: EvaluationRegion | null) {
    this.active = !regionIsEmpty(region);
    const r = region ?? {};
    // A window 360° wide or more is no restriction (and wrapping its ends would make it a point).
    const a = r.azimuthDeg;
    this.az = a && Math.abs(a[1] - a[0]) < 360 ? [wrapDeg(a[0]), wrapDeg(a[1])] : null;
    this.notAz = (r.excludeAzimuthDeg ?? []).map((w) => [wrapDeg(w[0]), wrapDeg(w[1])] as [number, number]);
    this.range = r.rangeM ?? null;
    this.boxes = (r.boxes ?? []).map((b) => box(b.center, b.size, b.yawDeg));
    this.body = r.excludeBody ? box(r.excludeBody.center, r.excludeBody.size, 0) : null;
    this.needsPoint = !!this.range || this.boxes.length > 0;
  }

  /** A ray alone: direction (unit, sensor frame), range (NaN = miss) and its world point. */
  ray(dx: number, dy: number, dz: number, range: number, wx: number, wy: number, wz: number): boolean {
    if (!this.active) return true;
    if (this.az || this.notAz.length > 0) {
      const a = Math.atan2(dy, dx) / DEG;
      if (this.az && !inAzimuth(a, this.az)) return false;
      for (const w of this.notAz) if (inAzimuth(a, w)) return false;
    }
    if (!Number.isFinite(range)) return !this.needsPoint;
    if (this.range && !(range >= this.range[0] && range <= this.range[1])) return false;
    if (this.body && inBox(this.body, dx * range, dy * range, dz * range)) return false;
    if (this.boxes.length > 0) {
      let any = false;
      for (const b of this.boxes) if (inBox(b, wx, wy, wz)) { any = true; break; }
      if (!any) return false;
    }
    return true;
  }
}

function box(center: readonly number[], size: readonly number[], yawDeg: number): Box {
  return {
    cx: center[0]!, cy: center[1]!, cz: center[2]!,
    hx: size[0]! / 2, hy: size[1]! / 2, hz: size[2]! / 2,
    cos: Math.cos(yawDeg * DEG), sin: Math.sin(yawDeg * DEG),
  };
}

function inBox(b: Box, x: number, y: number, z: number): boolean {
  const px = x - b.cx, py = y - b.cy, pz = z - b.cz;
  // Into the box's frame: rotate by −yaw about z.
  const lx = b.cos * px + b.sin * py, ly = -b.sin * px + b.cos * py;
  return Math.abs(lx) <= b.hx && Math.abs(ly) <= b.hy && Math.abs(pz) <= b.hz;
}

/** Degrees into (−180, 180]. */
export function wrapDeg(a: number): number {
  const w = ((((a + 180) % 360) + 360) % 360) - 180;
  return w === -180 ? 180 : w;
}

/** Whether azimuth a (degrees, (−180, 180]) is in [from, to], wrapping through ±180° when from > to. */
export function inAzimuth(a: number, [from, to]: [number, number]): boolean {
  return from <= to ? a >= from && a <= to : a >= from || a <= to;
}
