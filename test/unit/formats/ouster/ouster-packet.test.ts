import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DecodeError } from '../../../../src-worker/formats/decode-error';
import {
  decodeOusterLidarPacket,
  encodeOusterLidarPacket,
  ousterBeamTable,
  ousterPacketFormat,
  ousterPackets,
  ousterRays,
  sampleOusterMetadataJson,
  sampleOusterPacket,
  type OusterColumnSpec,
  type OusterDecodedPacket,
} from '../../../../src-worker/formats/ouster/ouster-packet';
import { ousterDestaggeredColumn, ousterProfile, parseOusterMetadata, type OusterMetadata, type OusterUdpProfile } from '../../../../src-worker/formats/ouster/ouster-metadata';
import type { LogSourceInfo } from '../../../../src-worker/formats/log-source';
import { udpPackets } from '../../../../src-worker/formats/pcap/pcap';
import { HAS_SHARED_DATA, dataFile } from '../../../helpers/shared-data';
import { decodeErrorOf } from '../helpers';
import { mutate, seededRandom } from '../mutate';

const DEG = Math.PI / 180;
const LB_PCAP = 'ouster_sdk/OS-1-128_v2.3.0_1024x10_lb_n3.pcap';
const LB_JSON = 'ouster_sdk/OS-1-128_v2.3.0_1024x10.json';
const LB_POSES = 'ouster_sdk/OS-1-128_v2.3.0_1024x10_lb_n3_poses_kitti.txt';
const LEGACY_PCAP = 'rust_lidar_utils/ouster_example.pcap';
const LEGACY_JSON = 'rust_lidar_utils/ouster_example.json';
const NESTED_JSON = 'ouster_sdk/2_1_2_os1-991913000010-64.json';

type Udp = { time: number; payload: Uint8Array; payloadOffset: number };

/** Runs the generator to its end: the packets (copied arrays are not needed: each packet owns fresh arrays) and the info. */
function drain(udp: Iterable<Udp>, meta: OusterMetadata, name = 'test.pcap'): { packets: OusterDecodedPacket[]; info: LogSourceInfo } {
  const packets: OusterDecodedPacket[] = [];
  const it = ousterPackets(udp, meta, name);
  for (;;) {
    const r = it.next();
    if (r.done) return { packets, info: r.value };
    packets.push(r.value);
  }
}

const sampleMeta = (p: OusterUdpProfile, beams = 8, cpp = 4): OusterMetadata => parseOusterMetadata(sampleOusterMetadataJson(p, beams, cpp), 'sample.json');

/**
 * The Ouster SDK's make_xyz_lut for one pixel, written out independently with 4×4 matrices
 * (mm in, m out): the reference the decoder's rays are checked against.
 */
function sdkPoint(meta: OusterMetadata, row: number, mid: number, rangeMm: number): [number, number, number] {
  const W = meta.columnsPerFrame;
  const te = 2 * Math.PI * (1 - mid / W);
  const ta = -meta.beamAzimuthDeg[row]! * DEG;
  const phi = meta.beamAltitudeDeg[row]! * DEG;
  const u = [Math.cos(te + ta) * Math.cos(phi), Math.sin(te + ta) * Math.cos(phi), Math.sin(phi)];
  const n = meta.beamToLidar[3]!, nz = meta.beamToLidar[11]!;
  const d = nz !== 0 ? Math.hypot(n, nz) : n;
  const off = [Math.cos(te) * n - u[0]! * d, Math.sin(te) * n - u[1]! * d, -u[2]! * d + nz];
  const pl = [0, 1, 2].map((k) => rangeMm * u[k]! + off[k]!);
  const m = meta.lidarToSensor;
  return [0, 1, 2].map((r) => (m[4 * r]! * pl[0]! + m[4 * r + 1]! * pl[1]! + m[4 * r + 2]! * pl[2]! + m[4 * r + 3]!) / 1000) as [number, number, number];
}

