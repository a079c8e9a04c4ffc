/**
 * A VLP-32C capture decodes with the built-in vlp32c profile, without its calibration: the
 * packets of nebula's VLP-32C bag (ROS 2 VelodyneScan, real data) written out as a pcap decode to
 * the same rays as the bag does with that profile.
 */
import { describe, expect, it } from 'vitest';
import { builtinProfile } from '../../../../src-common/builtin-profiles';
import { memorySource, type DecodedPacket, type LogSourceInfo } from '../../../../src-worker/formats/log-source';
import { buildPcap, ethernet, ipv4Udp } from '../../../../src-worker/formats/pcap/pcap-build';
import { ros2Packets } from '../../../../src-worker/formats/ros2';
import { decodeVelodyneScan } from '../../../../src-worker/formats/ros2/velodyne-scan';
import { velodynePcapPackets } from '../../../../src-worker/formats/velodyne/velodyne-pcap';
import { db3Messages } from '../../../../src-worker/tasks/ros2-db3-file';
import { HAS_SHARED_DATA, dataFile } from '../../../helpers/shared-data';

const BAG = 'nebula_velodyne/vlp32/1713492677464078412_0.db3';

/** Hits and rays over the stream, counted as it goes (a decoder may reuse a packet's arrays for the next). */
function count(it: Generator<DecodedPacket, LogSourceInfo, void>): { hits: number; rays: number; ranges: number; info: LogSourceInfo } {
  let hits = 0, rays = 0, ranges = 0;
  for (;;) {
    const r = it.next();
    if (r.done) return { hits, rays, ranges, info: r.value };
    for (let i = 0; i < r.value.count; i++, rays++) {
      const d = r.value.range[i]!;
      if (Number.isNaN(d)) continue;
      hits++;
      ranges += d;
    }
  }
}

describe.skipIf(!HAS_SHARED_DATA)('VLP-32C pcap with the built-in profile', () => {
  it('the bag’s 1206-byte packets as a pcap: product 0x28 → vlp32c, the same hits and misses as the bag with that profile', () => {
    const frames: { time: number; data: Uint8Array }[] = [];
    let index = 0;
    for (const m of db3Messages(dataFile(BAG))) {
      if (!m.type.endsWith('VelodyneScan')) continue;
      const scan = decodeVelodyneScan(m.data, { file: 'vlp32.db3', topic: m.topic, index: index++ });
      for (const p of scan.packets) frames.push({ time: p.stamp, data: ethernet(ipv4Udp(p.data.slice(), { dst: 2368 })) });
    }
    expect(frames.length).toBe(379);
    const pcap = count(velodynePcapPackets(memorySource('vlp32.pcap', buildPcap(frames)), { name: 'vlp32.pcap' }));
    expect(pcap.info).toMatchObject({ sensor: 'VLP-32C', profileId: 'vlp32c' });
    const bag = count(ros2Packets(db3Messages(dataFile(BAG)), { name: 'vlp32.db3', profile: builtinProfile('vlp32c')! }));
    const a = { hits: pcap.hits, rays: pcap.rays }, b = { hits: bag.hits, rays: bag.rays };
    console.log(`[vlp32c pcap] ${a.rays} rays, ${a.hits} hits from the pcap; ${b.rays} rays, ${b.hits} hits from the bag`);
    expect(a).toEqual(b);
    // The same ranges: their sum over 131 k hits within a millimetre.
    expect(Math.abs(pcap.ranges - bag.ranges)).toBeLessThan(1e-3);
    expect(a.rays).toBe(379 * 384);
  });
});
