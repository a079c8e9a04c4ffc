import { describe, expect, it } from 'vitest';
import { builtinProfile } from '../../../src-common/builtin-profiles';
import type { SensorProfile } from '../../../src-common/sensor-profile';
import { decimatePattern, packetRays, packetTime, revolutionPattern, type ScanPattern } from '../../../src-worker/sensors/scan-pattern';
import { azimuthStep, raysPerRevolution } from '../../../src-common/profile-timing';

const DEG = Math.PI / 180;
const get = (id: string) => builtinProfile(id)!;
const az = (p: ScanPattern, i: number) => Math.atan2(p.dir[3 * i + 1]!, p.dir[3 * i]!);
const el = (p: ScanPattern, i: number) => Math.asin(p.dir[3 * i + 2]!);
const wrap = (a: number) => Math.atan2(Math.sin(a), Math.cos(a));

function raysPerRing(p: ScanPattern): Map<number, number> {
  const m = new Map<number, number>();
  for (const r of p.ring) m.set(r, (m.get(r) ?? 0) + 1);
  return m;
}

describe('revolution pattern', () => {
  it('VLP-16 at 10 Hz: 16 × ⌈0.1 s / 55.296 µs⌉ rays, 0.2° steps, 384 rays per packet', () => {
    const profile = get('vlp16');
    const p = revolutionPattern(profile);
    expect(16 * (0.1 / 55.296e-6)).toBeCloseTo(28935.2, 1);
    expect(p.rayCount).toBe(16 * 1809);
    expect(raysPerRevolution(profile)).toBe(p.rayCount);
    expect(azimuthStep(profile, 0) / DEG).toBeCloseTo(0.19906, 4);
    expect(p.packetDuration).toBeCloseTo(24 * 55.296e-6, 12);
    expect(p.packetsPerRevolution).toBe(Math.ceil(0.1 / (24 * 55.296e-6)));
    expect(p.rayStart[1]).toBe(384);
    expect(p.rayStart[p.packetsPerRevolution]).toBe(p.rayCount);
    // Timing: laser i of sequence k in a packet fires at k·55.296 µs + i·2.304 µs after the packet starts.
    const first = packetRays(p, 0);
    expect(first.time[0]).toBe(0);
    expect(first.time[5]).toBeCloseTo(5 * 2.304e-6, 10);
    expect(first.time[16 + 3]).toBeCloseTo(55.296e-6 + 3 * 2.304e-6, 10);
    expect(first.time[383]).toBeCloseTo(23 * 55.296e-6 + 15 * 2.304e-6, 10);
    // Directions are unit vectors at the calibration's elevations.
    for (let i = 0; i < 16; i++) {
      expect(Math.hypot(p.dir[3 * i]!, p.dir[3 * i + 1]!, p.dir[3 * i + 2]!)).toBeCloseTo(1, 6);
      expect(el(p, i)).toBeCloseTo(profile.groups[0]!.lasers[i]!.elevation, 6);
      expect(p.ring[i]).toBe(i);
    }
    expect(el(p, 0) / DEG).toBeCloseTo(-15, 5);
    // The head turns clockwise (spin 'cw'): each sequence is 0.199° further clockwise.
    const step = wrap(az(p, 16) - az(p, 0));
    expect(step / DEG).toBeCloseTo(-0.19906, 4);
  });

  it('rotation rate scales the rays per revolution (5 Hz has twice the rays of 10 Hz)', () => {
    const profile: SensorProfile = { ...get('vlp16'), rotationHz: 5 };
    expect(revolutionPattern(profile).rayCount).toBe(16 * Math.ceil(0.2 / 55.296e-6));
    expect(azimuthStep(profile, 0) / DEG).toBeCloseTo(0.09953, 4);
  });

  it('HDL-32E: 32 lasers every 46.08 µs, 1.152 µs apart, 0.166° at 10 Hz', () => {
    const profile = get('hdl32e');
    const p = revolutionPattern(profile);
    expect(p.rayCount).toBe(32 * Math.ceil(0.1 / 46.08e-6));
    expect(azimuthStep(profile, 0) / DEG).toBeCloseTo(0.16589, 4);
    expect(p.time[31]).toBeCloseTo(31 * 1.152e-6, 10);
    expect(el(p, 0) / DEG).toBeCloseTo(-30.67, 5);
    expect(Math.max(...Array.from({ length: 32 }, (_, i) => el(p, i) / DEG))).toBeCloseTo(10.67, 5);
  });

  it('HDL-64E: the upper block fires three times as often as the lower', () => {
    const profile = get('hdl64e');
    const p = revolutionPattern(profile);
    const perRing = raysPerRing(p);
    const upper = perRing.get(0)!;
    const lower = perRing.get(32)!;
    expect(upper).toBe(3125); // 0.1 s / 32 µs
    expect(lower).toBe(1042); // ⌈0.1 s / 96 µs⌉
    expect(upper / lower).toBeCloseTo(3, 2);
    for (let r = 0; r < 32; r++) expect(perRing.get(r)).toBe(upper);
    for (let r = 32; r < 64; r++) expect(perRing.get(r)).toBe(lower);
    expect(p.rayCount).toBe(32 * 3125 + 32 * 1042);
    expect(p.rayCount * profile.rotationHz).toBeGreaterThan(1.3e6); // ≈1.3 M points/s (docs/methods.md §5)
    const upperStep = azimuthStep(profile, 0) / DEG;
    const lowerStep = azimuthStep(profile, 1) / DEG;
    expect(upperStep).toBeCloseTo(0.1152, 6);
    expect(lowerStep / upperStep).toBeCloseTo(3, 9);
    // A packet: 9 upper + 3 lower sequences = 12 blocks of 32, as in the device's packets.
    expect(p.rayStart[1]).toBe(384);
    const first = packetRays(p, 0);
    expect([...first.ring].filter((r) => r >= 32).length).toBe(96);
    // Elevations and the beam origins follow the calibration (laser 0: vert and horiz offsets).
    const l0 = profile.groups[0]!.lasers[0]!;
    expect(el(p, 0)).toBeCloseTo(l0.elevation, 6);
    expect(Math.hypot(p.origin[0]!, p.origin[1]!, p.origin[2]!)).toBeCloseTo(Math.hypot(l0.verticalOffset, l0.horizontalOffset), 6);
    expect(p.origin[2]).toBeCloseTo(l0.verticalOffset * Math.cos(l0.elevation), 6);
    // The origin's horizontal offset is perpendicular to the beam.
    const i = 0;
    const dot = p.origin[0]! * p.dir[3 * i]! + p.origin[1]! * p.dir[3 * i + 1]! + p.origin[2]! * p.dir[3 * i + 2]!;
    expect(Math.abs(dot)).toBeLessThan(1e-6);
    // Azimuth of laser 0's first firing: the encoder (0 at t = 0) plus its rotation correction.
    expect(az(p, 0)).toBeCloseTo(l0.azimuthOffset, 6);
  });

  it('LMS-291 modes: one scan per packet, only firings inside the field of view', () => {
    const expected: [string, number, number][] = [
      ['lms291-180-1', 181, 90],
      ['lms291-180-05', 361, 90],
      ['lms291-100-1', 101, 50],
      ['lms291-100-05', 201, 50],
      ['lms291-100-025', 401, 50],
    ];
    for (const [id, rays, half] of expected) {
      const profile = get(id);
      const p = revolutionPattern(profile);
      expect(p.rayCount, id).toBe(rays);
      expect(p.packetsPerRevolution, id).toBe(1);
      const azimuths = Array.from({ length: rays }, (_, i) => az(p, i) / DEG);
      expect(azimuths[0], id).toBeCloseTo(-half, 4);
      expect(azimuths[rays - 1], id).toBeCloseTo(half, 4);
      for (let i = 1; i < rays; i++) expect(azimuths[i]! - azimuths[i - 1]!).toBeCloseTo((2 * half) / (rays - 1), 4);
      for (let i = 0; i < rays; i++) expect(p.dir[3 * i + 2]).toBe(0);
      // Pulses every 1/27000 s whatever the resolution; a full scan lasts 1/rotationHz.
      expect(p.time[1]! - p.time[0]!).toBeCloseTo(1 / 27000, 9);
      expect(p.revolutionDuration).toBeCloseTo(1 / profile.rotationHz, 12);
    }
    expect(get('lms291-180-1').rotationHz).toBe(75);
    expect(get('lms291-180-05').rotationHz).toBe(37.5);
    expect(get('lms291-100-025').rotationHz).toBe(18.75);
  });

  it('a spinning profile with a partial window emits only inside it', () => {
    const profile: SensorProfile = { ...get('vlp16'), spin: 'ccw', azimuthStart: -45 * DEG, azimuthEnd: 45 * DEG };
    const p = revolutionPattern(profile);
    expect(p.rayCount).toBe(16 * (Math.floor(90 / (azimuthStep(profile, 0) / DEG)) + 1));
    for (let i = 0; i < p.rayCount; i += 16) expect(Math.abs(az(p, i) / DEG)).toBeLessThanOrEqual(45 + 1e-6);
  });

  it('packets repeat every revolution: packetTime and packetRays wrap', () => {
    const p = revolutionPattern(get('vlp16'));
    const n = p.packetsPerRevolution;
    expect(packetTime(p, 1)).toBeCloseTo(p.packetDuration, 12);
    expect(packetTime(p, n)).toBeCloseTo(0.1, 12);
    expect(packetTime(p, n + 2)).toBeCloseTo(0.1 + 2 * p.packetDuration, 12);
    const a = packetRays(p, 2);
    const b = packetRays(p, n + 2);
    expect(b.index).toBe(2);
    expect(b.dir).toEqual(a.dir);
    // The last packet of a revolution is shorter; times stay within the packet.
    const last = packetRays(p, n - 1);
    expect(last.count).toBeGreaterThan(0);
    expect(last.count).toBeLessThan(384);
    for (let k = 0; k < n; k++) {
      const r = packetRays(p, k);
      expect(Math.max(...r.time)).toBeLessThan(p.packetDuration);
      expect(Math.min(...r.time)).toBeGreaterThanOrEqual(0);
    }
  });

  it('decimation keeps every laser and stays within the budget', () => {
    const p = revolutionPattern(get('hdl64e'));
    const d = decimatePattern(p, 20_000);
    expect(d.ring.length).toBeLessThanOrEqual(20_000);
    expect(d.ring.length).toBeGreaterThan(15_000);
    expect(new Set(d.ring).size).toBe(64);
    expect(d.totalRays).toBe(p.rayCount);
    const all = decimatePattern(p, 1_000_000);
    expect(all.stride).toBe(1);
    expect(all.dir).toEqual(p.dir);
  });
});
