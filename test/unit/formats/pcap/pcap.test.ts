import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DecodeError } from '../../../../src-worker/formats/decode-error';
import { emptyPcapStats, isPcap, isPcapng, pcapWarnings, udpPackets } from '../../../../src-worker/formats/pcap/pcap';
import { DATA_DIR, HAVE_DATA, decodeErrorOf } from '../helpers';
import { mutate, seededRandom } from '../mutate';

import { buildPcap, buildPcapng, bytesOf, ethernet, ipv4Udp, sll, type Frame } from '../../../../src-worker/formats/pcap/pcap-build';

describe('pcap', () => {
  it('reads UDP payloads over Ethernet in both byte orders and both time resolutions', () => {
    for (const littleEndian of [true, false]) {
      for (const nanosecond of [false, true]) {
        const frames = [
          { time: 1000.25, data: ethernet(ipv4Udp(bytesOf(1, 2, 3), { src: 10, dst: 2368 })) },
          { time: 1000.5, data: ethernet(ipv4Udp(bytesOf(4, 5), { src: 11, dst: 8308 }), 0x0800, true) },
        ];
        const bytes = buildPcap(frames, { littleEndian, nanosecond });
        expect(isPcap(bytes)).toBe(true);
        const stats = emptyPcapStats();
        const got = [...udpPackets(bytes, 'a.pcap', stats)];
        expect(got.map((p) => [p.time, p.srcPort, p.dstPort, [...p.payload]])).toEqual([
          [1000.25, 10, 2368, [1, 2, 3]],
          [1000.5, 11, 8308, [4, 5]],
        ]);
        expect(got[0]!.offset).toBe(24);
        expect(got[1]!.offset).toBe(24 + 16 + frames[0]!.data.length);
        expect(got[0]!.payloadOffset).toBe(24 + 16 + 14 + 28);
        expect(stats).toMatchObject({ linkType: 1, nanosecond, littleEndian, records: 2, udp: 2 });
      }
    }
  });

  it('reads raw IPv4 (101, 228) and Linux cooked (113) captures', () => {
    const ip = ipv4Udp(bytesOf(9, 9), { dst: 7502 });
    for (const linkType of [101, 228]) {
      const got = [...udpPackets(buildPcap([{ time: 1, data: ip }], { linkType }), 'r.pcap')];
      expect(got.map((p) => [p.dstPort, [...p.payload]])).toEqual([[7502, [9, 9]]]);
    }
    const got = [...udpPackets(buildPcap([{ time: 1, data: sll(ip) }], { linkType: 113 }), 's.pcap')];
    expect(got.map((p) => [p.dstPort, [...p.payload]])).toEqual([[7502, [9, 9]]]);
  });

  it('skips and counts non-IPv4 frames, non-UDP packets and fragments', () => {
    const frames = [
      { time: 1, data: ethernet(new Uint8Array(28), 0x0806) }, // ARP
      { time: 2, data: ethernet(ipv4Udp(bytesOf(1), { proto: 6 })) }, // TCP
      { time: 3, data: ethernet(ipv4Udp(bytesOf(1), { flagsFrag: 0x2000 })) }, // first fragment
      { time: 4, data: ethernet(ipv4Udp(bytesOf(1), { flagsFrag: 0x0010 })) }, // later fragment
      { time: 5, data: new Uint8Array(10) }, // runt
      { time: 6, data: ethernet(ipv4Udp(bytesOf(7))) },
    ];
    const stats = emptyPcapStats();
    const got = [...udpPackets(buildPcap(frames), 'm.pcap', stats)];
    expect(got.map((p) => p.time)).toEqual([6]);
    expect(stats).toMatchObject({ records: 6, udp: 1, nonIpv4: 1, nonUdp: 1, fragments: 2, malformed: 1 });
  });

  it('a capture cut inside a record keeps the records before it and notes the cut (offset, bytes dropped)', () => {
    const frames = [
      { time: 1, data: ethernet(ipv4Udp(new Uint8Array(100))) },
      { time: 2, data: ethernet(ipv4Udp(new Uint8Array(100))) },
    ];
    const bytes = buildPcap(frames);
    const second = 24 + 16 + frames[0]!.data.length;
    const stats = emptyPcapStats();
    const seen = [...udpPackets(bytes.subarray(0, bytes.length - 5), 't.pcap', stats)];
    expect(seen).toHaveLength(1);
    expect(stats).toMatchObject({ records: 1, truncatedAt: second, droppedBytes: 16 + 142 - 5 });
    expect(pcapWarnings(stats, 't.pcap')).toEqual([`t.pcap: truncated at byte ${second}: the last 153 byte(s), an incomplete record, were dropped; the 1 complete record(s) before it were kept`]);
    // Cut inside a record header.
    const h = emptyPcapStats();
    expect([...udpPackets(bytes.subarray(0, second + 7), 't.pcap', h)]).toHaveLength(1);
    expect(h).toMatchObject({ truncatedAt: second, droppedBytes: 7 });
    // A whole capture has no warning.
    const whole = emptyPcapStats();
    expect([...udpPackets(bytes, 't.pcap', whole)]).toHaveLength(2);
    expect(pcapWarnings(whole, 't.pcap')).toEqual([]);
  });

  it('rejects unknown magic, short headers and unsupported link types with a clear reason', () => {
    expect(decodeErrorOf(() => [...udpPackets(new Uint8Array(30), 'z.pcap')]).reason).toMatch(/not a pcap file: magic 0x00000000/);
    expect(decodeErrorOf(() => [...udpPackets(new Uint8Array(5), 'z.pcap')]).reason).toMatch(/24-byte header/);
    expect(decodeErrorOf(() => [...udpPackets(buildPcap([], { linkType: 105 }), 'w.pcap')]).reason).toMatch(/unsupported pcap link type 105/);
  });

  it('pcapng: both byte orders, if_tsresol, enhanced and simple packet blocks, skipped unknown blocks', () => {
    const frames = [
      { time: 1700000000.125, data: ethernet(ipv4Udp(bytesOf(1, 2, 3), { src: 10, dst: 2368 })) },
      { time: 1700000000.5, data: ethernet(ipv4Udp(bytesOf(4, 5), { src: 11, dst: 8308 })) },
    ];
    for (const littleEndian of [true, false]) {
      for (const tsresol of [6, 9]) {
        const bytes = buildPcapng(frames, { littleEndian, tsresol, simpleAfter: true });
        expect(isPcapng(bytes)).toBe(true);
        const stats = emptyPcapStats();
        const got = [...udpPackets(bytes, 'a.pcapng', stats)];
        expect(got.map((p) => [p.srcPort, p.dstPort, [...p.payload]])).toEqual([
          [10, 2368, [1, 2, 3]],
          [11, 8308, [4, 5]],
          [10, 2368, [1, 2, 3]],
        ]);
        expect(got[0]!.time).toBeCloseTo(1700000000.125, 6);
        expect(got[1]!.time).toBeCloseTo(1700000000.5, 6);
        expect(got[2]!.time).toBe(got[1]!.time); // a simple packet block has no time of its own
        expect(stats).toMatchObject({ linkType: 1, littleEndian, nanosecond: tsresol === 9, records: 3, udp: 3 });
        for (const p of got) expect(bytes[p.payloadOffset]).toBe(p.payload[0]);
      }
    }
  });

  it('pcapng: a cut block is dropped with a note, a corrupt one is a DecodeError at the block', () => {
    const bytes = buildPcapng([{ time: 1, data: ethernet(ipv4Udp(new Uint8Array(50))) }], {});
    const last = bytes.length - (12 + 20 + 14 + 28 + 50); // the EPB: 12 bytes of lengths and type, 20 of fields, the 92-byte frame
    const stats = emptyPcapStats();
    expect([...udpPackets(bytes.subarray(0, bytes.length - 4), 'b.pcapng', stats)]).toHaveLength(0);
    expect(stats).toMatchObject({ truncatedAt: last, droppedBytes: bytes.length - 4 - last });
    const bad = bytes.slice();
    new DataView(bad.buffer).setUint32(last + 4, 13, true);
    expect(decodeErrorOf(() => [...udpPackets(bad, 'b.pcapng')]).reason).toMatch(/length 13 is not a multiple of 4/);
  });

  it('fuzz: 2,000 seeded mutations each of a pcap and a pcapng yield packets or throw DecodeError, nothing else', () => {
    const frames = Array.from({ length: 6 }, (_, i) => ({
      time: 10 + i * 0.001,
      data: i === 2 ? sll(ipv4Udp(new Uint8Array(40).fill(i))) : ethernet(ipv4Udp(new Uint8Array(60 + i).fill(i)), 0x0800, i === 4),
    }));
    const inputs = [buildPcap(frames), buildPcapng(frames.filter((_, i) => i !== 2), { tsresol: 9, simpleAfter: true })];
    const rnd = seededRandom(41);
    const tally = { ok: 0, rejected: 0 };
    for (let k = 0; k < 4000; k++) {
      const { bytes, kind } = mutate(inputs[k & 1]!, rnd);
      try {
        for (const p of udpPackets(bytes, 'f.pcap')) {
          expect(p.payloadOffset + p.payload.length).toBeLessThanOrEqual(bytes.length);
          expect(Number.isFinite(p.time)).toBe(true);
        }
        tally.ok++;
      } catch (e) {
        if (e instanceof DecodeError) { tally.rejected++; continue; }
        throw new Error(`run ${k} (${kind}, ${k & 1 ? 'pcapng' : 'pcap'}): ${String(e)}`, { cause: e });
      }
    }
    expect(tally.ok).toBeGreaterThan(200);
    expect(tally.rejected).toBeGreaterThan(200);
  });
});

