import { describe, expect, it } from 'vitest';
import { inflateSync } from 'node:zlib';
import { CostGrid, UNKNOWN } from '../../../src-worker/plan/cost-grid';
import { pointsWindow, renderCostmap } from '../../../src-worker/plan/costmap-image';
import { costColour } from '../../../src-common/colormaps';
import { crc32, encodePng } from '../../../src-worker/tasks/study-png';

/** A PNG's RGBA pixels, undoing the Sub filter the encoder uses (and checking every chunk's CRC). */
function decode(png: Uint8Array): { width: number; height: number; rgba: Uint8Array } {
  expect([...png.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let o = 8, width = 0, height = 0;
  const idat: Uint8Array[] = [];
  while (o < png.length) {
    const len = view.getUint32(o), type = String.fromCharCode(...png.subarray(o + 4, o + 8));
    expect(view.getUint32(o + 8 + len)).toBe(crc32(png, o + 4, o + 8 + len));
    if (type === 'IHDR') {
      width = view.getUint32(o + 8);
      height = view.getUint32(o + 12);
      expect([png[o + 16], png[o + 17]]).toEqual([8, 6]);
    }
    if (type === 'IDAT') idat.push(png.subarray(o + 8, o + 8 + len));
    o += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    expect(raw[y * (width * 4 + 1)]).toBe(1);
    for (let x = 0; x < width * 4; x++) rgba[y * width * 4 + x] = (raw[y * (width * 4 + 1) + 1 + x]! + (x >= 4 ? rgba[y * width * 4 + x - 4]! : 0)) & 0xff;
  }
  return { width, height, rgba };
}

describe('costmap images', () => {
  it('crc32 matches the standard check value', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });

  it('encodes RGBA losslessly', () => {
    const rgba = new Uint8Array(7 * 5 * 4).map((_, i) => (i * 37) & 0xff);
    const d = decode(encodePng(7, 5, rgba));
    expect([d.width, d.height]).toEqual([7, 5]);
    expect([...d.rgba]).toEqual([...rgba]);
  });

  it('draws north up, unknown dark, costs on the ramp, lethal red, the goal in blue, within a window', () => {
    const spec = { originX: 0, originY: 0, cellM: 1, width: 20, height: 10 };
    const g = new CostGrid(spec);
    g.raise(0, 0); // lower-left cell
    g.raise(19 + 9 * 20, 100); // upper-right
    const img = renderCostmap(g.cost, spec, 50, { goal: [10.5, 5.5] });
    const px = (i: number, row: number) => [...img.pixels.subarray((row * 20 + i) * 4, (row * 20 + i) * 4 + 3)];
    expect(px(0, 9)).toEqual(costColour(0, 50)); // bottom row of the image = y = 0
    expect(px(19, 0)).toEqual([230, 40, 40]);
    expect(px(5, 5)).toEqual([28, 28, 34]);
    expect(px(10, 4)).toEqual([60, 110, 255]); // the goal square
    expect(costColour(49, 50)[0]).toBeGreaterThan(costColour(0, 50)[0]);
    const w = pointsWindow(spec, [2, 2, 6, 3], 1);
    expect(w).toEqual({ i0: 1, j0: 1, i1: 8, j1: 5 });
    const cropped = renderCostmap(g.cost, spec, 50, {}, w);
    expect([cropped.width, cropped.height]).toEqual([7, 4]);
    expect(g.cost[5 * 20 + 5]).toBe(UNKNOWN);
  });
});
