import { describe, expect, it } from 'vitest';
import type { PrimitiveData, ScenePreviewData } from '../../../src-main/api/contract';
import { boxEdges, highlightColors, primitiveLayers, probabilityColors, probabilityTop, sceneLayers, triangleMesh } from '../../../src-renderer/viewport/ellipsoid-layers';
import { classColor } from '../../../src-common/colormaps';

function primitive(over: Partial<PrimitiveData> = {}): PrimitiveData {
  return {
    id: 4,
    class: 6,
    label: 'large shrub',
    extents: [2, 1, 3],
    library: 'hybrid',
    source: 'object',
    modelId: 1,
    sourceLogId: 1,
    counts: { ellipsoids: 2, voxels: 1, triangles: 0, points: 2 },
    origin: {},
    createdAt: '2025-01-01 00:00:00',
    ellipsoids: { means: Float64Array.from([0, 0, 1, 0.5, 0, 2]), covariances: Float64Array.from([0.04, 0, 0, 0.04, 0, 0.04, 0.09, 0, 0, 0.01, 0, 0.01]), pHit: Float32Array.from([0, 1]) },
    voxels: { means: Float64Array.from([0, 0, 0.5]), covariances: Float64Array.from([0.01, 0, 0, 0.01, 0, 0.01]), permeability: Float32Array.from([0.25]) },
    triangles: null,
    reflectance: null,
    points: Float32Array.from([0, 0, 0, 1, 0, 3]),
    ...over,
  };
}

describe('primitiveLayers', () => {
  it('centres on the box, draws k-σ ellipsoids coloured by p_hit, voxels by 1 − ρ, points and the box', () => {
    const l = primitiveLayers(primitive(), 2);
    expect(l.centre).toEqual([0, 0, 1.5]);
    expect(l.size).toEqual([2, 1, 3]);
    expect(l.ellipsoids!.count).toBe(2);
    // Ellipsoid 0: isotropic σ 0.2 at (0, 0, 1) → radius 0.4, Babylon translation (0, 1 − 1.5, 0).
    const m = l.ellipsoids!.matrices;
    expect(Math.hypot(m[0]!, m[1]!, m[2]!)).toBeCloseTo(0.4, 6);
    expect([m[12], m[13], m[14]]).toEqual([0, -0.5, 0]);
    // Colours: p_hit 0 and 1 are the ends of the map, and differ.
    const c = l.ellipsoids!.colors;
    expect([...c.subarray(0, 4)]).toEqual([...probabilityColors([0])]);
    expect([...c.subarray(4, 8)]).toEqual([...probabilityColors([1])]);
    expect([...c.subarray(0, 3)]).not.toEqual([...c.subarray(4, 7)]);
    expect([...l.voxels!.colors]).toEqual([...probabilityColors([0.75])]);
    expect(l.points!.count).toBe(2);
    // Point (1, 0, 3) → Babylon (1, 3 − 1.5, 0).
    expect([...l.points!.positions.subarray(3, 6)]).toEqual([1, 1.5, 0]);
    expect(l.box!.length).toBe(12 * 2 * 3);
    expect(l.triangles).toBeNull();
    expect(l.legend?.kind).toBe('scalar');
  });

  it('scales p_hit colours to the primitive’s largest p_hit (a tenth up, at least 0.2)', () => {
    expect(probabilityTop([0.05, 0.13], [0.02])).toBe(0.2);
    expect(probabilityTop([0.21, 0.3])).toBe(0.3);
    expect(probabilityTop([0.31], [0.9])).toBe(0.9);
    expect(probabilityTop([])).toBe(0.2);
    const l = primitiveLayers(primitive({ ellipsoids: { means: Float64Array.from([0, 0, 1, 0, 0, 2]), covariances: new Float64Array(12).fill(0.01), pHit: Float32Array.from([0, 0.25]) }, voxels: null }), 2);
    expect(l.legend).toMatchObject({ kind: 'scalar', min: '0', max: '0.3' });
    expect([...l.ellipsoids!.colors.subarray(4, 8)]).toEqual([...probabilityColors([0.25], 0.3)]);
  });

  it('a mesh primitive: triangles with per-vertex colours, no Gaussians', () => {
    const tri = Float32Array.from([0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 1]);
    const l = primitiveLayers(primitive({ library: 'mesh', ellipsoids: null, voxels: null, points: null, triangles: tri, reflectance: Float32Array.from([0, 1]) }), 2);
    expect(l.ellipsoids).toBeNull();
    expect(l.voxels).toBeNull();
    expect(l.triangles!.count).toBe(2);
    expect(l.triangles!.colors.length).toBe(2 * 3 * 4);
    // Brighter with reflectance.
    expect(l.triangles!.colors[12]!).toBeGreaterThan(l.triangles!.colors[0]!);
    expect(l.legend).toBeNull();
  });
});

