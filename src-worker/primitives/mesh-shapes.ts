/**
 * Closed solids for the mesh-primitive baseline (mesh-library.ts), composed from the site's
 * builders (MeshWriter's frustum sides, vegetation.ts's lumpy rock spheroid) — the kind of low-poly
 * geometry the free tree and shrub meshes of general-purpose simulators are made of:
 *
 *   column(w, z0, z1, r0, r1, sides, value)           capped vertical frustum (trunks)
 *   cone(w, z0, z1, radius, sides, value, x, y)        capped vertical cone (conifer tiers)
 *   blob(w, r, centre, halfExtents, value)             lumpy closed ellipsoid (crowns, shrubs)
 *   fitToBox(positions, extents)                       affine map of a soup's bounds onto the primitive box
 */
import type { RandomStream } from '../random/stream';
import type { MeshWriter } from '../site/mesh-writer';
import { rockMesh } from '../site/vegetation';

/** A horizontal disc fan at height z (closes a frustum's end). */
function disc(w: MeshWriter, x: number, y: number, z: number, radius: number, sides: number, value: number, up: boolean): void {
  for (let s = 0; s < sides; s++) {
    const a0 = (2 * Math.PI * s) / sides, a1 = (2 * Math.PI * (s + 1)) / sides;
    const x0 = x + radius * Math.cos(a0), y0 = y + radius * Math.sin(a0), x1 = x + radius * Math.cos(a1), y1 = y + radius * Math.sin(a1);
    if (up) w.triangle(x, y, z, x0, y0, z, x1, y1, z, value);
    else w.triangle(x, y, z, x1, y1, z, x0, y0, z, value);
  }
}

/** A vertical frustum from z0 (radius r0) to z1 (radius r1) about (x, y), both ends capped. */
export function column(w: MeshWriter, z0: number, z1: number, r0: number, r1: number, sides: number, value: number, x = 0, y = 0): void {
  // MeshWriter.cylinder's ring for a vertical axis starts at angle 0 on +x… the caps use the same angles.
  w.cylinder(x, y, z0, x, y, z1, r0, r1, sides, value);
  disc(w, x, y, z0, r0, sides, value, false);
  disc(w, x, y, z1, r1, sides, value, true);
}

/** A vertical cone, base disc of `radius` at z0 and apex at z1, about (x, y). */
export function cone(w: MeshWriter, z0: number, z1: number, radius: number, sides: number, value: number, x = 0, y = 0): void {
  for (let s = 0; s < sides; s++) {
    const a0 = (2 * Math.PI * s) / sides, a1 = (2 * Math.PI * (s + 1)) / sides;
    w.triangle(x + radius * Math.cos(a0), y + radius * Math.sin(a0), z0, x + radius * Math.cos(a1), y + radius * Math.sin(a1), z0, x, y, z1, value);
  }
  disc(w, x, y, z0, radius, sides, value, false);
}

/** Bounds of a soup: [minx, miny, minz, maxx, maxy, maxz]. */
export function soupBounds(positions: Float32Array): Float64Array {
  const b = Float64Array.of(Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity);
  for (let i = 0; i < positions.length; i += 3) {
    for (let a = 0; a < 3; a++) {
      const v = positions[i + a]!;
      if (v < b[a]!) b[a] = v;
      if (v > b[3 + a]!) b[3 + a] = v;
    }
  }
  return b;
}

/**
 * A lumpy closed ellipsoid: vegetation.ts's rock (an octahedron subdivided twice, 128 triangles,
 * pushed out to a noisy sphere) stretched so its bounds are centre ± halfExtents. The rock is
 * star-shaped about its centre, so the blob contains a neighbourhood of `centre`.
 */
export function blob(w: MeshWriter, r: RandomStream, centre: readonly number[], halfExtents: readonly number[], value: number): void {
  const rock = rockMesh(r, 1);
  const b = soupBounds(rock.positions);
  const sx = (2 * halfExtents[0]!) / (b[3]! - b[0]!), sy = (2 * halfExtents[1]!) / (b[4]! - b[1]!), sz = (2 * halfExtents[2]!) / (b[5]! - b[2]!);
  const tx = centre[0]! - sx * (b[0]! + b[3]!) / 2, ty = centre[1]! - sy * (b[1]! + b[4]!) / 2, tz = centre[2]! - sz * (b[2]! + b[5]!) / 2;
  w.append(rock.positions, new Float32Array(rock.values.length).fill(value), [sx, 0, 0, 0, sy, 0, 0, 0, sz], [tx, ty, tz]);
}

/**
 * Maps a soup's bounds exactly onto the primitive box [−l/2, l/2] × [−w/2, w/2] × [0, h]
 * (primitive.ts's frame), in place: per axis a scale and a shift.
 */
export function fitToBox(positions: Float32Array, extents: readonly number[]): Float32Array {
  const b = soupBounds(positions);
  const lo = [-extents[0]! / 2, -extents[1]! / 2, 0];
  const scale = [0, 1, 2].map((a) => (b[3 + a]! > b[a]! ? extents[a]! / (b[3 + a]! - b[a]!) : 1));
  for (let i = 0; i < positions.length; i += 3) {
    for (let a = 0; a < 3; a++) positions[i + a] = lo[a]! + (positions[i + a]! - b[a]!) * scale[a]!;
  }
  return positions;
}
