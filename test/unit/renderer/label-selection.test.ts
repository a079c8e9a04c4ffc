/**
 * The Label page's selection math: shapes rasterised at pixel centres (box, lasso by even-odd,
 * brush discs joined along a stroke), points projected with a view-projection matrix, the
 * add / subtract / replace modifiers, the height filter and picking the nearest point.
 */
import { describe, expect, it } from 'vitest';
import { Matrix, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { Viewport } from '@babylonjs/core/Maths/math.viewport';
import type { LabelCloud } from '../../../src-main/api/contract';
import { useLabelSelection } from '../../../src-renderer/components/labels/use-label-selection';
import { sampleIndices, sampleVisible } from '../../../src-renderer/components/labels/label-colors';
import { combineSelection, heightMask, maskIndices, modeFromModifiers, pickPoint, pointInPolygon, projectOntoMask, rasterize, type Point2, type ScreenView } from '../../../src-common/label-selection';

/** A view where Babylon (x, y) maps straight to the screen: x ∈ [−1, 1] → [0, w), y up → screen up; clip w = 1 + Babylon z (depth). */
function orthoView(w: number, h: number): ScreenView {
  // Row-vector matrix: clip = [bx, by, bz, 1] × M.
  const m = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1];
  return { matrix: m, width: w, height: h, centre: [0, 0, 0] };
}

/** Thicket world points (x, y, z) whose Babylon x = x, Babylon y = z (screen up), depth = y. */
const pts = (xyz: number[][]) => Float32Array.from(xyz.flat());

describe('selection shapes', () => {
  it('point in polygon by crossings, concave shapes included', () => {
    const L: Point2[] = [[0, 0], [10, 0], [10, 4], [4, 4], [4, 10], [0, 10]];
    expect(pointInPolygon(2, 2, L)).toBe(true);
    expect(pointInPolygon(8, 2, L)).toBe(true);
    expect(pointInPolygon(2, 8, L)).toBe(true);
    expect(pointInPolygon(8, 8, L)).toBe(false); // the notch
    expect(pointInPolygon(-1, 5, L)).toBe(false);
  });

  it('rasterises a lasso exactly as the point-in-polygon test at pixel centres', () => {
    const star: Point2[] = [[10, 1], [13, 8], [19, 8], [14, 12], [16, 19], [10, 15], [4, 19], [6, 12], [1, 8], [7, 8]];
    const m = rasterize({ kind: 'lasso', points: star }, 20, 20);
    for (let y = 0; y < 20; y++) for (let x = 0; x < 20; x++) expect(m[y * 20 + x], `${x},${y}`).toBe(pointInPolygon(x + 0.5, y + 0.5, star) ? 1 : 0);
  });

  it('rasterises a box whichever corner the drag started from, clipped to the canvas', () => {
    const a = rasterize({ kind: 'box', x0: 8, y0: 6, x1: 2, y1: 1 }, 10, 10);
    expect(maskIndices(a).length).toBe(6 * 5);
    expect(a[1 * 10 + 2]).toBe(1);
    expect(a[5 * 10 + 7]).toBe(1);
    expect(a[6 * 10 + 7]).toBe(0);
    const b = rasterize({ kind: 'box', x0: -5, y0: -5, x1: 50, y1: 3 }, 10, 10);
    expect(maskIndices(b).length).toBe(30);
  });

  it('rasterises a brush stroke as discs joined without gaps', () => {
    const m = rasterize({ kind: 'brush', points: [[5, 10], [45, 10]], radius: 3 }, 50, 20);
    for (let x = 5; x < 45; x++) expect(m[10 * 50 + x], `x ${x}`).toBe(1);
    expect(m[10 * 50 + 49]).toBe(0);
    expect(m[14 * 50 + 20]).toBe(0); // 4.5 px from the stroke's centre line
    // Area of one disc ≈ πr².
    const one = rasterize({ kind: 'brush', points: [[25, 10]], radius: 6 }, 50, 20);
    expect(maskIndices(one).length).toBeGreaterThan(Math.PI * 36 * 0.85);
    expect(maskIndices(one).length).toBeLessThan(Math.PI * 36 * 1.15);
  });
});

