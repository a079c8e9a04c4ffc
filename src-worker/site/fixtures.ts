/**
 * Validation fixtures of seed 003 §3.4 for the physics mode. Signatures are stable.
 * The sensor is at the origin looking along +x, z up; everything is opaque triangle meshes
 * (ElementKind.Surface), so closestSurface / the physics mode sees them directly.
 *
 *   buildCylinderStand(opts: CylinderStandOptions): CylinderStand
 *     opts: { lambda (stems/m²), diameter (m), distance D (m), seed, width = 10, depth = 5,
 *             sides = 32, height = 2, reflectance = 0.5, shared = false }
 *     Random vertical cylinders, centres uniform over x ∈ [D, D + depth], y ∈ [−width/2, width/2]
 *     (round(λ·width·depth) of them, a fixed count rather than a Poisson draw), spanning
 *     z ∈ [−height/2, height/2], so a horizontal beam at z = 0 meets only their sides.
 *     Cylinders are triangulated (choice: no analytic primitive): `sides` facets whose vertex
 *     radius makes the *mean* silhouette width exactly d; the silhouette width then varies by
 *     ±(1 − cos(π/sides))/2 ≈ ±0.24 % for 32 sides (within 1 % for sides ≥ 16). One cylinder
 *     mesh is instanced per stem (random yaw). Object ids: stem k → k + 1; class SiteClass.stem.
 *     Returns the scene, stem centres (x, y pairs), count, and the facet radius used.
 *
 *   buildRodBench(opts: RodBenchOptions): RodBench
 *     opts: { backgroundOffset (m: 0.6 or 2 in 003), seed = 0, sides = 64, rodDistance = 0.8,
 *             spacing = 0.127, wallWidth = 12, height = 2, reflectance = 0.5, shared = false }
 *     003 §3.4.2: 9 vertical rods of diameter 25 mm except the middle one (index 4) of 75 mm,
 *     12.7 cm apart centre to centre along y, centred on the x axis, centres at
 *     x = rodDistance (0.8 m); a flat wall (plane x = rodDistance + backgroundOffset, facing
 *     the sensor, wallWidth × height) behind them. Rods: objectId 1..9 (class SiteClass.rod);
 *     wall: objectId 100 (class SiteClass.wall). Returns rod centres/diameters and the wall's x
 *     so a caller can classify returns (mixed pixel: > 5 cm from every rod surface and from
 *     the wall).
 */
import { RandomStream } from '../random/stream';
import { SceneBuilder } from '../scene/scene-builder';
import type { SceneData } from '../../src-common/scene-data';
import { SiteClass } from '../../src-common/classes';
import { MeshWriter } from './mesh-writer';

export interface CylinderStandOptions {
  /** Stem density (stems per m²). */
  lambda: number;
  /** Stem diameter (m). */
  diameter: number;
  /** Distance from the sensor to the near edge of the stand along +x (m). */
  distance: number;
  seed: number;
  /** Stand extent across the beam, along y (m); default 10. */
  width?: number;
  /** Stand extent along the beam, along x (m); default 5. */
  depth?: number;
  /** Facets per cylinder; default 32. */
  sides?: number;
  /** Cylinder height (m), centred on z = 0; default 2. */
  height?: number;
  reflectance?: number;
  shared?: boolean;
}

export interface CylinderStand {
  data: SceneData;
  /** Stem centres: x, y per stem. */
  centres: Float64Array;
  count: number;
  /** Radius of the facet vertices (slightly above d/2; see the header). */
  vertexRadius: number;
}

/** Vertex radius of a regular n-gon whose mean width (perimeter / π) equals d. */
export function polygonRadiusForMeanWidth(d: number, sides: number): number {
  return (d * Math.PI) / (2 * sides * Math.sin(Math.PI / sides));
}

function cylinderMesh(radius: number, height: number, sides: number, reflectance: number): Float32Array {
  const w = new MeshWriter();
  w.cylinder(0, 0, -height / 2, 0, 0, height / 2, radius, radius, sides, reflectance);
  return w.finish().positions;
}

