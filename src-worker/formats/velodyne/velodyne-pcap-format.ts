/**
 * Velodyne captures: pcap / pcapng of VLP-16, HDL-32E or HDL-64E packets (velodyne-pcap.ts),
 * decoded with the built-in profile the packet rate names or with a calibration. A capture
 * records its misses (distance 0).
 */
import type { LogFormatDescriptor } from '../log-format';
import { memorySource } from '../log-source';
import { udpPackets } from '../pcap/pcap';
import { buildPcap, ethernet, ipv4Udp, type Frame } from '../pcap/pcap-build';
import { isCaptureHead, PCAP_EXTENSIONS } from '../pcap/pcap-signature';
import { velodynePcapPackets } from './velodyne-pcap';

/** Four VLP-16 data packets and a position packet, as a pcap: the fuzzers' sample. */
export function sampleVelodynePcap(): Uint8Array {
  const frames: Frame[] = [];
  for (let k = 0; k < 4; k++) {
    const p = new Uint8Array(1206);
    const dv = new DataView(p.buffer);
    for (let b = 0; b < 12; b++) {
      p[b * 100] = 0xff;
      p[b * 100 + 1] = 0xee;
      dv.setUint16(b * 100 + 2, (k * 2400 + b * 20) % 36000, true);
      for (let c = 0; c < 32; c++) dv.setUint16(b * 100 + 4 + 3 * c, (b * 37 + c * 11) % 5 === 0 ? 0 : 1000 + b * 50 + c, true);
    }
    dv.setUint32(1200, 1000 + k * 1327, true);
    p[1204] = 0x37;
    p[1205] = 0x22;
    frames.push({ time: 1 + k * 0.001327, data: ethernet(ipv4Udp(p, { dst: 2368 })) });
  }
  const pos = new Uint8Array(512);
  pos.set(new TextEncoder().encode('$GPRMC,220516,A,5133.82,N,00042.24,W,173.8,231.8,130694,004.2,W*70'), 206);
  frames.push({ time: 1.01, data: ethernet(ipv4Udp(pos, { dst: 8308 })) });
  return buildPcap(frames);
}

export const velodynePcapFormat: LogFormatDescriptor<'velodyne-pcap'> = {
  info: {
    id: 'velodyne-pcap',
    label: 'Velodyne pcap',
    extensions: PCAP_EXTENSIONS,
    kind: 'stream',
    hitOnly: false,
    needs: { calibration: 'optional', profile: 'decodes', ownPoses: null },
  },
  detect: { magic: isCaptureHead },
  open: ({ src, name, profile, ctx }) => velodynePcapPackets(src, { name, profile, ctx }),
  fuzz: [
    { name: 'pcap', sample: sampleVelodynePcap, decode: (b) => [...udpPackets(b, 'f.pcap')].length },
    {
      name: 'velodyne-pcap',
      sample: sampleVelodynePcap,
      decode: (b) => {
        let rays = 0;
        for (const p of velodynePcapPackets(memorySource('f.pcap', b), { name: 'f.pcap' })) rays += p.count;
        return rays;
      },
    },
  ],
};