describe.skipIf(!HAVE_DATA)('pcap on real captures (the shared data folder)', () => {
  const cases = [
    ['rust_lidar_utils/velodyne_vlp16.pcap', 100, 84, 16],
    ['rust_lidar_utils/velodyne_example.pcap', 84, 84, 0],
    ['rust_lidar_utils/velodyne_vlp32.pcap', 100, 91, 9],
    ['rust_lidar_utils/hdl32_example.pcap', 976, 876, 100],
  ] as const;
  for (const [file, udp, data, position] of cases) {
    it(`${file}: ${udp} UDP datagrams, ${data} of 1206 bytes, ${position} of 512`, () => {
      const bytes = new Uint8Array(readFileSync(path.join(DATA_DIR, file)));
      const stats = emptyPcapStats();
      const sizes = new Map<number, number>();
      let lastTime = 0;
      for (const p of udpPackets(bytes, path.basename(file), stats)) {
        sizes.set(p.payload.length, (sizes.get(p.payload.length) ?? 0) + 1);
        expect(p.time).toBeGreaterThanOrEqual(lastTime);
        lastTime = p.time;
      }
      expect(stats).toMatchObject({ linkType: 1, records: udp, udp, nonIpv4: 0, nonUdp: 0, fragments: 0, malformed: 0 });
      expect(sizes.get(1206)).toBe(data);
      expect(sizes.get(512) ?? 0).toBe(position);
    });
  }

  it('hdl32_example.pcap rewritten as pcapng gives the same datagrams', () => {
    const bytes = new Uint8Array(readFileSync(path.join(DATA_DIR, 'rust_lidar_utils/hdl32_example.pcap')));
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const frames: Frame[] = [];
    for (let o = 24; o < bytes.length;) {
      const incl = dv.getUint32(o + 8, true);
      frames.push({ time: dv.getUint32(o, true) + dv.getUint32(o + 4, true) * 1e-6, data: bytes.subarray(o + 16, o + 16 + incl) });
      o += 16 + incl;
    }
    const a = [...udpPackets(bytes, 'hdl32_example.pcap')];
    const b = [...udpPackets(buildPcapng(frames, { tsresol: 9 }), 'hdl32_example.pcapng')];
    expect(b).toHaveLength(a.length);
    for (let i = 0; i < a.length; i++) {
      expect(Math.abs(b[i]!.time - a[i]!.time)).toBeLessThan(1e-6);
      expect(b[i]!.payload).toEqual(a[i]!.payload);
    }
  });
});
