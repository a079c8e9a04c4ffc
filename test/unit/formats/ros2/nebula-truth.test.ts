/**
 * Decoder truth (tier4/nebula's decoder ground truth): the VLP-16 (dual return) and VLP-32C
 * (strongest) ROS 2 bags must decode, through the real path (tasks/ros2-db3-file.ts →
 * ros2Packets with the profile importCalibration makes from nebula's VLP16.yaml / VLP32.yaml),
 * to the points of the PCD beside each bag.
 *
 * How nebula made each PCD (its velodyne_ros_decoder_test_vlp16/32.cpp and decoders):
 * - VLP-16: sensor VLP16, return mode Dual, scan_phase 0°, range (0.3, 300) m, cloud angles
 *   0…359°. Clouds are cut per packet where the azimuth wraps; the points of a finished sweep
 *   whose azimuth is below 2° move on to the next cloud. The PCD (named after message 3's bag
 *   time) is therefore a contiguous run of points across messages 2 and 3.
 * - VLP-32C: sensor VLP32, SingleStrongest, range (0.4, 50) m, cloud angles 270…90° (on the
 *   block's raw azimuth); the PCD is message 0, every packet (the recorder kept the front half).
 * Both keep nebula's own order (packet, block, channel), which is ours, so points match 1:1 by
 * order once nebula's filters are applied.
 *
 * Where nebula's azimuths differ from ours (its model, not the sensor's): it rounds each azimuth
 * to 0.01°; for the VLP-32C it interpolates channel j at j · 2.304 µs (the manual fires pairs:
 * ⌊j/2⌋ · 2.304 µs, which we use) and not at all in a packet's last block; for dual VLP-16 packets
 * the second-return block takes the next firing's azimuth. The test therefore checks twice:
 * our points as they are (largest deviation: those azimuth differences, a few cm at 20 m), and
 * our ranges and lasers put at nebula's azimuth (largest deviation: float32 rounding, < 0.1 mm),
 * which is the check that every range, laser, elevation, return and order is nebula's.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HAS_SHARED_DATA, dataFile } from '../../../helpers/shared-data';
import { decodePcd } from '../../../../src-worker/formats/pcd/pcd';
import type { DecodedPacket } from '../../../../src-worker/formats/log-source';
import { decodeVelodyneScan } from '../../../../src-worker/formats/ros2/velodyne-scan';
import { ros2Packets } from '../../../../src-worker/formats/ros2/ros2-packets';
import { decodeVelodyneData, type VelodyneDataPacket } from '../../../../src-worker/formats/velodyne/velodyne-packet';
import { importCalibration } from '../../../../src-worker/sensors/calibration/index';
import type { SensorProfile } from '../../../../src-common/sensor-profile';
import { db3Messages } from '../../../../src-worker/tasks/ros2-db3-file';

const f = Math.fround;
const US = 1e-6;

interface Case {
  name: string;
  bag: string;
  calibration: string;
  pcd: string;
  pcdPoints: number;
  minRange: number;
  maxRange: number;
  /** nebula's angle filter on the block azimuth (0.01°). */
  blockOk: (raw: number, nebulaAz: number) => boolean;
  /** nebula's angle filter on the corrected azimuth (0.01°). */
  pointOk: (az: number) => boolean;
  /** The messages whose points the PCD is cut from. */
  messages: number[];
}

const CASES: Case[] = [
  {
    name: 'VLP-16 dual return',
    bag: 'nebula_velodyne/vlp16/1673400471837873222_0.db3',
    calibration: 'nebula_velodyne/VLP16.yaml',
    pcd: 'nebula_velodyne/vlp16/1673400472138016708.pcd',
    pcdPoints: 14831,
    minRange: 0.3,
    maxRange: 300,
    blockOk: (_raw, az) => az >= 0 && az <= 35900,
    pointOk: (az) => az >= 0 && az <= 35900,
    messages: [2, 3],
  },
  {
    name: 'VLP-32C strongest',
    bag: 'nebula_velodyne/vlp32/1713492677464078412_0.db3',
    calibration: 'nebula_velodyne/VLP32.yaml',
    pcd: 'nebula_velodyne/vlp32/1713492677464078412.pcd',
    pcdPoints: 26216,
    minRange: 0.4,
    maxRange: 50,
    blockOk: (raw) => raw <= 9000 || raw >= 27000,
    pointOk: () => true,
    messages: [0],
  },
];

