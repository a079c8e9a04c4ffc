/** Pure helpers of the Sensors page (src-renderer/components/sensors): geometry, colours, field paths, host issues. */
import { describe, expect, it } from 'vitest';
import type { ProfilePattern } from '../../../src-common/sensor-profile';
import { SPHERE_RADIUS, beamPoints, elevationRanks, ringColors } from '../../../src-renderer/components/sensors/beam-geometry';
import { getAt, parseIssues, pathKey, setAt } from '../../../src-renderer/components/sensors/profile-fields';

function pattern(dirs: number[][], rings: number[], origin: [number, number, number] = [0, 0, 2]): ProfilePattern {
  return {
    id: 't',
    directions: Float32Array.from(dirs.flat()),
    ring: Uint16Array.from(rings),
    ringElevationsDeg: [-10, 0, 10],
    origin,
    totalRays: dirs.length,
    stride: 1,
    raysPerSecond: 0,
    azimuthStepsDeg: [0.2],
    packetsPerRevolution: 1,
    packetDurationS: 0.001,
  };
}

describe('beam geometry', () => {
  const down = Math.sin((-10 * Math.PI) / 180);
  const flat = Math.cos((-10 * Math.PI) / 180);
  const p = pattern([[flat, 0, down], [1, 0, 0], [0, 1, 0.5]], [0, 1, 2]);

  it('sphere: every ray at the sphere radius around the sensor', () => {
    const b = beamPoints(p, 'sphere', 100);
    expect(b.rings).toEqual(Uint16Array.from([0, 1, 2]));
    expect(b.positions[0]).toBeCloseTo(SPHERE_RADIUS * flat, 5);
    expect(b.positions[2]).toBeCloseTo(2 + SPHERE_RADIUS * down, 5);
  });

  it('ground: where downward rays meet z = 0 within range; others are left out', () => {
    const b = beamPoints(p, 'ground', 100);
    expect(b.rings).toEqual(Uint16Array.from([0]));
    expect(b.positions[0]).toBeCloseTo(2 / Math.tan((10 * Math.PI) / 180), 3); // 11.34 m
    expect(beamPoints(p, 'ground', 10).rings.length).toBe(0); // beyond the range limit
  });

  it('colours rank lasers by elevation', () => {
    expect(elevationRanks([5, -3, 0])).toEqual([2, 0, 1]);
    const c = ringColors(Uint16Array.from([0, 2]), [-10, 0, 10]);
    expect(c.length).toBe(8);
    expect(c[3]).toBe(1);
    expect([c[0], c[1], c[2]]).not.toEqual([c[4], c[5], c[6]]);
  });
});

describe('profile field helpers', () => {
  it('paths read and write nested values and print like the host', () => {
    const o = { groups: [{ lasers: [{ elevation: 1 }] }], mount: { xyz: [0, 0, 2] } };
    expect(pathKey(['groups', 0, 'lasers', 0, 'elevation'])).toBe('groups[0].lasers[0].elevation');
    expect(getAt(o, ['mount', 'xyz', 2])).toBe(2);
    setAt(o, ['groups', 0, 'lasers', 0, 'elevation'], -5);
    expect(o.groups[0]!.lasers[0]!.elevation).toBe(-5);
  });

  it('splits the host message into issues by field', () => {
    expect(parseIssues('groups[0].lasers[3].elevation: expected a number between -90 and 90 degrees, got 120; range.max: must be greater than range.min (10 m)')).toEqual([
      { path: 'groups[0].lasers[3].elevation', reason: 'expected a number between -90 and 90 degrees, got 120' },
      { path: 'range.max', reason: 'must be greater than range.min (10 m)' },
    ]);
    expect(parseIssues('"vlp16" is a built-in profile: give the custom profile another id')).toEqual([
      { path: '', reason: '"vlp16" is a built-in profile: give the custom profile another id' },
    ]);
  });
});
