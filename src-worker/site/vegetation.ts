/**
 * Procedural vegetation and rocks, each in two consistent forms: a triangle mesh (physics and
 * mesh modes) and a set of Gaussian ellipsoids (hybrid mode) built from the same random spec,
 * so both versions of a composed scene show the same plant. All in the object's local frame
 * (origin at the foot, z up); place them with SceneBuilder.addInstance.
 *
 *   treeSpec(r: RandomStream, size: TreeSize, opts?: { clusters?: number }): TreeSpec
 *   treeMesh(spec, opts?: { leavesPerCluster?: number; trunkSides?: number }): Soup
 *   treeEllipsoids(spec): GaussianSoup        (trunk + branches + one per leaf cluster)
 *   shrubSpec(r, size: ShrubSize): ShrubSpec; shrubMesh(spec, leavesPerCluster?); shrubEllipsoids(spec)
 *   grassClumpMesh(r, opts?): Soup            (thin triangular-prism stems, 12 triangles each)
 *   grassClumpEllipsoids(r, opts?): GaussianSoup
 *   rockMesh(r, radius): Soup; rockEllipsoids(r, radius): GaussianSoup
 *
 * Soup = { positions (9 floats per triangle), values (reflectance per triangle) };
 * GaussianSoup = { means, covariances (xx, xy, xz, yy, yz, zz), values (p_hit) }.
 * Sizes follow thesis Table 4.2 in spirit (medium tree ≈ 9.4 m tall, ≈ 300 ellipsoids).
 */
import type { RandomStream } from '../random/stream';
import { GaussianWriter, MeshWriter } from './mesh-writer';

export interface Soup {
  positions: Float32Array;
  values: Float32Array;
}

export interface GaussianSoup {
  means: Float64Array;
  covariances: Float64Array;
  values: Float32Array;
}

export type TreeSize = 'small' | 'medium' | 'large';
export type ShrubSize = 'low' | 'small' | 'medium' | 'large';

export interface TreeSpec {
  height: number;
  trunkRadius: number;
  /** Height where the trunk ends (inside the crown). */
  trunkTop: number;
  /** Lean of the trunk top (m in x and y). */
  leanX: number;
  leanY: number;
  /** Per branch: start z on the trunk, end point (x, y, z), base radius. */
  branches: Float64Array;
  /** Per leaf cluster: centre (x, y, z) and radius. */
  clusters: Float64Array;
}

const TREE_SIZES: Record<TreeSize, { height: number; clusters: number; branches: number }> = {
  small: { height: 5, clusters: 120, branches: 16 },
  medium: { height: 9.4, clusters: 250, branches: 30 },
  large: { height: 14, clusters: 360, branches: 44 },
};

const BARK = 0.3;
const LEAF = 0.45;
const GRASS = 0.4;
const ROCK = 0.35;

function between(r: RandomStream, a: number, b: number): number {
  return a + (b - a) * r.next();
}

/** Trunk axis at height z (linear lean). */
function trunkAt(spec: TreeSpec, z: number): [number, number] {
  const f = Math.max(0, Math.min(1, z / spec.trunkTop));
  return [spec.leanX * f, spec.leanY * f];
}