/** nebula's per-block azimuth and azimuth step (0.01°) of one packet (vlp16_decoder.cpp, vlp32_decoder.cpp). */
function nebulaBlockAzimuths(p: VelodyneDataPacket, vlp16: boolean): { az: number[]; diff: number[] } {
  const dual = p.returnMode === 'dual' ? 1 : 0;
  const az: number[] = [], diff: number[] = [];
  let next = 0, last = 0;
  for (let b = 0; b < 12; b++) {
    const a = b === 0 ? p.azimuth[0]! : next;
    let d: number;
    if (b < 12 - (1 + dual)) {
      next = p.azimuth[b + 1 + dual]!;
      d = (36000 + next - a) % 36000;
      last = d;
    } else {
      d = b === 12 - (vlp16 ? 1 : 4) * dual - 1 ? 0 : last;
    }
    az.push(a);
    diff.push(d);
  }
  return { az, diff };
}

interface Point { x: number; y: number; z: number; nx: number; ny: number; nz: number }

/** Our points with nebula's filters applied, and each also placed at nebula's azimuth. */
function decodeCase(c: Case, profile: SensorProfile): { points: Point[]; packets: number } {
  const vlp16 = profile.groups[0]!.lasers.length === 16;
  const messages = [...db3Messages(dataFile(c.bag))];
  // The real path: every packet of every message.
  const packets: DecodedPacket[] = [];
  const gen = ros2Packets(messages, { name: 'bag.db3', profile });
  for (let r = gen.next(); !r.done; r = gen.next()) {
    const p = r.value;
    // Copies: the decoder may reuse its arrays.
    packets.push({ ...p, dir: p.dir.slice(), range: p.range.slice(), rayTime: p.rayTime!.slice(), ring: p.ring!.slice(), ret: p.ret!.slice() });
  }
  // The raw packets in the same order, for the block azimuths nebula starts from.
  const raw: { msg: number; packet: VelodyneDataPacket }[] = [];
  messages.forEach((m, mi) => {
    for (const sp of decodeVelodyneScan(m.data, { file: 'bag', topic: m.topic, index: mi }).packets) raw.push({ msg: mi, packet: decodeVelodyneData(sp.data, 'bag') });
  });
  expect(raw.length).toBe(packets.length);
  const lasers = profile.groups[0]!.lasers;
  const points: Point[] = [];
  packets.forEach((p, k) => {
    const { msg, packet } = raw[k]!;
    if (!c.messages.includes(msg)) return;
    const { az, diff } = nebulaBlockAzimuths(packet, vlp16);
    for (let i = 0; i < p.count; i++) {
      const r = p.range[i]!;
      if (!(r > c.minRange && r < c.maxRange)) continue;
      const laser = p.ring![i]!;
      const t = p.rayTime![i]! / US;
      // Block (and firing) from the ray's firing time.
      let b: number, azf: number;
      if (vlp16) {
        const seq = Math.round((t - laser * 2.304) / 55.296);
        const firing = seq & 1;
        b = 2 * (seq >> 1) + p.ret![i]!;
        azf = f(az[b]! + f(f(diff[b]! * f(f(laser * f(2.304)) + f(firing * f(55.296)))) / f(110.592)));
      } else {
        b = Math.round((t - Math.floor(laser / 2) * 2.304) / 55.296);
        azf = f(az[b]! + f(f(f(diff[b]! * f(2.304)) / f(55.296)) * laser));
      }
      if (!c.blockOk(packet.azimuth[b]!, az[b]!)) continue;
      let azc = f(azf - (lasers[laser]!.azimuthOffset * 180 / Math.PI) * 100);
      if (azc < 0) azc = f(azc + 36000);
      const ai = Math.round(azc) % 36000;
      if (!c.pointOk(ai)) continue;
      // nebula's point: x = d cos(el) cos(az), y = −d cos(el) sin(az), z = d sin(el), in float32.
      const rot = f((f(0.01 * ai) * Math.PI) / 180);
      const el = lasers[laser]!.elevation;
      const xy = f(f(r) * f(Math.cos(el)));
      points.push({
        x: p.dir[3 * i]! * r, y: p.dir[3 * i + 1]! * r, z: p.dir[3 * i + 2]! * r,
        nx: f(xy * f(Math.cos(rot))), ny: -f(xy * f(Math.sin(rot))), nz: f(f(r) * f(Math.sin(el))),
      });
    }
  });
  return { points, packets: packets.length };
}

