/**
 * The evaluation's region (src-common/evaluation-region.ts, src-worker/evaluate/region-filter.ts;
 * docs/methods.md §6, *Region*): its text form, and the pairs scored on a real KITTI scan
 * (../shared/data/overlapnet_kitti/000000.bin, read here as plain float32 x, y, z, i) against
 * itself 0.1 m longer, with the counts computed independently from the points.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { ChunkBuilder } from '../../../src-worker/formats/chunk-builder';
import { evaluatePacketChunks } from '../../../src-worker/evaluate/observation-metrics';
import { DEFAULT_BODY_SIZE, defaultBody, formatRegion, parseBody, parseRegion } from '../../../src-common/evaluation-region';
import { inAzimuth, wrapDeg } from '../../../src-worker/evaluate/region-filter';
import { HAS_SHARED_DATA, dataFile } from '../../helpers/shared-data';
import type { PacketChunk } from '../../../src-common/packets';

describe('region text form', () => {
  it('reads azimuth, range and boxes, combinable, and names the term at fault', () => {
    expect(parseRegion('azimuth=-60:60,range=1:40')).toEqual({ azimuthDeg: [-60, 60], rangeM: [1, 40] });
    expect(parseRegion('box=12,-3,0.5,8,6,3,30, box=0,0,0,1,1,1,0')).toEqual({
      boxes: [
        { center: [12, -3, 0.5], size: [8, 6, 3], yawDeg: 30 },
        { center: [0, 0, 0], size: [1, 1, 1], yawDeg: 0 },
      ],
    });
    expect(() => parseRegion('azimuth=-60')).toThrow('region: term "azimuth=-60": expected 2 numbers separated by ":", got "-60"');
    expect(() => parseRegion('range=40:1')).toThrow('region: range: 40:1 must be 0 ≤ MIN < MAX metres');
    expect(() => parseRegion('box=1,2,3,0,1,1,0')).toThrow('region: box 1: size 0 × 1 × 1 m must be positive');
    expect(() => parseRegion('ring=3')).toThrow('unknown key "ring"');
    expect(() => parseRegion('range=1:x')).toThrow('value 2 ("x") is not a number');
    expect(parseBody('4,2,1.5')).toEqual({ size: [4, 2, 1.5], center: [0, 0, 0.1 - 0.75] });
    expect(parseBody('4,2,1.5,-1,0,-0.6')).toEqual({ size: [4, 2, 1.5], center: [-1, 0, -0.6] });
    expect(() => parseBody('4,2')).toThrow(/body "4,2": expected 3 to 6 numbers/);
    expect(formatRegion({ azimuthDeg: [-60, 60], excludeBody: defaultBody() })).toBe('azimuth=-60:60,exclude-body=4.5,2,2,0,0,-0.9');
    // Windows left out repeat, and read back as they were given.
    const blind = parseRegion('exclude-azimuth=-120:-100,exclude-azimuth=100:120,range=1:80');
    expect(blind).toEqual({ excludeAzimuthDeg: [[-120, -100], [100, 120]], rangeM: [1, 80] });
    expect(parseRegion(formatRegion(blind))).toEqual(blind);
    expect(() => parseRegion('exclude-azimuth=10:10')).toThrow('region: exclude-azimuth 1: the window 10:10 is empty');
    expect(() => parseRegion('exclude-azimuth=-180:180')).toThrow('leaves out every direction');
  });

  it('wraps azimuth windows through ±180°', () => {
    expect(wrapDeg(190)).toBe(-170);
    expect(wrapDeg(-180)).toBe(180);
    expect(inAzimuth(175, [170, -170])).toBe(true);
    expect(inAzimuth(-175, [170, -170])).toBe(true);
    expect(inAzimuth(0, [170, -170])).toBe(false);
  });
});

/** The scan as one packet: direction = point / |point|, range = |point| + extra. */
function scanChunk(xyz: Float32Array, extra: number): PacketChunk {
  const b = new ChunkBuilder(0);
  b.beginPacket(0, [0, 0, 0, 0, 0, 0, 1]);
  for (let i = 0; i < xyz.length / 4; i++) {
    const x = xyz[4 * i]!, y = xyz[4 * i + 1]!, z = xyz[4 * i + 2]!;
    const r = Math.hypot(x, y, z);
    if (!(r > 0)) continue;
    b.pushRay(x / r, y / r, z / r, r + extra, 0, 0, 0, 0, 0, 0);
  }
  return b.finish();
}

