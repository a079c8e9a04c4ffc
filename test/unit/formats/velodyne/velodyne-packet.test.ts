import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DecodeError } from '../../../../src-worker/formats/decode-error';
import { udpPackets } from '../../../../src-worker/formats/pcap/pcap';
import {
  decodeVelodyneData,
  decodeVelodynePosition,
  isVelodyneDataPacket,
  isVelodynePositionPacket,
  parseGprmc,
  velodyneLaserTable,
  velodyneModel,
  velodynePacketChunk,
  velodyneRays,
  type VelodyneDataPacket,
  type VelodyneModel,
  type VelodynePosition,
} from '../../../../src-worker/formats/velodyne/velodyne-packet';
import { builtinProfile } from '../../../../src-common/builtin-profiles';
import type { SensorProfile } from '../../../../src-common/sensor-profile';
import { DATA_DIR, HAVE_DATA, decodeErrorOf } from '../helpers';
import { mutate, seededRandom } from '../mutate';

const profile = (id: VelodyneModel): SensorProfile => builtinProfile(id)!;
const DEG = Math.PI / 180;

/** A synthetic data packet: per block (flag, azimuth in 0.01°), distance(block, channel), intensity = channel. */
function dataPacket(opts: {
  azimuth: (b: number) => number;
  distance?: (b: number, c: number) => number;
  lower?: (b: number) => boolean;
  timestamp?: number;
  mode?: number;
  product?: number;
}): Uint8Array {
  const p = new Uint8Array(1206);
  const dv = new DataView(p.buffer);
  for (let b = 0; b < 12; b++) {
    const o = b * 100;
    dv.setUint16(o, opts.lower?.(b) ? 0xddff : 0xeeff, true);
    dv.setUint16(o + 2, opts.azimuth(b), true);
    for (let c = 0; c < 32; c++) {
      dv.setUint16(o + 4 + 3 * c, opts.distance ? opts.distance(b, c) : 5000, true);
      p[o + 6 + 3 * c] = c;
    }
  }
  dv.setUint32(1200, opts.timestamp ?? 1_234_567, true);
  p[1204] = opts.mode ?? 0x37;
  p[1205] = opts.product ?? 0x22;
  return p;
}

/** A 512-byte position packet with `nmea` at byte 206 and the timestamp at 198. */
function positionPacket(nmea: string, timestampUs = 2_000_000): Uint8Array {
  const p = new Uint8Array(512);
  new DataView(p.buffer).setUint32(198, timestampUs, true);
  for (let i = 0; i < nmea.length; i++) p[206 + i] = nmea.charCodeAt(i);
  return p;
}