export function treeSpec(r: RandomStream, size: TreeSize, opts: { clusters?: number } = {}): TreeSpec {
  const base = TREE_SIZES[size];
  const height = base.height * between(r, 0.85, 1.15);
  const crownBase = height * between(r, 0.3, 0.45);
  const crownR = height * between(r, 0.22, 0.32);
  const trunkTop = height * 0.85;
  const spec: TreeSpec = {
    height,
    trunkRadius: height * between(r, 0.016, 0.024),
    trunkTop,
    leanX: between(r, -0.04, 0.04) * height,
    leanY: between(r, -0.04, 0.04) * height,
    branches: new Float64Array(5 * base.branches),
    clusters: new Float64Array(4 * (opts.clusters ?? base.clusters)),
  };
  const crownMid = (crownBase + height) / 2, crownHalf = (height - crownBase) / 2;
  // Branches: from the trunk up and out to the crown's surface.
  for (let b = 0; b < base.branches; b++) {
    const z0 = between(r, crownBase, trunkTop * 0.95);
    const az = 2 * Math.PI * r.next();
    const rel = (z0 - crownMid) / crownHalf;
    const reach = crownR * Math.sqrt(Math.max(0.05, 1 - rel * rel)) * between(r, 0.7, 1);
    const [tx, ty] = trunkAt(spec, z0);
    spec.branches.set([z0, tx + reach * Math.cos(az), ty + reach * Math.sin(az), z0 + reach * between(r, 0.2, 0.6), spec.trunkRadius * between(r, 0.2, 0.35)], 5 * b);
  }
  // Leaf clusters: along the branches' outer halves and scattered in the crown shell.
  const nc = spec.clusters.length / 4;
  for (let c = 0; c < nc; c++) {
    let x: number, y: number, z: number;
    if (c % 3 !== 2 && base.branches > 0) {
      const b = Math.floor(r.next() * base.branches);
      const z0 = spec.branches[5 * b]!, [tx, ty] = trunkAt(spec, z0);
      const f = between(r, 0.5, 1.05);
      x = tx + f * (spec.branches[5 * b + 1]! - tx) + r.normal() * 0.2;
      y = ty + f * (spec.branches[5 * b + 2]! - ty) + r.normal() * 0.2;
      z = z0 + f * (spec.branches[5 * b + 3]! - z0) + r.normal() * 0.2;
    } else {
      const u = 2 * r.next() - 1, az = 2 * Math.PI * r.next(), s = Math.cbrt(between(r, 0.35, 1));
      const q = Math.sqrt(1 - u * u);
      x = crownR * s * q * Math.cos(az) + spec.leanX;
      y = crownR * s * q * Math.sin(az) + spec.leanY;
      z = crownMid + crownHalf * s * u;
    }
    spec.clusters.set([x, y, Math.max(crownBase * 0.8, z), height * between(r, 0.025, 0.045)], 4 * c);
  }
  return spec;
}

export function treeMesh(spec: TreeSpec, r: RandomStream, opts: { leavesPerCluster?: number; trunkSides?: number; leafSize?: number } = {}): Soup {
  const w = new MeshWriter();
  const sides = opts.trunkSides ?? 10;
  const segments = 6;
  for (let s = 0; s < segments; s++) {
    const z0 = s === 0 ? -0.3 : (spec.trunkTop * s) / segments, z1 = (spec.trunkTop * (s + 1)) / segments;
    const [x0, y0] = trunkAt(spec, Math.max(0, z0)), [x1, y1] = trunkAt(spec, z1);
    const r0 = spec.trunkRadius * (1 - 0.6 * Math.max(0, z0) / spec.trunkTop), r1 = spec.trunkRadius * (1 - 0.6 * z1 / spec.trunkTop);
    w.cylinder(x0, y0, z0, x1, y1, z1, r0, r1, sides, BARK);
  }
  const nb = spec.branches.length / 5;
  for (let b = 0; b < nb; b++) {
    const z0 = spec.branches[5 * b]!, [tx, ty] = trunkAt(spec, z0);
    const rb = spec.branches[5 * b + 4]!;
    w.cylinder(tx, ty, z0, spec.branches[5 * b + 1]!, spec.branches[5 * b + 2]!, spec.branches[5 * b + 3]!, rb, rb * 0.3, 5, BARK);
  }
  const leaves = opts.leavesPerCluster ?? 40;
  const leafSize = opts.leafSize ?? 0.09;
  const nc = spec.clusters.length / 4;
  for (let c = 0; c < nc; c++) {
    const cx = spec.clusters[4 * c]!, cy = spec.clusters[4 * c + 1]!, cz = spec.clusters[4 * c + 2]!, cr = spec.clusters[4 * c + 3]!;
    for (let l = 0; l < leaves; l++) leaf(w, r, cx + r.normal() * cr * 0.5, cy + r.normal() * cr * 0.5, cz + r.normal() * cr * 0.5, leafSize, LEAF);
  }
  return w.finish();
}