export function buildCylinderStand(opts: CylinderStandOptions): CylinderStand {
  const width = opts.width ?? 10, depth = opts.depth ?? 5, sides = opts.sides ?? 32, height = opts.height ?? 2;
  if (!(opts.lambda > 0) || !(opts.diameter > 0) || !(opts.distance >= 0)) throw new Error('buildCylinderStand: lambda and diameter must be > 0 and distance ≥ 0');
  const r = new RandomStream(opts.seed, 0x57a);
  const vertexRadius = polygonRadiusForMeanWidth(opts.diameter, sides);
  const b = new SceneBuilder();
  const prim = b.addMesh(cylinderMesh(vertexRadius, height, sides, opts.reflectance ?? 0.5), opts.reflectance ?? 0.5);
  const count = Math.round(opts.lambda * width * depth);
  const centres = new Float64Array(2 * count);
  for (let k = 0; k < count; k++) {
    const x = opts.distance + depth * r.next(), y = (r.next() - 0.5) * width;
    const yaw = 2 * Math.PI * r.next();
    centres[2 * k] = x;
    centres[2 * k + 1] = y;
    b.addInstance(prim, [x, y, 0, 0, 0, Math.sin(yaw / 2), Math.cos(yaw / 2)], k + 1, SiteClass.stem);
  }
  return { data: b.build({ shared: opts.shared ?? false }), centres, count, vertexRadius };
}

export interface RodBenchOptions {
  /** Wall distance behind the rods' centre line (m). */
  backgroundOffset: number;
  seed?: number;
  /** Facets per rod; default 64. */
  sides?: number;
  /** x of the rods' centres (m); default 0.8. */
  rodDistance?: number;
  /** Centre-to-centre spacing (m); default 0.127. */
  spacing?: number;
  wallWidth?: number;
  height?: number;
  reflectance?: number;
  shared?: boolean;
}

export interface RodBench {
  data: SceneData;
  /** Rod centres: x, y per rod (9 rods). */
  rodCentres: Float64Array;
  rodDiameters: Float64Array;
  rodObjectIds: Int32Array;
  /** The wall is the plane x = wallX. */
  wallX: number;
  wallObjectId: number;
}

export const ROD_DIAMETER = 0.025;
export const THICK_ROD_DIAMETER = 0.075;
export const THICK_ROD_INDEX = 4;

export function buildRodBench(opts: RodBenchOptions): RodBench {
  const sides = opts.sides ?? 64, height = opts.height ?? 2, spacing = opts.spacing ?? 0.127, x = opts.rodDistance ?? 0.8;
  const refl = opts.reflectance ?? 0.5;
  if (!(opts.backgroundOffset > 0)) throw new Error('buildRodBench: backgroundOffset must be > 0');
  const b = new SceneBuilder();
  const thin = b.addMesh(cylinderMesh(polygonRadiusForMeanWidth(ROD_DIAMETER, sides), height, sides, refl), refl);
  const thick = b.addMesh(cylinderMesh(polygonRadiusForMeanWidth(THICK_ROD_DIAMETER, sides), height, sides, refl), refl);
  const rodCentres = new Float64Array(18), rodDiameters = new Float64Array(9), rodObjectIds = new Int32Array(9);
  for (let k = 0; k < 9; k++) {
    const y = (k - 4) * spacing;
    const isThick = k === THICK_ROD_INDEX;
    rodCentres[2 * k] = x;
    rodCentres[2 * k + 1] = y;
    rodDiameters[k] = isThick ? THICK_ROD_DIAMETER : ROD_DIAMETER;
    rodObjectIds[k] = k + 1;
    b.addInstance(isThick ? thick : thin, [x, y, 0, 0, 0, 0, 1], k + 1, SiteClass.rod);
  }
  const wallX = x + opts.backgroundOffset;
  const ww = (opts.wallWidth ?? 12) / 2, hh = height / 2;
  const wall = new MeshWriter();
  wall.quad([wallX, -ww, -hh], [wallX, ww, -hh], [wallX, ww, hh], [wallX, -ww, hh], refl);
  const wm = wall.finish();
  b.addInstance(b.addMesh(wm.positions, wm.values), undefined, 100, SiteClass.wall);
  void opts.seed;
  return { data: b.build({ shared: opts.shared ?? false }), rodCentres, rodDiameters, rodObjectIds, wallX, wallObjectId: 100 };
}