describe.skipIf(!HAS_SHARED_DATA)('nebula decoder ground truth (ROS 2 .db3 → PCD)', () => {
  for (const c of CASES) {
    it(`${c.name}: ${c.pcdPoints} points match the PCD`, () => {
      const profile = importCalibration(readFileSync(dataFile(c.calibration), 'utf8'), c.calibration.split('/').pop()!).profile;
      const pcd = decodePcd(readFileSync(dataFile(c.pcd)), 'truth.pcd');
      expect(pcd.count).toBe(c.pcdPoints);
      const { points } = decodeCase(c, profile);

      // The PCD is a contiguous run of our filtered points: find where it starts.
      const start = points.findIndex((p) => Math.hypot(p.nx - pcd.xyz[0]!, p.ny - pcd.xyz[1]!, p.nz - pcd.xyz[2]!) < 1e-3);
      expect(start).toBeGreaterThanOrEqual(0);
      expect(points.length - start).toBeGreaterThanOrEqual(pcd.count);

      let worstAtNebulaAzimuth = 0, worstAsDecoded = 0;
      for (let i = 0; i < pcd.count; i++) {
        const p = points[start + i]!;
        const x = pcd.xyz[3 * i]!, y = pcd.xyz[3 * i + 1]!, z = pcd.xyz[3 * i + 2]!;
        worstAtNebulaAzimuth = Math.max(worstAtNebulaAzimuth, Math.hypot(p.nx - x, p.ny - y, p.nz - z));
        worstAsDecoded = Math.max(worstAsDecoded, Math.hypot(p.x - x, p.y - y, p.z - z));
      }
      console.log(
        `[nebula truth] ${c.name}: ${pcd.count} PCD points = our points ${start}…${start + pcd.count - 1} of ${points.length} after nebula's filters; ` +
        `largest deviation ${(worstAtNebulaAzimuth * 1e3).toFixed(4)} mm at nebula's azimuths, ${(worstAsDecoded * 1e2).toFixed(2)} cm as decoded`,
      );
      // Float32 arithmetic on both sides: well under a tenth of a millimetre.
      expect(worstAtNebulaAzimuth).toBeLessThan(1e-4);
      // The azimuth models differ by up to ~0.25° (VLP-32C last block, 20 m): a few centimetres.
      expect(worstAsDecoded).toBeLessThan(0.06);
    });
  }

  it('VLP-32C: the calibration import is re-timed to the VLP-32C firing layout on the way', () => {
    const calib = 'nebula_velodyne/VLP32.yaml';
    // The file's elevations (−25° … +15°) say VLP-32C; stated as an HDL-32E, its packets re-time it.
    expect(importCalibration(readFileSync(dataFile(calib), 'utf8'), 'VLP32.yaml').model).toBe('vlp32c');
    const profile = importCalibration(readFileSync(dataFile(calib), 'utf8'), 'VLP32.yaml', { model: 'hdl32e' }).profile;
    expect(profile.groups[0]!.firingPeriod).toBeCloseTo(46.08e-6, 12);
    const gen = ros2Packets(db3Messages(dataFile('nebula_velodyne/vlp32/1713492677464078412_0.db3')), { name: 'vlp32.db3', profile });
    const first = gen.next();
    expect(first.done).toBe(false);
    const p = first.value as DecodedPacket;
    // Channel 31 fires with channel 30 at 15 · 2.304 µs; block 11 starts at 11 · 55.296 µs.
    expect(p.rayTime![31]! / US).toBeCloseTo(15 * 2.304, 3);
    expect(p.rayTime![11 * 32]! / US).toBeCloseTo(11 * 55.296, 3);
    let r = gen.next();
    while (!r.done) r = gen.next();
    expect(r.value.notes.profileTiming).toMatch(/VLP-32C/);
    expect(r.value.sensor).toBe('VLP-32C');
    expect(r.value.notes.returnMode).toBe('strongest');
  });
});