/** One leaf: a randomly oriented triangle of side ≈ size centred at (x, y, z). */
function leaf(w: MeshWriter, r: RandomStream, x: number, y: number, z: number, size: number, value: number): void {
  // random orthonormal-ish frame from two normal vectors
  let ax = r.normal(), ay = r.normal(), az = r.normal();
  let l = Math.hypot(ax, ay, az) || 1;
  ax /= l; ay /= l; az /= l;
  let bx = r.normal(), by = r.normal(), bz = r.normal();
  const d = ax * bx + ay * by + az * bz;
  bx -= d * ax; by -= d * ay; bz -= d * az;
  l = Math.hypot(bx, by, bz) || 1;
  bx /= l; by /= l; bz /= l;
  const h = size * 0.5, k = size * 0.866;
  w.triangle(x - h * ax, y - h * ay, z - h * az, x + h * ax, y + h * ay, z + h * az, x + k * bx, y + k * by, z + k * bz, value);
}

/**
 * Ellipsoids of a tree: the trunk as a column of elongated Gaussians, one per branch, one per
 * leaf cluster (σ ≈ 0.45·radius: the spread of points scattered in a ball). p_hit: trunk 0.85,
 * branches 0.5, clusters 0.35.
 */
export function treeEllipsoids(spec: TreeSpec, threshold = 3.5): GaussianSoup {
  const g = new GaussianWriter();
  const seg = 0.8;
  const n = Math.max(1, Math.round(spec.trunkTop / seg));
  for (let s = 0; s < n; s++) {
    const z = ((s + 0.5) * spec.trunkTop) / n;
    const [x, y] = trunkAt(spec, z);
    const rad = spec.trunkRadius * (1 - 0.6 * z / spec.trunkTop);
    g.add(x, y, z, spec.leanX / spec.trunkTop, spec.leanY / spec.trunkTop, 1, spec.trunkTop / n / threshold, rad / threshold * 1.2, rad / threshold * 1.2, 0, 0.85);
  }
  const nb = spec.branches.length / 5;
  for (let b = 0; b < nb; b++) {
    const z0 = spec.branches[5 * b]!, [tx, ty] = trunkAt(spec, z0);
    const ex = spec.branches[5 * b + 1]!, ey = spec.branches[5 * b + 2]!, ez = spec.branches[5 * b + 3]!;
    const len = Math.hypot(ex - tx, ey - ty, ez - z0);
    const rb = Math.max(spec.branches[5 * b + 4]!, 0.03);
    g.add((tx + ex) / 2, (ty + ey) / 2, (z0 + ez) / 2, ex - tx, ey - ty, ez - z0, len / 2 / threshold, rb / threshold * 1.5, rb / threshold * 1.5, 0, 0.5);
  }
  const nc = spec.clusters.length / 4;
  for (let c = 0; c < nc; c++) {
    const cr = spec.clusters[4 * c + 3]!;
    const s = 0.45 * cr;
    g.add(spec.clusters[4 * c]!, spec.clusters[4 * c + 1]!, spec.clusters[4 * c + 2]!, 0, 0, 1, s * 1.1, s, s * 0.9, c, 0.35);
  }
  return g.finish();
}

export interface ShrubSpec {
  height: number;
  radius: number;
  /** Per stem: end point (x, y, z); stems start at the origin. */
  stems: Float64Array;
  /** Per leaf cluster: centre and radius. */
  clusters: Float64Array;
}

const SHRUB_SIZES: Record<ShrubSize, { height: number; radius: number; stems: number; clusters: number }> = {
  low: { height: 0.5, radius: 0.5, stems: 5, clusters: 12 },
  small: { height: 1.0, radius: 0.7, stems: 7, clusters: 25 },
  medium: { height: 1.6, radius: 1.0, stems: 9, clusters: 45 },
  large: { height: 2.4, radius: 1.5, stems: 12, clusters: 70 },
};

