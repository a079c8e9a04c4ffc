import { describe, expect, it } from 'vitest';
import { buildDisplayCloud } from '../../../src-worker/tasks/display-cloud';
import { spinningLog } from '../../helpers/spinning-log';

// 4 rings per packet, every 5th ray a miss: 20 rays in 5 packets hold 16 hits and 4 misses.
const chunks = spinningLog({ packets: 40, packetsPerSweep: 10, rings: 4, chunkPackets: 16, dt: 0.01, speed: 2, range: 10 });

describe('display cloud of a packet range', () => {
  it('carries ring, class and time per point for the whole log', () => {
    const c = buildDisplayCloud({ chunks, budget: 1_000_000 });
    expect(c.totalPoints).toBe(128); // 160 rays, 32 misses
    expect(c.packets).toBeNull();
    expect(c.misses).toBeNull();
    expect(c.ring.length).toBe(128);
    // Ray 0 (packet 0, ring 0) is a hit; ring 3 of packet 0 is ray 3, a hit too (ray 4 is the first miss).
    expect([...c.ring.subarray(0, 4)]).toEqual([0, 1, 2, 3]);
    expect([...c.classId.subarray(0, 4)]).toEqual([1, 2, 3, 1]);
    expect(c.time[1]).toBeCloseTo(1e-6, 9);
  });

  it('keeps only the packets asked for, across chunk boundaries', () => {
    // Packets 14 … 18 straddle the chunk cut at 16.
    const c = buildDisplayCloud({ chunks, budget: 1_000_000, packets: { from: 14, to: 19 } });
    expect(c.packets).toEqual({ from: 14, to: 19 });
    expect(c.totalPoints).toBe(16);
    const times = [...c.time].map((t) => Math.round(t * 100));
    expect(Math.min(...times)).toBe(14);
    expect(Math.max(...times)).toBe(18);
    // Every point is 10 m from its packet's sensor position (x = 2 m/s · t, z = 1.5), within float32 error.
    for (let k = 0; k < c.totalPoints; k++) {
      const t = Math.round(c.time[k]! * 100) / 100;
      const d = Math.hypot(c.positions[3 * k]! - 2 * t, c.positions[3 * k + 1]!, c.positions[3 * k + 2]! - 1.5);
      expect(Math.abs(d - 10)).toBeLessThan(1e-4);
    }
    expect(c.bounds!.min[0]).toBeGreaterThan(2 * 0.14 - 10.01);
  });

  it('returns the misses of the range as segments from the sensor, capped in length and count', () => {
    const c = buildDisplayCloud({ chunks, budget: 1_000, packets: { from: 0, to: 10 }, misses: { budget: 1_000, lengthM: 3 } });
    expect(c.misses!.total).toBe(8);
    expect(c.misses!.lengthM).toBe(3);
    const s = c.misses!.segments;
    expect(s.length).toBe(8 * 6);
    for (let j = 0; j < 8; j++) {
      const len = Math.hypot(s[6 * j + 3]! - s[6 * j]!, s[6 * j + 4]! - s[6 * j + 1]!, s[6 * j + 5]! - s[6 * j + 2]!);
      expect(Math.abs(len - 3)).toBeLessThan(1e-5);
      expect(s[6 * j + 2]).toBe(1.5); // starts at the sensor
    }
    const few = buildDisplayCloud({ chunks, budget: 1_000, misses: { budget: 5, lengthM: 3 } });
    expect(few.misses!.total).toBe(32);
    expect(few.misses!.segments.length).toBe(5 * 6);
  });

  it('is empty for a range past the end', () => {
    const c = buildDisplayCloud({ chunks, budget: 1_000, packets: { from: 100, to: 120 }, misses: { budget: 10, lengthM: 1 } });
    expect(c.totalPoints).toBe(0);
    expect(c.positions.length).toBe(0);
    expect(c.bounds).toBeNull();
    expect(c.misses!.total).toBe(0);
  });
});
