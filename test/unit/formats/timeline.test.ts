import { describe, expect, it } from 'vitest';
import { buildTimeline, sweepStarts } from '../../../src-worker/formats/timeline';
import { pointsToPacket } from '../../../src-worker/formats/packets';
import { spinningLog } from '../../helpers/spinning-log';

const deg = (d: number) => (d * Math.PI) / 180;

describe('sweepStarts', () => {
  it('cuts a counter-clockwise spinner at every whole turn from the first packet', () => {
    // 10 packets per turn starting at 170°: the atan2 wrap at ±180° must not cut early.
    const az = Float64Array.from({ length: 35 }, (_, p) => deg(170 + 36 * p));
    const { starts, by } = sweepStarts(az);
    expect(by).toBe('azimuth');
    expect([...starts]).toEqual([0, 10, 20, 30]);
  });

  it('handles a clockwise spinner (Velodyne) the same way', () => {
    const az = Float64Array.from({ length: 25 }, (_, p) => deg(-20 - 36 * p));
    expect([...sweepStarts(az).starts]).toEqual([0, 10, 20]);
  });

  it('cuts a sector scanner at each fly-back, not mid-scan', () => {
    // A 180° scanner: −90° … +81° in 20 steps of 9°, starting mid-scan at packet 0 (0°).
    const az = Float64Array.from({ length: 50 }, (_, p) => deg(-90 + 9 * ((p + 10) % 20)));
    expect([...sweepStarts(az).starts]).toEqual([0, 10, 30]);
  });

  it('gives one sweep per packet when the azimuth does not advance (a whole scan per packet)', () => {
    const az = new Float64Array(4).fill(deg(-179.9));
    expect(sweepStarts(az)).toEqual({ starts: new Uint32Array([0, 1, 2, 3]), by: 'packet' });
  });

  it('gives one sweep for one packet, and skips packets without rays', () => {
    expect(sweepStarts(new Float64Array([1]))).toEqual({ starts: new Uint32Array([0]), by: 'single' });
    // Packets 3, 10, 17, 24 carry no ray; the turn completes at 10, so the next known packet (11) starts sweep 1.
    const az = Float64Array.from({ length: 30 }, (_, p) => (p % 7 === 3 ? NaN : deg(36 * p)));
    expect([...sweepStarts(az).starts]).toEqual([0, 11, 20]);
  });
});

describe('buildTimeline', () => {
  it('reads packet times, sweeps and a decimated trajectory from chunks in any order', () => {
    const chunks = spinningLog({ packets: 100, packetsPerSweep: 24, chunkPackets: 16, dt: 0.01, speed: 2 });
    const t = buildTimeline([...chunks].reverse(), 10);
    expect(t.packets).toBe(100);
    expect(t.packetTime[37]).toBeCloseTo(0.37, 12);
    expect([...t.sweepStart]).toEqual([0, 24, 48, 72, 96]);
    expect(t.sweepBy).toBe('azimuth');
    const kept = [...t.trajectory.packet];
    expect(kept.length).toBeLessThanOrEqual(10);
    expect(kept[0]).toBe(0);
    expect(kept[kept.length - 1]).toBe(99);
    // Sensor at x = 2 m/s · t, y = 0, z = 1.5.
    const last = kept.length - 1;
    expect(t.trajectory.position[3 * last]).toBeCloseTo(2 * 0.99, 9);
    expect(t.trajectory.position[3 * last + 2]).toBe(1.5);
  });

  it('makes each single-scan packet (KITTI) its own sweep', () => {
    const scan = (i: number) => pointsToPacket(new Float32Array([-5, 0.01, 0, 3, 4, 0]), null, { packetStart: i, time: i * 0.1 });
    const t = buildTimeline([scan(0), scan(1), scan(2)], 100);
    expect([...t.sweepStart]).toEqual([0, 1, 2]);
    expect(t.sweepBy).toBe('packet');
    expect(buildTimeline([scan(0)], 100)).toMatchObject({ packets: 1, sweepBy: 'single', sweepStart: new Uint32Array([0]) });
  });
});
