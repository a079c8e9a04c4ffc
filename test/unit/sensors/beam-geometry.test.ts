/**
 * beamOrigin / beamOfPoint: a point fired by a laser gives back that laser's beam — azimuth and
 * distance along it — for the real per-laser offsets of an HDL-64E calibration and
 * the built-in OS1's beam-origin offsets, from 0.5 m to 200 m.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { beamOfPoint, beamOrigin } from '../../../src-common/beam-geometry';
import { builtinProfile } from '../../../src-common/builtin-profiles';
import { importCalibration } from '../../../src-worker/sensors/calibration';
import { seededRandom } from '../formats/mutate';
import { HAS_SHARED_DATA, dataFile } from '../../helpers/shared-data';

function roundTrip(lasers: { elevation: number; verticalOffset: number; horizontalOffset: number }[]): { az: number; along: number } {
  const rnd = seededRandom(7);
  const o = [0, 0, 0];
  let worstAz = 0, worstAlong = 0;
  for (let k = 0; k < 20_000; k++) {
    const l = lasers[k % lasers.length]!;
    const az = (rnd() * 2 - 1) * Math.PI;
    const along = 0.5 * Math.exp(rnd() * Math.log(400)); // 0.5 … 200 m
    beamOrigin(l, az, o);
    const ce = Math.cos(l.elevation), se = Math.sin(l.elevation);
    const b = beamOfPoint(l, o[0]! + along * ce * Math.cos(az), o[1]! + along * ce * Math.sin(az), o[2]! + along * se)!;
    worstAz = Math.max(worstAz, Math.abs(Math.atan2(Math.sin(b.az - az), Math.cos(b.az - az))));
    worstAlong = Math.max(worstAlong, Math.abs(b.along - along));
  }
  return { az: worstAz, along: worstAlong };
}

describe('beam geometry', () => {
  it.skipIf(!HAS_SHARED_DATA)('HDL-64E (64e_s2.1-sztaki.yaml offsets): every point gives back its beam within 1e-9 rad and 1e-9 m', () => {
    const { profile } = importCalibration(readFileSync(dataFile('velodyne_calib/64e_s2.1-sztaki.yaml'), 'utf8'), '64e_s2.1-sztaki.yaml');
    const lasers = profile.groups.flatMap((g) => g.lasers);
    expect(Math.max(...lasers.map((l) => Math.abs(l.verticalOffset) + Math.abs(l.horizontalOffset)))).toBeGreaterThan(0.01);
    const w = roundTrip(lasers);
    expect(w.az).toBeLessThan(1e-9);
    expect(w.along).toBeLessThan(1e-9);
  });

  it('OS1-64 built-in (15.806 mm beam origin, 36.18 mm lidar height): the same, and no beam reaches inside the origin circle', () => {
    const lasers = builtinProfile('os1-64')!.groups[0]!.lasers;
    const w = roundTrip(lasers);
    expect(w.az).toBeLessThan(1e-9);
    expect(w.along).toBeLessThan(1e-9);
    expect(beamOfPoint({ elevation: 0, verticalOffset: 0, horizontalOffset: 0.02 }, 0.01, 0, 0)).toBeNull();
  });
});