export function shrubSpec(r: RandomStream, size: ShrubSize): ShrubSpec {
  const base = SHRUB_SIZES[size];
  const height = base.height * between(r, 0.8, 1.2), radius = base.radius * between(r, 0.8, 1.2);
  const stems = new Float64Array(3 * base.stems);
  for (let s = 0; s < base.stems; s++) {
    const az = 2 * Math.PI * r.next(), out = radius * between(r, 0.3, 0.9);
    stems.set([out * Math.cos(az), out * Math.sin(az), height * between(r, 0.6, 1)], 3 * s);
  }
  const clusters = new Float64Array(4 * base.clusters);
  for (let c = 0; c < base.clusters; c++) {
    const s = Math.floor(r.next() * base.stems), f = between(r, 0.3, 1);
    clusters.set([
      stems[3 * s]! * f + r.normal() * radius * 0.15,
      stems[3 * s + 1]! * f + r.normal() * radius * 0.15,
      Math.max(0.05, stems[3 * s + 2]! * f + r.normal() * height * 0.08),
      radius * between(r, 0.12, 0.2),
    ], 4 * c);
  }
  return { height, radius, stems, clusters };
}

export function shrubMesh(spec: ShrubSpec, r: RandomStream, leavesPerCluster = 30): Soup {
  const w = new MeshWriter();
  const ns = spec.stems.length / 3;
  for (let s = 0; s < ns; s++) w.cylinder(0, 0, -0.05, spec.stems[3 * s]!, spec.stems[3 * s + 1]!, spec.stems[3 * s + 2]!, 0.012, 0.004, 4, BARK);
  const nc = spec.clusters.length / 4;
  for (let c = 0; c < nc; c++) {
    const cr = spec.clusters[4 * c + 3]!;
    for (let l = 0; l < leavesPerCluster; l++) {
      leaf(w, r, spec.clusters[4 * c]! + r.normal() * cr * 0.5, spec.clusters[4 * c + 1]! + r.normal() * cr * 0.5, spec.clusters[4 * c + 2]! + r.normal() * cr * 0.5, 0.06, LEAF);
    }
  }
  return w.finish();
}

export function shrubEllipsoids(spec: ShrubSpec, threshold = 3.5): GaussianSoup {
  const g = new GaussianWriter();
  const ns = spec.stems.length / 3;
  for (let s = 0; s < ns; s++) {
    const ex = spec.stems[3 * s]!, ey = spec.stems[3 * s + 1]!, ez = spec.stems[3 * s + 2]!;
    const len = Math.hypot(ex, ey, ez);
    g.add(ex / 2, ey / 2, ez / 2, ex, ey, ez, len / 2 / threshold, 0.03 / threshold, 0.03 / threshold, 0, 0.3);
  }
  const nc = spec.clusters.length / 4;
  for (let c = 0; c < nc; c++) {
    const s = 0.45 * spec.clusters[4 * c + 3]!;
    g.add(spec.clusters[4 * c]!, spec.clusters[4 * c + 1]!, spec.clusters[4 * c + 2]!, 0, 0, 1, s, s, s * 0.8, c, 0.4);
  }
  return g.finish();
}

export interface GrassOptions {
  /** Stems per clump (default 24), clump radius (default 0.25 m), stem height range (default 0.3–0.9 m), stem width (default 5 mm). */
  stems?: number;
  radius?: number;
  minHeight?: number;
  maxHeight?: number;
  width?: number;
}

/** A clump of grass stems: each a bent thin triangular prism of two segments (12 triangles). */
export function grassClumpMesh(r: RandomStream, opts: GrassOptions = {}): Soup {
  const w = new MeshWriter();
  const n = opts.stems ?? 24, rad = opts.radius ?? 0.25, h0 = opts.minHeight ?? 0.3, h1 = opts.maxHeight ?? 0.9;
  const width = opts.width ?? 0.005;
  for (let s = 0; s < n; s++) {
    const az = 2 * Math.PI * r.next(), d = rad * Math.sqrt(r.next());
    const x = d * Math.cos(az), y = d * Math.sin(az);
    const h = between(r, h0, h1);
    const lean = between(r, 0.05, 0.35), la = 2 * Math.PI * r.next();
    const mx = x + 0.3 * lean * h * Math.cos(la), my = y + 0.3 * lean * h * Math.sin(la);
    const tx = x + lean * h * Math.cos(la), ty = y + lean * h * Math.sin(la);
    const ph = r.next() * 2;
    w.cylinder(x, y, -0.02, mx, my, h * 0.55, width, width * 0.7, 3, GRASS, ph);
    w.cylinder(mx, my, h * 0.55, tx, ty, h, width * 0.7, width * 0.25, 3, GRASS, ph);
  }
  return w.finish();
}