describe('Ouster packet layout', () => {
  it('packet sizes follow header + columns × (column header + pixels × pixel bytes + footer) + footer', () => {
    const size = (p: OusterUdpProfile, pixels: number): number => ousterPacketFormat({ udpProfileLidar: p, columnsPerPacket: 16, pixelsPerColumn: pixels }).packetBytes;
    expect(size('LEGACY', 64)).toBe(16 * (16 + 64 * 12 + 4)); // 12608, the legacy OS1-64 datagram
    expect(size('RNG15_RFL8_NIR8', 128)).toBe(32 + 16 * (12 + 128 * 4) + 32); // 8448
    expect(size('RNG19_RFL8_SIG16_NIR16', 64)).toBe(32 + 16 * (12 + 64 * 12) + 32);
    expect(size('RNG19_RFL8_SIG16_NIR16_DUAL', 128)).toBe(32 + 16 * (12 + 128 * 16) + 32);
  });

  for (const profile of ['LEGACY', 'RNG19_RFL8_SIG16_NIR16', 'RNG19_RFL8_SIG16_NIR16_DUAL', 'RNG15_RFL8_NIR8'] as const) {
    it(`${profile}: encode → decode round trip and rays match the SDK formula (1e-5 m)`, () => {
      const meta = sampleMeta(profile);
      const fmt = ousterPacketFormat(meta);
      const bytes = sampleOusterPacket(meta, 9, 510); // measurement ids wrap 510, 511, 0, 1
      const p = decodeOusterLidarPacket(bytes, fmt, 's.pcap', 0, meta.columnsPerFrame);
      expect([...p.measurementId]).toEqual([510, 511, 0, 1]);
      expect([...p.valid]).toEqual([1, 0, 1, 1]);
      expect(p.frameId).toBe(9);
      if (!fmt.legacy) {
        expect(p.serial).toBe(122201000998);
        expect(p.initId).toBe(7109750);
      }
      const unit = profile === 'RNG15_RFL8_NIR8' ? 8 : 1;
      // column 2, row 3: 1000 + 2500·5 mm (LB: floored to 8 mm)
      expect(p.rangeMm[2 * 8 + 3]).toBe(Math.floor(13500 / unit) * unit);
      expect(p.reflectivity[2 * 8 + 3]).toBe((3 * 13 + 2) % 256);

      const r = ousterRays(p, ousterBeamTable(meta));
      const dual = profile === 'RNG19_RFL8_SIG16_NIR16_DUAL';
      // 3 valid columns × 8 rows (+ dual: rows 0, 3, 6 have a second return)
      expect(r.count).toBe(3 * 8 + (dual ? 3 * 3 : 0));
      expect(r.t0).toBe(1_000_000_000_000n);
      for (let k = 0; k < r.count; k++) {
        const c = [0, -1, 2, 3][[510, 511, 0, 1].indexOf(r.column[k]!)]!;
        const row = r.ring[k]!;
        const mm = r.ret[k] ? 45_000 + row : row % 5 === 4 ? 0 : Math.floor((1000 + 2500 * ((row + c) % 16)) / unit) * unit;
        const d = [r.dir[3 * k]!, r.dir[3 * k + 1]!, r.dir[3 * k + 2]!];
        expect(Math.hypot(...d)).toBeCloseTo(1, 6);
        expect(r.time[k]).toBeCloseTo((c * 97_656) / 1e9, 9);
        if (mm === 0) {
          // A miss: NaN range, the beam's direction (the SDK point of a 1 km range, offsets negligible).
          expect(r.range[k]).toBeNaN();
          const far = sdkPoint(meta, row, r.column[k]!, 1e9);
          const fn = Math.hypot(...far);
          for (let a = 0; a < 3; a++) expect(d[a]).toBeCloseTo(far[a]! / fn, 6);
          continue;
        }
        const q = sdkPoint(meta, row, r.column[k]!, mm);
        for (let a = 0; a < 3; a++) expect(Math.abs(d[a]! * r.range[k]! - q[a]!)).toBeLessThan(1e-5 * Math.max(1, mm / 1000));
      }
    });
  }

  it('a synthetic beam straight ahead in the sensor frame: measurement id W/2, zero angles → +x, range r + offsets', () => {
    const meta = sampleMeta('RNG19_RFL8_SIG16_NIR16', 8, 4);
    meta.beamAltitudeDeg = meta.beamAltitudeDeg.map(() => 0);
    meta.beamAzimuthDeg = meta.beamAzimuthDeg.map(() => 0);
    const fmt = ousterPacketFormat(meta);
    // θe = 2π(1 − 256/512) = π in the lidar frame (towards −x_lidar), which the 180° lidar → sensor turn makes +x.
    const cols: OusterColumnSpec[] = [0, 1, 2, 3].map((c) => ({ timestampNs: 5n + BigInt(c), measurementId: (256 + c * 128) % 512, rangeMm: new Array(8).fill(10_000) }));
    const r = ousterRays(decodeOusterLidarPacket(encodeOusterLidarPacket(fmt, cols), fmt, 's', 0, 512), ousterBeamTable(meta));
    // Column 0: straight ahead. Range from the lidar origin is r (the beam offset cancels along the beam), then +36.18 mm up.
    expect(r.dir[0]).toBeCloseTo(10 / Math.hypot(10, 0.03618), 6);
    expect(r.dir[2]).toBeCloseTo(0.03618 / 10, 6);
    expect(r.range[0]).toBeCloseTo(Math.hypot(10, 0.03618), 5);
    // Measurement ids grow clockwise seen from above: id 384 (a quarter turn later) looks right (−y).
    expect(r.dir[3 * 8 + 1]).toBeCloseTo(-1, 4);
    // id 0 looks backwards, id 128 left (+y).
    expect(r.dir[3 * 16]).toBeCloseTo(-1, 4);
    expect(r.dir[3 * 24 + 1]).toBeCloseTo(1, 4);
  });
});

