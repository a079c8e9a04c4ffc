import { describe, expect, it } from 'vitest';
import { cellAt, fitView, panBy, pxPerMetre, screenToWorld, worldToScreen, zoomAt, MIN_SPAN_M } from '../../../src-renderer/components/studies/panel-view';
import { HEIGHT_RANGE_M, frameWindow, heightAboveLowest, pointColours, rasterPoints, zOrder } from '../../../src-renderer/components/studies/points-raster';
import { classColor, turbo } from '../../../src-common/colormaps';

describe('panel view', () => {
  const v = { cx: 10, cy: 20, span: 50 };

  it('puts the centre mid-panel, north up, span across the shorter side', () => {
    expect(worldToScreen(v, 400, 200, 10, 20)).toEqual([200, 100]);
    expect(pxPerMetre(v, 400, 200)).toBe(4);
    expect(worldToScreen(v, 400, 200, 10, 45)).toEqual([200, 0]); // +y is up
    expect(worldToScreen(v, 400, 200, 35, 20)).toEqual([300, 100]);
    const [x, y] = screenToWorld(v, 400, 200, 123, 77);
    const [sx, sy] = worldToScreen(v, 400, 200, x, y);
    expect(sx).toBeCloseTo(123, 9);
    expect(sy).toBeCloseTo(77, 9);
  });

  it('zooms about the cursor (the ground under it stays put) and clamps the span', () => {
    const before = screenToWorld(v, 400, 300, 50, 60);
    const z = zoomAt(v, 400, 300, 50, 60, 0.5);
    expect(z.span).toBe(25);
    const after = screenToWorld(z, 400, 300, 50, 60);
    expect(after[0]).toBeCloseTo(before[0], 9);
    expect(after[1]).toBeCloseTo(before[1], 9);
    expect(zoomAt(v, 400, 300, 0, 0, 1e-6).span).toBe(MIN_SPAN_M);
  });

  it('pans with the drag: dragging right moves the ground right', () => {
    const p = panBy(v, 400, 200, 40, -20); // 4 px/m
    expect(p).toEqual({ cx: 0, cy: 15, span: 50 });
  });

  it('fits points with a margin, and falls back when there are none', () => {
    expect(fitView([0, 0, 30, 10, NaN, 5], 5)).toEqual({ cx: 15, cy: 5, span: 40 });
    expect(fitView([], 5)).toEqual({ cx: 0, cy: 0, span: 20 });
  });

  it('cellAt: row-major from the lower-left corner, null outside', () => {
    const g = { originX: -10, originY: -5, cellM: 0.5, width: 40, height: 20 };
    expect(cellAt(g, -10, -5)).toEqual({ ix: 0, iy: 0, index: 0 });
    expect(cellAt(g, -9.4, -4.4)).toEqual({ ix: 1, iy: 1, index: 41 });
    expect(cellAt(g, 9.99, 4.99)).toEqual({ ix: 39, iy: 19, index: 799 });
    expect(cellAt(g, 10, 0)).toBeNull();
    expect(cellAt(g, -10.01, 0)).toBeNull();
  });
});

describe('point raster', () => {
  // three points: ground at (0,0), a crown above it at (0,0,4), a shrub at (2,0,0.5)
  const xyz = Float32Array.from([0, 0, 0, 0.2, 0.2, 4, 2, 0, 0.5]);
  const frame = Uint32Array.from([0, 1, 1]);
  const classId = Uint8Array.from([1, 8, 4]);

  it('orders by height so the top surface is drawn last', () => {
    expect([...zOrder(xyz)]).toEqual([0, 2, 1]);
  });

  it('heights above the lowest point in each 1 m square', () => {
    const h = heightAboveLowest(xyz);
    expect([...h]).toEqual([0, 4, 0]);
  });

  it('colours by class or by height (turbo over 0…3 m)', () => {
    const byClass = pointColours(xyz, classId, 'class');
    expect([...byClass.subarray(3, 6)]).toEqual(classColor(8).map((v) => Math.round(255 * v)));
    const byHeight = pointColours(xyz, classId, 'height');
    expect([...byHeight.subarray(3, 6)]).toEqual(turbo(4 / HEIGHT_RANGE_M).map((v) => Math.round(255 * v)));
    expect([...byHeight.subarray(0, 3)]).toEqual(turbo(0).map((v) => Math.round(255 * v)));
  });

  it('frame windows: the last scan, all so far, or none', () => {
    expect(frameWindow('scan', 5)).toEqual([4, 5]);
    expect(frameWindow('all', 5)).toEqual([0, 5]);
    expect(frameWindow('off', 5)).toEqual([0, 0]);
    expect(frameWindow('scan', 0)).toEqual([0, 0]);
  });

  it('writes dots where the points are, only for the frames asked, the highest on top', () => {
    const W = 40, H = 20, out = new Uint8ClampedArray(W * H * 4);
    const view = { cx: 1, cy: 0, span: 10 }; // 2 px/m: x = 0 → px 18, x = 2 → px 22
    const rgb = Uint8Array.from([10, 10, 10, 200, 0, 0, 0, 200, 0]);
    const order = zOrder(xyz);
    expect(rasterPoints(out, W, H, view, { xyz, frame }, order, rgb, [0, 1], 2)).toBe(1);
    const px = (x: number, y: number) => [...out.subarray(4 * (y * W + x), 4 * (y * W + x) + 4)];
    expect(px(18, 10)).toEqual([10, 10, 10, 255]);
    expect(px(22, 10)).toEqual([0, 0, 0, 0]); // frame 1 not asked
    expect(rasterPoints(out, W, H, view, { xyz, frame }, order, rgb, [0, 2], 2)).toBe(3);
    expect(px(18, 9)).toEqual([200, 0, 0, 255]); // the crown covers the ground beneath
    expect(px(22, 10)).toEqual([0, 200, 0, 255]);
    expect(rasterPoints(out, W, H, { cx: 100, cy: 0, span: 10 }, { xyz, frame }, order, rgb, [0, 2], 2)).toBe(0);
    expect(out.every((v) => v === 0)).toBe(true);
  });
});
