/**
 * One frame convention for Ouster (docs/drive-logs.md, *Ouster frames*): the profile made from a
 * capture's own metadata JSON (what `thicket profile import` makes) fires, per (beam, column),
 * the rays the pcap importer decodes from that capture — same direction, and, with the profile's
 * beam-origin offsets, the same point as the Ouster SDK's XYZ formula.
 *
 * Real data: frame 1796 (a whole 1024-column scan) of the OS1-128 lb_n3 capture in ../shared/data.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importCalibration } from '../../../../src-worker/sensors/calibration';
import { beamOfPoint } from '../../../../src-common/beam-geometry';
import { beamDirections } from '../../../../src-worker/sensors/beam-directions';
import { revolutionPattern } from '../../../../src-worker/sensors/scan-pattern';
import { decodeOusterLidarPacket, ousterBeamTable, ousterPacketFormat, ousterRays } from '../../../../src-worker/formats/ouster/ouster-packet';
import { parseOusterMetadata } from '../../../../src-worker/formats/ouster/ouster-metadata';
import { udpPackets } from '../../../../src-worker/formats/pcap/pcap';
import { HAS_SHARED_DATA, dataFile } from '../../../helpers/shared-data';

const LB_PCAP = 'ouster_sdk/OS-1-128_v2.3.0_1024x10_lb_n3.pcap';
const LB_JSON = 'ouster_sdk/OS-1-128_v2.3.0_1024x10.json';
const DEG = Math.PI / 180;
const FRAME = 1796;

interface Pixel {
  row: number;
  column: number;
  /** Raw range (mm), 0 = no return. */
  mm: number;
  dir: [number, number, number];
  range: number;
}

/** Every pixel of one frame as the importer decodes it, with its raw range. */
function decodeFrame(): Pixel[] {
  const meta = parseOusterMetadata(readFileSync(dataFile(LB_JSON), 'utf8'), 'lb.json');
  const fmt = ousterPacketFormat(meta);
  const table = ousterBeamTable(meta);
  const out: Pixel[] = [];
  for (const u of udpPackets(new Uint8Array(readFileSync(dataFile(LB_PCAP))), 'lb.pcap')) {
    if (u.payload.length !== fmt.packetBytes) continue;
    const p = decodeOusterLidarPacket(u.payload, fmt, 'lb.pcap');
    if (p.frameId !== FRAME) continue;
    const r = ousterRays(p, table);
    let k = 0;
    for (let c = 0; c < p.valid.length; c++) {
      if (!p.valid[c]) continue;
      for (let row = 0; row < meta.pixelsPerColumn; row++, k++) {
        out.push({
          row,
          column: r.column[k]!,
          mm: p.rangeMm[c * meta.pixelsPerColumn + row]!,
          dir: [r.dir[3 * k]!, r.dir[3 * k + 1]!, r.dir[3 * k + 2]!],
          range: r.range[k]!,
        });
      }
    }
  }
  return out;
}

const angle = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  const dot = a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
  const cx = a[1]! * b[2]! - a[2]! * b[1]!, cy = a[2]! * b[0]! - a[0]! * b[2]!, cz = a[0]! * b[1]! - a[1]! * b[0]!;
  return Math.atan2(Math.hypot(cx, cy, cz), dot);
};