describe('geometry helpers', () => {
  it('boxEdges: 12 edges of length l, w or h spanning [−l/2, l/2] × [−w/2, w/2] × [0, h]', () => {
    const e = boxEdges([4, 2, 3], [0, 0, 0]);
    const lengths: number[] = [];
    for (let i = 0; i < 12; i++) {
      const a = e.subarray(6 * i, 6 * i + 3), b = e.subarray(6 * i + 3, 6 * i + 6);
      lengths.push(Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!));
    }
    expect(lengths.sort()).toEqual([2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4]);
    // Babylon y is Thicket z: from 0 to 3.
    const ys = [...e].filter((_, i) => i % 3 === 1);
    expect(Math.min(...ys)).toBe(0);
    expect(Math.max(...ys)).toBe(3);
  });

  it('triangleMesh: flat unit normals, degenerate triangles point up', () => {
    const { positions, normals } = triangleMesh([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0]);
    expect(positions.length).toBe(18);
    // A triangle in the Thicket xy plane: its normal is ±Babylon y.
    expect(Math.abs(normals[1]!)).toBeCloseTo(1, 6);
    expect(normals[0]).toBeCloseTo(0, 6);
    expect([...normals.subarray(9, 12)]).toEqual([0, 1, 0]);
  });

  it('highlightColors dims everything but one object and restores with null', () => {
    const base = Float32Array.from([1, 1, 1, 1, 0.5, 0.5, 0.5, 1]);
    const ids = Int32Array.from([7, 8]);
    const out = highlightColors(base, ids, 8, new Float32Array(8), 1, 0.25);
    expect([...out]).toEqual([0.25, 0.25, 0.25, 1, 0.5, 0.5, 0.5, 1]);
    expect([...highlightColors(base, ids, null, new Float32Array(8))]).toEqual([...base]);
    // Per-vertex colours of triangles: three vertices per element.
    const tri = new Float32Array(24).fill(1);
    const t = highlightColors(tri, Int32Array.from([1, 2]), 2, new Float32Array(24), 3, 0.5);
    expect(t[0]).toBe(0.5);
    expect(t[8]).toBe(0.5);
    expect(t[12]).toBe(1);
  });
});

describe('sceneLayers', () => {
  it('splits Gaussians into ellipsoids and voxels, colours everything by class and keeps object ids', () => {
    const p: ScenePreviewData = {
      centre: [100, 200, 10],
      bounds: { min: [90, 190, 5], max: [110, 210, 15] },
      instances: 3,
      triangles: { positions: Float32Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0]), classIds: Uint8Array.from([1]), objectIds: Int32Array.from([1]), kinds: Uint8Array.from([1]), total: 1 },
      gaussians: {
        means: Float32Array.from([0, 0, 1, 1, 1, 1, 2, 2, 2]),
        covariances: Float32Array.from([0.01, 0, 0, 0.01, 0, 0.01, 0.01, 0, 0, 0.01, 0, 0.01, 0.04, 0, 0, 0.04, 0, 0.04]),
        pHit: Float32Array.from([0.5, 0.5, 0.2]),
        kinds: Uint8Array.from([2, 3, 2]),
        classIds: Uint8Array.from([7, 7, 5]),
        objectIds: Int32Array.from([11, 11, 12]),
        total: 3,
      },
      mahalanobisThreshold: 3,
      voxelTau: 2,
    };
    const l = sceneLayers(p, 2, { 1: 'ground', 5: 'medium shrub', 7: 'small tree' });
    expect(l.size).toEqual([20, 20, 10]);
    expect(l.ellipsoids!.count).toBe(2);
    expect(l.voxels!.count).toBe(1);
    expect([...l.ellipsoids!.objectIds!]).toEqual([11, 12]);
    expect([...l.ellipsoids!.colors.subarray(4, 7)].map((v) => Math.fround(v))).toEqual(classColor(5).map((v) => Math.fround(v)));
    // Third Gaussian (σ 0.2 at (2, 2, 2)): radius 0.4, translation (2, 2, 2) (the preview is already centred).
    const m = l.ellipsoids!.matrices;
    expect(Math.hypot(m[16]!, m[17]!, m[18]!)).toBeCloseTo(0.4, 6);
    expect([m[28], m[29], m[30]]).toEqual([2, 2, 2]);
    expect(l.triangles!.count).toBe(1);
    expect([...l.triangles!.colors.subarray(0, 3)].map((v) => Math.fround(v))).toEqual(classColor(1).map((v) => Math.fround(v)));
    const legend = l.legend!;
    expect(legend.kind).toBe('classes');
    if (legend.kind === 'classes') expect(legend.entries.map((e) => [e.name, e.count])).toEqual([['ground', 1], ['medium shrub', 1], ['small tree', 2]]);
  });
});
