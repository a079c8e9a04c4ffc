import { describe, expect, it } from 'vitest';
import { insidePolygon, polygonArea, scatter, MAX_SCATTER } from '../../../src-renderer/components/scene-editor/scatter';
import { scaleRange } from '../../../src-common/class-sizes';
import { SiteClass } from '../../../src-common/classes';

const square = [[0, 0], [20, 0], [20, 20], [0, 20]] as const;
const lShape = [[0, 0], [10, 0], [10, 4], [4, 4], [4, 10], [0, 10]] as const;
const shrubs = [
  { id: 11, class: SiteClass.smallShrub, label: 'small shrub', extents: [2, 2, 2.1] as [number, number, number] },
  { id: 12, class: SiteClass.smallShrub, label: 'small shrub', extents: [2.5, 2, 4] as [number, number, number] },
];

describe('scatter in a polygon', () => {
  it('measures and tests polygons', () => {
    expect(polygonArea(square)).toBe(400);
    expect(polygonArea([...square].reverse())).toBe(400);
    expect(polygonArea(lShape)).toBe(4 * 10 + 6 * 4);
    expect(insidePolygon(lShape, 2, 8)).toBe(true);
    expect(insidePolygon(lShape, 8, 2)).toBe(true);
    expect(insidePolygon(lShape, 8, 8)).toBe(false);
    expect(insidePolygon(lShape, -1, 5)).toBe(false);
  });

  it('drops round(density × area) objects inside the polygon; the same seed gives the same placements, another seed others', () => {
    const a = scatter({ polygon: lShape, density: 0.5, seed: 7, candidates: shrubs });
    expect(a.length).toBe(32);
    for (const p of a) {
      expect(insidePolygon(lShape, p.x, p.y)).toBe(true);
      expect(p.yaw).toBeGreaterThanOrEqual(0);
      expect(p.yaw).toBeLessThan(2 * Math.PI);
      const prim = shrubs.find((s) => s.id === p.primitiveId)!;
      const [lo, hi] = scaleRange(prim.class, prim.extents[2]);
      expect(p.scale).toBeGreaterThanOrEqual(lo);
      expect(p.scale).toBeLessThanOrEqual(hi);
    }
    // Both candidates are used at scale 1: the 4 m one lies above the small-shrub band (≤ 2.83 m), but 1 is always allowed.
    expect(new Set(a.map((p) => p.primitiveId))).toEqual(new Set([11, 12]));
    expect(a.every((p) => p.scale === 1)).toBe(true);
    // A rock (no thesis height) at scale 1 too.
    expect(scatter({ polygon: lShape, density: 0.1, seed: 7, candidates: [{ id: 5, class: SiteClass.rock, label: 'rock', extents: [1, 1, 1] }] }).every((p) => p.scale === 1)).toBe(true);
    expect(scatter({ polygon: lShape, density: 0.5, seed: 7, candidates: shrubs })).toEqual(a);
    const b = scatter({ polygon: lShape, density: 0.5, seed: 8, candidates: shrubs });
    expect(b.length).toBe(32);
    expect(b[0]!.x).not.toBe(a[0]!.x);
  });

  it('keeps off ground the terrain lacks, and says why it cannot scatter', () => {
    const half = scatter({ polygon: square, density: 0.2, seed: 1, candidates: shrubs, onTerrain: (x) => x < 10 });
    expect(half.length).toBe(80);
    expect(half.every((p) => p.x < 10)).toBe(true);
    expect(() => scatter({ polygon: square.slice(0, 2), density: 1, seed: 1, candidates: shrubs })).toThrow(/at least 3 corners/);
    expect(() => scatter({ polygon: square, density: 1, seed: 1, candidates: [] })).toThrow(/no primitive/);
    expect(() => scatter({ polygon: square, density: 0, seed: 1, candidates: shrubs })).toThrow(/above 0/);
    expect(() => scatter({ polygon: square, density: 20, seed: 1, candidates: shrubs })).toThrow(`8000 objects (20 per m² over 400 m²) is more than ${MAX_SCATTER}`);
  });
});
