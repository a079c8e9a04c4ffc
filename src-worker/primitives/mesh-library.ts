/**
 * The mesh-primitive baseline's library (thesis 004 §4.3.2 "Mesh model simulator"; 000 §V-C):
 * solid, plausible-looking trees and shrubs like the free meshes general-purpose simulators use
 * — what the thesis took from TurboSquid, subsampled and scaled into the classes. Procedural, so
 * the library is reproducible and free of licences:
 *
 *   trees   a capped trunk cylinder and a crown: one lumpy sphere ('broadleaf'), stacked cones
 *           ('conifer'), or several lumpy spheres ('clustered')
 *   shrubs  one lumpy ellipsoid ('blob') or a clump of 2–4 ('clump')
 *
 * Every primitive is closed (a ray from outside toward its box centre meets it), opaque, with
 * bark and foliage reflectances, in the primitive frame of primitive.ts (base centre, x along
 * the length, z up), and its bounds are exactly its box: nominal class sizes (thesis Table 4.2
 * heights) or the extents asked for. Simulate a scene of them in `mesh` mode with range noise
 * σ = 5 mm (simulate.start's rangeNoiseSigma: 0.005), as the thesis's baseline.
 *
 *   meshPrimitive(cls, { seed, variant, extents?, id? }): Primitive
 *   meshLibrary({ seed, variantsPerClass?, classes? }): Primitive[]       nominal sizes
 *   meshLibraryFor(boxes, { seed }): Primitive[]                          one per (class, extents)
 *
 * Deterministic: a primitive draws only from RandomStream(seed, class · 4096 + variant).
 */
import { RandomStream } from '../random/stream';
import { MeshWriter } from '../site/mesh-writer';
import { ReferenceClass, SHRUB_CLASSES, THESIS_HEIGHT_M, TREE_CLASSES } from '../../src-common/classes';
import { blob, column, cone, fitToBox } from './mesh-shapes';
import type { Primitive } from '../../src-common/primitive';

/** Reflectances of vegetation.ts's meshes: bark and leaves. */
export const BARK_REFLECTANCE = 0.3;
export const FOLIAGE_REFLECTANCE = 0.45;

export const MESH_LIBRARY_CLASSES: readonly number[] = [...SHRUB_CLASSES, ...TREE_CLASSES];

export type TreeStyle = 'broadleaf' | 'conifer' | 'clustered';
export type ShrubStyle = 'blob' | 'clump';
const TREE_STYLES: readonly TreeStyle[] = ['broadleaf', 'conifer', 'clustered'];
const SHRUB_STYLES: readonly ShrubStyle[] = ['blob', 'clump'];

/**
 * Width over height of each class (the site's generators' proportions, vegetation.ts: shrubs
 * about as wide as tall or wider when low; tree crowns ≈ 0.45–0.65 of the height).
 */
const WIDTH_RATIO: Record<number, number> = {
  [ReferenceClass.lowShrub]: 1.6,
  [ReferenceClass.smallShrub]: 1.3,
  [ReferenceClass.mediumShrub]: 1.2,
  [ReferenceClass.largeShrub]: 1.1,
  [ReferenceClass.smallTree]: 0.55,
  [ReferenceClass.mediumTree]: 0.55,
  [ReferenceClass.largeTree]: 0.5,
};

export interface MeshPrimitiveOptions {
  seed: number;
  /** Which variant of the class (any integer ≥ 0); the style cycles with it. */
  variant: number;
  /** Box [l, w, h] (m) to scale the mesh to; default the class's nominal size ± 15 %. */
  extents?: readonly [number, number, number] | readonly number[];
  /** Library id; default the variant. */
  id?: number;
}

function between(r: RandomStream, a: number, b: number): number {
  return a + (b - a) * r.next();
}

export function isMeshLibraryClass(cls: number): boolean {
  return MESH_LIBRARY_CLASSES.includes(cls);
}

/** The class's nominal box: the thesis's mean height ± 15 %, width from the class's proportions ± 15 %. */
export function nominalExtents(cls: number, r: RandomStream): [number, number, number] {
  const h = THESIS_HEIGHT_M[cls];
  if (h === undefined) throw new Error(`mesh library: class ${cls} is not a shrub or tree class (${MESH_LIBRARY_CLASSES.join(', ')})`);
  const height = h * between(r, 0.85, 1.15);
  const width = height * WIDTH_RATIO[cls]! * between(r, 0.85, 1.15);
  return [width * between(r, 1, 1.2), width, height];
}

/** The style of a variant: styles cycle with the variant so a few variants cover them all. */
export function meshStyle(cls: number, variant: number): TreeStyle | ShrubStyle {
  return (TREE_CLASSES as readonly number[]).includes(cls) ? TREE_STYLES[variant % TREE_STYLES.length]! : SHRUB_STYLES[variant % SHRUB_STYLES.length]!;
}