describe('Ouster metadata', () => {
  it.skipIf(!HAS_SHARED_DATA)('reads the three real layouts', () => {
    const lb = parseOusterMetadata(readFileSync(dataFile(LB_JSON), 'utf8'), 'lb.json');
    expect(lb).toMatchObject({ layout: 'flat (fw 2.x)', udpProfileLidar: 'RNG15_RFL8_NIR8', columnsPerPacket: 16, columnsPerFrame: 1024, pixelsPerColumn: 128, prodLine: 'OS-1-128', serial: '122201000998', initId: 7109750, firmware: 'v2.3.0' });
    expect(lb.beamToLidar[3]).toBe(15.806);
    expect(lb.pixelShiftByRow.slice(0, 4)).toEqual([24, 16, 8, 0]);
    const legacy = parseOusterMetadata(readFileSync(dataFile(LEGACY_JSON), 'utf8'), 'legacy.json');
    expect(legacy).toMatchObject({ layout: 'legacy', udpProfileLidar: 'LEGACY', columnsPerPacket: 16, columnsPerFrame: 1024, pixelsPerColumn: 64 });
    // SDK defaults: gen-1 beam origin, the 180° lidar → sensor turn 36.18 mm up, shifts {18, 12, 6, 0}.
    expect(legacy.beamToLidar[3]).toBe(12.163);
    expect(legacy.lidarToSensor).toEqual([-1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1, 36.18, 0, 0, 0, 1]);
    expect(legacy.pixelShiftByRow.slice(0, 5)).toEqual([18, 12, 6, 0, 18]);
    const nested = parseOusterMetadata(readFileSync(dataFile(NESTED_JSON), 'utf8'), 'nested.json');
    expect(nested).toMatchObject({ layout: 'nested (fw 2.1+)', udpProfileLidar: 'LEGACY', pixelsPerColumn: 64, prodLine: 'OS-1-64', serial: '991913000010', firmware: 'v2.1.2' });
    expect(nested.beamToLidar[3]).toBe(12.163);
    expect(nested.pixelShiftByRow.slice(0, 3)).toEqual([19, 13, 6]);
    expect(ousterDestaggeredColumn(nested, 0, 1020)).toBe((1020 + 19) % 1024);
  });

  it('a missing or malformed field is a DecodeError that names it (and its line)', () => {
    const base = JSON.parse(sampleOusterMetadataJson('RNG15_RFL8_NIR8')) as Record<string, unknown>;
    const fmt = base.data_format as Record<string, unknown>;
    const err = (doc: unknown): DecodeError => decodeErrorOf(() => parseOusterMetadata(JSON.stringify(doc, null, 1), 'bad.json'));
    const { beam_altitude_angles: _a, ...noAlt } = base;
    expect(err(noAlt).message).toMatch(/^bad\.json: .*beam_altitude_angles/);
    expect(err({ ...base, data_format: { ...fmt, udp_profile_lidar: 'FIVE_WORD_PIXEL' } }).message).toMatch(/data_format\.udp_profile_lidar: unsupported lidar UDP profile "FIVE_WORD_PIXEL"/);
    const e = err({ ...base, data_format: { ...fmt, pixels_per_column: 16 } });
    expect(e.message).toMatch(/data_format\.pixels_per_column: 16 pixels per column but 8 beams/);
    expect(e.line).toBeGreaterThan(1);
    expect(err({ ...base, lidar_to_sensor_transform: [2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] }).message).toMatch(/lidar_to_sensor_transform: the rotation part is not orthonormal/);
    expect(err({ ...base, data_format: { ...fmt, pixel_shift_by_row: [1, 2] } }).message).toMatch(/pixel_shift_by_row: expected a list of 8/);
    expect(err({ ...base, beam_azimuth_angles: [1, 2] }).message).toMatch(/beam_azimuth_angles: has 2 entries/);
    expect(decodeErrorOf(() => parseOusterMetadata('{"beam_altitude_angles": [1,', 'cut.json')).message).toMatch(/cut\.json: invalid JSON/);
  });

  it.skipIf(!HAS_SHARED_DATA)('ousterProfile: the importCalibration profile turned into the sensor frame', () => {
    const meta = parseOusterMetadata(readFileSync(dataFile(LB_JSON), 'utf8'), 'OS-1-128_v2.3.0_1024x10.json');
    const p = ousterProfile(meta);
    const lasers = p.groups[0]!.lasers;
    expect(lasers).toHaveLength(128);
    expect(p.rotationHz).toBe(10);
    expect(p.groups[0]!.firingPeriod).toBeCloseTo(1 / 10240, 12);
    expect(p.spin).toBe('cw');
    expect(lasers[0]!.elevation).toBeCloseTo(20.95 * DEG, 9);
    // azimuth offset = π − beam_azimuth_angles (the 180° lidar → sensor turn), wrapped to ±π
    expect(lasers[0]!.azimuthOffset).toBeCloseTo(Math.PI - 4.21 * DEG, 9);
    expect(p.description).toMatch(/Sensor frame/);
    expect(p.description).not.toMatch(/Lidar frame:/);
  });
});