describe('velodyne data packets (synthetic)', () => {
  it('VLP-16: two sequences per block, 2.304 µs per laser, 55.296 µs per sequence, interpolated azimuth', () => {
    // Blocks 0.40° apart starting at 90° (Velodyne: clockwise from forward, so the sensor's right, −y).
    const bytes = dataPacket({ azimuth: (b) => 9000 + 40 * b });
    expect(isVelodyneDataPacket(bytes)).toBe(true);
    const pkt = decodeVelodyneData(bytes, 'v.pcap');
    expect(pkt).toMatchObject({ returnMode: 'strongest', productId: 0x22, lowerBlocks: 0, timestamp: 1.234567 });
    expect(velodyneModel(pkt)).toBe('vlp16');
    const prof = profile('vlp16');
    const r = velodyneRays(pkt, prof);
    expect(r.count).toBe(384);
    // Channel 0 of block 0: laser 0 (−15°) at azimuth 90° → (0, −cos 15°, −sin 15°).
    expect(r.dir[0]).toBeCloseTo(0, 6);
    expect(r.dir[1]).toBeCloseTo(-Math.cos(15 * DEG), 6);
    expect(r.dir[2]).toBeCloseTo(-Math.sin(15 * DEG), 6);
    expect(r.range[0]).toBeCloseTo(10, 6);
    expect([r.ring[0], r.ring[1], r.ring[16], r.ring[17]]).toEqual([0, 1, 0, 1]);
    // Firing times: channel 16 is the second sequence; block 1 starts two sequences later.
    expect(r.time[1]! * 1e6).toBeCloseTo(2.304, 4);
    expect(r.time[16]! * 1e6).toBeCloseTo(55.296, 4);
    expect(r.time[32]! * 1e6).toBeCloseTo(110.592, 4);
    // The second sequence is half-way to the next block's azimuth.
    expect(r.azimuthDeg[16]).toBeCloseTo(90.2, 4);
    expect(r.azimuthDeg[1]).toBeCloseTo(90 + 0.4 * (2.304 / 110.592), 4);
    // The last block interpolates with the previous step.
    expect(r.azimuthDeg[11 * 32 + 16]).toBeCloseTo(90 + 11 * 0.4 + 0.2, 4);
    // A laser table built once per log gives the same rays.
    expect(velodyneRays(pkt, prof, velodyneLaserTable(prof))).toEqual(r);
    expect(() => velodyneRays(pkt, prof, velodyneLaserTable(profile('hdl32e')))).toThrow(RangeError);
    const chunk = velodynePacketChunk(pkt, prof, { packetStart: 7, time: 3.5 });
    expect(chunk).toMatchObject({ packetStart: 7, packetCount: 1, rayCount: 384 });
    expect([...chunk.packetTime]).toEqual([3.5]);
    expect([...chunk.packetPose]).toEqual([0, 0, 0, 0, 0, 0, 1]);
    expect([...chunk.rayStart]).toEqual([0, 384]);
    expect(chunk.rayDir.length).toBe(3 * 384);
  });

  it('azimuth wraps past 360° and a zero distance is a miss (NaN)', () => {
    const pkt = decodeVelodyneData(dataPacket({ azimuth: (b) => (35900 + 40 * b) % 36000, distance: (b, c) => (c === 3 ? 0 : 1000) }), 'w');
    const r = velodyneRays(pkt, profile('vlp16'));
    expect(r.azimuthDeg[16]).toBeCloseTo(359.2, 4);
    expect(r.azimuthDeg[3 * 32 + 16]).toBeCloseTo(0.4, 4); // block 3 at 0.2°, +0.2° half-way
    expect(Number.isNaN(r.range[3]!)).toBe(true);
    expect(Math.hypot(r.dir[9]!, r.dir[10]!, r.dir[11]!)).toBeCloseTo(1, 6);
    for (let k = 0; k < r.count; k++) {
      const a = r.azimuthDeg[k]!;
      expect(a >= 0 && a < 360).toBe(true);
    }
  });

  it('HDL-32E: one sequence per block, 1.152 µs per laser, 46.08 µs per block; ring = laser id', () => {
    const pkt = decodeVelodyneData(dataPacket({ azimuth: (b) => 100 * 0 + 17 * b, product: 0x21 }), 'h');
    expect(velodyneModel(pkt)).toBe('hdl32e');
    const prof = profile('hdl32e');
    const r = velodyneRays(pkt, prof);
    expect(r.time[32 + 1]! * 1e6).toBeCloseTo(46.08 + 1.152, 4);
    expect(r.ring[33]).toBe(1);
    const el1 = prof.groups[0]!.lasers[1]!.elevation;
    expect(Math.asin(r.dir[3 * 33 + 2]!)).toBeCloseTo(el1, 5);
  });

  it('dual return: block pairs share a firing; a second return equal to the first (or empty) is dropped', () => {
    const pkt = decodeVelodyneData(
      dataPacket({ azimuth: (b) => 80 * (b >> 1), mode: 0x39, distance: (b, c) => ((b & 1) === 1 && c < 10 ? 2000 + c : (b & 1) === 1 && c < 12 ? 0 : 2000) }),
      'd',
    );
    expect(pkt.returnMode).toBe('dual');
    const r = velodyneRays(pkt, profile('vlp16'));
    // Per pair: 32 first returns + 9 second returns (channels 1..9 differ; 0 is equal, 10..11 empty, rest equal).
    expect(r.count).toBe(6 * (32 + 9));
    const second = [...r.ret].filter((v) => v === 1).length;
    expect(second).toBe(6 * 9);
    // Both blocks of a pair fire at the same time; the next pair two sequences later.
    expect(r.time[32]).toBeCloseTo(r.time[1]!, 9);
    expect(r.time[41]! * 1e6).toBeCloseTo(110.592, 4);
  });

  it('HDL-64E: lower blocks (0xDDFF) use the second laser group; calibration offsets move the point', () => {
    const pkt = decodeVelodyneData(dataPacket({ azimuth: (b) => 20 * (b >> 1), lower: (b) => (b & 1) === 1, mode: 0, product: 0 }), 'e');
    expect(pkt.lowerBlocks).toBe(6);
    expect(pkt.returnMode).toBe('unknown');
    expect(velodyneModel(pkt)).toBe('hdl64e');
    const prof = profile('hdl64e');
    const r = velodyneRays(pkt, prof);
    expect(r.count).toBe(384);
    expect(r.ring[0]).toBe(0);
    expect(r.ring[32]).toBe(32);
    expect(r.ring[63]).toBe(63);
    // A pair (upper, lower) fires together; the next pair one upper-block period (32 µs) later.
    expect(r.time[32]).toBeCloseTo(r.time[0]!, 9);
    expect(r.time[64]! * 1e6).toBeCloseTo(32, 4);
    // Range 10 m + the laser's distance correction (≈1.5 m), with the offsets ≈ the corrected range.
    const l0 = prof.groups[0]!.lasers[0]!;
    expect(Math.abs(r.range[0]! - (10 + l0.rangeOffset))).toBeLessThan(0.3);
    expect(() => velodyneRays(pkt, profile('vlp16'))).toThrow(RangeError);
  });

  it('identifies VLP-16 against HDL-32E by the packet period when the product byte says 0x21', () => {
    const pkt = decodeVelodyneData(dataPacket({ azimuth: (b) => b, product: 0x21 }), 'p');
    expect(velodyneModel(pkt)).toBe('hdl32e');
    expect(velodyneModel(pkt, 1327e-6)).toBe('vlp16');
    expect(velodyneModel(pkt, 553e-6)).toBe('hdl32e');
    expect(velodyneModel(decodeVelodyneData(dataPacket({ azimuth: (b) => b, product: 0x28 }), 'p'))).toBeNull();
  });

  it('bad packets: DecodeError naming the file offset of the wrong length, flag or timestamp', () => {
    const good = dataPacket({ azimuth: (b) => b });
    expect(decodeErrorOf(() => decodeVelodyneData(good.subarray(0, 1200), 'a.pcap', 500)).message).toBe(
      'a.pcap: Velodyne data packet at byte 500 has 1200 bytes, expected 1206',
    );
    const flag = good.slice();
    flag[301] = 0xaa;
    const e = decodeErrorOf(() => decodeVelodyneData(flag, 'a.pcap', 1000));
    expect(e.offset).toBe(1300);
    expect(e.reason).toMatch(/block 3 at byte 1300: flag 0xaaff/);
    const az = good.slice();
    // An azimuth outside 0–35999 drops its block rather than the packet (azimuth-range.test.ts).
    new DataView(az.buffer).setUint16(102, 36001, true);
    expect(decodeVelodyneData(az, 'a.pcap').invalidBlocks).toBe(1);
    const ts = good.slice();
    new DataView(ts.buffer).setUint32(1200, 3600e6, true);
    expect(decodeErrorOf(() => decodeVelodyneData(ts, 'a.pcap')).offset).toBe(1200);
  });
});

