import { describe, expect, it } from 'vitest';
import { CostReplay, costFingerprint, costLut } from '../../../src-renderer/components/studies/costmap-replay';
import { UNKNOWN_COST } from '../../../src-common/costmap-history';
import { costColour, costColour as reportColour } from '../../../src-common/colormaps';
import { replayCostmap } from '../../../src-common/costmap-history';
import { seededRandom } from '../../helpers/random';

describe('cost colours', () => {
  it('are the HTML report’s (src-worker/plan/costmap-image.ts) for every cost and lethal threshold', () => {
    for (const lethal of [1, 50, 100]) for (let c = 0; c <= 100; c++) expect(costColour(c, lethal)).toEqual(reportColour(c, lethal));
  });

  it('LUT: 0 green, 49 near yellow, ≥ lethal red, unknown dark', () => {
    const lut = costLut(50);
    const at = (c: number) => [...lut.subarray(3 * c, 3 * c + 3)];
    expect(at(0)).toEqual([40, 130, 50]);
    expect(at(50)).toEqual([230, 40, 40]);
    expect(at(100)).toEqual([230, 40, 40]);
    expect(at(UNKNOWN_COST)).toEqual([28, 28, 34]);
  });
});

/** Random rises on a w × h grid: per frame some cells, each a cost above its current one. */
function randomEvents(w: number, h: number, frames: number, seed: number) {
  const rng = seededRandom(seed);
  const cur = new Int16Array(w * h).fill(-1);
  const frameStart: number[] = [], cell: number[] = [], cost: number[] = [];
  for (let f = 0; f < frames; f++) {
    frameStart.push(cell.length);
    const n = Math.floor(rng() * 30);
    const touched = new Set<number>();
    for (let k = 0; k < n; k++) {
      const c = Math.floor(rng() * w * h);
      if (touched.has(c) || cur[c]! >= 100) continue;
      touched.add(c);
      const v = Math.min(100, cur[c]! + 1 + Math.floor(rng() * 60));
      cur[c] = v;
      cell.push(c);
      cost.push(v);
    }
  }
  return { frameStart: Uint32Array.from(frameStart), cell: Uint32Array.from(cell), cost: Uint8Array.from(cost) };
}

describe('CostReplay', () => {
  const W = 23, H = 17, FRAMES = 40;
  const ev = randomEvents(W, H, FRAMES, 5);

  it('gives the host’s replayCostmap at every frame, seeking forward, backward and jumping', () => {
    const r = new CostReplay(W, H, 50, ev);
    expect(r.totalFrames).toBe(FRAMES);
    for (const f of [0, 1, 2, 10, 9, 40, 3, 55, 0, 27, 26, 28]) {
      r.seek(f);
      const want = replayCostmap(W * H, ev.cell, ev.cost, ev.frameStart, Math.min(f, FRAMES));
      expect(r.frames).toBe(Math.min(f, FRAMES));
      expect(Buffer.from(r.cost).equals(Buffer.from(want)), `frame ${f}`).toBe(true);
      expect({ known: r.known, costSum: r.costSum, lethal: r.lethal }).toEqual(costFingerprint(want, 50));
    }
  });

  it('paints one pixel per cell, north up: cell (ix, iy) at image row H − 1 − iy', () => {
    const r = new CostReplay(W, H, 50, ev);
    r.seek(FRAMES);
    const lut = costLut(50);
    for (const c of [0, W - 1, W * (H - 1), W * H - 1, 5 * W + 7]) {
      const ix = c % W, iy = Math.floor(c / W);
      const o = 4 * ((H - 1 - iy) * W + ix);
      const v = r.cost[c]!;
      expect([...r.rgba.subarray(o, o + 4)]).toEqual([lut[3 * v], lut[3 * v + 1], lut[3 * v + 2], 255]);
    }
  });

  it('seek reports whether anything changed, and ignores events outside the grid', () => {
    const bad = { frameStart: Uint32Array.from([0]), cell: Uint32Array.from([W * H + 5, 3]), cost: Uint8Array.from([80, 20]) };
    const r = new CostReplay(W, H, 50, bad);
    expect(r.seek(0)).toBe(false);
    expect(r.seek(1)).toBe(true);
    expect(r.seek(1)).toBe(false);
    expect(r.known).toBe(1);
    expect(r.cost[3]).toBe(20);
  });
});
