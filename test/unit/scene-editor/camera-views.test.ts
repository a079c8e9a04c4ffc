import { describe, expect, it } from 'vitest';
import { groundHeading, parseSlots, SLOTS, storageKey, topView, TOP_BETA, withSlot } from '../../../src-renderer/components/scene-editor/camera-views';
import { fromMap, mapLayout, terrainShade, toMap } from '../../../src-renderer/components/scene-editor/minimap';

const view = { alpha: 1, beta: 0.8, radius: 40, target: [3, -4, 0.5] as [number, number, number] };

describe('the scene editor’s camera bookmarks', () => {
  it('keeps four slots per project and scene, and reads anything unreadable as empty slots', () => {
    expect(storageKey('/p/a.thicket', 12)).toBe('thicket.editorViews:/p/a.thicket:12');
    expect(storageKey('/p/a.thicket', null)).toBe('thicket.editorViews:/p/a.thicket:new');
    const slots = withSlot(parseSlots(null), 2, view);
    expect(slots).toEqual([null, null, view, null]);
    expect(parseSlots(JSON.stringify(slots))).toEqual(slots);
    expect(parseSlots('not json')).toEqual(Array(SLOTS).fill(null));
    // A slot with a missing or non-finite field, or a radius ≤ 0, is empty; the others survive.
    expect(parseSlots(JSON.stringify([{ ...view, radius: 0 }, { ...view, target: [1, 2] }, { ...view, alpha: 'x' }, view]))).toEqual([null, null, null, view]);
    expect(() => withSlot(slots, 4, view)).toThrow(/camera bookmark 5: there are 4/);
  });

  it('looks straight down at the terrain’s middle, north up, the whole grid in the field of view', () => {
    const grid = { nx: 101, ny: 41, cell: 0.5, x0: -25, y0: -10 };
    const fov = 0.8;
    const v = topView(grid, 2, fov);
    expect(v.alpha).toBeCloseTo(-Math.PI / 2, 12);
    expect(v.beta).toBe(TOP_BETA);
    expect(v.target).toEqual([0, 0, 2]);
    // The 50 m side spans 2·r·tan(fov/2) = 1.1 × 50 m.
    expect(2 * v.radius * Math.tan(fov / 2)).toBeCloseTo(55, 9);
    // From the default alpha (−π/2: the camera south of its target) it looks north.
    const [hx, hy] = groundHeading(-Math.PI / 2);
    expect(hx).toBeCloseTo(0, 12);
    expect(hy).toBeCloseTo(1, 12);
    expect(groundHeading(0)[0]).toBeCloseTo(-1, 12);
  });
});

describe('the scene editor’s minimap', () => {
  it('maps the terrain’s extent north up into the size, both ways', () => {
    const grid = { nx: 101, ny: 51, cell: 0.5, x0: -25, y0: 0 }; // 50 × 25 m
    const m = mapLayout(grid, 160);
    expect(m).toMatchObject({ scale: 3.2, width: 160, height: 80 });
    expect(toMap(m, -25, 0)).toEqual([0, 80]); // south-west: bottom left
    expect(toMap(m, 25, 25)).toEqual([160, 0]); // north-east: top right
    const [x, y] = fromMap(m, ...toMap(m, 7.3, 11.1));
    expect(x).toBeCloseTo(7.3, 9);
    expect(y).toBeCloseTo(11.1, 9);
    expect(fromMap(m, -30, 500)).toEqual([-25, 0]); // clamped to the extent
  });

  it('shades by height, north row first, and leaves nodes without ground transparent', () => {
    const z = Float32Array.from([0, 1, NaN, 2]); // 2 × 2: south row 0, 1; north row NaN, 2
    const px = terrainShade({ nx: 2, ny: 2, z });
    // North row first: (NaN → transparent), then the highest (2 → the palest).
    expect(px[3]).toBe(0);
    expect([...px.slice(4, 8)]).toEqual([182, 175, 130, 255]);
    expect([...px.slice(8, 12)]).toEqual([62, 70, 50, 255]); // the lowest
    expect(px[12]).toBe(122); // halfway: 62 + 60
  });
});