describe.skipIf(!HAS_SHARED_DATA)('regions on a real scan (overlapnet_kitti/000000.bin)', () => {
  const buf = HAS_SHARED_DATA ? readFileSync(dataFile('overlapnet_kitti/000000.bin')) : Buffer.alloc(0);
  const xyz = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
  const real = () => [scanChunk(xyz, 0)];
  const sim = () => [scanChunk(xyz, 0.1)];
  /** Real points passing a test, counted straight from the file's floats. */
  const count = (pass: (x: number, y: number, z: number, r: number, azDeg: number) => boolean) => {
    let n = 0;
    for (let i = 0; i < xyz.length / 4; i++) {
      const x = xyz[4 * i]!, y = xyz[4 * i + 1]!, z = xyz[4 * i + 2]!;
      const r = Math.hypot(x, y, z);
      if (r > 0 && pass(x, y, z, r, (Math.atan2(y, x) * 180) / Math.PI)) n++;
    }
    return n;
  };
  const opts = { pointCloud: false };

  it('scores everything without a region, and exactly the points of each window with one', () => {
    const all = evaluatePacketChunks(real(), sim(), opts);
    expect(all.region).toEqual({ spec: 'everything', pairs: count(() => true), realRays: count(() => true) });
    expect(all.trueHits).toBe(count(() => true));

    const window = count((_x, _y, _z, r, az) => az >= -60 && az <= 60 && r >= 1 && r <= 40);
    expect(window).toBeGreaterThan(10_000);
    const m = evaluatePacketChunks(real(), sim(), { ...opts, region: parseRegion('azimuth=-60:60,range=1:40') });
    expect(m.region!.pairs).toBe(window);
    expect(m.trueHits).toBe(window);
    expect(m.packetError).toBeCloseTo(0.1, 4); // every scored pair is 0.1 m apart (float32 ranges: ±1e-4)
    // Behind the sensor, wrapping through 180°.
    expect(evaluatePacketChunks(real(), sim(), { ...opts, region: parseRegion('azimuth=150:-150') }).trueHits).toBe(count((_x, _y, _z, _r, az) => az >= 150 || az <= -150));
    // Two windows left out (one through 180°): every other point scores.
    const left = evaluatePacketChunks(real(), sim(), { ...opts, region: parseRegion('exclude-azimuth=-120:-100,exclude-azimuth=170:-170') });
    expect(left.trueHits).toBe(count((_x, _y, _z, _r, az) => !(az >= -120 && az <= -100) && !(az >= 170 || az <= -170)));
    expect(left.trueHits).toBeLessThan(all.trueHits);
  });

  it('an oriented box (world frame) and the vehicle body', () => {
    // 20 × 10 × 4 m ahead and to the left, yawed 30°.
    const c = [15, 5, -1], h = [10, 5, 2], yaw = (30 * Math.PI) / 180;
    const inBox = (x: number, y: number, z: number) => {
      const px = x - c[0]!, py = y - c[1]!;
      const lx = Math.cos(yaw) * px + Math.sin(yaw) * py, ly = -Math.sin(yaw) * px + Math.cos(yaw) * py;
      return Math.abs(lx) <= h[0]! && Math.abs(ly) <= h[1]! && Math.abs(z - c[2]!) <= h[2]!;
    };
    const expected = count((x, y, z) => inBox(x, y, z));
    expect(expected).toBeGreaterThan(1_000);
    expect(evaluatePacketChunks(real(), sim(), { ...opts, region: parseRegion('box=15,5,-1,20,10,4,30') }).trueHits).toBe(expected);
    // The body leaves out the real returns inside it (judged by the real point, not the 0.1 m longer
    // simulated one). KITTI's scans hold no return off the car itself, so the default body leaves
    // all in; a body 12 × 8 × 3 m (top 0.1 m above the sensor) takes the nearest ground.
    const inBody = (l: number, w: number, hh: number) => count((x, y, z) => Math.abs(x) <= l / 2 && Math.abs(y) <= w / 2 && Math.abs(z - (0.1 - hh / 2)) <= hh / 2);
    const [l, w, hh] = DEFAULT_BODY_SIZE;
    expect(evaluatePacketChunks(real(), sim(), { ...opts, region: { excludeBody: defaultBody() } }).trueHits).toBe(count(() => true) - inBody(l, w, hh));
    expect(inBody(12, 8, 3)).toBeGreaterThan(100);
    const m = evaluatePacketChunks(real(), sim(), { ...opts, region: { excludeBody: parseBody('12,8,3') } });
    expect(m.trueHits).toBe(count(() => true) - inBody(12, 8, 3));
  });

  it('a region that leaves nothing is a clear error', () => {
    expect(() => evaluatePacketChunks(real(), sim(), { ...opts, region: parseRegion('range=500:600') })).toThrow(
      new RegExp(`the region range=500:600 leaves nothing to score: 0 of the real log's ${count(() => true)} rays are inside it`),
    );
  });

  it('errors by range bin: counts per bin as the points say, median range error 0.1 m', () => {
    const m = evaluatePacketChunks(real(), sim(), { ...opts, rangeBreakdownBinM: 20 });
    const bins = m.byRange!;
    for (const b of bins) {
      expect(b.realHits).toBe(count((_x, _y, _z, r) => r >= b.fromM && r < b.toM));
      expect(b.recall).toBe(1);
      // 0.1 m to float32 rounding, reported to the histogram's 1 mm
      expect(Math.abs(b.rangeErrorMedianM! - 0.1)).toBeLessThanOrEqual(0.001);
    }
    expect(bins.reduce((s, b) => s + b.realHits, 0)).toBe(count(() => true));
    expect(bins[0]!.fromM).toBe(0);
    expect(m.perClass).toBeNull(); // no labels
  });
});
