import { describe, expect, it } from 'vitest';
import * as edit from '../../../src-renderer/components/scene-editor/editor-state';
import { gridHeightAt, placementProblem, type TerrainGrid } from '../../../src-common/scene-authoring';
import { classHeightRange, clampScale, scaleRange } from '../../../src-common/class-sizes';
import { SiteClass } from '../../../src-common/classes';
import type { PrimitiveInfo } from '../../../src-main/api/contract';

// A 3 × 3-node grid, 2 m cells, over [0, 4] × [0, 4]: z = x + 2y, one node without ground.
const grid: TerrainGrid = { x0: 0, y0: 0, cell: 2, nx: 3, ny: 3, z: Float32Array.from([0, 2, 4, 4, 6, 8, 8, 10, NaN]) };
const prim = (id: number, cls: number, h: number, counts = { ellipsoids: 10, voxels: 4, triangles: 0, points: 0 }) =>
  ({ id, class: cls, label: `class ${cls}`, extents: [1, 1, h], counts, library: 'hybrid' }) as unknown as PrimitiveInfo;
const lib = new Map([[1, prim(1, SiteClass.mediumTree, 9.4)], [2, prim(2, SiteClass.rock, 1)]]);
const inside = (x: number, y: number) => edit.onGrid(grid, x, y);

describe('snapping to the terrain grid', () => {
  it('interpolates each square as its two triangles, NaN off the grid or over a node without ground', () => {
    expect(gridHeightAt(grid, 1, 1)).toBeCloseTo(3, 12);
    expect(gridHeightAt(grid, 1.5, 0.5)).toBeCloseTo(2.5, 12);
    expect(gridHeightAt(grid, 4, 0)).toBe(4);
    expect(gridHeightAt(grid, -0.1, 1)).toBeNaN();
    expect(gridHeightAt(grid, 3.5, 3.5)).toBeNaN();
    // A bent square: its height follows the diagonal split, not bilinear interpolation.
    const bent: TerrainGrid = { x0: 0, y0: 0, cell: 1, nx: 2, ny: 2, z: Float32Array.from([0, 0, 0, 1]) };
    expect(gridHeightAt(bent, 0.75, 0.25)).toBeCloseTo(0.25, 12); // lower triangle: fy
    expect(gridHeightAt(bent, 0.25, 0.75)).toBeCloseTo(0.25, 12); // upper triangle: fx
  });

  it('stands placements on the ground unless their height is set', () => {
    expect(edit.footZ(grid, { x: 1, y: 1 })).toBeCloseTo(3, 12);
    expect(edit.footZ(grid, { x: 1, y: 1, z: 7 })).toBe(7);
    expect(edit.footZ(null, { x: 1, y: 1 })).toBeNaN();
  });
});

