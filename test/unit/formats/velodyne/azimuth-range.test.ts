/**
 * The VLP-16 and HDL-32E manuals give a block's azimuth as 0–35999 hundredths of a degree. A
 * block outside it (HDL-32E firmware writes 36000 now and then) is dropped; counted per packet
 * against Foxglove's velodyne-cloud decoder on real captures.
 */
import { readFileSync } from 'node:fs';
import { Calibration, Model, PointCloud, RawPacket, Transformer } from '@foxglove/velodyne-cloud';
import { describe, expect, it } from 'vitest';
import { builtinProfile } from '../../../../src-common/builtin-profiles';
import { udpPackets } from '../../../../src-worker/formats/pcap/pcap';
import { velodynePcapPackets } from '../../../../src-worker/formats/velodyne/velodyne-pcap';
import { memorySource } from '../../../../src-worker/formats/log-source';
import { INVALID_AZIMUTH, decodeVelodyneData, velodyneRays } from '../../../../src-worker/formats/velodyne/velodyne-packet';
import { HAS_SHARED_DATA, dataFile } from '../../../helpers/shared-data';

/** Data payloads of a capture, read with the pcap walker (not what is checked here). */
function payloads(file: string): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const u of udpPackets(readFileSync(dataFile(file)), file)) if (u.payload.length === 1206) out.push(u.payload.slice());
  return out;
}

const rawAzimuth = (p: Uint8Array, b: number): number => p[100 * b + 2]! | (p[100 * b + 3]! << 8);

/** Foxglove's points for one packet: every non-zero distance it keeps (ranges opened wide). */
function foxglovePoints(t: Transformer, p: Uint8Array): number {
  const raw = new RawPacket(p);
  const cloud = new PointCloud({ stamp: 0, maxPoints: RawPacket.MAX_POINTS_PER_PACKET });
  t.unpack(raw, 0, 0, cloud);
  return cloud.width * cloud.height;
}

function thicketHits(p: Uint8Array, profileId: 'hdl32e' | 'vlp16'): number {
  const r = velodyneRays(decodeVelodyneData(p, 'x.pcap'), builtinProfile(profileId)!);
  let hits = 0;
  for (let i = 0; i < r.count; i++) if (!Number.isNaN(r.range[i]!)) hits++;
  return hits;
}

const nonZero = (p: Uint8Array, b: number): number => {
  let n = 0;
  for (let c = 0; c < 32; c++) if ((p[100 * b + 4 + 3 * c]! | (p[100 * b + 5 + 3 * c]! << 8)) !== 0) n++;
  return n;
};

describe('a block whose azimuth is outside 0–35999 is dropped', () => {
  it('synthetic: 36000 and 65535 drop their block and are counted; the neighbours keep their interpolation', () => {
    const p = new Uint8Array(1206);
    const dv = new DataView(p.buffer);
    for (let b = 0; b < 12; b++) {
      dv.setUint16(100 * b, 0xeeff, true);
      dv.setUint16(100 * b + 2, 1000 + 20 * b, true);
      for (let c = 0; c < 32; c++) dv.setUint16(100 * b + 4 + 3 * c, 5000, true);
    }
    p[1204] = 0x37;
    p[1205] = 0x22;
    const whole = velodyneRays(decodeVelodyneData(p, 'x.pcap'), builtinProfile('vlp16')!);
    dv.setUint16(100 * 3 + 2, 36000, true);
    dv.setUint16(100 * 7 + 2, 65535, true);
    const pkt = decodeVelodyneData(p, 'x.pcap');
    expect(pkt.invalidBlocks).toBe(2);
    expect(pkt.azimuth[3]).toBe(INVALID_AZIMUTH);
    const cut = velodyneRays(pkt, builtinProfile('vlp16')!);
    expect(cut.count).toBe(whole.count - 64);
    // Every ray left is where it was in the whole packet (block 2 interpolates across the dropped block 3).
    const kept = [...Array(12).keys()].filter((b) => b !== 3 && b !== 7).flatMap((b) => [...Array(32).keys()].map((c) => 32 * b + c));
    kept.forEach((i, k) => expect(cut.azimuthDeg[k]).toBeCloseTo(whole.azimuthDeg[i]!, 4));
  });

  describe.skipIf(!HAS_SHARED_DATA)('real captures, against Foxglove velodyne-cloud', () => {
    it('HDL-32E (veloview monterey): one block at 36000; per packet Thicket keeps what Foxglove keeps', () => {
      const packets = payloads('veloview/monterey-first-100-packets.pcap');
      const t = new Transformer(new Calibration(Model.HDL32E), { minRange: 1e-6, maxRange: 1e6 });
      const odd = packets.filter((p) => [...Array(12).keys()].some((b) => rawAzimuth(p, b) >= 36000));
      expect(odd).toHaveLength(1);
      for (const p of [...odd, ...packets.slice(0, 200)]) expect(thicketHits(p, 'hdl32e')).toBe(foxglovePoints(t, p));
      // The dropped block had returns: the decision changes the count.
      const b = [...Array(12).keys()].find((k) => rawAzimuth(odd[0]!, k) >= 36000)!;
      expect(nonZero(odd[0]!, b)).toBeGreaterThan(0);
    });

    it('VLP-16 (veloview 90°, factory byte 0x21, which Foxglove decodes as an HDL-32E): every return but the 36000 block\'s', () => {
      const packets = payloads('veloview/vlp-16-test-90deg-1-50-frames.pcap');
      const odd = packets.filter((p) => [...Array(12).keys()].some((b) => rawAzimuth(p, b) >= 36000));
      expect(odd).toHaveLength(1);
      const returns = (p: Uint8Array): number => [...Array(12).keys()].reduce((n, b) => n + (rawAzimuth(p, b) < 36000 ? nonZero(p, b) : 0), 0);
      const b = [...Array(12).keys()].find((k) => rawAzimuth(odd[0]!, k) >= 36000)!;
      expect(nonZero(odd[0]!, b)).toBeGreaterThan(0);
      for (const p of [...odd, ...packets.slice(0, 200)]) expect(thicketHits(p, 'vlp16')).toBe(returns(p));
    });

    it('the import notes how many blocks were dropped', () => {
      const file = 'veloview/monterey-first-100-packets.pcap';
      const gen = velodynePcapPackets(memorySource(file, readFileSync(dataFile(file))), { name: file });
      let r = gen.next();
      while (!r.done) r = gen.next();
      expect(r.value.notes).toMatchObject({ blocksOutsideAzimuthRange: 1 });
    });
  });
});
