import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ByteSource, type DecodedPacket, type LogSourceInfo, memorySource } from '../../../../src-worker/formats/log-source';
import { LogWriter } from '../../../../src-worker/formats/log-writer';
import { udpPackets } from '../../../../src-worker/formats/pcap/pcap';
import { velodynePcapPackets } from '../../../../src-worker/formats/velodyne/velodyne-pcap';
import { rebuildMisses } from '../../../../src-worker/formats/rebuild-misses';
import { unpackChunk } from '../../../../src-worker/formats/packed-rays';
import type { PacketChunk } from '../../../../src-common/packets';
import { builtinProfile } from '../../../../src-common/builtin-profiles';
import { DATA_DIR, HAVE_DATA, decodeErrorOf } from '../helpers';
import { buildPcap, ethernet, ipv4Udp } from '../../../../src-worker/formats/pcap/pcap-build';

/** Every packet of a source, with its arrays copied (decoders may reuse them). */
function collect(src: ByteSource, profileId?: string): { packets: DecodedPacket[]; info: LogSourceInfo } {
  const g = velodynePcapPackets(src, { name: src.name, profile: profileId ? builtinProfile(profileId) : null });
  const packets: DecodedPacket[] = [];
  let r;
  while (!(r = g.next()).done) {
    const p = r.value;
    packets.push({ ...p, dir: p.dir.slice(0, 3 * p.count), range: p.range.slice(0, p.count) });
  }
  return { packets, info: r.value };
}

/** A source that hands out fresh arrays and counts its reads (a file, as tasks/file-source.ts reads it). */
function countingSource(bytes: Uint8Array, name: string): ByteSource & { reads: number } {
  const s = { name, size: bytes.byteLength, reads: 0, read: (o: number, n: number) => { s.reads++; return bytes.slice(o, Math.min(bytes.byteLength, o + n)); } };
  return s;
}

const file = (rel: string) => readFileSync(path.join(DATA_DIR, rel));