describe('bad input', () => {
  const meta = sampleMeta('RNG15_RFL8_NIR8');
  const good = sampleOusterPacket(meta);

  it('wrong-size datagrams are skipped and counted; IMU datagrams counted', () => {
    const { packets, info } = drain([
      { time: 0, payload: good, payloadOffset: 100 },
      { time: 0, payload: new Uint8Array(48), payloadOffset: 9000 },
      { time: 0, payload: good.subarray(0, 200), payloadOffset: 10_000 },
      { time: 0, payload: good, payloadOffset: 20_000 },
    ], meta);
    expect(packets).toHaveLength(2);
    expect(info.notes).toMatchObject({ lidarPackets: 2, imuPackets: 1, otherPackets: 1, invalidColumns: 2, frames: 1 });
  });

  it('no lidar packet of the metadata size → DecodeError at the first datagram', () => {
    const e = decodeErrorOf(() => drain([{ time: 0, payload: good.subarray(0, 100), payloadOffset: 1234 }], meta, 'x.pcap'));
    expect(e.offset).toBe(1234);
    expect(e.message).toMatch(/^x\.pcap: no Ouster lidar packets: expected UDP datagrams of 240 bytes \(RNG15_RFL8_NIR8, 4 columns × 8 pixels/);
  });

  it('packet type, serial and measurement id are checked, with byte offsets', () => {
    const typ = good.slice();
    typ[0] = 3;
    expect(decodeErrorOf(() => drain([{ time: 0, payload: typ, payloadOffset: 500 }], meta)).offset).toBe(500);
    const sn = good.slice();
    sn[8] = sn[8]! ^ 1;
    const e = decodeErrorOf(() => drain([{ time: 0, payload: sn, payloadOffset: 500 }], meta));
    expect(e.offset).toBe(507);
    expect(e.message).toMatch(/sensor serial \d+, but the metadata \(sample\.json\) is for 122201000998/);
    const mid = good.slice();
    new DataView(mid.buffer).setUint16(32 + 8, 600, true); // column 0's measurement id ≥ 512
    const m = decodeErrorOf(() => drain([{ time: 0, payload: mid, payloadOffset: 500 }], meta));
    expect(m.offset).toBe(500 + 32 + 8);
    expect(m.message).toMatch(/measurement id 600 is not below 512/);
    const fmt = ousterPacketFormat(meta);
    expect(decodeErrorOf(() => decodeOusterLidarPacket(good.subarray(1), fmt, 'y', 77)).offset).toBe(77);
  });

  it('init id mismatches are counted, not fatal', () => {
    const other = { ...meta, initId: 1 };
    expect(drain([{ time: 0, payload: good, payloadOffset: 0 }], other).info.notes.initIdMismatch).toBe(1);
  });
});

describe('fuzz: mutations decode or throw DecodeError', () => {
  const run = (valid: Uint8Array, decode: (b: Uint8Array) => unknown, runs: number, seed: number): { ok: number; rejected: number } => {
    const rnd = seededRandom(seed);
    const t = { ok: 0, rejected: 0 };
    for (let k = 0; k < runs; k++) {
      const { bytes, kind } = mutate(valid, rnd);
      try {
        decode(bytes);
        t.ok++;
      } catch (e) {
        if (e instanceof DecodeError) t.rejected++;
        else throw new Error(`run ${k} (seed ${seed}, ${kind}): ${String(e)}`, { cause: e });
      }
    }
    return t;
  };

  it.skipIf(!HAS_SHARED_DATA)('2,000 mutations of one real RNG15 packet', () => {
    const meta = parseOusterMetadata(readFileSync(dataFile(LB_JSON), 'utf8'), 'lb.json');
    const bytes = new Uint8Array(readFileSync(dataFile(LB_PCAP)));
    const real = [...udpPackets(bytes, 'lb.pcap')].find((u) => u.payload.length === 8448)!.payload.slice();
    const t = run(real, (b) => {
      for (const p of ousterPackets([{ time: 0, payload: b, payloadOffset: 0 }], meta, 'lb.pcap')) {
        // Plain checks (an expect per ray would dominate the run time): 20-bit mm ranges stay below 1,100 m.
        if (p.range.length !== p.count || p.dir.length !== 3 * p.count) throw new Error('inconsistent packet arrays');
        for (let i = 0; i < p.count; i++) if (p.range[i]! > 1100) throw new Error(`range ${p.range[i]} m`);
      }
    }, 2000, 11);
    expect(t.ok + t.rejected).toBe(2000);
    expect(t.ok).toBeGreaterThan(500);
    expect(t.rejected).toBeGreaterThan(200);
  });
});

/** Mean distance from each point of `a` to its nearest in `b` (0.5 m voxel hash; pairs beyond 0.5 m are left out). */
function meanNearest(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const S = 0.5;
  const key = (x: number, y: number, z: number): string => `${Math.floor(x / S)},${Math.floor(y / S)},${Math.floor(z / S)}`;
  const grid = new Map<string, number[]>();
  for (let i = 0; i < b.length; i += 3) {
    const k = key(b[i]!, b[i + 1]!, b[i + 2]!);
    const cell = grid.get(k);
    if (cell) cell.push(i);
    else grid.set(k, [i]);
  }
  let sum = 0, n = 0;
  for (let i = 0; i < a.length; i += 3) {
    const x = a[i]!, y = a[i + 1]!, z = a[i + 2]!;
    const cx = Math.floor(x / S), cy = Math.floor(y / S), cz = Math.floor(z / S);
    let best = S * S;
    for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) for (let dz = -1; dz <= 1; dz++) {
      for (const j of grid.get(`${cx + dx},${cy + dy},${cz + dz}`) ?? []) best = Math.min(best, (b[j]! - x) ** 2 + (b[j + 1]! - y) ** 2 + (b[j + 2]! - z) ** 2);
    }
    if (best < S * S) { sum += Math.sqrt(best); n++; }
  }
  return sum / n;
}

