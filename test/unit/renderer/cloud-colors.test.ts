import { describe, expect, it } from 'vitest';
import type { CloudData } from '../../../src-main/api/contract';
import { classCounts, colorizeCloud, heights, ringRange, ringValues } from '../../../src-renderer/viewport/cloud-colors';
import { computeBounds, niceStep } from '../../../src-renderer/viewport/bounds';

function cloud(n: number): CloudData {
  const positions = new Float32Array(n * 3);
  for (let i = 0; i < n; i++) positions.set([i, -i, i / 10], i * 3);
  return {
    source: { kind: 'log', id: 1 },
    totalPoints: n * 4,
    positions,
    intensity: Float32Array.from({ length: n }, (_, i) => (i % 10) / 10),
    time: Float32Array.from({ length: n }, (_, i) => i * 0.01),
    classId: Uint8Array.from({ length: n }, (_, i) => (i < n / 2 ? 0 : 2)),
    ring: Uint16Array.from({ length: n }, (_, i) => (i % 16 === 15 ? 0xffff : i % 16)),
    bounds: null,
    packets: null,
    misses: null,
  };
}

describe('colorizeCloud', () => {
  it('colours by height from the z coordinate with a turbo legend', () => {
    const c = cloud(200);
    expect([...heights(c.positions).subarray(0, 3)].map((v) => +v.toFixed(3))).toEqual([0, 0.1, 0.2]);
    const r = colorizeCloud(c, 'height');
    expect(r.colors.length).toBe(800);
    expect(r.legend.kind).toBe('scalar');
    if (r.legend.kind === 'scalar') {
      expect(r.legend.map).toBe('turbo');
      expect(r.legend.unit).toBe('m');
      expect(r.legend.range.min).toBeGreaterThan(0);
      expect(r.legend.range.max).toBeLessThan(19.9);
    }
    // lowest and highest points get different colours
    expect([...r.colors.subarray(0, 3)]).not.toEqual([...r.colors.subarray(796, 799)]);
  });

  it('lists the classes present with their counts in class mode', () => {
    const r = colorizeCloud(cloud(100), 'class');
    expect(r.values).toBeNull();
    expect(r.legend.kind).toBe('classes');
    if (r.legend.kind === 'classes') {
      expect(r.legend.entries.map((e) => [e.id, e.name, e.count])).toEqual([
        [0, 'unlabeled', 50],
        [2, 'class 2', 50],
      ]);
    }
  });

  it('colours by ring over the full range of known rings, unknown rings grey', () => {
    const r = colorizeCloud(cloud(64), 'ring');
    expect(r.legend.kind === 'scalar' && [r.legend.range.min, r.legend.range.max, r.legend.note, r.legend.map]).toEqual([0, 14, 'all', 'turbo']);
    expect(Number.isNaN(r.values![15])).toBe(true);
    expect([...r.colors.subarray(15 * 4, 15 * 4 + 4)]).toEqual([0.5, 0.5, 0.5, 1]); // ring 0xffff
    expect([...r.colors.subarray(0, 3)]).not.toEqual([...r.colors.subarray(14 * 4, 14 * 4 + 3)]); // ring 0 vs 14
    expect(ringRange(ringValues(new Uint16Array([0xffff])))).toEqual({ min: 0, max: 1 });
    expect(ringRange(ringValues(new Uint16Array([7, 7])))).toEqual({ min: 6.5, max: 7.5 });
  });

  it('colours with a fixed range when given one (a sweep on the whole log\'s scale)', () => {
    const c = cloud(10); // heights 0 … 0.9
    const r = colorizeCloud(c, 'height', undefined, { min: 0, max: 1000 });
    expect(r.legend.kind === 'scalar' && r.legend.range).toEqual({ min: 0, max: 1000 });
    // All heights sit at the bottom of a 0–1000 m scale: one colour.
    expect([...r.colors.subarray(0, 4)]).toEqual([...r.colors.subarray(36, 40)]);
  });

  it('reuses a colour buffer of the right size', () => {
    const c = cloud(50);
    const first = colorizeCloud(c, 'intensity');
    const second = colorizeCloud(c, 'time', first.colors);
    expect(second.colors).toBe(first.colors);
    expect(second.legend.kind === 'scalar' && second.legend.unit).toBe('s');
  });

  it('counts class ids', () => {
    expect([...classCounts(new Uint8Array([1, 1, 5, 255]))]).toEqual([
      [1, 2],
      [5, 1],
      [255, 1],
    ]);
  });
});

describe('viewport bounds', () => {
  it('computes bounds ignoring non-finite points', () => {
    expect(computeBounds(new Float32Array([1, 2, 3, -1, 5, 0, NaN, 100, 100]))).toEqual({ min: [-1, 2, 0], max: [1, 5, 3] });
    expect(computeBounds(new Float32Array(0))).toBeNull();
  });

  it('chooses 1-2-5 grid steps', () => {
    expect(niceStep(100)).toBe(10);
    expect(niceStep(30)).toBe(2);
    expect(niceStep(600)).toBe(50);
    expect(niceStep(2)).toBeCloseTo(0.2, 10);
  });
});
