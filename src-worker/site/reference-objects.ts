/**
 * The reference site's object variants, each one opaque mesh in its local frame (origin at the
 * foot, z up), built from the engine's vegetation generators (vegetation.ts) and resized to the
 * classes of thesis 004 (Table 4.2 heights):
 *
 *   treeVariant(r, cls)          trunk, branches, leaf clusters (treeSpec/treeMesh), scaled
 *   shrubVariant(r, cls)         twigs and leaves (shrubSpec/shrubMesh), scaled
 *   shrubPatchVariant(r, cls)    3–5 shrubs of one class side by side: one object (thesis Table 4.6's patches)
 *   grassStandVariant(r, spec)   a disc of thin grass stems at a density and in a height range
 *   rockVariant(r, radius)       a noisy sunk spheroid (rockMesh)
 *   logVariant(r, length, radius) a fallen trunk: closed cylinder along x with branch stubs
 *
 * Each comes with its local bounding box and footprint radius (the layout's spacing).
 */
import type { RandomStream } from '../random/stream';
import { MeshWriter } from './mesh-writer';
import { ReferenceClass, THESIS_HEIGHT_M } from '../../src-common/classes';
import {
  grassClumpMesh, rockMesh, shrubMesh, shrubSpec, treeMesh, treeSpec,
  type ShrubSize, type ShrubSpec, type Soup, type TreeSize, type TreeSpec,
} from './vegetation';

export interface ObjectVariant extends Soup {
  cls: number;
  /** Several shrubs annotated as one object (a shrub patch). */
  patch: boolean;
  /** Local bounding box of the mesh. */
  min: [number, number, number];
  max: [number, number, number];
  /** Largest horizontal distance of a vertex from the local origin (m). */
  footprint: number;
}

const TREE_SIZE: Record<number, TreeSize> = {
  [ReferenceClass.smallTree]: 'small',
  [ReferenceClass.mediumTree]: 'medium',
  [ReferenceClass.largeTree]: 'large',
};
const SHRUB_SIZE: Record<number, ShrubSize> = {
  [ReferenceClass.lowShrub]: 'low',
  [ReferenceClass.smallShrub]: 'small',
  [ReferenceClass.mediumShrub]: 'medium',
  [ReferenceClass.largeShrub]: 'large',
};
const LOG_BARK = 0.3;

function between(r: RandomStream, a: number, b: number): number {
  return a + (b - a) * r.next();
}

/** The variant record of a finished soup: bounds and footprint from its vertices. */
export function toVariant(soup: Soup, cls: number, patch = false): ObjectVariant {
  const p = soup.positions;
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  let foot = 0;
  for (let i = 0; i < p.length; i += 3) {
    for (let a = 0; a < 3; a++) {
      const v = p[i + a]!;
      if (v < min[a]!) min[a] = v;
      if (v > max[a]!) max[a] = v;
    }
    foot = Math.max(foot, Math.hypot(p[i]!, p[i + 1]!));
  }
  return { positions: soup.positions, values: soup.values, cls, patch, min, max, footprint: foot };
}

/** A tree spec stretched about its foot by f (all lengths). */
function scaleTree(spec: TreeSpec, f: number): TreeSpec {
  const branches = spec.branches.map((v) => v * f);
  const clusters = spec.clusters.map((v) => v * f);
  return { height: spec.height * f, trunkRadius: spec.trunkRadius * f, trunkTop: spec.trunkTop * f, leanX: spec.leanX * f, leanY: spec.leanY * f, branches, clusters };
}

function scaleShrub(spec: ShrubSpec, f: number): ShrubSpec {
  return { height: spec.height * f, radius: spec.radius * f, stems: spec.stems.map((v) => v * f), clusters: spec.clusters.map((v) => v * f) };
}

/**
 * Scales a mesh about its foot so that its top is at `height` (the generators' leaves and twigs
 * reach past their spec's nominal height; the thesis's heights are measured objects).
 */
function fitHeight(soup: Soup, height: number): Soup {
  let top = 0;
  for (let i = 2; i < soup.positions.length; i += 3) top = Math.max(top, soup.positions[i]!);
  const f = top > 0 ? height / top : 1;
  return { positions: soup.positions.map((v) => v * f), values: soup.values };
}

/** A tree of class `cls` whose height is the thesis mean ±15 %. */
export function treeVariant(r: RandomStream, cls: number): ObjectVariant {
  const spec = treeSpec(r, TREE_SIZE[cls]!);
  const target = THESIS_HEIGHT_M[cls]! * between(r, 0.85, 1.15);
  return toVariant(fitHeight(treeMesh(scaleTree(spec, target / spec.height), r), target), cls);
}