describe.skipIf(!HAVE_DATA)('Velodyne capture as a packet stream', () => {
  it('streams a capture larger than the read window exactly as from memory, hour wrap included', () => {
    // The HDL-32E drive repeated to ~25 MB (three 8 MB windows); GPS stamps moved so the log
    // crosses an hour: seconds past the hour restart at 0 half-way.
    const real = [...udpPackets(file('rust_lidar_utils/hdl32_example.pcap'), 'hdl32')].filter((u) => u.payload.length === 1206);
    const frames = [];
    const copies = 24;
    for (let k = 0; k < copies; k++) {
      for (let i = 0; i < real.length; i++) {
        const n = k * real.length + i;
        const payload = new Uint8Array(real[i]!.payload); // a copy (Buffer.slice would be a view)
        const stamp = (3600 - 6 + n * 0.000553) % 3600; // µs past the hour, wrapping at 6 s
        new DataView(payload.buffer).setUint32(1200, Math.round(stamp * 1e6), true);
        frames.push({ time: 1_700_000_000 + n * 0.000553, data: ethernet(ipv4Udp(payload, { dst: 2368 })) });
      }
    }
    const bytes = buildPcap(frames);
    expect(bytes.byteLength).toBeGreaterThan(3 * (8 << 20));
    const src = countingSource(bytes, 'big.pcap');
    const streamed = collect(src);
    const inMemory = collect(memorySource('big.pcap', bytes));
    expect(src.reads).toBeGreaterThanOrEqual(3);
    expect(streamed.packets.length).toBe(copies * 876);
    expect(streamed.info.notes.hourWraps).toBe(1);
    for (const i of [0, 1, 5000, streamed.packets.length - 1]) {
      expect(streamed.packets[i]!.range).toEqual(inMemory.packets[i]!.range);
      expect(streamed.packets[i]!.time).toBe(inMemory.packets[i]!.time);
    }
    // Monotone across the wrap: every step is one packet period (0.553 ms) within 2 µs.
    let worst = 0;
    for (let i = 1; i < streamed.packets.length; i++) worst = Math.max(worst, Math.abs(streamed.packets[i]!.time - streamed.packets[i - 1]!.time - 0.000553));
    expect(worst).toBeLessThan(2e-6);
    // The hour comes from the capture clock: the first stamp lands within a second of it.
    expect(Math.abs(streamed.packets[0]!.time - 1_700_000_000)).toBeLessThan(3600);
  });

  it('recognises each model and returns what it learnt', () => {
    expect(collect(memorySource('a', file('rust_lidar_utils/velodyne_example.pcap'))).info).toMatchObject({ sensor: 'VLP-16', profileId: 'vlp16', recordsMisses: true });
    expect(collect(memorySource('b', file('veloview/vlp-16-test-90deg-1-50-frames.pcap'))).info.sensor).toBe('VLP-16'); // no factory byte: by packet rate
    expect(collect(memorySource('c', file('rust_lidar_utils/velodyne_vlp32.pcap'))).info.sensor).toBe('HDL-32E');
  });

  it('the log writer counts, chunks at packet boundaries and zeroes the clock', () => {
    const chunks: number[] = [];
    const w = new LogWriter((c) => chunks.push(c.packetCount), { raysPerChunk: 10_000 });
    for (const p of velodynePcapPackets(memorySource('v', file('rust_lidar_utils/velodyne_vlp16.pcap')), { name: 'v' })) w.add(p);
    const s = w.finish();
    expect(s).toMatchObject({ packets: 84, rays: 84 * 384, hits: 19_579, misses: 12_677, timeReversals: 0 });
    expect(chunks.reduce((a, b) => a + b, 0)).toBe(84);
    expect(chunks.length).toBe(Math.ceil((84 * 384) / (27 * 384))); // 10,000 rays → 27 packets per chunk
    expect(s.durationS).toBeCloseTo(84 * 24 * 55.296e-6, 3);
  });

  it('stores packets packed and rebuilds bit-identical rays from them', () => {
    const src = memorySource('h', file('rust_lidar_utils/hdl32_example.pcap'));
    const chunks: PacketChunk[] = [];
    const w = new LogWriter((c) => chunks.push(c), { raysPerChunk: 50_000 });
    const direct: DecodedPacket[] = [];
    const g = velodynePcapPackets(src, { name: 'h' });
    let r;
    while (!(r = g.next()).done) {
      w.add(r.value);
      direct.push({ ...r.value, dir: r.value.dir.slice(), range: r.value.range.slice(), intensity: r.value.intensity.slice() });
    }
    const s = w.finish();
    expect(chunks.every((c) => c.packed?.codec === 'velodyne' && c.rayDir.length === 0)).toBe(true);
    const stored = chunks.reduce((n, c) => n + c.packed!.bytes.byteLength + c.packetTime.byteLength + c.packetPose.byteLength + c.rayStart.byteLength, 0);
    expect(stored / (s.rays * 32)).toBeLessThan(0.15); // vs 32 bytes per decoded ray
    const profile = r.value.decodeProfile!;
    let k = 0;
    for (const c of chunks) {
      const u = unpackChunk(c, profile);
      for (let p = 0; p < u.packetCount; p++, k++) {
        const d = direct[k]!;
        const a = u.rayStart[p]!, b = u.rayStart[p + 1]!;
        expect(b - a).toBe(d.count);
        expect(Array.from(u.rayRange.subarray(a, b))).toEqual(Array.from(d.range));
        expect(Array.from(u.rayDir.subarray(3 * a, 3 * b))).toEqual(Array.from(d.dir));
      }
    }
    expect(k).toBe(876);
    // Payloads that no longer match the stored ray counts are refused, not silently misread.
    const c0 = chunks[0]!;
    const bad = { ...c0, packed: { codec: 'velodyne' as const, bytes: c0.packed!.bytes.slice() } };
    bad.packed.bytes.fill(0, 0, 1206);
    expect(() => unpackChunk(bad, profile)).toThrow(/packet 0 no longer decodes/);
  });

  it('rebuilt misses of a sweep stripped of them come close to the recorded ones', () => {
    for (const [rel, id, tol] of [['rust_lidar_utils/hdl32_example.pcap', 'hdl32e', 0.08], ['rust_lidar_utils/velodyne_vlp16.pcap', 'vlp16', 0.1]] as const) {
      const dir: number[] = [], range: number[] = [], ring: number[] = [];
      let misses = 0;
      // One revolution: 0.1 s of packets.
      const { packets } = collect(memorySource(rel, file(rel)));
      const t0 = packets[0]!.time;
      for (const p of packets) {
        if (p.time - t0 > 0.1) break;
        for (let i = 0; i < p.count; i++) {
          if (Number.isNaN(p.range[i]!)) { misses++; continue; }
          dir.push(p.dir[3 * i]!, p.dir[3 * i + 1]!, p.dir[3 * i + 2]!);
          range.push(p.range[i]!);
          ring.push(p.ring![i]!);
        }
      }
      const hits = range.length;
      const sweep: DecodedPacket = { time: 0, count: hits, dir: Float32Array.from(dir), range: Float32Array.from(range), intensity: new Float32Array(hits), rayTime: null, ring: Uint16Array.from(ring), ret: null };
      const out = rebuildMisses(sweep, builtinProfile(id)!);
      const rebuilt = out.count - hits;
      expect(Math.abs(rebuilt - misses) / misses).toBeLessThan(tol);
      // Without rings the nearest-elevation laser gives the same cells.
      expect(rebuildMisses({ ...sweep, ring: null }, builtinProfile(id)!).count - hits).toBe(rebuilt);
      for (let i = hits; i < out.count; i++) expect(out.range[i]).toBeNaN();
    }
  });
});

describe('Velodyne capture errors', () => {
  it('a capture without Velodyne data packets says what it holds', () => {
    const bytes = buildPcap([{ time: 1, data: ethernet(ipv4Udp(new Uint8Array(100), { dst: 7502 })) }]);
    const e = decodeErrorOf(() => collect(memorySource('o.pcap', bytes)));
    expect(e.message).toMatch(/o\.pcap: no Velodyne data packets .* in 1 UDP datagrams .* Ouster/);
  });

  it('a model without a built-in profile asks for its calibration', () => {
    const p = new Uint8Array(1206);
    for (let b = 0; b < 12; b++) { p[b * 100] = 0xff; p[b * 100 + 1] = 0xee; }
    p[1205] = 0x23; // VLP-32A (the VLP-32C, 0x28, has a built-in: vlp32c-pcap.test.ts)
    p[1204] = 0x37;
    const bytes = buildPcap([{ time: 1, data: ethernet(ipv4Udp(p, { dst: 2368 })) }]);
    expect(decodeErrorOf(() => collect(memorySource('c.pcap', bytes))).message).toMatch(/VLP-32A at byte \d+: no built-in profile .*--calibration/);
  });
});