describe('velodyne position packets (synthetic)', () => {
  const rmc = '$GPRMC,220243,A,3708.5809,N,12139.7813,W,028.8,158.3,111212,013.8,E,D*03';
  it('parses $GPRMC: time, lat, lon, speed, heading', () => {
    const bytes = positionPacket(`${rmc}\r\n`);
    expect(isVelodynePositionPacket(bytes)).toBe(true);
    const p = decodeVelodynePosition(bytes, 'g');
    expect(p.timestamp).toBeCloseTo(2, 9);
    expect(p.nmea).toBe(rmc);
    expect(p.fix).toMatchObject({ time: 22 * 3600 + 2 * 60 + 43, valid: true, speedKnots: 28.8, headingDeg: 158.3, date: '111212' });
    expect(p.fix!.lat).toBeCloseTo(37 + 8.5809 / 60, 9);
    expect(p.fix!.lon).toBeCloseTo(-(121 + 39.7813 / 60), 9);
  });
  it('bad checksum or fields give no fix; a wrong size is a DecodeError', () => {
    expect(parseGprmc(rmc.replace('*03', '*04'))).toBeNull();
    expect(parseGprmc('$GPRMC,22x243,A,3708.5809,N,12139.7813,W,028.8,158.3,111212,,')).toBeNull();
    expect(parseGprmc('$GPRMC,220243,V,,,,,,,111212,,')).toBeNull();
    expect(decodeVelodynePosition(new Uint8Array(512), 'g').fix).toBeNull();
    expect(decodeErrorOf(() => decodeVelodynePosition(new Uint8Array(511), 'g', 9)).offset).toBe(9);
  });
});