/** One shrub at the thesis height ±20 %: the spec scaled, with more leaves per cluster as it grows (foliage about as dense). */
function shrubAtThesisSize(r: RandomStream, cls: number): { mesh: Soup; radius: number } {
  const spec = shrubSpec(r, SHRUB_SIZE[cls]!);
  const target = THESIS_HEIGHT_M[cls]! * between(r, 0.8, 1.2);
  const f = target / spec.height;
  const scaled = scaleShrub(spec, f);
  return { mesh: fitHeight(shrubMesh(scaled, r, Math.round(30 * Math.max(1, f))), target), radius: scaled.radius };
}

export function shrubVariant(r: RandomStream, cls: number): ObjectVariant {
  return toVariant(shrubAtThesisSize(r, cls).mesh, cls);
}

/** 3–5 shrubs of one class a little apart, yawed at random: one annotated object. */
export function shrubPatchVariant(r: RandomStream, cls: number): ObjectVariant {
  const n = 3 + Math.floor(r.next() * 3);
  const w = new MeshWriter();
  const shrubs = Array.from({ length: n }, () => shrubAtThesisSize(r, cls));
  const spread = shrubs.reduce((s, x) => s + x.radius, 0) / n;
  for (let k = 0; k < n; k++) {
    const m = shrubs[k]!.mesh;
    const az = (2 * Math.PI * (k + r.next() * 0.5)) / n, d = k === 0 ? 0 : spread * between(r, 0.7, 1.1);
    const yaw = 2 * Math.PI * r.next(), c = Math.cos(yaw), s = Math.sin(yaw);
    w.append(m.positions, m.values, [c, -s, 0, s, c, 0, 0, 0, 1], [d * Math.cos(az), d * Math.sin(az), 0]);
  }
  return toVariant(w.finish(), cls, true);
}

export interface GrassStandSpec {
  /** Stand radius (m). */
  radius: number;
  /** Stems per m². */
  density: number;
  /** Stem height range (m). */
  minHeight: number;
  maxHeight: number;
}

/** A random stand spec: radius 0.8–2.2 m, 60–220 stems/m², heights from 0.2–0.4 m up to 0.6–1.2 m. */
export function grassStandSpec(r: RandomStream): GrassStandSpec {
  return { radius: between(r, 0.8, 2.2), density: between(r, 60, 220), minHeight: between(r, 0.2, 0.4), maxHeight: between(r, 0.6, 1.2) };
}

export function grassStandVariant(r: RandomStream, spec: GrassStandSpec): ObjectVariant {
  const stems = Math.max(1, Math.round(spec.density * Math.PI * spec.radius * spec.radius));
  return toVariant(grassClumpMesh(r, { stems, radius: spec.radius, minHeight: spec.minHeight, maxHeight: spec.maxHeight, width: 0.004 }), ReferenceClass.grass);
}

export function rockVariant(r: RandomStream, radius: number): ObjectVariant {
  return toVariant(rockMesh(r, radius), ReferenceClass.rock);
}

/**
 * A fallen log along local x, centred on the origin, lying on z = 0 (axis at z = radius):
 * a 10-sided cylinder with closed ends, tapering 20 % towards +x, and 1–3 broken branch stubs.
 */
export function logVariant(r: RandomStream, length: number, radius: number): ObjectVariant {
  const w = new MeshWriter();
  const sides = 10, x0 = -length / 2, x1 = length / 2, r1 = radius * 0.8;
  // A horizontal axis: MeshWriter.cylinder's ring is then (0, cos a, sin a), which the caps reuse.
  w.cylinder(x0, 0, radius, x1, 0, radius, radius, r1, sides, LOG_BARK);
  for (const [x, rad] of [[x0, radius], [x1, r1]] as const) {
    for (let s = 0; s < sides; s++) {
      const a0 = (2 * Math.PI * s) / sides, a1 = (2 * Math.PI * (s + 1)) / sides;
      w.triangle(x, 0, radius, x, rad * Math.cos(a0), radius + rad * Math.sin(a0), x, rad * Math.cos(a1), radius + rad * Math.sin(a1), LOG_BARK);
    }
  }
  const stubs = 1 + Math.floor(r.next() * 3);
  for (let k = 0; k < stubs; k++) {
    const x = between(r, x0 + 0.3 * length, x1 - 0.1 * length), side = r.next() < 0.5 ? -1 : 1;
    const len = between(r, 0.3, 0.8), rb = radius * between(r, 0.2, 0.35);
    w.cylinder(x, side * radius * 0.5, radius * 1.5, x + len * 0.3, side * (radius + len * 0.6), radius + len * 0.7, rb, rb * 0.5, 5, LOG_BARK);
  }
  return toVariant(w.finish(), ReferenceClass.log);
}