/** The same kind of clump as a few low-p_hit Gaussians (what a fitted model of grass looks like). */
export function grassClumpEllipsoids(r: RandomStream, opts: GrassOptions = {}, threshold = 3.5): GaussianSoup {
  const g = new GaussianWriter();
  const rad = opts.radius ?? 0.25, h = ((opts.minHeight ?? 0.3) + (opts.maxHeight ?? 0.9)) / 2;
  const n = 3 + Math.floor(r.next() * 3);
  for (let k = 0; k < n; k++) {
    const az = 2 * Math.PI * r.next(), d = rad * 0.5 * Math.sqrt(r.next());
    g.add(d * Math.cos(az), d * Math.sin(az), h * between(r, 0.3, 0.6), 0, 0, 1, h / 2 / threshold * 1.4, rad / threshold * 1.3, rad / threshold * 1.1, r.next() * 3, 0.15);
  }
  return g.finish();
}

/** A rock: an octahedron subdivided twice (128 triangles), pushed out to a noisy sphere, bottom sunk. */
export function rockMesh(r: RandomStream, radius: number): Soup {
  const w = new MeshWriter();
  const bumps = Array.from({ length: 6 }, () => [r.normal(), r.normal(), r.normal(), between(r, 0.05, 0.2)]);
  const shape = (x: number, y: number, z: number): [number, number, number] => {
    const l = Math.hypot(x, y, z) || 1;
    x /= l; y /= l; z /= l;
    let s = 1;
    for (const b of bumps) s += b[3]! * (b[0]! * x + b[1]! * y + b[2]! * z) / 2;
    s *= radius;
    return [x * s, y * s * 0.9, z * s * 0.6 - radius * 0.15];
  };
  const octa = [[1, 0, 0], [0, 1, 0], [-1, 0, 0], [0, -1, 0]];
  const faces: number[][][] = [];
  for (let i = 0; i < 4; i++) {
    const a = octa[i]!, b = octa[(i + 1) % 4]!;
    faces.push([a, b, [0, 0, 1]], [b, a, [0, 0, -1]]);
  }
  const mid = (p: number[], q: number[]) => [(p[0]! + q[0]!) / 2, (p[1]! + q[1]!) / 2, (p[2]! + q[2]!) / 2];
  let list = faces;
  for (let it = 0; it < 2; it++) {
    const next: number[][][] = [];
    for (const [a, b, c] of list as [number[], number[], number[]][]) {
      const ab = mid(a, b), bc = mid(b, c), ca = mid(c, a);
      next.push([a, ab, ca], [ab, b, bc], [ca, bc, c], [ab, bc, ca]);
    }
    list = next;
  }
  for (const [a, b, c] of list as [number[], number[], number[]][]) {
    const pa = shape(a[0]!, a[1]!, a[2]!), pb = shape(b[0]!, b[1]!, b[2]!), pc = shape(c[0]!, c[1]!, c[2]!);
    w.triangle(pa[0], pa[1], pa[2], pb[0], pb[1], pb[2], pc[0], pc[1], pc[2], ROCK);
  }
  return w.finish();
}

export function rockEllipsoids(r: RandomStream, radius: number, threshold = 3.5): GaussianSoup {
  const g = new GaussianWriter();
  g.add(0, 0, radius * 0.15, 0, 0, 1, radius * 0.6 / threshold * 1.5, radius / threshold * 1.5, radius * 0.9 / threshold * 1.5, r.next() * 3, 0.9);
  return g.finish();
}
