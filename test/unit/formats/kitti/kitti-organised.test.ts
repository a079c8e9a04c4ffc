/**
 * Organised scans on the real RELLIS-3D OS1-64 scan (rellis3d/000104.bin: 64 × 2048 cells, zeros
 * in the empty ones): every cell a ray, the empty cells as misses of their row's beam at their
 * column's azimuth; and no misses rebuilt from a profile of another column count.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { builtinProfile } from '../../../../src-common/builtin-profiles';
import type { SensorProfile } from '../../../../src-common/sensor-profile';
import { kittiBinFormat } from '../../../../src-worker/formats/kitti/kitti-bin-format';
import { decodeKittiBin } from '../../../../src-worker/formats/kitti/kitti-bin';
import { organisedLayout } from '../../../../src-worker/formats/kitti/kitti-organised';
import { memorySource, type DecodedPacket, type LogSourceInfo } from '../../../../src-worker/formats/log-source';
import { logFormat } from '../../../../src-worker/formats/registry';
import { rebuildMisses } from '../../../../src-worker/formats/rebuild-misses';
import { DecodeError } from '../../../../src-worker/formats/decode-error';
import { importCalibration } from '../../../../src-worker/sensors/calibration';
import { HAS_SHARED_DATA, dataFile } from '../../../helpers/shared-data';
import { thrownBy } from '../../../helpers/errors';

const BIN = 'rellis3d/000104.bin';
const PLY = 'rellis3d/frame000104-1581624663_170.ply';
const ctx = { checkCancelled() {}, progress() {} };

function open(file: string, profile: SensorProfile | null, format: 'kitti-bin' | 'ply' = 'kitti-bin'): { packets: DecodedPacket[]; info: LogSourceInfo } {
  const desc = format === 'kitti-bin' ? kittiBinFormat : logFormat(format);
  const it = desc.open({ src: memorySource(file, new Uint8Array(readFileSync(dataFile(file)))), name: file, path: null, profile, metadata: null, ctx, openBag: null as never });
  const packets: DecodedPacket[] = [];
  for (;;) {
    const r = it.next();
    if (r.done) return { packets, info: r.value };
    packets.push(r.value);
  }
}

const p = (id: string) => builtinProfile(id)!;

describe.skipIf(!HAS_SHARED_DATA)('organised KITTI scans: empty cells are misses', () => {
  const cloud = decodeKittiBin(new Uint8Array(readFileSync(dataFile(BIN))), BIN);
  // The file's own counts: 64 × 2048 cells, the empty ones all zero.
  let empty = 0;
  for (let i = 0; i < cloud.count; i++) if (cloud.xyz[3 * i] === 0 && cloud.xyz[3 * i + 1] === 0 && cloud.xyz[3 * i + 2] === 0) empty++;

  it('the layout: 64 rows × 2048 columns, column by column, rows = the OS1-64 beams top to bottom', () => {
    expect(cloud.count).toBe(131_072);
    expect(empty).toBe(53_364);
    const layout = organisedLayout(cloud, p('os1-64-2048'))!;
    expect(layout).toMatchObject({ rows: 64, columns: 2048, order: 'column-major' });
    expect([...layout.laserOfRow]).toEqual([...Array(64).keys()]);
    // RELLIS's OS1-64 is a 33° unit; the built-in's nominal table spans 45°: rows lie up to ~6° off it.
    expect((layout.worstRowElevation * 180) / Math.PI).toBeLessThan(6.5);
  });

  it('os1-64-2048: 131,072 rays, hits = the non-zero cells (unchanged points), misses = the zero cells along their beams', () => {
    const profile = p('os1-64-2048');
    const { packets, info } = open(BIN, profile);
    expect(packets).toHaveLength(1);
    const pk = packets[0]!;
    expect(pk.count).toBe(131_072);
    let hits = 0, misses = 0, worstPoint = 0, worstElevation = 0;
    const lasers = profile.groups[0]!.lasers;
    const missAz = new Map<number, number>(); // column → azimuth of its misses (all rows share it: no stagger)
    for (let k = 0; k < pk.count; k++) {
      const c = Math.floor(k / 64), row = k % 64;
      expect(pk.ring![k]).toBe(row);
      const i = c * 64 + row; // the file's record of this cell
      const dx = pk.dir[3 * k]!, dy = pk.dir[3 * k + 1]!, dz = pk.dir[3 * k + 2]!;
      if (Number.isNaN(pk.range[k]!)) {
        misses++;
        expect(cloud.xyz[3 * i] === 0 && cloud.xyz[3 * i + 1] === 0 && cloud.xyz[3 * i + 2] === 0).toBe(true); // ±0
        worstElevation = Math.max(worstElevation, Math.abs(Math.asin(dz) - lasers[row]!.elevation));
        const az = Math.atan2(dy, dx) - lasers[row]!.azimuthOffset;
        const prev = missAz.get(c);
        if (prev === undefined) missAz.set(c, az);
        else expect(Math.abs(Math.atan2(Math.sin(az - prev), Math.cos(az - prev)))).toBeLessThan(1e-6);
      } else {
        hits++;
        const r = pk.range[k]!;
        worstPoint = Math.max(worstPoint, Math.hypot(r * dx - cloud.xyz[3 * i]!, r * dy - cloud.xyz[3 * i + 1]!, r * dz - cloud.xyz[3 * i + 2]!));
      }
    }
    expect(hits).toBe(131_072 - 53_364);
    expect(misses).toBe(53_364);
    expect(worstPoint).toBeLessThan(1e-5);
    // Miss directions: the beam table's elevation, and one azimuth per column, 360°/2048 apart.
    expect(worstElevation).toBeLessThan(1e-6);
    const cols = [...missAz.keys()].sort((a, b) => a - b);
    for (let j = 1; j < cols.length; j++) {
      const [a, b] = [cols[j - 1]!, cols[j]!];
      const d = Math.atan2(Math.sin(missAz.get(b)! - missAz.get(a)!), Math.cos(missAz.get(b)! - missAz.get(a)!));
      expect(Math.abs(Math.abs(d) - ((b - a) * 2 * Math.PI) / 2048) % (2 * Math.PI)).toBeLessThan(1e-5);
    }
    expect(info).toMatchObject({ recordsMisses: true, notes: { organised: '64 rows × 2048 columns (column-major)', emptyCells: 53_364, points: 77_708 } });
    // The hits sit on their column's fitted azimuth up to the beams' ±3° stagger, which the nominal table lacks.
    expect(Number(info.notes.columnAzimuthAgreement)).toBeGreaterThan(0.99);
    console.log(`[organised] ${BIN} with os1-64-2048: ${hits} hits, ${misses} misses; column azimuth agreement ${info.notes.columnAzimuthAgreement}, worst row elevation ${info.notes.worstRowElevationDeg}° off the nominal table`);
  });

  it('with a 1024-column profile the file’s 2048 columns still decide, and nothing is rebuilt on top', () => {
    const { packets, info } = open(BIN, p('os1-64'));
    expect(packets[0]!.count).toBe(131_072);
    expect(info.notes.organised).toBe('64 rows × 2048 columns (column-major)');
    expect(rebuildMisses(packets[0]!, p('os1-64'), BIN)).toBe(packets[0]);
  });

  it('with the unit-style beam table of a calibration stated as os1-64-2048, misses follow its staggered beams', () => {
    const { profile } = importCalibration(readFileSync(dataFile('rust_lidar_utils/ouster_example.json'), 'utf8'), 'ouster_example.json', { model: 'os1-64-2048' });
    const { packets, info } = open(BIN, profile);
    const pk = packets[0]!;
    const lasers = profile.groups[0]!.lasers;
    // Rows of one column: their misses differ in azimuth exactly by the beams' azimuth offsets.
    let checked = 0;
    for (let c = 0; c < 2048 && checked < 500; c++) {
      const ks = [...Array(64).keys()].map((r) => c * 64 + r).filter((k) => Number.isNaN(pk.range[k]!));
      for (let j = 1; j < ks.length; j++, checked++) {
        const a = Math.atan2(pk.dir[3 * ks[j]! + 1]!, pk.dir[3 * ks[j]!]!) - Math.atan2(pk.dir[3 * ks[0]! + 1]!, pk.dir[3 * ks[0]!]!);
        const want = lasers[ks[j]! % 64]!.azimuthOffset - lasers[ks[0]! % 64]!.azimuthOffset;
        expect(Math.abs(Math.atan2(Math.sin(a - want), Math.cos(a - want)))).toBeLessThan(1e-5);
      }
    }
    expect(checked).toBeGreaterThanOrEqual(500);
    // A gen-1 OS1-64 like RELLIS's: its rows lie within 0.5° of this unit's elevations.
    expect(Number(info.notes.worstRowElevationDeg)).toBeLessThan(0.5);
  });

  it('a hit-only scan with rings (the same scan as PLY) is refused by a 1024-column profile and rebuilt to 64 × 2048 by os1-64-2048', () => {
    const ply = open(PLY, null, 'ply').packets[0]!;
    expect(ply.count).toBe(77_708);
    const e = thrownBy(DecodeError, () => rebuildMisses(ply, p('os1-64'), PLY));
    expect(e.message).toMatch(/0\.176° apart in azimuth, but profile "os1-64" fires every 0\.352° \(2× finer than the profile\).*os1-64-2048/);
    expect(rebuildMisses(ply, p('os1-64-2048'), PLY).count).toBe(131_072);
  });

  it('an unorganised scan (KITTI HDL-64E, 124,668 points) stays hits only', () => {
    const { packets, info } = open('overlapnet_kitti/000000.bin', p('hdl64e'));
    expect(packets[0]!.count).toBe(124_668);
    expect(info.recordsMisses).toBe(false);
  });
});
