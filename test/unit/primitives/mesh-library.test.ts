/**
 * The mesh-primitive baseline's library: every shrub and tree class builds, in the primitive
 * frame with exactly the box asked for, closed (rays from outside toward the box centre hit it,
 * cast through the engine's scene query), and the same per seed.
 */
import { describe, expect, it } from 'vitest';
import {
  BARK_REFLECTANCE, FOLIAGE_REFLECTANCE, MESH_LIBRARY_CLASSES, meshLibrary, meshLibraryFor, meshPrimitive, meshStyle,
} from '../../../src-worker/primitives/mesh-library';
import { checkPrimitive, hasElementsFor, type Primitive } from '../../../src-common/primitive';
import { soupBounds } from '../../../src-worker/primitives/mesh-shapes';
import { RandomStream } from '../../../src-worker/random/stream';
import { SceneBuilder } from '../../../src-worker/scene/scene-builder';
import { createSceneQuery } from '../../../src-worker/scene/scene-bvh';
import { newSurfaceHit } from '../../../src-worker/scene/scene-query';
import { THESIS_HEIGHT_M } from '../../../src-common/classes';

/** Fraction of `n` rays from random points on a sphere around the box, aimed at the box centre, that hit the mesh. */
function hitFraction(p: Primitive, n: number, seed: number): number {
  const b = new SceneBuilder();
  b.addInstance(b.addMesh(p.triangles!, p.reflectance!), undefined, 1, p.class);
  const q = createSceneQuery(b.build());
  const [l, w, h] = p.extents;
  const cx = 0, cy = 0, cz = h / 2;
  const R = 2 * Math.hypot(l, w, h);
  const r = new RandomStream(seed, 0), hit = newSurfaceHit();
  let hits = 0;
  for (let k = 0; k < n; k++) {
    let x = r.normal(), y = r.normal(), z = r.normal();
    const s = Math.hypot(x, y, z);
    x /= s; y /= s; z /= s;
    if (q.closestSurface(cx + R * x, cy + R * y, cz + R * z, -x, -y, -z, 0, 2 * R, hit)) {
      hits++;
      expect(hit.classId).toBe(p.class);
      expect(hit.t).toBeLessThan(R); // in front of the centre: the surface, not the far side
    }
  }
  return hits / n;
}

describe('mesh-primitive library', () => {
  it('builds 6 variants of each of the 7 shrub and tree classes at the thesis heights (±15 %)', () => {
    const lib = meshLibrary({ seed: 3 });
    expect(lib).toHaveLength(42);
    expect(lib.map((p) => p.id)).toEqual(lib.map((_, i) => i));
    for (const p of lib) {
      checkPrimitive(p);
      expect(p.source).toBe('procedural');
      expect(hasElementsFor(p, 'mesh')).toBe(true);
      expect(hasElementsFor(p, 'hybrid')).toBe(false);
      const h = THESIS_HEIGHT_M[p.class]!;
      expect(p.extents[2]).toBeGreaterThanOrEqual(0.85 * h - 1e-9);
      expect(p.extents[2]).toBeLessThanOrEqual(1.15 * h + 1e-9);
      const tris = p.triangles!.length / 9;
      expect(tris).toBeGreaterThan(100); // a lumpy sphere alone is 128
      expect(tris).toBeLessThan(1200); // subsampled, as the thesis's baseline meshes were
      expect(p.reflectance!.every((v) => Math.abs(v - BARK_REFLECTANCE) < 1e-6 || Math.abs(v - FOLIAGE_REFLECTANCE) < 1e-6)).toBe(true);
    }
    expect(new Set(lib.map((p) => p.class))).toEqual(new Set(MESH_LIBRARY_CLASSES));
    // Trees have a trunk (bark) and foliage; shrubs are foliage only.
    const tree = lib.find((p) => p.class === 8)!, shrub = lib.find((p) => p.class === 4)!;
    expect(tree.reflectance!.some((v) => Math.abs(v - BARK_REFLECTANCE) < 1e-6)).toBe(true);
    expect(shrub.reflectance!.every((v) => Math.abs(v - FOLIAGE_REFLECTANCE) < 1e-6)).toBe(true);
  });

  it('fills exactly the box asked for (±2 %), in the primitive frame', () => {
    const r = new RandomStream(5, 0);
    for (const cls of MESH_LIBRARY_CLASSES) {
      for (let v = 0; v < 4; v++) {
        const ext: [number, number, number] = [0.5 + 8 * r.next(), 0.5 + 8 * r.next(), 0.5 + 15 * r.next()];
        const p = meshPrimitive(cls, { seed: 9, variant: v, extents: ext });
        expect(p.extents).toEqual(ext);
        const b = soupBounds(p.triangles!);
        const want = [-ext[0] / 2, -ext[1] / 2, 0, ext[0] / 2, ext[1] / 2, ext[2]];
        for (let a = 0; a < 6; a++) expect(Math.abs(b[a]! - want[a]!)).toBeLessThanOrEqual(0.02 * ext[a % 3]!);
      }
    }
  });

  it('is closed: every ray from outside toward the box centre hits it', () => {
    for (const cls of MESH_LIBRARY_CLASSES) {
      for (let v = 0; v < 6; v++) {
        const p = meshPrimitive(cls, { seed: 11, variant: v });
        expect(hitFraction(p, 200, cls * 10 + v), `class ${cls} variant ${v} (${meshStyle(cls, v)})`).toBe(1);
      }
    }
  });

  it('is deterministic per seed and differs between seeds and variants', () => {
    const a = meshPrimitive(8, { seed: 4, variant: 2 }), b = meshPrimitive(8, { seed: 4, variant: 2 });
    expect(Buffer.from(a.triangles!.buffer).equals(Buffer.from(b.triangles!.buffer))).toBe(true);
    expect(a.extents).toEqual(b.extents);
    const c = meshPrimitive(8, { seed: 5, variant: 2 }), d = meshPrimitive(8, { seed: 4, variant: 5 });
    expect(Buffer.from(a.triangles!.buffer).equals(Buffer.from(c.triangles!.buffer))).toBe(false);
    expect(Buffer.from(a.triangles!.buffer).equals(Buffer.from(d.triangles!.buffer))).toBe(false);
    // Styles cycle with the variant: trees broadleaf, conifer, clustered; shrubs blob, clump.
    expect([0, 1, 2, 3].map((v) => meshStyle(9, v))).toEqual(['broadleaf', 'conifer', 'clustered', 'broadleaf']);
    expect([0, 1, 2].map((v) => meshStyle(3, v))).toEqual(['blob', 'clump', 'blob']);
  });

  it('builds one primitive per (class, extents), skipping other classes, and refuses bad input', () => {
    const boxes = [
      { class: 8, extents: [5, 4, 9] },
      { class: 1, extents: [10, 10, 0.3] }, // ground: not a mesh-library class
      { class: 8, extents: [6, 5, 10] },
      { class: 4, extents: [2, 2, 2] },
    ];
    const lib = meshLibraryFor(boxes, { seed: 1, idBase: 100 });
    expect(lib.map((p) => [p.id, p.class, p.extents])).toEqual([[100, 8, [5, 4, 9]], [101, 8, [6, 5, 10]], [102, 4, [2, 2, 2]]]);
    expect(() => meshPrimitive(1, { seed: 1, variant: 0 })).toThrow(/not a shrub or tree class/);
    expect(() => meshPrimitive(8, { seed: 1, variant: -1 })).toThrow(/variant/);
    expect(() => meshPrimitive(8, { seed: 1, variant: 0, extents: [1, 0, 2] })).toThrow(/extents/);
  });
});