/** A tree of height 1 (unit proportions; fitToBox sets the size): trunk and crown. */
function tree(w: MeshWriter, r: RandomStream, style: TreeStyle): void {
  const crownBase = between(r, 0.25, 0.4), crownR = between(r, 0.22, 0.3), trunkR = between(r, 0.018, 0.028);
  const mid = (crownBase + 1) / 2, half = (1 - crownBase) / 2;
  if (style === 'broadleaf') {
    column(w, 0, mid, trunkR, trunkR * 0.7, 8, BARK_REFLECTANCE);
    blob(w, r, [0, 0, mid], [crownR, crownR * between(r, 0.85, 1), half], FOLIAGE_REFLECTANCE);
  } else if (style === 'conifer') {
    // 3–4 overlapping tiers narrowing upwards, the top one ending at the tip.
    const tiers = 3 + Math.floor(r.next() * 2);
    const base = crownBase * 0.6, span = 1 - base;
    column(w, 0, base + span * 0.5, trunkR, trunkR * 0.6, 8, BARK_REFLECTANCE);
    for (let k = 0; k < tiers; k++) {
      const z0 = base + (span * k) / (tiers + 0.5);
      const z1 = k === tiers - 1 ? 1 : z0 + (span * 1.6) / (tiers + 0.5);
      cone(w, z0, z1, crownR * (1 - (0.55 * k) / tiers), 12, FOLIAGE_REFLECTANCE);
    }
  } else {
    // A central lumpy sphere and 3–5 around it, overlapping.
    column(w, 0, mid, trunkR, trunkR * 0.7, 8, BARK_REFLECTANCE);
    blob(w, r, [0, 0, mid], [crownR * 0.65, crownR * 0.65, half * 0.75], FOLIAGE_REFLECTANCE);
    const n = 3 + Math.floor(r.next() * 3);
    for (let k = 0; k < n; k++) {
      const a = (2 * Math.PI * (k + between(r, -0.2, 0.2))) / n, d = crownR * between(r, 0.35, 0.55);
      const rad = crownR * between(r, 0.4, 0.55);
      const z = mid + half * between(r, -0.45, 0.45);
      blob(w, r, [d * Math.cos(a), d * Math.sin(a), z], [rad, rad, Math.min(rad, half * 0.6)], FOLIAGE_REFLECTANCE);
    }
  }
}

/** A shrub of height 1 and width about 1. */
function shrub(w: MeshWriter, r: RandomStream, style: ShrubStyle): void {
  if (style === 'blob') {
    blob(w, r, [0, 0, 0.5], [0.5, 0.5 * between(r, 0.8, 1), 0.5], FOLIAGE_REFLECTANCE);
    return;
  }
  blob(w, r, [0, 0, 0.5], [0.35, 0.35, 0.5], FOLIAGE_REFLECTANCE);
  const n = 1 + Math.floor(r.next() * 3);
  for (let k = 0; k < n; k++) {
    const a = (2 * Math.PI * (k + r.next() * 0.5)) / n, d = between(r, 0.25, 0.4);
    const rad = between(r, 0.22, 0.32);
    blob(w, r, [d * Math.cos(a), d * Math.sin(a), rad * between(r, 1, 1.4)], [rad, rad, rad * between(r, 0.8, 1.2)], FOLIAGE_REFLECTANCE);
  }
}

/** One mesh primitive of a shrub or tree class. */
export function meshPrimitive(cls: number, opts: MeshPrimitiveOptions): Primitive {
  if (!isMeshLibraryClass(cls)) throw new Error(`mesh library: class ${cls} is not a shrub or tree class (${MESH_LIBRARY_CLASSES.join(', ')})`);
  if (!Number.isInteger(opts.variant) || opts.variant < 0) throw new Error(`mesh library: variant must be an integer ≥ 0 (got ${opts.variant})`);
  const r = new RandomStream(opts.seed, cls * 4096 + opts.variant);
  const extents = opts.extents ? ([opts.extents[0]!, opts.extents[1]!, opts.extents[2]!] as [number, number, number]) : nominalExtents(cls, r);
  if (extents.some((v) => !(v > 0) || !Number.isFinite(v))) throw new Error(`mesh library: extents ${JSON.stringify(extents)} must be three positive sizes`);
  const w = new MeshWriter();
  const style = meshStyle(cls, opts.variant);
  if (style === 'blob' || style === 'clump') shrub(w, r, style);
  else tree(w, r, style);
  const soup = w.finish();
  return {
    id: opts.id ?? opts.variant,
    class: cls,
    extents,
    source: 'procedural',
    triangles: fitToBox(soup.positions, extents),
    reflectance: soup.values,
  };
}

export interface MeshLibraryOptions {
  seed: number;
  /** Variants per class (default 6: every style twice for trees, three times for shrubs). */
  variantsPerClass?: number;
  /** Classes (default all shrub and tree classes). */
  classes?: readonly number[];
  /** Id of the first primitive (default 0); the rest follow in order. */
  idBase?: number;
}

/** A library at nominal class sizes: `variantsPerClass` variants of each class, ids in order. */
export function meshLibrary(opts: MeshLibraryOptions): Primitive[] {
  const n = opts.variantsPerClass ?? 6;
  let id = opts.idBase ?? 0;
  const out: Primitive[] = [];
  for (const cls of opts.classes ?? MESH_LIBRARY_CLASSES) {
    for (let v = 0; v < n; v++) out.push(meshPrimitive(cls, { seed: opts.seed, variant: v, id: id++ }));
  }
  return out;
}

/**
 * One mesh primitive per (class, extents), scaled to them: e.g. the boxes of a hybrid library, so
 * the baseline's library has the same size distribution and composition picks its counterpart
 * of every primitive (only the object models differ). Boxes of other classes are skipped; the
 * variant is the box's position among those of its class.
 */
export function meshLibraryFor(boxes: readonly { class: number; extents: readonly number[] }[], opts: { seed: number; idBase?: number }): Primitive[] {
  const seen = new Map<number, number>();
  let id = opts.idBase ?? 0;
  const out: Primitive[] = [];
  for (const b of boxes) {
    if (!isMeshLibraryClass(b.class)) continue;
    const variant = seen.get(b.class) ?? 0;
    seen.set(b.class, variant + 1);
    out.push(meshPrimitive(b.class, { seed: opts.seed, variant, extents: b.extents, id: id++ }));
  }
  return out;
}
