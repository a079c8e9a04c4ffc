/**
 * Pure geometry and colours for the beam view (no Babylon; unit-tested in Node).
 *
 * 'sphere': each ray's point at SPHERE_RADIUS metres from the sensor, so the pattern reads as
 * rings on a ball around the sensor at its mount height. 'ground': where each downward ray meets
 * flat ground (z = 0) within the range limit (GROUND_LIMIT at most, to keep the view readable);
 * rays that never reach the ground are left out.
 */
import type { ProfilePattern } from '../../../src-common/sensor-profile';
import { turbo } from '../../../src-common/colormaps';

export type BeamView = 'sphere' | 'ground';

export const SPHERE_RADIUS = 1.5;
export const GROUND_LIMIT = 60;

export interface BeamPoints {
  /** Thicket vehicle-frame positions, 3 per point. */
  positions: Float32Array;
  rings: Uint16Array;
  /** Half-width of the region the points occupy (m), for framing the camera. */
  extent: number;
}

export function beamPoints(pattern: ProfilePattern, view: BeamView, rangeMax: number): BeamPoints {
  const [ox, oy, oz] = pattern.origin;
  const d = pattern.directions;
  const n = pattern.ring.length;
  if (view === 'sphere') {
    const positions = new Float32Array(n * 3);
    for (let i = 0; i < n; i++) {
      positions[3 * i] = ox + SPHERE_RADIUS * d[3 * i]!;
      positions[3 * i + 1] = oy + SPHERE_RADIUS * d[3 * i + 1]!;
      positions[3 * i + 2] = oz + SPHERE_RADIUS * d[3 * i + 2]!;
    }
    return { positions, rings: pattern.ring.slice(), extent: Math.max(3, SPHERE_RADIUS + Math.hypot(ox, oy)) };
  }
  const limit = Math.min(rangeMax, GROUND_LIMIT);
  const keep: number[] = [];
  let extent = 5;
  for (let i = 0; i < n; i++) {
    const dz = d[3 * i + 2]!;
    if (!(dz < -1e-6) || !(oz > 0)) continue;
    const t = oz / -dz;
    if (t > limit) continue;
    keep.push(i);
    extent = Math.max(extent, Math.abs(ox + t * d[3 * i]!), Math.abs(oy + t * d[3 * i + 1]!));
  }
  const positions = new Float32Array(keep.length * 3);
  const rings = new Uint16Array(keep.length);
  keep.forEach((i, j) => {
    const t = oz / -d[3 * i + 2]!;
    positions[3 * j] = ox + t * d[3 * i]!;
    positions[3 * j + 1] = oy + t * d[3 * i + 1]!;
    positions[3 * j + 2] = 0.02; // just above the grid
    rings[j] = pattern.ring[i]!;
  });
  return { positions, rings, extent };
}

/** Rank of each laser by elevation (0 = lowest): neighbouring rings get neighbouring colours. */
export function elevationRanks(elevations: number[]): number[] {
  const order = elevations.map((e, i) => [e, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const rank = new Array<number>(elevations.length);
  order.forEach(([, i], r) => (rank[i] = r));
  return rank;
}

/** RGBA per point: turbo over the laser's elevation rank (a single laser is teal). */
export function ringColors(rings: Uint16Array, elevationsDeg: number[]): Float32Array {
  const rank = elevationRanks(elevationsDeg);
  const n = Math.max(1, elevationsDeg.length - 1);
  const lut = elevationsDeg.map((_, i) => (elevationsDeg.length === 1 ? ([0.25, 0.78, 0.6] as const) : turbo(0.08 + (0.86 * rank[i]!) / n)));
  const out = new Float32Array(rings.length * 4);
  for (let i = 0; i < rings.length; i++) {
    const c = lut[rings[i]!] ?? ([1, 1, 1] as const);
    out[4 * i] = c[0];
    out[4 * i + 1] = c[1];
    out[4 * i + 2] = c[2];
    out[4 * i + 3] = 1;
  }
  return out;
}

/** CSS colour of laser `ring` (for legends and the laser table). */
export function ringCss(ring: number, elevationsDeg: number[]): string {
  const c = ringColors(Uint16Array.of(ring), elevationsDeg);
  const h = (x: number) => Math.round(x * 255);
  return `rgb(${h(c[0]!)}, ${h(c[1]!)}, ${h(c[2]!)})`;
}