describe('projecting every point', () => {
  const view = orthoView(100, 100);
  // Screen x = (bx + 1) * 50, screen y = (1 − by) * 50.
  const cloud = pts([
    [-0.5, 0, 0.5], // screen (25, 25)
    [0.5, 0, 0.5], // (75, 25)
    [-0.5, 0, -0.5], // (25, 75)
    [0.5, 0, -0.5], // (75, 75)
    [0, -2, 0], // behind the camera (w = −1)
  ]);

  it('selects the points inside a box, and never those behind the camera', () => {
    const hits = new Uint8Array(5);
    const n = projectOntoMask(cloud, view, rasterize({ kind: 'box', x0: 0, y0: 0, x1: 50, y1: 100 }, 100, 100), hits);
    expect(n).toBe(2);
    expect([...hits]).toEqual([1, 0, 1, 0, 0]);
    hits.fill(0);
    expect(projectOntoMask(cloud, view, rasterize({ kind: 'box', x0: 0, y0: 0, x1: 100, y1: 100 }, 100, 100), hits)).toBe(4);
    expect(hits[4]).toBe(0);
  });

  it('re-centres and swaps axes as the view draws the points', () => {
    const hits = new Uint8Array(1);
    // World (10.5, 0, 20.5) with the view centred on (10, 0, 20) is Babylon (0.5, 0.5): screen (75, 25).
    const v = { ...view, centre: [10, 0, 20] as const };
    expect(projectOntoMask(pts([[10.5, 0, 20.5]]), v, rasterize({ kind: 'box', x0: 70, y0: 20, x1: 80, y1: 30 }, 100, 100), hits)).toBe(1);
  });

  it('limits selection to a range of points and to the allowed ones', () => {
    const hits = new Uint8Array(5);
    const all = rasterize({ kind: 'box', x0: 0, y0: 0, x1: 100, y1: 100 }, 100, 100);
    expect(projectOntoMask(cloud, view, all, hits, [1, 3])).toBe(2);
    expect([...hits]).toEqual([0, 1, 1, 0, 0]);
    hits.fill(0);
    const allow = heightMask(Float32Array.from([0.1, 0.3, NaN, 0.2, 5]), 0.2);
    expect([...allow]).toEqual([0, 1, 0, 1, 1]);
    expect(projectOntoMask(cloud, view, all, hits, undefined, allow)).toBe(2);
    expect([...hits]).toEqual([0, 1, 0, 1, 0]);
  });

  it('agrees with the projection Babylon does through a perspective camera', () => {
    const viewM = Matrix.LookAtLH(new Vector3(-8, 12, -20), new Vector3(1, 0, 2), Vector3.Up());
    const proj = Matrix.PerspectiveFovLH(0.8, 640 / 480, 0.1, 500);
    const vp = viewM.multiply(proj);
    const v: ScreenView = { matrix: Float64Array.from(vp.m), width: 640, height: 480, centre: [100, 200, 10] };
    const world = pts([[101, 203, 11], [96, 199, 10.2], [104.5, 201, 12]]);
    for (let i = 0; i < 3; i++) {
      const b = new Vector3(world[i * 3]! - 100, world[i * 3 + 2]! - 10, world[i * 3 + 1]! - 200);
      const s = Vector3.Project(b, Matrix.Identity(), vp, new Viewport(0, 0, 640, 480));
      const hits = new Uint8Array(3);
      const box = rasterize({ kind: 'box', x0: s.x - 1, y0: s.y - 1, x1: s.x + 1, y1: s.y + 1 }, 640, 480);
      projectOntoMask(world, v, box, hits);
      expect(hits[i], `point ${i} at ${s.x.toFixed(1)}, ${s.y.toFixed(1)}`).toBe(1);
    }
  });

  it('picks the nearest point under the cursor', () => {
    const two = pts([[0, 3, 0], [0, 1, 0], [0.9, 0, 0.9]]); // both first at screen (50, 50), the second nearer
    expect(pickPoint(two, view, 51, 50, 4)).toBe(1);
    expect(pickPoint(two, view, 20, 80, 4)).toBe(-1);
  });
});

