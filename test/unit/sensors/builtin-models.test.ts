/**
 * The VLP-32C, VLS-128 and Ouster OS0 / OS1 / OS2 built-ins: timing, range and beam tables as the
 * manuals give them, the Ouster column modes, and rays per revolution from the scan pattern.
 */
import { describe, expect, it } from 'vitest';
import { builtinProfile, isBuiltinId } from '../../../src-common/builtin-profiles';
import { raysPerRevolution } from '../../../src-common/profile-timing';
import { revolutionPattern } from '../../../src-worker/sensors/scan-pattern';

const US = 1e-6;
const DEG = Math.PI / 180;
const p = (id: string) => {
  const profile = builtinProfile(id);
  if (!profile) throw new Error(`no built-in ${id}`);
  return profile;
};

describe('Velodyne VLP-32C and VLS-128 built-ins', () => {
  it('vlp32c: 32 lasers −25° … +15°, paired firings 2.304 µs apart, 55.296 µs sequences, 200 m; 0.2° steps, 57,888 rays a turn at 10 Hz', () => {
    const v = p('vlp32c');
    const g = v.groups[0]!;
    expect(g.lasers).toHaveLength(32);
    expect(g.firingPeriod).toBeCloseTo(55.296 * US, 15);
    for (let i = 0; i < 32; i++) expect(g.lasers[i]!.timeOffset).toBeCloseTo(Math.floor(i / 2) * 2.304 * US, 15);
    const el = g.lasers.map((l) => l.elevation / DEG);
    expect(Math.min(...el)).toBeCloseTo(-25, 6);
    expect(Math.max(...el)).toBeCloseTo(15, 6);
    expect(v.range).toMatchObject({ max: 200, resolution: 0.004 });
    // 0.1 s / 55.296 µs = 1808.4 sequences → 1809 firing sequences of 32 lasers.
    expect(raysPerRevolution(v)).toBe(1809 * 32);
  });

  it('vls128: 128 lasers −25° … +15°, groups of 8 at (g + ⌊g/8⌋) · 2.665 µs, 53.3 µs sequences, 3 per packet, 245 m', () => {
    const v = p('vls128');
    const g = v.groups[0]!;
    expect(g.lasers).toHaveLength(128);
    expect(g.firingPeriod).toBeCloseTo(53.3 * US, 15);
    for (let i = 0; i < 128; i++) {
      const k = Math.floor(i / 8);
      expect(g.lasers[i]!.timeOffset).toBeCloseTo((k + Math.floor(k / 8)) * 2.665 * US, 15);
    }
    expect(v.sequencesPerPacket).toBe(3);
    expect(v.range.max).toBe(245);
    expect(v.beam).toEqual({ shape: 'rectangular', divergenceH: 3e-3, divergenceV: 1.5e-3 });
  });
});

describe('Ouster OS0 / OS1 / OS2 built-ins in the 512, 1024 and 2048 column modes', () => {
  const lines = { os0: { fov: 90, max: 50 }, os1: { fov: 45, max: 120 }, os2: { fov: 22.5, max: 240 } } as const;
  for (const [line, facts] of Object.entries(lines)) {
    for (const beams of [32, 64, 128]) {
      it(`${line}-${beams}: ${beams} beams uniform over ${facts.fov}°, ${facts.max} m, one column of ${beams} every 1 / (columns · 10 Hz)`, () => {
        for (const columns of [512, 1024, 2048]) {
          const id = columns === 1024 ? `${line}-${beams}` : `${line}-${beams}-${columns}`;
          expect(isBuiltinId(id)).toBe(true);
          const o = p(id);
          const g = o.groups[0]!;
          expect(g.lasers).toHaveLength(beams);
          expect(g.firingPeriod).toBeCloseTo(1 / (columns * 10), 15);
          expect(o.name).toBe(`Ouster ${line.toUpperCase()}-${beams} ${columns}×10`);
          expect(g.lasers[0]!.elevation / DEG).toBeCloseTo(facts.fov / 2, 9);
          expect(g.lasers[beams - 1]!.elevation / DEG).toBeCloseTo(-facts.fov / 2, 9);
          expect(o.range.max).toBe(facts.max);
          expect(raysPerRevolution(o)).toBe(beams * columns);
          // Sensor frame: the lidar frame's 180° turn is in every beam's azimuth offset.
          expect(Math.abs(g.lasers[0]!.azimuthOffset)).toBeCloseTo(Math.PI, 12);
        }
      });
    }
  }

  it('the beam origin: 15.806 mm out from the axis and 36.18 mm up on an OS1, in every ray of the pattern', () => {
    const pattern = revolutionPattern(p('os1-64-2048'));
    expect(pattern.rayCount).toBe(64 * 2048);
    for (const r of [0, 31, 64 * 1000 + 63]) {
      const ox = pattern.origin[3 * r]!, oy = pattern.origin[3 * r + 1]!, oz = pattern.origin[3 * r + 2]!;
      const dx = pattern.dir[3 * r]!, dy = pattern.dir[3 * r + 1]!, dz = pattern.dir[3 * r + 2]!;
      // The origin, moved along its beam back to the beam's plane through the axis, is n out and 36.18 mm up.
      const along = ox * dx + oy * dy + oz * dz;
      const el = Math.asin(dz);
      const n = 0.015806, tz = 0.03618;
      const t = -(n * Math.cos(el) + tz * Math.sin(el)) + along; // origin − t·dir = point on the axis plane
      const px = ox - t * dx, py = oy - t * dy, pz = oz - t * dz;
      expect(Math.hypot(px, py)).toBeCloseTo(n, 6);
      expect(pz).toBeCloseTo(tz, 6);
    }
  });
});