describe('velodyne fuzz', () => {
  it('2,000 seeded mutations of a data packet and of a position packet: results or DecodeError only', () => {
    const data = dataPacket({ azimuth: (b) => (35800 + 40 * b) % 36000, distance: (b, c) => (b * 131 + c * 17) % 9000, mode: 0x39 });
    const pos = positionPacket('$GPRMC,220243,A,3708.5809,N,12139.7813,W,028.8,158.3,111212,013.8,E,D*03\r\n');
    const rnd = seededRandom(77);
    const tally = { ok: 0, rejected: 0 };
    for (let k = 0; k < 2000; k++) {
      const { bytes, kind } = mutate(k % 4 === 3 ? pos : data, rnd);
      try {
        if (k % 4 === 3) {
          const p: VelodynePosition = decodeVelodynePosition(bytes, 'f');
          expect(Number.isFinite(p.timestamp)).toBe(true);
        } else {
          const pkt: VelodyneDataPacket = decodeVelodyneData(bytes, 'f');
          const model = velodyneModel(pkt, 1327e-6) ?? 'vlp16';
          const r = velodyneRays(pkt, profile(model));
          for (let i = 0; i < r.count; i++) {
            if (!Number.isFinite(r.dir[3 * i]!) || !(Number.isNaN(r.range[i]!) || r.range[i]! >= 0) || !Number.isFinite(r.time[i]!)) {
              throw new Error(`ray ${i} not finite`);
            }
          }
        }
        tally.ok++;
      } catch (e) {
        if (e instanceof DecodeError) { tally.rejected++; continue; }
        throw new Error(`run ${k} (${kind}): ${String(e)}`, { cause: e });
      }
    }
    expect(tally.ok).toBeGreaterThan(100);
    expect(tally.rejected).toBeGreaterThan(100);
  });
});

interface Capture {
  data: { pkt: VelodyneDataPacket; time: number }[];
  positions: VelodynePosition[];
  other: number;
  model: VelodyneModel | null;
}

function readCapture(file: string): Capture {
  const bytes = new Uint8Array(readFileSync(path.join(DATA_DIR, file)));
  const name = path.basename(file);
  const out: Capture = { data: [], positions: [], other: 0, model: null };
  for (const u of udpPackets(bytes, name)) {
    if (isVelodyneDataPacket(u.payload)) out.data.push({ pkt: decodeVelodyneData(u.payload, name, u.payloadOffset), time: u.time });
    else if (isVelodynePositionPacket(u.payload)) out.positions.push(decodeVelodynePosition(u.payload, name, u.payloadOffset));
    else out.other++;
  }
  // Packet period from the GPS timestamps (median of the steps within the hour).
  const steps = out.data.slice(1).map((d, i) => d.pkt.timestamp - out.data[i]!.pkt.timestamp).filter((s) => s > 0).sort((a, b) => a - b);
  out.model = velodyneModel(out.data[0]!.pkt, steps[steps.length >> 1]);
  return out;
}

const median = (v: number[]): number => {
  const s = v.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return s[s.length >> 1]!;
};