describe.skipIf(!HAS_SHARED_DATA)('Ouster: the profile from a capture’s own JSON and the importer share one frame', () => {
  const json = readFileSync(dataFile(LB_JSON), 'utf8');
  const { profile } = importCalibration(json, 'OS-1-128_v2.3.0_1024x10.json');
  const pattern = revolutionPattern(profile);
  const lasers = profile.groups[0]!.lasers;
  const pixels = decodeFrame();
  const P = lasers.length;
  const dirOf = (px: Pixel) => pattern.dir.subarray(3 * (px.column * P + px.row), 3 * (px.column * P + px.row) + 3);
  const originOf = (px: Pixel) => pattern.origin.subarray(3 * (px.column * P + px.row), 3 * (px.column * P + px.row) + 3);

  it('the pattern fires one ray per (beam, column): column m is the m-th firing sequence', () => {
    expect(pattern.rayCount).toBe(128 * 1024);
    expect(pixels.length).toBe(128 * 1024);
    for (let i = 0; i < pattern.rayCount; i++) expect(pattern.ring[i]).toBe(i % P);
  });

  it('directions agree per (beam, column) within 0.05°: misses along the beam, hits towards the point from the beam origin', () => {
    let worstMiss = 0, worstHit = 0, misses = 0, hits = 0;
    for (const px of pixels) {
      const u = dirOf(px);
      if (px.mm === 0) {
        misses++;
        worstMiss = Math.max(worstMiss, angle(px.dir, u));
        continue;
      }
      hits++;
      // The profile's ray reaches the decoded range from its beam origin O along u: |O + ρu| = range.
      const O = originOf(px);
      const ou = O[0]! * u[0]! + O[1]! * u[1]! + O[2]! * u[2]!;
      const oo = O[0]! * O[0]! + O[1]! * O[1]! + O[2]! * O[2]!;
      const rho = -ou + Math.sqrt(ou * ou - oo + px.range * px.range);
      const point = [O[0]! + rho * u[0]!, O[1]! + rho * u[1]!, O[2]! + rho * u[2]!];
      worstHit = Math.max(worstHit, angle(px.dir, point));
    }
    console.log(`[ouster frame] frame ${FRAME}: ${hits} hits, ${misses} misses; worst direction difference ${(worstHit / DEG).toExponential(2)}° (hits), ${(worstMiss / DEG).toExponential(2)}° (misses)`);
    expect(hits).toBeGreaterThan(50_000);
    expect(misses).toBeGreaterThan(1_000);
    expect(worstMiss).toBeLessThan(0.05 * DEG);
    expect(worstHit).toBeLessThan(0.05 * DEG);
  });

  it('without the beam origin the near hits would leave the 0.2° pairing cone: the offsets matter', () => {
    let near = 0, outside = 0;
    for (const px of pixels) {
      if (px.mm === 0 || px.range > 10) continue;
      near++;
      if (angle(px.dir, dirOf(px)) > 0.2 * DEG) outside++;
    }
    console.log(`[ouster frame] hits within 10 m: ${near}; ${outside} (${((100 * outside) / near).toFixed(1)} %) more than 0.2° off their beam's direction`);
    expect(near).toBeGreaterThan(10_000);
    expect(outside / near).toBeGreaterThan(0.5);
  });

  it('beamOfPoint recovers every hit’s beam from its stored point and ring: the pattern’s direction at any range, the raw range along it', () => {
    let worst = 0, worstAlong = 0, near = 0, nearInCone = 0;
    for (const px of pixels) {
      if (px.mm === 0) continue;
      const b = beamOfPoint(lasers[px.row]!, px.range * px.dir[0], px.range * px.dir[1], px.range * px.dir[2]);
      expect(b).not.toBeNull();
      const a = angle([b!.dx, b!.dy, b!.dz], dirOf(px));
      worst = Math.max(worst, a);
      worstAlong = Math.max(worstAlong, Math.abs(b!.along - (px.mm / 1000 + lasers[px.row]!.rangeOffset)));
      if (px.range <= 10) {
        near++;
        if (a <= 0.2 * DEG) nearInCone++;
      }
    }
    console.log(`[ouster frame] beamOfPoint: worst ${(worst / DEG).toExponential(2)}° from the pattern's beam, ${(worstAlong * 1e3).toFixed(4)} mm from the raw range; ${nearInCone} of ${near} hits within 10 m inside 0.2°`);
    expect(worst).toBeLessThan(1e-4 * DEG);
    expect(worstAlong).toBeLessThan(1e-3);
    expect(nearInCone).toBe(near);
  });

  it('beamDirections gives a whole chunk’s beam directions: every ray within 1e-4° of the pattern’s beam', () => {
    const n = pixels.length;
    const chunk = { rayCount: n, rayDir: new Float32Array(3 * n), rayRange: new Float32Array(n), rayRing: new Uint16Array(n) };
    pixels.forEach((px, i) => {
      chunk.rayDir.set(px.dir, 3 * i);
      chunk.rayRange[i] = px.range;
      chunk.rayRing[i] = px.row;
    });
    const beams = beamDirections(chunk, profile);
    let worst = 0;
    pixels.forEach((px, i) => { worst = Math.max(worst, angle(beams.subarray(3 * i, 3 * i + 3), dirOf(px))); });
    expect(worst).toBeLessThan(1e-4 * DEG);
  });

  it('the profile’s beam origin + (raw range + rangeOffset) along its beam is the SDK’s XYZ point within 1 mm', () => {
    const az = JSON.parse(json) as { beam_azimuth_angles: number[]; beam_altitude_angles: number[]; lidar_origin_to_beam_origin_mm: number; lidar_to_sensor_transform: number[] };
    const n = az.lidar_origin_to_beam_origin_mm;
    const T = az.lidar_to_sensor_transform;
    let worstProfile = 0, worstImporter = 0;
    for (const px of pixels) {
      if (px.mm === 0) continue;
      // ouster-sdk make_xyz_lut, written out: x = (r − n) cos(θe + θa) cos φ + n cos θe, …, then lidar → sensor (mm).
      const te = 2 * Math.PI * (1 - px.column / 1024);
      const ta = -az.beam_azimuth_angles[px.row]! * DEG;
      const phi = az.beam_altitude_angles[px.row]! * DEG;
      const r = px.mm;
      const l = [
        (r - n) * Math.cos(te + ta) * Math.cos(phi) + n * Math.cos(te),
        (r - n) * Math.sin(te + ta) * Math.cos(phi) + n * Math.sin(te),
        (r - n) * Math.sin(phi),
      ];
      const sdk = [0, 1, 2].map((i) => (T[4 * i]! * l[0]! + T[4 * i + 1]! * l[1]! + T[4 * i + 2]! * l[2]! + T[4 * i + 3]!) / 1000);
      const O = originOf(px), u = dirOf(px);
      const along = r / 1000 + lasers[px.row]!.rangeOffset;
      const fromProfile = [0, 1, 2].map((i) => O[i]! + along * u[i]!);
      const imported = [0, 1, 2].map((i) => px.range * px.dir[i]!);
      worstProfile = Math.max(worstProfile, Math.hypot(...fromProfile.map((v, i) => v - sdk[i]!)));
      worstImporter = Math.max(worstImporter, Math.hypot(...imported.map((v, i) => v - sdk[i]!)));
    }
    console.log(`[ouster frame] worst distance to the SDK's point: ${(worstProfile * 1e3).toFixed(4)} mm (profile), ${(worstImporter * 1e3).toFixed(4)} mm (importer)`);
    expect(worstProfile).toBeLessThan(1e-3);
    expect(worstImporter).toBeLessThan(1e-3);
  });
});
