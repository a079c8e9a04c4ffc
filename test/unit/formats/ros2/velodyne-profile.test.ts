import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HAS_SHARED_DATA, dataFile } from '../../../helpers/shared-data';
import { VLP32C_TIMING, decodeVelodyneData, velodyneModel } from '../../../../src-worker/formats/velodyne/velodyne-packet';
import { hasVlp32cTiming, velodyneProfileForModel, velodyneTimingModel } from '../../../../src-worker/formats/ros2/index';
import { builtinProfile } from '../../../../src-common/builtin-profiles';
import { importCalibration } from '../../../../src-worker/sensors/calibration/index';
import { validateProfile } from '../../../../src-common/sensor-profile-schema';

/** A data packet of one product, blocks 0.2° apart (lower blocks for the HDL-64E). */
function packet(product: number, lower = false): Uint8Array {
  const p = new Uint8Array(1206);
  const dv = new DataView(p.buffer);
  for (let b = 0; b < 12; b++) {
    dv.setUint16(b * 100, lower && b % 2 === 1 ? 0xddff : 0xeeff, true);
    dv.setUint16(b * 100 + 2, b * 20, true);
    for (let c = 0; c < 32; c++) dv.setUint16(b * 100 + 4 + 3 * c, 1000, true);
  }
  p[1204] = 0x37;
  p[1205] = product;
  return p;
}

describe('VLP-32C support', () => {
  it('distances in 4 mm units for product 0x28 only (not an HDL-64E whose status byte reads 0x28)', () => {
    expect(decodeVelodyneData(packet(0x28), 'x').distanceUnit).toBe(0.004);
    expect(decodeVelodyneData(packet(0x22), 'x').distanceUnit).toBe(0.002);
    expect(decodeVelodyneData(packet(0x28, true), 'x').distanceUnit).toBe(0.002);
  });

  it('the VLP-32C is never taken for an HDL-32E, although its packet period (663.6 µs) is within the timing test of one', () => {
    const p = decodeVelodyneData(packet(0x28), 'x');
    expect(velodyneModel(p, 12 * 55.296e-6)).toBeNull();
    expect(velodyneModel(decodeVelodyneData(packet(0x21), 'x'), 12 * 46.08e-6)).toBe('hdl32e');
    expect(velodyneTimingModel(0x28, 0)).toBe('vlp32c');
    expect(velodyneTimingModel(0x28, 6)).toBeNull();
  });

  it('velodyneProfileForModel re-times a 32-laser profile to pairs 2.304 µs apart every 55.296 µs, once', () => {
    const hdl = builtinProfile('hdl32e')!;
    const { profile, retimed } = velodyneProfileForModel(hdl, 'vlp32c');
    expect(retimed).toBe(true);
    const g = profile.groups[0]!;
    expect(g.firingPeriod).toBe(VLP32C_TIMING.sequencePeriod);
    expect(g.lasers.map((l) => +(l.timeOffset * 1e6).toFixed(3)).slice(0, 6)).toEqual([0, 0, 2.304, 2.304, 4.608, 4.608]);
    expect(g.lasers[31]!.timeOffset).toBeCloseTo(15 * 2.304e-6, 15);
    // Geometry untouched, the input not modified, the result a valid profile.
    expect(g.lasers.map((l) => l.elevation)).toEqual(hdl.groups[0]!.lasers.map((l) => l.elevation));
    expect(hdl.groups[0]!.firingPeriod).toBeCloseTo(46.08e-6, 15);
    expect(() => validateProfile(profile, 'vlp32c')).not.toThrow();
    expect(hasVlp32cTiming(profile)).toBe(true);
    const again = velodyneProfileForModel(profile, 'vlp32c');
    expect(again).toEqual({ profile, retimed: false });
    expect(velodyneProfileForModel(builtinProfile('vlp16')!, 'vlp32c').retimed).toBe(false);
  });

  it.skipIf(!HAS_SHARED_DATA)("nebula's VLP32.yaml: detected as a VLP-32C; stated as an HDL-32E, re-timed as a VLP-32C", () => {
    const detected = importCalibration(readFileSync(dataFile('nebula_velodyne/VLP32.yaml'), 'utf8'), 'VLP32.yaml');
    expect(detected.model).toBe('vlp32c');
    expect(hasVlp32cTiming(detected.profile)).toBe(true);
    const imported = importCalibration(readFileSync(dataFile('nebula_velodyne/VLP32.yaml'), 'utf8'), 'VLP32.yaml', { model: 'hdl32e' });
    expect(imported.model).toBe('hdl32e');
    expect(imported.profile.range.resolution).toBe(0.004);
    const { profile } = velodyneProfileForModel(imported.profile, 'vlp32c');
    expect(profile.name).toBe('Velodyne VLP-32C (VLP32.yaml)');
    expect(profile.description).toMatch(/VLP-32C firing layout/);
    // Elevations −25° … +15° as in the file.
    const el = profile.groups[0]!.lasers.map((l) => (l.elevation * 180) / Math.PI);
    expect(Math.min(...el)).toBeCloseTo(-25, 9);
    expect(Math.max(...el)).toBeCloseTo(15, 9);
  });
});