describe.skipIf(!HAVE_DATA)('velodyne on real captures (the shared data folder)', () => {
  const cases = [
    // file, data packets, 512-byte position packets, product byte, model by timing, median range (m)
    ['rust_lidar_utils/velodyne_vlp16.pcap', 84, 16, 0x21, 'vlp16', 9.37],
    ['rust_lidar_utils/velodyne_example.pcap', 84, 0, 0x22, 'vlp16', 4.65],
    ['rust_lidar_utils/velodyne_vlp32.pcap', 91, 9, 0x21, 'hdl32e', 9.44],
    ['rust_lidar_utils/hdl32_example.pcap', 876, 100, 0x21, 'hdl32e', 7.06],
    ['veloview/monterey-first-100-packets.pcap', 2702, 299, 0x21, 'hdl32e', 7.61],
    ['veloview/vlp-16-test-90deg-1-50-frames.pcap', 1902, 367, 0x21, 'vlp16', 1.67], // indoor
  ] as const;
  for (const [file, dataCount, posCount, product, model, medianRange] of cases) {
    it(`${file}: ${dataCount} data packets (product 0x${product.toString(16)}, timing ${model}), all decode; elevations per ring match the calibration`, () => {
      const cap = readCapture(file);
      expect(cap.data).toHaveLength(dataCount);
      expect(cap.positions).toHaveLength(posCount);
      expect(cap.other).toBe(0);
      expect(cap.model).toBe(model);
      const prof = profile(model);
      const lasers = prof.groups.flatMap((g) => g.lasers);
      let rays = 0, misses = 0, maxElevErr = 0;
      const ranges: number[] = [];
      for (const { pkt } of cap.data) {
        expect(pkt.productId).toBe(product);
        expect(pkt.returnMode).toBe('strongest');
        const r = velodyneRays(pkt, prof);
        // A block whose azimuth is outside the manuals' 0–35999 is dropped (azimuth-range.test.ts).
        expect(r.count).toBe(32 * (12 - pkt.invalidBlocks));
        rays += r.count;
        for (let i = 0; i < r.count; i++) {
          const el = Math.asin(r.dir[3 * i + 2]!);
          maxElevErr = Math.max(maxElevErr, Math.abs(el - lasers[r.ring[i]!]!.elevation));
          if (Number.isNaN(r.range[i]!)) misses++;
          else ranges.push(r.range[i]!);
        }
      }
      expect(maxElevErr).toBeLessThan(1e-5);
      const med = median(ranges);
      console.info(`${file}: ${cap.data.length} packets, ${rays} rays, ${misses} misses, median range ${med.toFixed(2)} m`);
      expect(Math.abs(med - medianRange)).toBeLessThan(0.02);
      if (file.startsWith('rust_lidar_utils/') && model === 'vlp16') {
        expect(med).toBeGreaterThan(3);
        expect(med).toBeLessThan(15);
      }
      expect(ranges.reduce((m, v) => Math.max(m, v), 0)).toBeLessThan(131.1); // uint16 × 2 mm
    });
  }

  for (const file of ['rust_lidar_utils/velodyne_vlp16.pcap', 'rust_lidar_utils/hdl32_example.pcap']) {
    it(`${file}: a revolution's azimuths cover 0-360 degrees`, () => {
      const cap = readCapture(file);
      const prof = profile(cap.model!);
      const bins = new Uint8Array(360);
      // One revolution: packets until the first block azimuth wraps past its start.
      const start = cap.data[0]!.pkt.azimuth[0]!;
      let travelled = 0, last = start;
      for (const { pkt } of cap.data) {
        const r = velodyneRays(pkt, prof);
        for (let i = 0; i < r.count; i++) bins[Math.floor(r.azimuthDeg[i]!)] = 1;
        const a = pkt.azimuth[11]!;
        travelled += (a - last + 36000) % 36000;
        last = a;
        if (travelled >= 36000) break;
      }
      expect(travelled).toBeGreaterThanOrEqual(36000);
      expect(bins.reduce((s, v) => s + v, 0)).toBe(360);
    });
  }

  it('GPRMC: hdl32_example drives at 28.8-29.5 knots near Morgan Hill; velodyne_vlp32 at 9.7 knots', () => {
    const cap = readCapture('rust_lidar_utils/hdl32_example.pcap');
    const fixes = cap.positions.map((p) => p.fix);
    expect(fixes.every((f) => f !== null)).toBe(true);
    for (const f of fixes) {
      expect(f!.speedKnots).toBeGreaterThanOrEqual(28.8);
      expect(f!.speedKnots).toBeLessThanOrEqual(29.5);
      expect(f!.lat).toBeCloseTo(37.14, 1);
      expect(f!.lon).toBeCloseTo(-121.66, 1);
      expect(f!.headingDeg).toBeGreaterThan(0);
      expect(f!.date).toBe('111212');
    }
    const v = readCapture('rust_lidar_utils/velodyne_vlp32.pcap').positions.map((p) => p.fix);
    expect(v.every((f) => f !== null && Math.abs(f.speedKnots - 9.7) < 0.05)).toBe(true);
  });

  it('velodyne_vlp16.pcap: its 16 position packets carry a timestamp but no NMEA (no GPS attached)', () => {
    const cap = readCapture('rust_lidar_utils/velodyne_vlp16.pcap');
    expect(cap.positions).toHaveLength(16);
    for (const p of cap.positions) {
      expect(p.nmea).toBe('');
      expect(p.fix).toBeNull();
      expect(p.timestamp).toBeGreaterThan(0);
      expect(p.timestamp).toBeLessThan(3600);
    }
  });
});