describe('clamping scales to the class’s height band', () => {
  it('bands the thesis classes between their neighbours’ geometric means', () => {
    const [lo, hi] = classHeightRange(SiteClass.mediumTree)!;
    expect(lo).toBeCloseTo(Math.sqrt(5.9 * 9.4), 12);
    expect(hi).toBeCloseTo(Math.sqrt(9.4 * 13.4), 12);
    const [llo] = classHeightRange(SiteClass.lowShrub)!;
    expect(llo).toBeCloseTo(1.1 / Math.sqrt(2.1 / 1.1), 12);
    expect(classHeightRange(SiteClass.rock)).toBeNull();
    expect(scaleRange(SiteClass.rock, 1)).toEqual([0.5, 2]);
    // A primitive outside its band keeps scale 1.
    expect(scaleRange(SiteClass.mediumTree, 20)[1]).toBe(1);
    expect(clampScale(5, SiteClass.mediumTree, 9.4)).toBeCloseTo(Math.sqrt(9.4 * 13.4) / 9.4, 12);
    expect(clampScale(Number.NaN, SiteClass.rock, 1)).toBe(1);
  });

  it('clamps scales set by hand and by steps; the host’s check accepts what the editor makes', () => {
    let s = edit.place(edit.emptyState(), lib, 1, 1, 1).state;
    const key = s.placements[0]!.key;
    s = edit.setFields(s, key, lib, { scale: 3 }, inside);
    const max = Math.sqrt(9.4 * 13.4) / 9.4;
    expect(s.placements[0]!.scale).toBeCloseTo(max, 12);
    s = edit.rescale(s, [key], 0.1, lib);
    expect(s.placements[0]!.scale).toBeCloseTo(Math.sqrt(5.9 * 9.4) / 9.4, 12);
    expect(placementProblem(edit.authorRequest(s, '', null).placements as never, lib, inside, 'grid')).toBeNull();
    expect(placementProblem([{ primitiveId: 1, x: 1, y: 1, yaw: 0, scale: 2 }], lib, inside, 'grid')).toMatch(/^placement 1: scale 2 of primitive 1 .* outside its class's range/);
    expect(placementProblem([{ primitiveId: 1, x: 1, y: 1, yaw: 0, scale: 1 }, { primitiveId: 1, x: 3.5, y: 3.5, yaw: 0, scale: 1 }], lib, inside, 'grid')).toBe('placement 2: (3.50, 3.50) is outside the terrain (grid)');
  });
});

describe('edits', () => {
  it('place, move (on the ground), rotate, duplicate and delete without touching the previous state', () => {
    const s0 = edit.emptyState();
    const { state: s1, keys: [a] } = edit.place(s0, lib, 1, 1, 1);
    const { state: s2, keys: [b] } = edit.place(s1, lib, 2, 3, 1);
    expect(s0.placements.length).toBe(0);
    expect(s2.placements.map((p) => p.key)).toEqual([a, b]);
    const s3 = edit.setFields(s2, b!, lib, { z: 5 }, inside);
    expect(s3.placements[1]!.z).toBe(5);
    const s4 = edit.move(s3, [a!, b!], 0.5, 0.5, inside);
    expect(s4.placements.map((p) => [p.x, p.y, p.z])).toEqual([[1.5, 1.5, undefined], [3.5, 1.5, undefined]]);
    expect(s3.placements[1]!.z).toBe(5);
    // A move that would take one placement off the terrain moves none.
    expect(edit.move(s4, [a!, b!], 1, 0, inside)).toBe(s4);
    const s5 = edit.rotate(s4, [a!], -Math.PI / 2);
    expect(s5.placements[0]!.yaw).toBeCloseTo(1.5 * Math.PI, 12);
    // (2.5, 2.5) has no ground: that copy stays on its original; one shifted the other way moves.
    expect(edit.duplicate(s5, [a!], 1, inside).state.placements[2]).toMatchObject({ x: 1.5, y: 1.5 });
    const d = edit.duplicate(s5, [a!], -1, inside);
    expect(d.state.placements.length).toBe(3);
    expect(d.state.placements[2]).toMatchObject({ key: d.keys[0], primitiveId: 1, x: 0.5, y: 0.5, yaw: s5.placements[0]!.yaw });
    const s6 = edit.remove(d.state, [a!, d.keys[0]!]);
    expect(s6.placements.map((p) => p.key)).toEqual([b]);
    expect(edit.remove(s6, [999])).toBe(s6);
    const req = edit.authorRequest(s6, '  Mine ', 4);
    expect(req).toEqual({ mode: 'hybrid', terrain: s6.terrain, placements: [{ primitiveId: 2, x: 3.5, y: 1.5, yaw: 0, scale: 1 }], name: 'Mine', editedFrom: 4 });
  });

  it('reopens an authored scene’s placements and estimates what saving builds', () => {
    const meta = { kind: 'authored', mode: 'hybrid', terrain: { kind: 'flat', z: 0, extent: { x0: 0, y0: 0, x1: 4, y1: 4 } }, placements: [{ primitiveId: 1, x: 1, y: 1, yaw: 0, scale: 1 }, { primitiveId: 1, x: 2, y: 2, yaw: 1, scale: 1 }, { primitiveId: 2, x: 3, y: 1, yaw: 0, scale: 1.5 }] };
    const s = edit.stateFromMeta(meta)!;
    expect(s.placements.map((p) => p.key)).toEqual([1, 2, 3]);
    expect(edit.stateFromMeta({ kind: 'composed' })).toBeNull();
    // A composed scene: its placements' feet and yaws, scale 1, on its flat ground over its extent.
    const composed = edit.stateFromMeta({ kind: 'composed', mode: 'mesh', groundModel: null, groundZ: 1.5, bounds: { min: [-5, -6, 1.5], max: [7, 8, 9] },
      placements: [{ entry: 3, primitive: 2, fallback: false, at: [1, 2, 1.4, -Math.PI / 2] }] })!;
    expect(composed.terrain).toEqual({ kind: 'flat', z: 1.5, extent: { x0: -5, y0: -6, x1: 7, y1: 8 } });
    expect(composed.mode).toBe('mesh');
    expect(composed.placements).toEqual([{ key: 1, primitiveId: 2, x: 1, y: 2, z: 1.4, yaw: 1.5 * Math.PI, scale: 1 }]);
    // Composed before the poses were kept: nothing to open.
    expect(edit.stateFromMeta({ kind: 'composed', groundZ: 0, bounds: { min: [0, 0, 0], max: [1, 1, 1] }, placements: [{ entry: 3, primitive: 2 }] })).toBeNull();
    const e = edit.estimate(s, lib, grid, null);
    // Two (primitive, scale) pairs stored once; 3 × 10 ellipsoids placed; 8 ground triangles.
    expect(e).toMatchObject({ placements: 3, unique: 2, ellipsoids: 30, voxels: 0, triangles: 0, groundTriangles: 8 });
    expect(e.memoryBytes).toBe(67 * 8 + 154 * 20 + 185 * 4);
  });

  it('puts the handles around the foot and turns or scales by where they are dragged', () => {
    const { state: s, keys: [k] } = edit.place(edit.emptyState(), lib, 1, 1, 1, Math.PI / 2);
    const a = s.placements[0]!;
    // Medium tree, footprint 1 × 1 at scale 1: radius 0.5 + 1 m; turn handle along the yaw (+y), scale handle a quarter turn on (−x).
    const h = edit.handlePoints(a, [1, 1, 9.4]);
    expect(h.radius).toBe(1.5);
    expect(h.rotate[0]).toBeCloseTo(1, 12);
    expect(h.rotate[1]).toBeCloseTo(2.5, 12);
    expect(h.scale[0]).toBeCloseTo(-0.5, 12);
    expect(h.scale[1]).toBeCloseTo(1, 12);
    const turned = edit.dragHandle(s, [k!], lib, a, 'rotate', 2, 1);
    expect(turned.placements[0]!.yaw).toBe(0);
    expect(edit.dragHandle(s, [k!], lib, a, 'rotate', 1, 1)).toBe(s);
    // Dragged to 1 m + 0.5 × 1.05: scale 1.05 (in the band); far out: the band's top.
    expect(edit.dragHandle(s, [k!], lib, a, 'scale', 1 - 1.525, 1).placements[0]!.scale).toBeCloseTo(1.05, 12);
    expect(edit.dragHandle(s, [k!], lib, a, 'scale', 1 - 50, 1).placements[0]!.scale).toBeCloseTo(Math.sqrt(9.4 * 13.4) / 9.4, 12);
  });
});
