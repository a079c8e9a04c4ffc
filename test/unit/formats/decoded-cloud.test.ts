import { describe, expect, it } from 'vitest';
import { cloudToPacket, countNonFinite, type DecodedCloud } from '../../../src-worker/formats/decoded-cloud';
import { RING_UNKNOWN } from '../../../src-common/packets';

function cloud(points: number[][], extra: Partial<DecodedCloud> = {}): DecodedCloud {
  const xyz = new Float32Array(points.flat());
  const count = points.length;
  return { count, xyz, intensity: new Float32Array(count).fill(1), ring: null, time: null, timeBase: 0, viewpoint: null, dropped: countNonFinite(xyz, count), ...extra };
}

describe('cloudToPacket', () => {
  it('drops non-finite and origin points, keeps ring and time in step', () => {
    const c = cloud([[1, 0, 0], [NaN, 1, 1], [0, 0, 0], [0, 3, 4]], {
      ring: Uint16Array.of(5, 6, 7, RING_UNKNOWN),
      time: Float32Array.of(0.25, 0.5, 0.75, 1),
    });
    expect(c.dropped).toBe(1);
    const p = cloudToPacket(c, { time: 12 });
    expect(p.rayCount).toBe(2);
    expect([...p.rayRange]).toEqual([1, 5]);
    expect([...p.rayRing]).toEqual([5, RING_UNKNOWN]);
    expect([...p.rayTime]).toEqual([0.25, 1]);
    expect([...p.packetTime]).toEqual([12]);
    expect([...p.packetPose]).toEqual([0, 0, 0, 0, 0, 0, 1]);
  });

  it('moves points into the sensor frame of a non-identity viewpoint, world positions unchanged', () => {
    // Sensor at (10, 0, 2), yawed +90 deg: its x axis points along world +y.
    const s = Math.SQRT1_2;
    const c = cloud([[10, 5, 2], [13, 0, 2]], { viewpoint: [10, 0, 2, 0, 0, s, s] });
    const p = cloudToPacket(c);
    expect([...p.packetPose]).toEqual([10, 0, 2, 0, 0, s, s]);
    const dir = [...p.rayDir].map((v) => Math.round(v * 1e6) / 1e6 + 0);
    expect(dir).toEqual([1, 0, 0, 0, -1, 0]); // world +y is sensor +x; world +x is sensor -y
    expect([...p.rayRange].map((r) => Math.round(r * 1e5) / 1e5)).toEqual([5, 3]);
  });
});