function rangeStats(packets: OusterDecodedPacket[]): { hits: number; misses: number; min: number; median: number; max: number } {
  const r: number[] = [];
  let misses = 0;
  for (const p of packets) {
    for (let i = 0; i < p.count; i++) {
      if (Number.isNaN(p.range[i]!)) misses++;
      else r.push(p.range[i]!);
    }
  }
  r.sort((a, b) => a - b);
  return { hits: r.length, misses, min: r[0]!, median: r[r.length >> 1]!, max: r.at(-1)! };
}

/** Of the hits below −10° elevation, the fraction whose point lies below the sensor (z < 0). */
function lowBeamsBelow(packets: OusterDecodedPacket[]): { n: number; below: number } {
  let n = 0, below = 0;
  for (const p of packets) {
    for (let i = 0; i < p.count; i++) {
      const r = p.range[i]!;
      if (Number.isNaN(r) || Math.asin(p.dir[3 * i + 2]!) > -10 * DEG) continue;
      n++;
      if (p.dir[3 * i + 2]! * r < 0) below++;
    }
  }
  return { n, below: below / n };
}

describe.skipIf(!HAS_SHARED_DATA)('real Ouster captures', () => {
  it('OS1-128 fw 2.3 RNG15_RFL8_NIR8 (lb_n3): counts, frames, ranges, upright, poses', () => {
    const meta = parseOusterMetadata(readFileSync(dataFile(LB_JSON), 'utf8'), 'OS-1-128_v2.3.0_1024x10.json');
    const bytes = new Uint8Array(readFileSync(dataFile(LB_PCAP)));
    const { packets, info } = drain(udpPackets(bytes, 'lb.pcap'), meta, 'lb.pcap');
    expect(info).toMatchObject({ format: 'ouster-pcap', sensor: 'OS-1-128', recordsMisses: true });
    expect(info.notes).toMatchObject({ udpProfile: 'RNG15_RFL8_NIR8', lidarPackets: 192, imuPackets: 30, otherPackets: 0, invalidColumns: 0, frames: 3, firstFrameId: 1795, lastFrameId: 1797 });
    expect(packets).toHaveLength(192);
    expect(packets.every((p) => p.count === 16 * 128)).toBe(true);
    for (let f = 0; f < 3; f++) expect(new Set(packets.slice(64 * f, 64 * f + 64).map((p) => p.frameId))).toEqual(new Set([1795 + f]));
    // 3 turns at 10 Hz: the last packet starts 3 × 0.1 s − one packet (1.5625 ms) after the first (±1 ms).
    expect(packets.at(-1)!.time - packets[0]!.time).toBeCloseTo(0.3 - 0.0015625, 2);
    // Within a packet: 15 column periods of 1/10240 s (±20 µs).
    expect(Math.max(...packets[0]!.rayTime!)).toBeCloseTo(15 / 10240, 4);

    // Range statistics (MANIFEST: 1.3–247 m, median 11.4 m): the raw range field, and the ray range from the sensor origin.
    const raw: number[] = [];
    const fmt = ousterPacketFormat(meta);
    for (const u of udpPackets(bytes, 'lb.pcap')) {
      if (u.payload.length !== fmt.packetBytes) continue;
      for (const mm of decodeOusterLidarPacket(u.payload, fmt, 'lb.pcap').rangeMm) if (mm > 0) raw.push(mm / 1000);
    }
    raw.sort((a, b) => a - b);
    expect(Math.abs(raw[raw.length >> 1]! - 11.4)).toBeLessThan(0.5);
    expect(raw[0]).toBeGreaterThan(1.25);
    expect(raw[0]).toBeLessThan(1.35);
    expect(Math.abs(raw.at(-1)! - 247)).toBeLessThan(1);
    const s = rangeStats(packets);
    expect(s.hits).toBe(raw.length);
    expect(Math.abs(s.median - 11.4)).toBeLessThan(0.5);
    expect(s.min).toBeGreaterThan(1.2);
    expect(s.max).toBeLessThan(248);

    // Upright: low beams hit the ground below the sensor.
    const low = lowBeamsBelow(packets);
    expect(low.n).toBeGreaterThan(50_000);
    expect(low.below).toBeGreaterThan(0.95);

    // Poses (KITTI rows: world ← scan, scan 0 = identity; ~0.25 m per frame along +x): scans moved by
    // their poses overlap scan 0 better than unmoved, and better than moved the opposite way (what a
    // 180° frame error, e.g. using Ouster's lidar frame, would amount to).
    const poses = readFileSync(dataFile(LB_POSES), 'utf8').trim().split('\n').map((l) => l.trim().split(/\s+/).map(Number));
    expect(poses).toHaveLength(3);
    const cloud = (f: number, pose: number[] | null, sign = 1): Float64Array => {
      const out: number[] = [];
      for (const p of packets.slice(64 * f, 64 * f + 64)) {
        for (let i = 0; i < p.count; i += 3) {
          const r = p.range[i]!;
          if (!(r > 2 && r < 40)) continue;
          const x = p.dir[3 * i]! * r, y = p.dir[3 * i + 1]! * r, z = p.dir[3 * i + 2]! * r;
          if (!pose) { out.push(x, y, z); continue; }
          out.push(pose[0]! * x + pose[1]! * y + pose[2]! * z + sign * pose[3]!, pose[4]! * x + pose[5]! * y + pose[6]! * z + sign * pose[7]!, pose[8]! * x + pose[9]! * y + pose[10]! * z + sign * pose[11]!);
        }
      }
      return Float64Array.from(out);
    };
    const scan0 = cloud(0, null);
    for (const f of [1, 2]) {
      const moved = meanNearest(cloud(f, poses[f]!), scan0);
      const unmoved = meanNearest(cloud(f, null), scan0);
      const opposite = meanNearest(cloud(f, poses[f]!, -1), scan0);
      expect(moved).toBeLessThan(unmoved * 0.98);
      expect(moved).toBeLessThan(opposite * 0.9);
    }
  });

  it('destaggering lines the rows up: adjacent rows differ less at the same destaggered column', () => {
    const meta = parseOusterMetadata(readFileSync(dataFile(LB_JSON), 'utf8'), 'lb.json');
    const fmt = ousterPacketFormat(meta);
    const table = ousterBeamTable(meta);
    const W = meta.columnsPerFrame, H = meta.pixelsPerColumn;
    const raw = new Float32Array(W * H).fill(NaN), destag = new Float32Array(W * H).fill(NaN);
    for (const u of udpPackets(new Uint8Array(readFileSync(dataFile(LB_PCAP))), 'lb.pcap')) {
      if (u.payload.length !== fmt.packetBytes) continue;
      const p = decodeOusterLidarPacket(u.payload, fmt, 'lb.pcap');
      if (p.frameId !== 1796) continue;
      const r = ousterRays(p, table);
      for (let k = 0; k < r.count; k++) {
        raw[r.ring[k]! * W + r.column[k]!] = r.range[k]!;
        destag[r.ring[k]! * W + ousterDestaggeredColumn(meta, r.ring[k]!, r.column[k]!)] = r.range[k]!;
      }
    }
    const roughness = (img: Float32Array): number => {
      const d: number[] = [];
      for (let row = 0; row + 1 < H; row++) for (let c = 0; c < W; c++) {
        const a = img[row * W + c]!, b = img[(row + 1) * W + c]!;
        if (a > 0 && b > 0) d.push(Math.abs(a - b));
      }
      d.sort((x, y) => x - y);
      return d[d.length >> 1]!;
    };
    expect(roughness(destag)).toBeLessThan(roughness(raw) * 0.8);
  });

  it('OS1-64 legacy firmware (ouster_example): 100 packets, frames, ranges, upright', () => {
    const meta = parseOusterMetadata(readFileSync(dataFile(LEGACY_JSON), 'utf8'), 'ouster_example.json');
    const bytes = new Uint8Array(readFileSync(dataFile(LEGACY_PCAP)));
    const { packets, info } = drain(udpPackets(bytes, 'ouster_example.pcap'), meta);
    expect(info.notes).toMatchObject({ udpProfile: 'LEGACY', lidarPackets: 100, imuPackets: 0, otherPackets: 0, invalidColumns: 0 });
    // 100 × 16 columns from measurement id 800: the end of frame 12072, all of 12073, the start of 12074.
    expect(info.notes).toMatchObject({ frames: 3, firstFrameId: 12072, lastFrameId: 12074 });
    const fmt = ousterPacketFormat(meta);
    const first = decodeOusterLidarPacket([...udpPackets(bytes, 'e.pcap')][0]!.payload, fmt, 'e.pcap');
    expect(first.measurementId[0]).toBe(800);
    expect(first.encoder[0]).toBe(800 * 88); // 90112 encoder ticks per turn / 1024 columns
    expect(packets.filter((p) => p.frameId === 12073)).toHaveLength(64);
    expect(packets.every((p) => p.count === 16 * 64 && p.ring!.every((r) => r < 64))).toBe(true);
    // 1600 columns at 10 Hz × 1024 columns: 0.156 s from the first packet to the last (±1 ms).
    expect(packets.at(-1)!.time - packets[0]!.time).toBeCloseTo(99 * 16 / 10240, 2);
    const s = rangeStats(packets);
    expect(s.misses / (s.hits + s.misses)).toBeLessThan(0.2);
    expect(s.median).toBeGreaterThan(8);
    expect(s.median).toBeLessThan(16);
    expect(s.min).toBeGreaterThan(1);
    expect(s.max).toBeLessThan(200);
    const low = lowBeamsBelow(packets);
    expect(low.n).toBeGreaterThan(10_000);
    expect(low.below).toBeGreaterThan(0.95);
  });
});
