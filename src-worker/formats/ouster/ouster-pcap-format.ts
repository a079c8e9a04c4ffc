/**
 * Ouster captures: pcap / pcapng of Ouster lidar packets, decoded with the sensor's metadata
 * JSON (required: the packets do not say their beam angles or layout). The capture looks like
 * a Velodyne one from outside, so detection picks it only when a JSON calibration comes along.
 */
import type { LogFormatDescriptor } from '../log-format';
import { memorySource, type DecodeContext } from '../log-source';
import { emptyPcapStats, pcapWarnings, udpPackets } from '../pcap/pcap';
import { buildPcap, ethernet, ipv4Udp } from '../pcap/pcap-build';
import { isCaptureHead, PCAP_EXTENSIONS } from '../pcap/pcap-signature';
import { parseOusterMetadata } from './ouster-metadata';
import { FUZZ_TARGETS, ousterPackets, sampleOusterMetadataJson, sampleOusterPacket } from './ouster-packet';

/** Passes datagrams through, reporting how far into the file they are. */
function* withProgress<T extends { offset: number }>(it: Iterable<T>, size: number, ctx: DecodeContext): Generator<T, void, void> {
  let n = 0;
  for (const x of it) {
    if ((++n & 1023) === 0 && size > 0) ctx.progress(x.offset / size, 'decoding packets');
    yield x;
  }
}

const MISSING = 'an Ouster capture needs its metadata JSON';

const SAMPLE_PROFILE = 'RNG19_RFL8_SIG16_NIR16';

/** Three lidar packets of a small sensor as a pcap on Ouster's lidar port: the fuzzers' sample. */
export function sampleOusterPcap(): Uint8Array {
  const meta = parseOusterMetadata(sampleOusterMetadataJson(SAMPLE_PROFILE), 'sample.json');
  const frames = [0, 1, 2].map((k) => ({ time: 1 + k * 0.0004, data: ethernet(ipv4Udp(sampleOusterPacket(meta, 7, 4 * k), { dst: 7502 })) }));
  return buildPcap(frames);
}

export const ousterPcapFormat: LogFormatDescriptor<'ouster-pcap'> = {
  info: {
    id: 'ouster-pcap',
    label: 'Ouster pcap (with its metadata JSON)',
    extensions: PCAP_EXTENSIONS,
    kind: 'stream',
    hitOnly: false,
    needs: { calibration: 'required', profile: 'none', ownPoses: null },
  },
  detect: { magic: isCaptureHead, onlyWithJsonCalibration: true },
  calibrationIsMetadata: { missing: MISSING },
  *open({ src, name, metadata, ctx }) {
    if (!metadata) throw new Error(`${name}: ${MISSING}`);
    const stats = emptyPcapStats();
    const info = yield* ousterPackets(withProgress(udpPackets(src, name, stats), src.size, ctx), parseOusterMetadata(metadata.text, metadata.name), name, ctx);
    // A capture cut mid-record keeps its complete records; the dropped tail is a warning.
    return { ...info, warnings: [...(info.warnings ?? []), ...pcapWarnings(stats, name)] };
  },
  fuzz: [
    ...FUZZ_TARGETS,
    {
      // The whole import path: capture, datagrams, packets against the sample metadata.
      name: 'ouster-pcap',
      sample: sampleOusterPcap,
      decode: (b) => {
        const meta = parseOusterMetadata(sampleOusterMetadataJson(SAMPLE_PROFILE), 'fuzz.json');
        return [...ousterPackets(udpPackets(memorySource('fuzz.pcap', b), 'fuzz.pcap'), meta, 'fuzz.pcap')].length;
      },
    },
  ],
};