describe('modifiers', () => {
  it('maps Shift to add and Ctrl, Alt or Cmd to subtract', () => {
    const e = { shiftKey: false, ctrlKey: false, altKey: false, metaKey: false };
    expect(modeFromModifiers(e)).toBe('replace');
    expect(modeFromModifiers({ ...e, shiftKey: true })).toBe('add');
    expect(modeFromModifiers({ ...e, ctrlKey: true })).toBe('subtract');
    expect(modeFromModifiers({ ...e, altKey: true })).toBe('subtract');
    expect(modeFromModifiers({ ...e, metaKey: true, shiftKey: true })).toBe('subtract');
  });

  it('replaces, adds to and subtracts from the selection', () => {
    const sel = Uint8Array.from([1, 1, 0, 0]);
    expect(combineSelection(sel, Uint8Array.from([0, 1, 1, 0]), 'add')).toBe(3);
    expect([...sel]).toEqual([1, 1, 1, 0]);
    expect(combineSelection(sel, Uint8Array.from([1, 0, 0, 1]), 'subtract')).toBe(2);
    expect([...sel]).toEqual([0, 1, 1, 0]);
    expect(combineSelection(sel, Uint8Array.from([0, 0, 0, 1]), 'replace')).toBe(1);
    expect([...sel]).toEqual([0, 0, 0, 1]);
  });
});

describe('the page\'s selection state', () => {
  const view = orthoView(100, 100);
  const cloud = {
    points: 4,
    // Screen (25, 25), (27, 25), (75, 75), (75, 25).
    positions: pts([[-0.5, 0, 0.5], [-0.46, 0, 0.5], [0.5, 0, -0.5], [0.5, 0, 0.5]]),
    instances: Uint32Array.from([7, 7, 9, 0]),
    heightAboveGround: Float32Array.from([0.1, 1, 1, 1]),
  } as unknown as LabelCloud;

  it('selects the segment under the cursor, adds with Shift, and finds none on a point in no object', () => {
    const sel = useLabelSelection(() => [0, 4]);
    sel.reset(cloud);
    expect(sel.selectSegmentAt(25, 25, view, 'replace')).toBe(true);
    expect([...sel.mask.value]).toEqual([1, 1, 0, 0]);
    expect(sel.selectSegmentAt(75, 75, view, 'add')).toBe(true);
    expect(sel.count.value).toBe(3);
    expect(sel.selectSegmentAt(75, 25, view, 'replace')).toBe(false);
    expect(sel.count.value).toBe(3);
    expect(sel.selectSegmentAt(75, 75, view, 'subtract')).toBe(true);
    expect([...sel.indices()]).toEqual([0, 1]);
  });

  it('applies the height filter to the tools, limits them to the range shown, and inverts within it', () => {
    const sel = useLabelSelection(() => [0, 3]);
    sel.reset(cloud);
    sel.heightFilter.value = true;
    sel.minHeight.value = 0.5;
    sel.applyShape({ kind: 'box', x0: 0, y0: 0, x1: 100, y1: 100 }, view, 'replace');
    expect([...sel.mask.value]).toEqual([0, 1, 1, 0]); // point 0 is too low, point 3 outside the range
    sel.heightFilter.value = false;
    sel.invert();
    expect([...sel.mask.value]).toEqual([1, 0, 0, 0]);
    sel.selectAll('add');
    expect(sel.count.value).toBe(3);
    sel.clear();
    expect(sel.count.value).toBe(0);
  });
});

describe('points drawn', () => {
  it('thins a range evenly to the budget, leaving out hidden classes', () => {
    expect([...sampleIndices(10, 20, 5)]).toEqual([10, 12, 14, 16, 18]);
    expect([...sampleIndices(0, 3, 10)]).toEqual([0, 1, 2]);
    const cls = Uint8Array.from([1, 2, 1, 2, 1, 2, 1, 2]);
    expect([...sampleVisible(0, 8, 10, cls, new Set([1]))]).toEqual([1, 3, 5, 7]);
    expect([...sampleVisible(0, 8, 2, cls, new Set([1]))]).toEqual([1, 5]);
    expect([...sampleVisible(0, 8, 2, cls, new Set())]).toEqual([0, 4]);
  });
});
