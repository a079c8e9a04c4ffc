/**
 * Beam footprints: the fixed 9-ray stencil of the physics mode (003 §3.2.1) and uniform sampling
 * inside the divergence cone (000 §IV).
 *
 * Offsets are in the plane perpendicular to the beam at 1 m, in the beam's own basis: u is the
 * horizontal direction (perpendicular to the beam, in the sensor's x-y plane, pointing left of
 * the beam) and v = beam × u (up, for a horizontal beam). A sub-ray is normalise(beam + x·u + y·v).
 * The half-widths of the spot at 1 m are a = tan(divergenceH / 2), b = tan(divergenceV / 2)
 * (full-angle divergences).
 *
 * Stencil radius (the extracted text of 003 §3.2.1 prints a garbled "radius = (2) tan(γ/2) / 4";
 * we derive it instead). The 9 rays carry equal weight, so each should stand for 1/9 of a top-hat
 * spot. Cut the spot into 9 equal-area cells: a central cell and 8 equal cells around it; each
 * sub-ray sits where it splits its cell into two equal areas.
 * - rectangle (half-widths a, b): the 3 × 3 grid of equal cells; cell centres at 0 and ±2/3 of
 *   the half-width, i.e. corners (±2a/3, ±2b/3) and edge midpoints (±2a/3, 0), (0, ±2b/3);
 * - circle (radius R = a): central disc of radius R/3 (area 1/9) and 8 equal 45° sectors of the
 *   annulus R/3…R; the radius halving a sector's area is √((R²/9 + R²)/2) = R·√5/3 ≈ 0.745 R, at
 *   angles 0°, 45°, …, 315°;
 * - ellipse: the affine image of the circle: (a·√5/3 cos φ, b·√5/3 sin φ).
 * `stencilScale` overrides the fraction (1 puts the outer rays on the spot's edge).
 */
import type { BeamShape } from '../../src-common/sensor-profile';
import type { RandomStream } from '../random/stream';

export const STENCIL_SIZE = 9;

/** Default fraction of the half-width for the 8 outer sub-rays (see the derivation above). */
export function equalAreaStencilScale(shape: BeamShape): number {
  return shape === 'rectangular' ? 2 / 3 : Math.sqrt(5) / 3;
}

/** Spot half-widths at 1 m. A circular beam uses divergenceH for both axes. */
export function spotHalfWidths(shape: BeamShape, divergenceH: number, divergenceV: number): [number, number] {
  const a = Math.tan(Math.max(0, divergenceH) / 2);
  const b = shape === 'circular' ? a : Math.tan(Math.max(0, divergenceV) / 2);
  return [a, b];
}

/**
 * The 9 stencil offsets (x along u, y along v) at 1 m, 18 numbers: the centre first, then the
 * 8 outer points counter-clockwise from +u.
 */
export function beamStencil(shape: BeamShape, divergenceH: number, divergenceV: number, scale?: number): Float64Array {
  const s = scale ?? equalAreaStencilScale(shape);
  const [a, b] = spotHalfWidths(shape, divergenceH, divergenceV);
  const out = new Float64Array(2 * STENCIL_SIZE);
  if (shape === 'rectangular') {
    const xs = [1, 1, 0, -1, -1, -1, 0, 1];
    const ys = [0, 1, 1, 1, 0, -1, -1, -1];
    for (let k = 0; k < 8; k++) {
      out[2 + 2 * k] = s * a * xs[k]!;
      out[3 + 2 * k] = s * b * ys[k]!;
    }
  } else {
    for (let k = 0; k < 8; k++) {
      const phi = (k * Math.PI) / 4;
      out[2 + 2 * k] = s * a * Math.cos(phi);
      out[3 + 2 * k] = s * b * Math.sin(phi);
    }
  }
  return out;
}

/**
 * A point uniform over the spot at 1 m (disc / ellipse / rectangle of half-widths a, b): the beam
 * sampled uniformly inside its divergence cone (000 §IV). Writes x, y into out[0..1].
 */
export function sampleSpot(shape: BeamShape, a: number, b: number, rng: RandomStream, out: Float64Array): void {
  if (shape === 'rectangular') {
    out[0] = (2 * rng.next() - 1) * a;
    out[1] = (2 * rng.next() - 1) * b;
    return;
  }
  const rho = Math.sqrt(rng.next());
  const phi = 2 * Math.PI * rng.next();
  out[0] = a * rho * Math.cos(phi);
  out[1] = b * rho * Math.sin(phi);
}

/**
 * The beam basis for a unit direction (dx, dy, dz) in the sensor frame: u horizontal (left of the
 * beam), v = d × u. Writes u then v into out[0..5]. A vertical beam takes u = +y.
 */
export function beamBasis(dx: number, dy: number, dz: number, out: Float64Array): void {
  let ux = -dy, uy = dx;
  const h = Math.hypot(ux, uy);
  if (h < 1e-12) {
    ux = 0;
    uy = 1;
  } else {
    ux /= h;
    uy /= h;
  }
  out[0] = ux; out[1] = uy; out[2] = 0;
  // v = d × u, u = (ux, uy, 0)
  out[3] = -dz * uy;
  out[4] = dz * ux;
  out[5] = dx * uy - dy * ux;
}

/** normalise(d + x·u + y·v) into out[o..o+2]; basis as written by beamBasis. */
export function offsetDirection(
  dx: number, dy: number, dz: number, basis: Float64Array, x: number, y: number,
  out: Float64Array, o: number,
): void {
  const ex = dx + x * basis[0]! + y * basis[3]!;
  const ey = dy + x * basis[1]! + y * basis[4]!;
  const ez = dz + x * basis[2]! + y * basis[5]!;
  const n = Math.sqrt(ex * ex + ey * ey + ez * ez);
  out[o] = ex / n;
  out[o + 1] = ey / n;
  out[o + 2] = ez / n;
}
